// BigramFollowers: the word bigram's most frequent followers of the word before that complete
// the typed letters, added beside the search's (which ranks by count alone, and misses a rare
// word the context calls for): one id range of the word's row, as the bigram numbers words in
// key order.

#ifndef KEYDECIDE_DECIDE_WORD_BIGRAM_FOLLOWERS_H_
#define KEYDECIDE_DECIDE_WORD_BIGRAM_FOLLOWERS_H_

#include "decide/candidate_source.h"
#include "decide/word/word_context.h"

namespace keydecide {

class BigramFollowers : public CandidateSource<WordContext> {
 public:
  // On the first 100 KB of the English tuning text 4 / 8 / 16 replayed at KSR 0.4453 / 0.4456 /
  // 0.4459 (none: 0.4432).
  static constexpr size_t kFollowers = 8;

  explicit BigramFollowers(const WordEnv& env);
  const char* name() const override { return "bigram_followers"; }

 protected:
  void Gather(WordContext* context) override;
};

// Adds the lexicon entry to the candidates unless one of them is it (the followers' way in).
void AddEntryOnce(WordContext* context, uint32_t entry);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_BIGRAM_FOLLOWERS_H_
