// keydecide eval personal: how much learning a person's earlier text helps on their later text,
// and what it costs on general text.
//
//   before: the test text replayed (tools/replay.h) on an engine without personalisation;
//   after:  the history text typed into a learning session of an engine on a fresh, temporary
//           user store (so it is learned as a person typing it would teach it), then the test
//           text replayed in a no-learn session of that engine;
//   general_before/after: the same two replays of a general text.

#ifndef KEYDECIDE_TOOLS_PERSONAL_EVAL_H_
#define KEYDECIDE_TOOLS_PERSONAL_EVAL_H_

#include <string>
#include <string_view>

#include "keydecide/options.h"
#include "keydecide/status.h"
#include "tools/replay.h"

namespace keydecide {

struct PersonalEvalResult {
  ReplayResult before, after;
  bool has_general = false;
  ReplayResult general_before, general_after;
  size_t learned_words = 0;  // distinct words in the store after the history
};

// Runs the evaluation above. `options` is the engine (its personal fields are overridden);
// `store_path` must not exist yet and is removed afterwards. `general` may be empty.
Status EvalPersonal(const EngineOptions& options, std::string_view history, std::string_view test,
                    std::string_view general, const std::string& store_path,
                    const ReplayOptions& replay, PersonalEvalResult* out);

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_PERSONAL_EVAL_H_
