// A language pack's side of the user store: opening it, its learner and its fine-tuner as
// EngineOptions say. Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_OPEN_LEARNER_H_
#define KEYDECIDE_DECIDE_OPEN_LEARNER_H_

#include <memory>
#include <string>

#include "decide/adapter_examples.h"
#include "decide/fine_tuner.h"
#include "keydecide/options.h"
#include "personal/learner.h"

namespace keydecide {

// With options.personal, opens the user store and a learner of `language` over it into *out,
// and sets *info (Engine::Info::personal) to "on: <path>" or "on, not learning: <path>". A store
// that does not open leaves *out null, *info "unavailable: <reason>", and says so on stderr
// (naming the file, never a word): the engine types on without personalisation. Without
// options.personal, does nothing.
void OpenLearner(const EngineOptions& options, const std::string& language,
                 UserWords::Tagger tagger, std::unique_ptr<Learner>* out, std::string* info);

// With options.fine_tune, a learner and a model: a FineTuner of `language` over the learner's
// store into *out, replaying <pack_dir>/replay.txt (scripts/make-replay-text.py; none when it is
// missing or unreadable), with a background round every options.fine_tune_every_words learned
// words while learning is on (paused learning pauses training too). Else *out stays null.
// REQUIRES: model, learner and what source points to outlive *out.
void OpenFineTuner(const EngineOptions& options, const std::string& language,
                   const Transformer* model, AdapterExampleSource source, Learner* learner,
                   const std::string& pack_dir, std::unique_ptr<FineTuner>* out);

// Engine::FineTune of a pack: writes what sessions learned, runs one round and describes it in
// *summary (may be null). NotSupported when tuner is null.
Status FineTuneNow(Learner* learner, FineTuner* tuner, std::string* summary);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_OPEN_LEARNER_H_
