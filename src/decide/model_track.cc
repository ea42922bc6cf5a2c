#include "decide/model_track.h"

#include <algorithm>

#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

ModelTrack::ModelTrack(const Transformer* model, int app)
    : model_(model), app_(app), cache_(model->config()) {
  const int max_len = model->config().max_len;
  encoded_.reserve(max_len);
  wanted_.reserve(4 * max_len);
  scratch_tokens_.reserve(4 * max_len);
  lowered_.reserve(256);
  scratch_words_.reserve(64);
  y_.resize(static_cast<size_t>(max_len) * model->config().d_model);
}

void ModelTrack::OnTextTrimmed(size_t bytes) {
  window_start_ = window_start_ > bytes ? window_start_ - bytes : 0;
}

void AppendContextWords(const Transformer& model, const Token& t, std::string* lowered,
                        std::vector<int32_t>* words) {
  switch (t.kind) {
    case TokenKind::kNumber:
      return words->push_back(ModelConfig::kNumWord);
    case TokenKind::kUrl:
      return words->push_back(ModelConfig::kUrlWord);
    case TokenKind::kEmail:
      return words->push_back(ModelConfig::kEmailWord);
    case TokenKind::kWord: {
      // Hyphenated words are split, the hyphen a token of its own (docs/MODEL.md).
      std::string_view w = t.text;
      while (true) {
        const size_t hyphen = w.find('-');
        lowered->clear();
        AppendLowerUtf8(w.substr(0, hyphen), lowered);
        words->push_back(model.vocab().Find(*lowered));
        if (hyphen == std::string_view::npos) return;
        words->push_back(model.vocab().Find("-"));
        w.remove_prefix(hyphen + 1);
      }
    }
    default:
      lowered->clear();
      AppendLowerUtf8(t.text, lowered);
      return words->push_back(model.vocab().Find(*lowered));
  }
}

void ModelTrack::AppendContextToken(const Token& t) {
  scratch_words_.clear();
  AppendContextWords(*model_, t, &lowered_, &scratch_words_);
  for (int32_t w : scratch_words_) wanted_.push_back({ModelConfig::kWordOffset + w, 0, 0});
}

namespace {

// A URL or e-mail address being typed is one "word" to the model: all its characters are
// keystrokes (docs/MODEL.md; the training sessions type them so). Returns where the
// model's keystrokes start: the start of the trailing run of non-space characters when
// it looks like an address, else the composition's start.
size_t KeystrokeStart(std::string_view text, size_t composition_start) {
  size_t run = composition_start;
  while (run > 0 && !IsSpace(static_cast<unsigned char>(text[run - 1])) &&
         static_cast<unsigned char>(text[run - 1]) < 0x80) {
    --run;
  }
  const std::string_view tail = text.substr(run);
  const bool address = StartsLikeUrl(tail) || tail.find('@') != std::string_view::npos;
  return address ? run : composition_start;
}

}  // namespace

void ModelTrack::BuildSequence(const TypedText& typed) {
  const std::string_view text = typed.text();
  const int max_len = model_->config().max_len;
  const size_t composition_start = KeystrokeStart(text, typed.composition_start());
  const std::string_view word = text.substr(composition_start);
  const int chars = static_cast<int>(std::min<size_t>(utf8::Length(word), max_len / 2));
  // Room for the context: all but [BOS] [APP] [SEP] and the keystrokes, and at most
  // kMaxContextTokens (see the header).
  const int room = std::min(max_len - 3 - chars, kMaxContextTokens);
  // The context starts at the current paragraph (a newline starts a new message).
  const size_t newline = text.substr(0, composition_start).rfind('\n');
  if (newline != std::string_view::npos) window_start_ = std::max(window_start_, newline + 1);
  for (int attempt = 0; attempt < 2; ++attempt) {
    wanted_.clear();
    wanted_.push_back({ModelConfig::kBos, 0, 0});
    wanted_.push_back({ModelConfig::kFirstApp + app_, 0, 0});
    scratch_tokens_.clear();
    const size_t start = std::min(window_start_, composition_start);
    Tokenize(text.substr(start, composition_start - start), &scratch_tokens_);
    for (const Token& t : scratch_tokens_) AppendContextToken(t);
    if (!MoveWindow(start, composition_start, room)) break;
  }
  if (static_cast<int>(wanted_.size()) > max_len - 1 - chars) {  // a single huge token run
    wanted_.erase(wanted_.begin() + 2, wanted_.end() - (max_len - 3 - chars));
  }
  wanted_.push_back({ModelConfig::kSep, 0, 0});
  size_t pos = 0;
  for (int c = 0; c < chars; ++c) {
    const size_t at = pos;
    char32_t cp;
    utf8::Decode(word, &pos, &cp);
    wanted_.push_back(Keystroke(model_->config(), cp, c, typed.meta(composition_start + at)));
  }
}

bool ModelTrack::MoveWindow(size_t start, size_t composition_start, int room) {
  const int context = static_cast<int>(wanted_.size()) - 2;
  if (context <= room) return false;
  // Overflow: keep the newest half of the room and move the window start there, so
  // the next words append to a stable prefix again.
  const int drop = context - room / 2;
  int dropped = 0;
  size_t new_start = composition_start;
  for (const Token& t : scratch_tokens_) {  // token -> how many model tokens it made
    if (dropped >= drop) {
      new_start = start + t.offset;
      break;
    }
    dropped += t.kind == TokenKind::kWord
                   ? 1 + 2 * static_cast<int>(std::count(t.text.begin(), t.text.end(), '-'))
                   : 1;
  }
  window_start_ = new_start;
  return true;
}

const float* ModelTrack::Sync(const TypedText& text) {
  if (!window_set_) {
    window_start_ = 0;
    window_set_ = true;
  }
  BuildSequence(text);
  // Longest common prefix of what is encoded and what is wanted.
  size_t common = 0;
  while (common < encoded_.size() && common < wanted_.size() &&
         encoded_[common].id == wanted_[common].id &&
         encoded_[common].interval == wanted_[common].interval &&
         encoded_[common].after_backspace == wanted_[common].after_backspace) {
    ++common;
  }
  if (common == wanted_.size() && common > 0) {
    // Nothing new (e.g. Decide twice): the last hidden state is still in y_ unless the
    // sequence got shorter, in which case step the last token again.
    if (common == encoded_.size()) return y_.data();
    --common;
  }
  encoded_.resize(common);
  cache_.Truncate(static_cast<int>(common));
  // One token (a keystroke) is a step; several (a finished word, keys that arrived
  // together, a re-encoded window) go through as one block.
  const std::span<const TokenInput> fresh(wanted_.data() + common, wanted_.size() - common);
  if (fresh.size() == 1) {
    model_->Step(fresh[0], &cache_, y_.data());
  } else {
    model_->Extend(fresh, &cache_, y_.data());
  }
  encoded_.insert(encoded_.end(), fresh.begin(), fresh.end());
  steps_ += static_cast<int>(fresh.size());
  return y_.data();
}

}  // namespace keydecide
