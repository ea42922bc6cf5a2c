// KeydecideEngine: the fcitx5 input-method addon over keydecide (docs/INTEGRATION.md,
// "fcitx5"). English prediction (completions, next words, autocorrect with its undo) and
// pinyin (hanzi sentences and words, 联想), switched per input context. The engine runs on a
// DecisionWorker thread, in this process or through the keydecided daemon; every input
// context's typing is a KeydecideState.

#ifndef KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_ENGINE_H_
#define KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_ENGINE_H_

#include <memory>
#include <string>

#include <fcitx-utils/eventdispatcher.h>
#include <fcitx/addonfactory.h>
#include <fcitx/addoninstance.h>
#include <fcitx/addonmanager.h>
#include <fcitx/inputcontextproperty.h>
#include <fcitx/inputmethodengine.h>
#include <fcitx/instance.h>

#include "decision_worker.h"
#include "keydecide_config.h"
#include "keydecide_state.h"

namespace keydecide::fcitx5 {

class KeydecideEngine final : public fcitx::InputMethodEngineV2 {
 public:
  explicit KeydecideEngine(fcitx::Instance* instance);
  ~KeydecideEngine() override;

  // InputMethodEngine
  void keyEvent(const fcitx::InputMethodEntry& entry, fcitx::KeyEvent& event) override;
  void activate(const fcitx::InputMethodEntry& entry, fcitx::InputContextEvent& event) override;
  void deactivate(const fcitx::InputMethodEntry& entry, fcitx::InputContextEvent& event) override;
  void reset(const fcitx::InputMethodEntry& entry, fcitx::InputContextEvent& event) override;
  std::string subModeLabelImpl(const fcitx::InputMethodEntry& entry,
                               fcitx::InputContext& ic) override;
  std::string subModeIconImpl(const fcitx::InputMethodEntry&, fcitx::InputContext&) override {
    return "input-keyboard";
  }

  // AddonInstance: the options in fcitx5's configuration tools.
  const fcitx::Configuration* getConfig() const override { return &config_; }
  void setConfig(const fcitx::RawConfig& raw) override;
  void reloadConfig() override;

  const KeydecideConfig& config() const { return config_; }
  fcitx::Instance* instance() { return instance_; }
  KeydecideState* state(fcitx::InputContext* ic) { return ic->propertyFor(&factory_); }
  // The worker and its generation (a new one after every configuration change).
  DecisionWorker& worker() { return *worker_; }
  uint64_t worker_generation() const { return worker_generation_; }
  // Logs a failure of the engine once per worker (a missing model, an absent daemon); the
  // keys are then typed as they are.
  void ReportError(const std::string& message);

 private:
  void StartWorker();

  fcitx::Instance* instance_;
  KeydecideConfig config_;
  // fcitx5 5.0 has no Instance::eventDispatcher(): the addon owns the worker's way back.
  fcitx::EventDispatcher dispatcher_;
  std::unique_ptr<DecisionWorker> worker_;
  uint64_t worker_generation_ = 0;
  uint64_t reported_generation_ = 0;
  fcitx::FactoryFor<KeydecideState> factory_;
};

class KeydecideEngineFactory : public fcitx::AddonFactory {
 public:
  fcitx::AddonInstance* create(fcitx::AddonManager* manager) override {
    return new KeydecideEngine(manager->instance());
  }
};

}  // namespace keydecide::fcitx5

#endif  // KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_ENGINE_H_
