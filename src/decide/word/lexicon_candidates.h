// LexiconCandidates: the lexicon's words for the typed letters, exact and keyboard-fuzzy
// (CandidateSearch), the first candidates of a word keystroke.

#ifndef KEYDECIDE_DECIDE_WORD_LEXICON_CANDIDATES_H_
#define KEYDECIDE_DECIDE_WORD_LEXICON_CANDIDATES_H_

#include "decide/candidate_source.h"
#include "decide/word/word_context.h"

namespace keydecide {

class LexiconCandidates : public CandidateSource<WordContext> {
 public:
  const char* name() const override { return "lexicon"; }

 protected:
  void Gather(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_LEXICON_CANDIDATES_H_
