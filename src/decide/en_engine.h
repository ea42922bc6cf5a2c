// The English language pack's engine: loads what its sessions share (EnPack: lexicon,
// keyboard layout, the typing model when there is one). Immutable after Init.

#ifndef KEYDECIDE_DECIDE_EN_ENGINE_H_
#define KEYDECIDE_DECIDE_EN_ENGINE_H_

#include <memory>
#include <string>

#include "decide/en_pack.h"
#include "keydecide/engine.h"

namespace keydecide {

class EnEngine : public Engine {
 public:
  std::unique_ptr<Session> NewSession(const SessionOptions& options) const override;
  Info info() const override { return info_; }
  Status FlushLearning() override;
  Status FineTune(std::string* summary) override;
  // Stops fine-tuning before the pack's model and store go.
  ~EnEngine() override;

  // Loads the "en" pack: <model_dir>/en/lexicon.kdlex (or options.lexicon_path), the
  // keyboard layout, and the model (ResolveModelPath; "none" for the count baseline). A
  // lexicon or model for another language fails it.
  Status Init(const EngineOptions& options);

 private:
  Status LoadModel(const std::string& path);
  // REQUIRES: LoadModel succeeded.
  Status LoadSmallModel(const std::string& path);
  Status MapBigramWords();
  // Opens the user store and its learner; a store that fails leaves personalisation off.
  void OpenPersonal(const EngineOptions& options, const std::string& pack_dir);

  EnPack pack_;
  Info info_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_EN_ENGINE_H_
