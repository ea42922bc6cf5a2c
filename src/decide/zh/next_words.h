// NextWords: with no composition, the words that follow the one just committed (联想, kind
// kNextWord): those that followed it most often in the training text (the word bigram) and
// those the person wrote after it, by log P(w | word before); with the model, ranked again by
// its log P of each as the next word, never putting the person's own far down.

#ifndef KEYDECIDE_DECIDE_ZH_NEXT_WORDS_H_
#define KEYDECIDE_DECIDE_ZH_NEXT_WORDS_H_

#include <cstdint>
#include <vector>

#include "decide/candidate_source.h"
#include "decide/zh/pinyin_context.h"

namespace keydecide {

class NextWords : public CandidateSource<PinyinContext> {
 public:
  // With the model: the most frequent followers of the word just committed that it ranks
  // again. On the tuning half of the narrative file, next word in the top 5: 0.293 / 0.305 /
  // 0.307 for 8 / 32 / 64 (weight 1; docs/history/BENCHMARKS-to-2026-12-07.md, "联想 with the
  // model").
  static constexpr size_t kRescored = 32;
  // From the person's pairs: the kUserWords heaviest words the person wrote after the word just
  // committed join the bigram's, each at P(w | before) = P_bigram + kUserWeight × P_user (the
  // person's decayed pair count over the word's), and after the model's share,
  // score = log(exp(score) + kUserFloor × P_user). On Northern Rebirth (docs/PERSONAL.md,
  // "联想"), next word top-1 / top-5 0.145 / 0.279 without the person; 0.160 / 0.298 with
  // weight 1 and no floor (0.156 / 0.298 with 0.3, 0.159 / 0.293 with 10, 0.159 / 0.300 with
  // 16 words, 0.159 / 0.296 with 4); 0.161 / 0.300 with floor 0.01 (0.162 / 0.298 with 0.03,
  // 0.161 / 0.295 with 0.1).
  static constexpr size_t kUserWords = 8;
  static constexpr float kUserWeight = 1.0f;
  static constexpr float kUserFloor = 0.01f;

  explicit NextWords(const PinyinEnv& env);
  const char* name() const override { return "next_words"; }

 protected:
  void Gather(PinyinContext* context) override;

 private:
  // The most frequent followers of the word just committed (k, or kRescored with the model).
  static void AddBigramWords(PinyinContext* context, size_t k);
  static void AddUserWords(PinyinContext* context);
  // Adds to each score PinyinOptions::model_weight × the model's log P(w | committed text), the
  // weight the sentences use (0.5 / 0.7 / 1.0 / 2.0 gave the same 联想 within 0.5 points on the
  // tuning halves).
  void Rank(PinyinContext* context);

  std::vector<int32_t> ids_;  // the words as model word indices
  std::vector<float> log_p_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_NEXT_WORDS_H_
