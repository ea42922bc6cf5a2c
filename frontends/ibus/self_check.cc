#include "self_check.h"

#include <chrono>
#include <functional>
#include <string>

#include "typing_state.h"

namespace keydecide::ibus {

namespace {

class TranscriptHost : public TypingHost {
 public:
  void CommitText(const std::string& text) override { committed += text; }
  void DeleteBefore(int /*chars*/) override {}
  void ShowPanel(const PanelView& view) override { shown = view; }

  std::string committed;
  PanelView shown;
};

void Type(TypingState* state, const std::string& text) {
  for (char c : text) state->HandleKey({KeyPress::Kind::kText, std::string(1, c)});
}

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " | ") + w;
  return out;
}

}  // namespace

int RunSelfCheck(const frontend::EngineSetup& setup, std::ostream& out) {
  // No main loop: every answer is taken by waiting for it.
  DecisionWorker worker(setup, [](std::function<void()>) {});
  TypingSettings settings;
  settings.wait = std::chrono::seconds(30);  // the first decision waits for the engine's load
  TranscriptHost host;
  TypingState state(&worker, &host, settings);
  int failures = 0;

  Type(&state, "see you tomo");
  out << state.language() << " candidates: " << Joined(host.shown.candidates) << "\n";
  state.HandleKey({KeyPress::Kind::kTab, ""});
  out << state.language() << " committed: '" << host.committed << "'\n";
  failures += host.committed == "see you tomorrow " ? 0 : 1;

  state.HandleKey({KeyPress::Kind::kSwitchLanguage, ""});
  host.committed.clear();
  Type(&state, "nihao");
  out << state.language() << " candidates: " << Joined(host.shown.candidates) << "\n";
  state.HandleKey({KeyPress::Kind::kText, " "});
  out << state.language() << " committed: '" << host.committed << "'\n";
  failures += host.committed == "你好" ? 0 : 1;
  out << (failures == 0 ? "check passed" : "check FAILED") << "\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace keydecide::ibus
