// Language packs: what a language must provide to serve the Engine/Session API, and the one
// table Engine::Open picks from.
//
// A pack is an engine and a session in files named for its language (en_engine.*,
// en_session.*; zh_engine.*, zh_session.*):
//   - the engine's Open loads the pack's files (lexicon, model, whatever else it ranks with),
//     refuses files made for another language, warms up, and is immutable afterwards;
//   - the session keeps its text in a TypedText with the pack's CompositionRule (what extends
//     a composition), and its Decide runs the shared stages in order (features, candidates,
//     model, scoring/heads, post), timing each into Decision::timings, filling the Decision
//     through CandidateSlots without allocating once warm, and saying which Tier served it.
// Adding a language means adding a pack and one line to the table in language_pack.cc.

#ifndef KEYDECIDE_DECIDE_LANGUAGE_PACK_H_
#define KEYDECIDE_DECIDE_LANGUAGE_PACK_H_

#include <memory>
#include <span>
#include <string_view>

#include "keydecide/engine.h"

namespace keydecide {

struct LanguagePack {
  std::string_view language;  // EngineOptions::language
  Status (*open)(const EngineOptions& options, std::unique_ptr<Engine>* out);
};

// Every pack this build has, in the order `keydecide info` lists them.
std::span<const LanguagePack> LanguagePacks();

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_LANGUAGE_PACK_H_
