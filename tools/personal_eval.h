// keydecide eval personal: how much learning a person's earlier text helps on their later text,
// and what it costs on general text.
//
//   before: the test text replayed (tools/replay.h) on an engine without personalisation;
//   after:  the history text typed into a learning session of an engine on a fresh, temporary
//           user store (so it is learned as a person typing it would teach it), then the test
//           text replayed in a no-learn session of that engine;
//   general_before/after: the same two replays of a general text;
//   with `finetune`: after_finetune, general_after_finetune: the same replays once one
//   fine-tuning round (Engine::FineTune) has trained on the learned history.

#ifndef KEYDECIDE_TOOLS_PERSONAL_EVAL_H_
#define KEYDECIDE_TOOLS_PERSONAL_EVAL_H_

#include <string>
#include <string_view>

#include "keydecide/options.h"
#include "keydecide/status.h"
#include "tools/pinyin_eval.h"
#include "tools/replay.h"

namespace keydecide {

struct PersonalEvalResult {
  ReplayResult before, after;
  bool has_general = false;
  ReplayResult general_before, general_after;
  size_t learned_words = 0;  // distinct words in the store after the history
  bool finetuned = false;
  ReplayResult after_finetune, general_after_finetune;
  std::string finetune_summary;  // Engine::FineTune's
  double finetune_seconds = 0;   // wall time of the round
};

// The app types the texts are typed in (SessionOptions::app): the history, the second history
// (`also_history` below, learned after the first, when there is one) and the test. General
// text is typed in a chat session.
struct PersonalEvalApps {
  AppType history = AppType::kChat;
  AppType also = AppType::kChat;
  AppType test = AppType::kChat;
};

// Runs the evaluation above. `options` is the engine (its personal fields are overridden);
// `store_path` must not exist yet and is removed afterwards. `also_history` and `general` may
// be empty.
Status EvalPersonal(const EngineOptions& options, std::string_view history,
                    std::string_view also_history, std::string_view test, std::string_view general,
                    const std::string& store_path, const ReplayOptions& replay,
                    PersonalEvalResult* out, bool finetune = false,
                    const PersonalEvalApps& apps = {});

// Chinese: the same over pinyin eval lines (tools/pinyin_eval.h). The history is typed as a
// person converts it, line by line into one learning session: the letters, then while letters
// are left, the first of the `suggestions` candidates that is the rest of the line, else the
// longest that starts it, else the rest of the line itself (as if typed by other means); then a
// new line. before/after are EvalPinyin of the test lines (after: in no-learn sessions).
//
// 联想 (next_before/next_after): each test line is cut into the words a person would type one
// at a time (by the engine without personalisation: while letters are left, the longest
// candidate that is no whole sentence and starts the rest; the rest as one piece when none
// does). In a fresh no-learn session per line, each word's letters are typed and the word
// committed; after each word but the last, the 联想 candidates are read: an item, a top-1 hit
// when the next word is the first of them, a top-5 hit when it is among the first five.
//
// With `finetune`, one fine-tuning round (Engine::FineTune) follows the history, and the test,
// 联想 and general evaluations run again (after_finetune, ...).
struct NextWordResult {
  uint64_t items = 0, top1 = 0, top5 = 0;
  double top1_rate() const { return items ? static_cast<double>(top1) / items : 0.0; }
  double top5_rate() const { return items ? static_cast<double>(top5) / items : 0.0; }
};

struct PersonalPinyinResult {
  PinyinEvalResult before, after;
  NextWordResult next_before, next_after;
  bool has_general = false;
  PinyinEvalResult general_before, general_after;
  size_t learned_words = 0;
  size_t history_picks = 0;  // candidates the typist chose that were not the first one
  size_t history_typed = 0;  // pieces no candidate offered
  bool finetuned = false;    // with `finetune`: the same evaluations after one round
  PinyinEvalResult after_finetune, general_after_finetune;
  NextWordResult next_after_finetune;
  std::string finetune_summary;
  double finetune_seconds = 0;
};

Status EvalPersonalPinyin(const EngineOptions& options, const std::vector<PinyinEvalLine>& history,
                          const std::vector<PinyinEvalLine>& also_history,
                          const std::vector<PinyinEvalLine>& test,
                          const std::vector<PinyinEvalLine>& general, const std::string& store_path,
                          int suggestions, PersonalPinyinResult* out, bool finetune = false,
                          const PersonalEvalApps& apps = {});

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_PERSONAL_EVAL_H_
