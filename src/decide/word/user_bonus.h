// UserBonus: the person's words as a cache model (EngineOptions::user_word_weight): score +=
// word_weight * log(1 + P_user(w) / P_lexicon(w)) (P_user: UserShare) + pair_weight *
// log(1 + kPairShare * P_user(w | previous) / P_lexicon(w)), and the new-word bonus for an
// offered word that has no model or lexicon score of its own. A word gains by how much more the
// person uses it than text in general does: their names and jargon much, "the" little.

#ifndef KEYDECIDE_DECIDE_WORD_USER_BONUS_H_
#define KEYDECIDE_DECIDE_WORD_USER_BONUS_H_

#include <string>

#include "decide/score_adjuster.h"
#include "decide/word/word_context.h"

namespace keydecide {

class UserBonus : public ScoreAdjuster<WordContext> {
 public:
  // Weighs the person's pairs against their words; chosen with the option weights on the
  // Wesnoth tuning split (docs/PERSONAL.md, "As a cache model").
  static constexpr float kPairShare = 3.0f;

  explicit UserBonus(const WordEnv& env);
  const char* name() const override { return "user_bonus"; }

 protected:
  void Adjust(WordContext* context) override;

 private:
  std::string key_;  // a candidate the lexicon lacks, lower-cased (reserved)
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_USER_BONUS_H_
