// ApostropheWords: the contractions whose letters complete the typed ones, the most frequent
// first, at no typing cost ("dont" -> "don't"; a search hit that counted the missing apostrophe
// as a slip becomes a completion).

#ifndef KEYDECIDE_DECIDE_EN_APOSTROPHE_WORDS_H_
#define KEYDECIDE_DECIDE_EN_APOSTROPHE_WORDS_H_

#include "decide/candidate_source.h"
#include "decide/word/word_context.h"

namespace keydecide {

class ApostropheWords : public CandidateSource<WordContext> {
 public:
  static constexpr size_t kCandidates = 3;

  explicit ApostropheWords(const WordEnv& env);
  const char* name() const override { return "apostrophe_words"; }

 protected:
  void Gather(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_EN_APOSTROPHE_WORDS_H_
