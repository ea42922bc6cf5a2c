#include "decide/typed_text.h"

#include <algorithm>

#include "text/letter_case.h"

namespace keydecide {

TypedText::TypedText(const CompositionRule* rule) : rule_(rule) {
  // The most the text holds between trims: the limit, an accepted word, a composition.
  const size_t reserve = kMaxTextBytes + kMaxAcceptBytes + std::min<size_t>(rule->max_bytes, 256) + 8;
  text_.reserve(reserve);
  meta_.reserve(reserve);
}

TypedText::Typed TypedText::Append(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms) {
  const size_t old_size = text_.size();
  const size_t old_start = composition_start_;
  const size_t letters = old_size - old_start;
  Typed typed;
  typed.extended = rule_->extends(cp, composition());
  const bool starts_new = typed.extended && (letters == 0 || letters >= rule_->max_bytes);
  if (letters > 0 && (!typed.extended || starts_new)) {
    typed.ended_start = old_start;
    typed.ended_end = old_size;
  }
  if (starts_new) composition_start_ = old_size;

  KeyMeta key;
  if (t_ms.has_value() && last_key_ms_.has_value()) {
    const int64_t ms = std::max<int64_t>(*t_ms - *last_key_ms_, 0);
    key.interval_ms = static_cast<uint16_t>(std::min<int64_t>(ms, KeyMeta::kMaxIntervalMs));
  }
  key.after_backspace = after_backspace_;
  after_backspace_ = false;
  last_key_ms_ = t_ms;
  text_.append(ch);
  meta_.push_back(key);
  meta_.resize(text_.size());  // a character's later bytes carry nothing

  if (!typed.extended) composition_start_ = text_.size();
  return typed;
}

bool TypedText::Backspace(bool* committed) {
  if (text_.empty()) return false;
  *committed = composition_start_ >= text_.size();
  text_.resize(utf8::LastCharStart(text_));
  meta_.resize(text_.size());
  composition_start_ = rule_->reopen(text_, std::min(composition_start_, text_.size()));
  after_backspace_ = true;
  return true;
}

void TypedText::ReplaceComposition(size_t consumed, std::string_view word) {
  consumed = std::min(consumed, text_.size() - composition_start_);
  text_.replace(composition_start_, consumed, word);
  meta_.erase(meta_.begin() + static_cast<ptrdiff_t>(composition_start_),
              meta_.begin() + static_cast<ptrdiff_t>(composition_start_ + consumed));
  meta_.insert(meta_.begin() + static_cast<ptrdiff_t>(composition_start_), word.size(), KeyMeta());
  composition_start_ = rule_->reopen(text_, composition_start_ + word.size());
  after_backspace_ = false;
}

void TypedText::Assign(std::string_view text) {
  if (text.size() > kMaxTextBytes) {
    text.remove_prefix(utf8::BoundaryAtOrAfter(text, text.size() - kMaxTextBytes));
  }
  text_.assign(text);
  meta_.assign(text_.size(), KeyMeta());
  composition_start_ = rule_->reopen(text_, text_.size());
  last_key_ms_.reset();
  after_backspace_ = false;
}

size_t TypedText::TrimToLimit() {
  if (text_.size() <= kMaxTextBytes) return 0;
  size_t cut = utf8::BoundaryAtOrAfter(text_, text_.size() - kMaxTextBytes + kTrimTextBytes);
  // The composition stays whole when what is kept can hold it.
  if (text_.size() - composition_start_ <= kMaxTextBytes - kTrimTextBytes) {
    cut = std::min(cut, composition_start_);
  }
  text_.erase(0, cut);
  meta_.erase(meta_.begin(), meta_.begin() + static_cast<ptrdiff_t>(cut));
  composition_start_ = rule_->reopen(text_, composition_start_ > cut ? composition_start_ - cut : 0);
  return cut;
}

Status CheckAcceptedWord(std::string_view word, size_t max_bytes) {
  KD_RETURN_IF_ERROR(utf8::Validate(word));
  if (word.size() > max_bytes) return Status::InvalidArgument("accepted word is too long");
  size_t pos = 0;
  while (pos < word.size()) {
    char32_t cp;
    utf8::Decode(word, &pos, &cp);
    if (IsSpace(cp)) return Status::InvalidArgument("accepted word contains white space");
  }
  return Status::OK();
}

}  // namespace keydecide
