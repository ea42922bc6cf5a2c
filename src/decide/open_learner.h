// A language pack's side of the user store: opening it and its learner as EngineOptions say.
// Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_OPEN_LEARNER_H_
#define KEYDECIDE_DECIDE_OPEN_LEARNER_H_

#include <memory>
#include <string>

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

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_OPEN_LEARNER_H_
