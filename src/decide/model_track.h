// ModelTrack: keeps a session's model input — [BOS] [APP] context words [SEP] keystrokes —
// in step with its text, and the KvCache with it. Sync compares the sequence the text
// calls for with the one already encoded and steps only the difference: a keystroke costs
// one step, a backspace none, a finished word a few. The context window's start moves
// only when the context would outgrow its room; then half of it is dropped and the rest
// re-encoded (DESIGN.md, "The model"). The context never reaches back past a newline.

#ifndef KEYDECIDE_DECIDE_MODEL_TRACK_H_
#define KEYDECIDE_DECIDE_MODEL_TRACK_H_

#include <string>
#include <string_view>
#include <vector>

#include "decide/typed_text.h"
#include "model/kv_cache.h"
#include "model/transformer.h"
#include "text/tokenizer.h"

namespace keydecide {

// Appends the model word indices of one context token to *words (docs/MODEL.md: numbers,
// URLs and e-mail addresses as their class word, words lower-cased and split at hyphens,
// anything else as itself; <unk> outside the vocabulary). `lowered` is scratch.
void AppendContextWords(const Transformer& model, const Token& t, std::string* lowered,
                        std::vector<int32_t>* words);

class ModelTrack {
 public:
  // Keystrokes without timing get these interval buckets: 350-600 ms before a word's first
  // key, 150-220 ms between the others, 220-350 ms for the key after a backspace (the
  // training simulator's median typist: 170 ms, word starts 2.2x, after a backspace 2x).
  static constexpr uint8_t kWordStartInterval = 6;
  static constexpr uint8_t kDefaultInterval = 4;
  static constexpr uint8_t kAfterBackspaceInterval = 5;
  // The token of the index-th keystroke of a word typed without timing: a typical pace, a
  // pause before the word's first key, then steady keys.
  static TokenInput UntimedKeystroke(char32_t cp, size_t index) {
    return {ModelConfig::CharToken(cp), index == 0 ? kWordStartInterval : kDefaultInterval, 0};
  }
  // The token of the index-th keystroke of a word with its key metadata: the interval bucketed
  // by the model's edges when the key was timed, else as UntimedKeystroke (or the
  // after-backspace pace); the after-backspace flag either way.
  static TokenInput Keystroke(const ModelConfig& config, char32_t cp, size_t index, KeyMeta meta) {
    uint8_t interval = index == 0 ? kWordStartInterval : kDefaultInterval;
    if (meta.timed()) {
      interval = static_cast<uint8_t>(config.IntervalBucket(static_cast<float>(meta.interval_ms)));
    } else if (meta.after_backspace) {
      interval = kAfterBackspaceInterval;
    }
    return {ModelConfig::CharToken(cp), interval, static_cast<uint8_t>(meta.after_backspace)};
  }
  // Context tokens kept (the window then holds between half of this and this many). The
  // shipped model was trained mostly on contexts within one paragraph and predicts worse
  // with long ones: on dev text, next-word top-3 is 0.21 with 12 tokens of context, 0.16
  // with 30 and 0.01 with 50 (docs/MODEL.md).
  static constexpr int kMaxContextTokens = 24;

  // REQUIRES: model outlives this object. app is the AppType's index.
  ModelTrack(const Transformer* model, int app);

  // Brings the encoded sequence in line with `text` (its composition is the word being
  // typed; its key metadata the keystrokes' timing). Returns the final-norm hidden state of
  // the last position (valid until the next Sync).
  const float* Sync(const TypedText& text);

  // The text before the cursor lost its first `bytes` bytes (the session trimmed it).
  void OnTextTrimmed(size_t bytes);
  // The text was replaced: choose a new window start.
  void Reset() { window_start_ = 0, window_set_ = false; }

  int steps_taken() const { return steps_; }  // model steps so far (for stats/tests)

 private:
  void BuildSequence(const TypedText& typed);
  // Drops the oldest context tokens when the window outgrows `room`; false when it fit.
  bool MoveWindow(size_t start, size_t composition_start, int room);
  void AppendContextToken(const Token& t);

  const Transformer* model_;
  int app_;
  KvCache cache_;
  std::vector<TokenInput> encoded_;  // what the cache holds
  std::vector<TokenInput> wanted_;   // what the text calls for
  std::vector<Token> scratch_tokens_;
  std::string lowered_;
  std::vector<int32_t> scratch_words_;
  std::vector<float> y_;
  size_t window_start_ = 0;  // byte offset in the text where the context window begins
  bool window_set_ = false;
  int steps_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_MODEL_TRACK_H_
