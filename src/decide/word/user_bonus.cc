#include "decide/word/user_bonus.h"

#include <algorithm>
#include <cmath>

#include "decide/personal_ranking.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"
#include "text/letter_case.h"

namespace keydecide {

UserBonus::UserBonus(const WordEnv& env) {
  if (env.pack->learner() != nullptr) key_.reserve(4 * sizeof(FinishedWord::text));
}

void UserBonus::Adjust(WordContext* context) {
  const UserWords* words = context->personal ? context->personal->words().get() : nullptr;
  if (words == nullptr) return;
  const WordPack& pack = *context->pack;
  const WordPack::PersonalWeights& weights = pack.personal_weights();
  const Lexicon& lex = pack.lexicon();
  const float inv_lexicon_total =
      1.0f / static_cast<float>(std::max<uint64_t>(lex.total_count(), 1));
  // What the person wrote in this session's app type counts the more there (UserShare).
  const UserShare p_user_of(*words, context->personal->app(), weights.app_share, 1.0f);
  const std::string& previous_key = context->previous_key;
  const UserWords::Word* before = previous_key.empty() ? nullptr : words->Find(previous_key);
  for (ScoredCandidate& c : context->scored) {
    std::string_view key;  // lower-cased, as the person's words are keyed
    if (c.entry != lexicon::kNoEntry) {
      key = lex.Key(c.entry);
    } else {
      key_.clear();
      AppendLowerUtf8(c.text, &key_);
      key = key_;
    }
    const UserWords::Word* w = words->Find(key);
    if (w == nullptr) continue;
    // A word the lexicon lacks counts as seen once.
    const uint32_t count = c.entry != lexicon::kNoEntry ? lex.Count(c.entry) : 1;
    const float p_lexicon = static_cast<float>(std::max<uint32_t>(count, 1)) * inv_lexicon_total;
    float bonus = weights.word * std::log1p(p_user_of(*w) / p_lexicon);
    if (before != nullptr && before->weight > 0) {
      const float pair = words->PairWeight(previous_key, key);
      const float p_pair = std::min(pair / before->weight, 1.0f);
      bonus += weights.pair * std::log1p(kPairShare * p_pair / p_lexicon);
    }
    if (c.entry == lexicon::kNoEntry && c.word < 0 && w->offered()) bonus += weights.new_word;
    // The larger of this and the session's cache bonus (ModelScorer), not both: each says how
    // much more this person, or this text, uses the word than text in general, and a word of
    // the person's is mostly one of the text's too (summed, learning added nothing on the
    // Wesnoth tuning split: docs/history/BENCHMARKS-to-2026-12-07.md, "The session's words").
    c.score += std::max(0.0f, bonus - c.cache);
  }
}

}  // namespace keydecide
