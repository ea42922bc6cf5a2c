// ZhContext: the committed text of a Chinese session as the zh model's context words, the way
// training/keydecide_train/zh_tokens.py's ZhTokenizer reads its training text (docs/MODEL.md,
// "Chinese model"). A run of Han characters is split into its most probable words (log P from
// the lexicon's count of the word under its reading; ties to the longer word); a character no
// vocabulary word covers is <unk>. Text between Han runs is read as English context is
// (AppendContextWords).
//
// One difference from training, by design: the words of the split are the model's vocabulary
// words, where training splits over every lexicon word and maps the rare ones to <unk>. A word
// outside the vocabulary is then read as the vocabulary words that spell it, not as <unk>.

#ifndef KEYDECIDE_DECIDE_ZH_ZH_CONTEXT_H_
#define KEYDECIDE_DECIDE_ZH_ZH_CONTEXT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text/tokenizer.h"

namespace keydecide {

class Lexicon;
class Transformer;

// True for the code points of training's HAN_CLASS: the unified ideographs (extension A, the
// basic block, extensions B onwards), the compatibility ideographs and 〇.
bool IsHan(char32_t cp);

class ZhContext {
 public:
  // Immutable after construction; shared by the sessions. REQUIRES: model (a zh model) and
  // lexicon (pinyin-keyed) outlive this object.
  ZhContext(const Transformer* model, const Lexicon* lexicon);

  // Appends the model word indices of `text` to *words. Not thread-safe on the same scratch:
  // each session passes its own.
  struct Scratch {
    std::vector<Token> tokens;
    std::vector<size_t> offsets;  // byte offset of each character of a Han run, and its end
    std::vector<double> best;     // double: a long run's sums must still tell splits apart
    std::vector<uint8_t> back;
    std::vector<int32_t> run_words;
    std::string lowered;
    // Sizes every buffer for text of up to `bytes` bytes, so that Tokenize does not allocate.
    void Reserve(size_t bytes);
  };
  void Tokenize(std::string_view text, Scratch* scratch, std::vector<int32_t>* words) const;

  // log P of a vocabulary word as a piece of a Han run (NaN when it is not a Chinese word).
  float WordLogProb(int word) const { return log_prob_[word]; }
  // The summed lexicon count of the vocabulary's Chinese words.
  double in_vocabulary_count() const { return in_vocabulary_count_; }

 private:
  void SplitHanRun(std::string_view run, Scratch* s, std::vector<int32_t>* words) const;

  const Transformer* model_;
  std::vector<float> log_prob_;  // per model word
  size_t max_word_chars_ = 1;
  double in_vocabulary_count_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_ZH_CONTEXT_H_
