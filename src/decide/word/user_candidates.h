// UserCandidates: the person's heaviest offered words that complete the typed letters (at a
// word start: those that most often followed the previous word), unless already a candidate.

#ifndef KEYDECIDE_DECIDE_WORD_USER_CANDIDATES_H_
#define KEYDECIDE_DECIDE_WORD_USER_CANDIDATES_H_

#include <array>

#include "decide/candidate_source.h"
#include "decide/word/word_context.h"
#include "personal/user_words.h"

namespace keydecide {

class UserCandidates : public CandidateSource<WordContext> {
 public:
  static constexpr size_t kCandidates = 4;

  explicit UserCandidates(const WordEnv& env);
  const char* name() const override { return "user_candidates"; }

 protected:
  void Gather(WordContext* context) override;

 private:
  std::array<const UserWords::Word*, kCandidates> best_{};
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_USER_CANDIDATES_H_
