// WordEngine: the engine of a language typed word by word (WordPackSpec): loads what its
// sessions share (WordPack: the lexicon and the files beside it, the keyboard layout, the typing
// model when there is one, the person's learner) and opens WordSessions. Immutable after Init.

#ifndef KEYDECIDE_DECIDE_WORD_WORD_ENGINE_H_
#define KEYDECIDE_DECIDE_WORD_WORD_ENGINE_H_

#include <memory>
#include <string>

#include "decide/word/word_pack.h"
#include "keydecide/engine.h"

namespace keydecide {

class WordEngine : public Engine {
 public:
  std::unique_ptr<Session> NewSession(const SessionOptions& options) const override;
  Info info() const override { return info_; }
  Status FlushLearning() override;
  Status FineTune(std::string* summary) override;
  // Stops fine-tuning before the pack's model and store go.
  ~WordEngine() override;

  // Loads the pack `spec` describes: <model_dir>/<language>/lexicon.kdlex (or
  // options.lexicon_path) and the files beside it, the keyboard layout, and the model
  // (ResolveModelPath; "none" for the count baseline). A lexicon or model for another language
  // fails it. REQUIRES: spec outlives the engine.
  Status Init(const EngineOptions& options, const WordPackSpec& spec);

 private:
  Status LoadLexicon(const EngineOptions& options, const std::string& lexicon_path);
  Status LoadModel(const std::string& path);
  // REQUIRES: LoadModel succeeded.
  Status LoadSmallModel(const std::string& path);
  Status LoadModels(const EngineOptions& options, const std::string& pack);
  Status MapBigramWords();
  // Opens the user store and its learner; a store that fails leaves personalisation off.
  void OpenPersonal(const EngineOptions& options, const std::string& pack_dir);

  WordPack pack_;
  Info info_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WORD_ENGINE_H_
