// WordContext: one keystroke of a word session (word_session.h), as its stages share it: the
// composition as the lexicon keys it, the candidates gathered and scored, the word before, the
// model's rung. Reused by every Decide: its buffers are reserved when the session opens.

#ifndef KEYDECIDE_DECIDE_WORD_WORD_CONTEXT_H_
#define KEYDECIDE_DECIDE_WORD_WORD_CONTEXT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "decide/decide_context.h"
#include "decide/popup_features.h"
#include "decide/scorer.h"
#include "lexicon/candidate_search.h"
#include "lexicon/word_ngram.h"

namespace keydecide {

class WordPack;
struct WordState;

struct WordContext : DecideContext {
  const WordPack* pack = nullptr;
  WordState* session = nullptr;

  // Features (WordFeatures, PreviousWord).
  bool searchable = false;     // the composition is short enough to be a word
  bool curly = false;          // it has a typographic apostrophe (U+2019): candidates get them too
  bool capitalize = false;     // candidates start with a capital (typed so, or a sentence start)
  std::string previous_key;    // lower-cased word before the composition, or ""
  uint32_t previous_word = 0;  // the bigram's word for previous_key (0: the sentence start)
  WordNgram::Context teacher_context;
  std::string key_scratch;  // a word keyed as the lexicon and the bigram read it

  // Candidates, then their scores.
  std::vector<SearchHit> hits;
  std::vector<ScoredCandidate> scored;
  size_t gathered = 0;        // scored's size before the model's proposals
  bool small_active = false;  // hidden is the small model's

  // Writing.
  size_t written = 0;              // candidates written into the Decision
  bool keep_as_typed = false;      // the composition is not autocorrected (the person kept it)
  PopupFeatures popup_features{};  // of the latest decision with the model's heads
};

// What a word pack's stages are built from (StageEntry::make): the pack, the session's state
// and its keystroke context, which a stage may reserve room in.
struct WordEnv {
  const WordPack* pack;
  WordState* session;
  WordContext* context;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WORD_CONTEXT_H_
