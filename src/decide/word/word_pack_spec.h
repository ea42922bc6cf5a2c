// WordPackSpec: what a language whose words are typed letter by letter (English, and any
// language like it) gives the shared word engine (word_engine.h): its name, what a word is, its
// stage table, and the few choices that differ between such languages. A pack folder defines
// one (src/decide/en/en_pack.cc); the pack table (language_pack.cc) opens a WordEngine with it.

#ifndef KEYDECIDE_DECIDE_WORD_WORD_PACK_SPEC_H_
#define KEYDECIDE_DECIDE_WORD_WORD_PACK_SPEC_H_

#include <span>
#include <string_view>

#include "decide/stage_pipeline.h"
#include "keydecide/pack_traits.h"

namespace keydecide {

struct CompositionRule;
struct WordEnv;

struct WordPackSpec {
  // The pack's language: its folder under the models folder, the language its lexicon, bigram
  // and model must say they are for, the user store's language.
  std::string_view language;
  // What a word is (TypedText): what extends the composition, where it reopens.
  const CompositionRule* rule = nullptr;
  // The stages its sessions run per keystroke, in order.
  std::span<const StageEntry<WordEnv>> stages;
  // EngineOptions::max_candidates 0: the candidates gathered from the lexicon per keystroke.
  int default_candidates = 64;
  // Index the lexicon's words with apostrophes by their letters ("dont" -> "don't"), for a
  // stage that offers them (WordPack::apostrophes).
  bool index_apostrophes = false;
  // What the engine types once at load to warm the trie and the code paths up (one key each).
  std::span<const char* const> warm_up_keys;
  // What hosts ask of the language (Engine::Info::traits).
  const PackTraits& (*traits)() = nullptr;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WORD_PACK_SPEC_H_
