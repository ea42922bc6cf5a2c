#include "keydecide_engine.h"

#include <utility>

#include <fcitx-config/iniparser.h>
#include <fcitx-utils/log.h>
#include <fcitx/inputcontextmanager.h>
#include <fcitx/inputpanel.h>

namespace keydecide::fcitx5 {

namespace {
constexpr char kConfigFile[] = "conf/keydecide.conf";

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::azerty:
      return "azerty";
    case Layout::dvorak:
      return "dvorak";
    case Layout::qwerty:
      break;
  }
  return "qwerty";
}
}  // namespace

KeydecideEngine::KeydecideEngine(fcitx::Instance* instance)
    : instance_(instance),
      factory_([this](fcitx::InputContext& ic) { return new KeydecideState(this, &ic); }) {
  instance_->inputContextManager().registerProperty("keydecideState", &factory_);
  dispatcher_.attach(&instance_->eventLoop());
  reloadConfig();
}

KeydecideEngine::~KeydecideEngine() {
  // The states close their sessions on a live worker; then no answer may reach them.
  factory_.unregister();
  worker_.reset();
  dispatcher_.detach();
}

void KeydecideEngine::StartWorker() {
  EngineSetup setup;
  setup.daemon = *config_.backend == Backend::Daemon;
  setup.socket_path = *config_.socket;
  setup.model_dir = *config_.modelDir;
  setup.layout = LayoutName(*config_.layout);
  setup.personal = *config_.learn;
  worker_.reset();  // its sessions die with it; states reopen theirs on the new one
  worker_ = std::make_unique<DecisionWorker>(
      setup, [this](std::function<void()> f) { dispatcher_.schedule(std::move(f)); });
  ++worker_generation_;
}

void KeydecideEngine::reloadConfig() {
  fcitx::readAsIni(config_, kConfigFile);
  StartWorker();
}

void KeydecideEngine::setConfig(const fcitx::RawConfig& raw) {
  config_.load(raw, true);
  fcitx::safeSaveAsIni(config_, kConfigFile);
  StartWorker();
}

void KeydecideEngine::ReportError(const std::string& message) {
  if (reported_generation_ == worker_generation_) return;
  reported_generation_ = worker_generation_;
  FCITX_ERROR() << "keydecide: " << message << " (typing without predictions)";
}

void KeydecideEngine::keyEvent(const fcitx::InputMethodEntry&, fcitx::KeyEvent& event) {
  state(event.inputContext())->HandleKey(event);
}

void KeydecideEngine::activate(const fcitx::InputMethodEntry&, fcitx::InputContextEvent&) {}

void KeydecideEngine::deactivate(const fcitx::InputMethodEntry& entry,
                                 fcitx::InputContextEvent& event) {
  reset(entry, event);
}

void KeydecideEngine::reset(const fcitx::InputMethodEntry&, fcitx::InputContextEvent& event) {
  state(event.inputContext())->Flush();
}

std::string KeydecideEngine::subModeLabelImpl(const fcitx::InputMethodEntry&,
                                              fcitx::InputContext& ic) {
  return state(&ic)->language() == Language::Pinyin ? "拼" : "EN";
}

}  // namespace keydecide::fcitx5

FCITX_ADDON_FACTORY(keydecide::fcitx5::KeydecideEngineFactory);
