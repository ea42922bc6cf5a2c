#include "decide/word/teacher_score.h"

#include <algorithm>
#include <cmath>

#include "decide/word/word_pack.h"

namespace keydecide {

void TeacherScore::Adjust(WordContext* context) {
  const WordPack& pack = *context->pack;
  if (pack.teacher() == nullptr) return;
  const WordNgram& teacher = *pack.teacher();
  const float weight = pack.teacher_weight();
  float best = 0;
  for (ScoredCandidate& c : context->scored) {
    if (c.entry == lexicon::kNoEntry || !std::isfinite(c.score)) continue;
    const uint32_t word = pack.BigramWordOf(c.entry);
    const float gain =
        weight * (teacher.LogProb(context->teacher_context, word) - teacher.Unigram(word));
    c.score += gain;
    best = std::max(best, gain);
  }
  for (ScoredCandidate& c : context->scored) {
    if (c.entry == lexicon::kNoEntry && c.cache > 0 && std::isfinite(c.score)) c.score += best;
  }
}

}  // namespace keydecide
