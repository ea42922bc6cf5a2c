#include "decide/word/bigram_score.h"

#include <algorithm>
#include <cmath>

#include "decide/word/word_pack.h"

namespace keydecide {

void BigramScore::Adjust(WordContext* context) {
  const WordPack& pack = *context->pack;
  if (pack.bigram() == nullptr) return;
  const WordBigram& bigram = *pack.bigram();
  const Lexicon& lex = pack.lexicon();
  const float weight = context->hidden != nullptr ? pack.bigram_weight() : 1.0f;
  const float inv_total = 1.0f / static_cast<float>(std::max<uint64_t>(lex.total_count(), 1));
  for (ScoredCandidate& c : context->scored) {
    if (c.entry == lexicon::kNoEntry || !std::isfinite(c.score)) continue;
    const uint32_t word = pack.BigramWordOf(c.entry);
    const float unigram = bigram.Unigram(word, static_cast<float>(lex.Count(c.entry)) * inv_total);
    c.score += weight * (bigram.LogProb(context->previous_word, word, unigram) -
                         std::log(std::max(unigram, 1e-30f)));
  }
}

}  // namespace keydecide
