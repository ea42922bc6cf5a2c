#include "lexicon/pinyin/pinyin_window.h"

#include <algorithm>
#include <string>

#include "lexicon/pinyin/pinyin_sentence.h"

namespace keydecide {

namespace {

size_t SkipApostrophes(std::string_view typed, size_t pos) {
  while (pos < typed.size() && typed[pos] == '\'') ++pos;
  return pos;
}

// The bits of `breaks` before bit `end` (end <= 64).
uint64_t BitsBefore(uint64_t breaks, size_t end) {
  return end >= 64 ? breaks : breaks & ((uint64_t{1} << end) - 1);
}

}  // namespace

PinyinWindow::PinyinWindow(PinyinSentenceSearch* search) : search_(search) {
  read_.reserve(kMaxComposition);
  // At most 4 bytes of hanzi (or one byte as typed) per typed byte; at least one byte per piece.
  fixed_text_.reserve(4 * kMaxComposition);
  pieces_.reserve(kMaxComposition);
  fixed_words_.reserve(kMaxComposition);  // a word converts at least one typed byte
}

Status PinyinWindow::Update(std::string_view typed, uint32_t context_word) {
  const bool valid = typed.size() <= kMaxComposition &&
                     std::all_of(typed.begin(), typed.end(),
                                 [](char c) { return (c >= 'a' && c <= 'z') || c == '\''; });
  if (!valid || context_word != context_word_) {
    pieces_.clear();
    read_.clear();
    context_word_ = context_word;
  }
  if (!valid) {
    fixed_text_.clear();
    fixed_words_.clear();
    live_begin_ = 0;
    if (typed.size() > kMaxComposition) {
      return Status::InvalidArgument("pinyin composition of " + std::to_string(typed.size()) +
                                     " bytes, at most " + std::to_string(kMaxComposition));
    }
    return Status::InvalidArgument("pinyin input has a byte other than a-z and apostrophe");
  }
  // Keep the pieces whose window is unchanged and still has more than kWindow bytes after its
  // start: the letters decide them alone.
  const size_t same = static_cast<size_t>(
      std::mismatch(typed.begin(), typed.end(), read_.begin(), read_.end()).first - typed.begin());
  while (!pieces_.empty()) {
    const size_t window_end = pieces_.back().begin + kWindow;
    if (window_end <= same && window_end < typed.size()) break;
    pieces_.pop_back();
  }
  fixed_text_.resize(pieces_.empty() ? 0 : pieces_.back().text_end);
  fixed_words_.resize(pieces_.empty() ? 0 : pieces_.back().words_end);
  live_begin_ = pieces_.empty() ? 0 : SkipApostrophes(typed, pieces_.back().end);
  while (typed.size() - live_begin_ > kWindow) FixWindow(typed);
  read_.assign(typed.substr(0, pieces_.empty() ? 0 : pieces_.back().begin + kWindow));
  return Status::OK();
}

void PinyinWindow::FixWindow(std::string_view typed) {
  const size_t pos = live_begin_;
  const std::string_view window = typed.substr(pos, kWindow);
  Piece piece = {static_cast<uint16_t>(pos),
                 static_cast<uint16_t>(pos),
                 static_cast<uint32_t>(fixed_text_.size()),
                 0,
                 0,
                 0,
                 0};
  size_t end = 0;
  if (search_->Search(window, live_context()).ok() && !search_->sentences().empty()) {
    const PinyinSentence& best = search_->sentences().front();
    for (const PinyinSentenceWord& word : best.words) {
      if (end > 0 && word.end > kFixSpan) break;
      const auto text_begin = static_cast<uint32_t>(fixed_text_.size());
      fixed_text_.append(word.text);
      fixed_words_.push_back(
          {text_begin, static_cast<uint32_t>(fixed_text_.size()), word.entry, word.variant});
      end = word.end;
      piece.last_word = word.word;
    }
    piece.breaks = BitsBefore(best.breaks, end);
  } else {  // no reading: the letters stay as typed
    end = kFixSpan;
    fixed_text_.append(window.substr(0, end));
  }
  piece.end = static_cast<uint16_t>(pos + end);
  piece.text_end = static_cast<uint32_t>(fixed_text_.size());
  piece.words_end = static_cast<uint32_t>(fixed_words_.size());
  pieces_.push_back(piece);
  live_begin_ = SkipApostrophes(typed, piece.end);
}

void PinyinWindow::WriteSyllableBreaks(std::string_view typed, uint64_t live_breaks,
                                       std::string* out) const {
  out->clear();
  size_t k = 0;  // the piece that holds typed[i], or the first after it
  for (size_t i = 0; i < typed.size(); ++i) {
    out->push_back(typed[i]);
    if (i + 1 >= typed.size() || typed[i + 1] == '\'') continue;
    while (k < pieces_.size() && i >= pieces_[k].end) ++k;
    uint64_t breaks = 0;
    size_t base = 0;
    if (k < pieces_.size() && i >= pieces_[k].begin) {
      breaks = pieces_[k].breaks;
      base = pieces_[k].begin;
    } else if (i >= live_begin()) {
      breaks = live_breaks;
      base = live_begin();
    } else {
      continue;
    }
    if (i - base < 64 && (breaks >> (i - base) & 1)) out->push_back('\'');
  }
}

}  // namespace keydecide
