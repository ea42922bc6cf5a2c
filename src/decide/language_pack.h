// Language packs: what a language must provide to serve the Engine/Session API, and the one
// table Engine::Open picks from.
//
// A pack is a folder, src/decide/<language>/, whose <language>_pack.h gives its line of the
// table (a LanguagePack):
//   - its engine's Open loads the pack's files (lexicon, model, whatever else it ranks with),
//     refuses files made for another language, warms up, and is immutable afterwards;
//   - its sessions keep their text in a TypedText with the pack's CompositionRule (what a word
//     is), and their Decide runs the pack's stage table (stage_pipeline.h: features,
//     candidates, model, scoring, writing), timing each role into Decision::timings, filling
//     the Decision without allocating once warm, and saying which Tier served it.
// A language typed word by word needs only a WordPackSpec (word/word_pack_spec.h): its rule,
// its stage table and its files; the word engine does the rest. Adding a language means adding
// a pack folder and one line to the table in pack_table.cc.

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
  const PackTraits* traits;  // what hosts ask of it (Engine::Info::traits)
};

// Every pack this build has, in the order `keydecide info` lists them (pack_table.cc).
std::span<const LanguagePack> LanguagePacks();

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_LANGUAGE_PACK_H_
