// TypedText: what a session keeps of the text before the cursor, and the composition (the
// letters being typed, a suffix of the text), for every language pack. Each pack says what
// belongs to a composition through a CompositionRule; the bookkeeping (limits, trimming,
// deletion, replacement, key timing) is the same for all.
//
// Every character also carries the key metadata the model was trained with (docs/MODEL.md):
// the bucketed interval since the previous key and whether it followed a backspace. Text that
// did not come from timed keys (SetContext, an accepted word, an untimed Type) has no interval.
//
// Not thread-safe: one per session. Storage is reserved at construction; no call allocates
// while the text stays within its limits.

#ifndef KEYDECIDE_DECIDE_TYPED_TEXT_H_
#define KEYDECIDE_DECIDE_TYPED_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decide/text_limits.h"
#include "keydecide/status.h"
#include "text/utf8.h"

namespace keydecide {

// What a language counts as part of a composition.
struct CompositionRule {
  // Whether `cp`, typed after `composition` (empty: none yet), extends it (or starts one).
  bool (*extends)(char32_t cp, std::string_view composition);
  // Where the composition starts after the text changed under it (a deletion, a trim, a new
  // context, an accepted word); `start` is where it started, at most text.size(). English
  // reopens the word before the cursor; pinyin keeps `start`.
  size_t (*reopen)(std::string_view text, size_t start);
  // Bytes a composition may hold: a letter typed after that many starts a new composition
  // (the old one is committed as typed).
  size_t max_bytes;
};

// One character's key metadata: what the model's interval and after-backspace embeddings
// read (the model buckets the interval with the edges of its own file).
struct KeyMeta {
  static constexpr uint16_t kUntimed = 0xffff;
  static constexpr uint16_t kMaxIntervalMs = 60000;  // longer pauses count as this long
  uint16_t interval_ms = kUntimed;  // since the previous timed key
  bool after_backspace = false;
  bool timed() const { return interval_ms != kUntimed; }
};

class TypedText {
 public:
  // REQUIRES: rule outlives this object.
  explicit TypedText(const CompositionRule* rule);

  std::string_view text() const { return text_; }
  size_t composition_start() const { return composition_start_; }
  std::string_view composition() const {
    return std::string_view(text_).substr(composition_start_);
  }
  // The key metadata of the character that starts at byte `pos`. REQUIRES: pos < text().size().
  KeyMeta meta(size_t pos) const { return meta_[pos]; }

  // What one typed character did.
  struct Typed {
    bool extended = false;  // the character is part of the composition (maybe a new one)
    size_t ended_start = 0, ended_end = 0;  // the composition it ended: [start, end) of text()
  };

  // Appends one character (`ch` its bytes, `cp` its code point) typed at `t_ms` (monotonic
  // milliseconds; nullopt: untimed). Several characters typed at one time are one key each,
  // the later ones 0 ms after the first. Does not trim: call TrimToLimit after reading the
  // ended composition.
  Typed Append(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms);

  // Deletes the last character; false when the text is empty. *committed: the character was
  // committed text (there was no composition).
  bool Backspace(bool* committed);

  // Replaces the first `consumed` bytes of the composition with `word` (an accepted
  // candidate); the rule reopens the composition after it. Does not trim.
  void ReplaceComposition(size_t consumed, std::string_view word);

  // Replaces all text (SetContext) by its last kMaxTextBytes at most, untimed.
  // REQUIRES: valid UTF-8.
  void Assign(std::string_view text);

  // Past kMaxTextBytes, drops text from the front (kTrimTextBytes more, to amortise; never
  // the composition unless it alone is too long). Returns the bytes dropped (0: none).
  size_t TrimToLimit();

 private:
  const CompositionRule* rule_;
  std::string text_;
  std::vector<KeyMeta> meta_;  // one per byte of text_; a character's sits at its first byte
  size_t composition_start_ = 0;
  std::optional<int64_t> last_key_ms_;  // when the last timed character was typed
  bool after_backspace_ = false;        // the next key follows a backspace
};

// Session::Accept's contract: valid UTF-8, at most max_bytes, no white space.
Status CheckAcceptedWord(std::string_view word, size_t max_bytes = kMaxAcceptBytes);

// Session::Type's loop: refuses invalid UTF-8 before changing anything, then calls
// append(bytes, code point) for each character.
template <typename Append>
Status ForEachChar(std::string_view text, Append append) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = pos;
    char32_t cp;
    utf8::Decode(text, &pos, &cp);
    append(text.substr(start, pos - start), cp);
  }
  return Status::OK();
}

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_TYPED_TEXT_H_
