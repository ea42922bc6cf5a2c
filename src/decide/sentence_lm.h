// SentenceLm: scores the sentences of a pinyin conversion with the zh model's context stream,
// log P(w1 .. wn | context) = sum of log P(wi | context, w1 .. wi-1), each read off the hidden
// state of the token before wi (for w1: [APP] or the last context word), the model's `lm` task
// (docs/MODEL.md).
//
// The hypotheses of one keystroke, and those of the next, share most of their tokens. Each is
// kept in a slot: a KvCache, its tokens and, per position, the hidden state, the normaliser and
// the token's log P. A new hypothesis forks the slot that shares its longest prefix: that
// prefix's keys and values are copied, not recomputed, so a keystroke costs model steps only for
// the words that changed, all of a hypothesis' new words in one block (Transformer::ExtendAll).
//
// P is normalised over the model's `norm_words` most frequent words (its vocabulary is in
// frequency order), which hold most of the mass, instead of all of them: the whole table would
// cost more per position than the model's layers. How many matters little to the ranking: 32,
// 128, 512 and 8192 words converted the tuning half of the pinyin dev file alike
// (docs/MODEL.md, "Chinese typing model").
//
// With an adapter (SetAdapter: the person's fine-tuned correction, model/logit_adapter.h), a
// word's log P gains weight × LogitAdapter::Delta; the normaliser stays the base's. Why: the
// adapter lowers the frequent words to lift the person's, so a normaliser over the frequent
// words alone would fall and lift every word of a sentence, favouring sentences of more words
// (on the tuning person, sentence top-1 after the round 0.7048 with the adapter in the
// normaliser against 0.7202 without, weight 0.5; docs/PERSONAL.md, "Chinese fine-tuning").
//
// Not thread-safe: one per session. Scoring does not allocate once the slots have grown to the
// longest sequence (they are sized for max_len at construction, and for the adapter's rank when
// it is set).

#ifndef KEYDECIDE_DECIDE_SENTENCE_LM_H_
#define KEYDECIDE_DECIDE_SENTENCE_LM_H_

#include <cstdint>
#include <span>
#include <vector>

#include "model/kv_cache.h"
#include "model/logit_adapter.h"
#include "model/transformer.h"

namespace keydecide {

class SentenceLm {
 public:
  struct Options {
    size_t slots = 10;    // hypotheses kept between calls (at least 2)
    int norm_words = 64;  // words the normaliser sums over (clamped to the vocabulary)
  };

  // REQUIRES: model outlives this object. app is the AppType's index.
  SentenceLm(const Transformer* model, int app, const Options& options);

  // The committed words before the sentences (model word indices, oldest first). The newest that
  // leave room for the sentence are used.
  void SetContext(std::span<const int32_t> words);

  // log P of `words` (model word indices) after the context. Only the first max_len - 2 words
  // are scored (a longer sentence would not fit the model's window).
  float Score(std::span<const int32_t> words);

  // log P of each of `words` (model word indices) as the word right after the context, into
  // log_p[i] (the 联想 after a commit). One slot holds the context; the words cost a dot product
  // each. REQUIRES: log_p.size() == words.size().
  void NextWords(std::span<const int32_t> words, std::span<float> log_p);

  // The final-norm hidden state after the context, [SEP] and `keys` (the composition's
  // keystrokes, docs/MODEL.md): what the intent and popup heads, and the word logits of the word
  // being typed, read. Kept in a slot as the sentences are, so the next keystroke costs one step.
  // Valid until the next call. Keys past the first max_len - 3 are not read. REQUIRES: keys not
  // empty.
  const float* Keystrokes(std::span<const TokenInput> keys);

  // Scores from now on with `adapter` (null: none) at `weight`. A change drops every slot, as
  // their log P were read without it. REQUIRES: adapter (when not null) fits the model
  // (d_model and n_words) and outlives its use here.
  void SetAdapter(const LogitAdapter* adapter, float weight);

  int steps() const { return steps_; }  // tokens encoded so far (tests, stats)

 private:
  struct Slot {
    explicit Slot(const ModelConfig& config);
    KvCache cache;
    std::vector<TokenInput> tokens;  // at positions 0..length-1
    std::vector<float> hidden;       // [max_len, d_model]
    // Per position of [APP] and word tokens: the normaliser of its hidden state, and log P of
    // its token after those before it (not computed after [SEP]).
    std::vector<float> log_z;
    std::vector<float> log_p;
    std::vector<float> z;  // per position: LogitAdapter::Project of its hidden state [rank]
    uint64_t used = 0;
  };

  // [BOS] [APP] and the newest context words that leave room for `more` tokens, into seq_.
  void StartSequence(size_t more);
  // A slot holding seq_, encoded (reusing or forking the one with the longest common prefix).
  Slot* Place();
  float LogNormaliser(const float* y);
  // The adapter's addition to word's logit at a position whose projection is z.
  float AdapterDelta(const float* z, int word) const {
    return adapter_ == nullptr ? 0.0f : adapter_weight_ * adapter_->Delta(z, word);
  }

  const Transformer* model_;
  int app_;
  int norm_words_;
  const LogitAdapter* adapter_ = nullptr;
  float adapter_weight_ = 0;
  std::vector<Slot> slots_;
  std::vector<int32_t> context_;
  std::vector<TokenInput> seq_;
  std::vector<float> logits_;
  uint64_t clock_ = 0;
  int steps_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_SENTENCE_LM_H_
