#include "decide/zh/zh_context.h"

#include <cmath>
#include <limits>

#include "decide/model_track.h"
#include "lexicon/lexicon.h"
#include "model/model_config.h"
#include "model/transformer.h"
#include "text/utf8.h"

namespace keydecide {

bool IsHan(char32_t cp) {
  return cp == 0x3007 || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x3134F);
}

namespace {

constexpr size_t kMaxWordChars = 16;  // longer vocabulary words are not looked for
static_assert(kMaxWordChars <= 255, "split lengths are kept in uint8_t");

bool AllHan(std::string_view s) {
  size_t pos = 0;
  while (pos < s.size()) {
    char32_t cp;
    if (!utf8::Decode(s, &pos, &cp) || !IsHan(cp)) return false;
  }
  return !s.empty();
}

}  // namespace

ZhContext::ZhContext(const Transformer* model, const Lexicon* lexicon)
    : model_(model), log_prob_(model->n_words(), std::numeric_limits<float>::quiet_NaN()) {
  const float log_total =
      std::log(static_cast<float>(std::max<uint64_t>(lexicon->total_count(), 1)));
  std::string key;
  for (int w = ModelConfig::kEmailWord + 1; w < model->n_words(); ++w) {
    const std::string_view text = model->vocab().Word(w);
    if (!AllHan(text)) continue;
    // The count of the word under its reading; a single character without one counts 1,
    // as in training's Segmenter.
    uint32_t count = 0;
    key.clear();
    for (char ch : model->vocab().Reading(w)) {
      if (ch != '\'') key += ch;
    }
    if (const uint32_t entry = key.empty() ? lexicon::kNoEntry : lexicon->Find(key);
        entry != lexicon::kNoEntry) {
      for (const lexicon::Variant& v : lexicon->Variants(entry)) {
        if (lexicon->VariantText(v) == text) count = v.count;
      }
    }
    const size_t chars = utf8::Length(text);
    if ((count == 0 && chars > 1) || chars > kMaxWordChars) continue;
    in_vocabulary_count_ += count;
    log_prob_[w] = std::log(static_cast<float>(std::max<uint32_t>(count, 1))) - log_total;
    max_word_chars_ = std::max(max_word_chars_, chars);
  }
}

void ZhContext::Scratch::Reserve(size_t bytes) {
  tokens.reserve(bytes);
  offsets.reserve(bytes + 1);
  best.reserve(bytes + 1);
  back.reserve(bytes + 1);
  run_words.reserve(bytes);
  lowered.reserve(bytes);
}

void ZhContext::Tokenize(std::string_view text, Scratch* s, std::vector<int32_t>* words) const {
  size_t pos = 0;
  while (pos < text.size()) {
    // The stretch of Han (or of other) characters from pos.
    size_t end = pos;
    bool han = false;
    for (size_t at = pos; at < text.size();) {
      const size_t char_start = at;
      char32_t cp;
      const bool valid = utf8::Decode(text, &at, &cp);
      const bool is_han = valid && IsHan(cp);
      if (char_start == pos) han = is_han;
      if (is_han != han) break;
      end = at;
    }
    const std::string_view piece = text.substr(pos, end - pos);
    if (han) {
      SplitHanRun(piece, s, words);
    } else {
      s->tokens.clear();
      ::keydecide::Tokenize(piece, &s->tokens);
      for (const Token& t : s->tokens) AppendContextWords(*model_, t, &s->lowered, words);
    }
    pos = end;
  }
}

// Most probable split (the DP of training's Segmenter over the vocabulary's Chinese words).
void ZhContext::SplitHanRun(std::string_view run, Scratch* s, std::vector<int32_t>* words) const {
  s->offsets.clear();
  for (size_t pos = 0; pos < run.size();) {
    s->offsets.push_back(pos);
    char32_t cp;
    utf8::Decode(run, &pos, &cp);
  }
  s->offsets.push_back(run.size());
  const size_t n = s->offsets.size() - 1;
  s->best.assign(n + 1, -std::numeric_limits<double>::infinity());
  s->back.assign(n + 1, 0);
  s->best[0] = 0;
  for (size_t end = 1; end <= n; ++end) {
    for (size_t len = std::min(max_word_chars_, end); len >= 1; --len) {  // longest first
      const size_t begin = end - len;
      if (s->best[begin] == -std::numeric_limits<double>::infinity()) continue;
      const std::string_view piece =
          run.substr(s->offsets[begin], s->offsets[end] - s->offsets[begin]);
      const int w = model_->vocab().Find(piece);
      float lp = w != ModelConfig::kUnkWord ? log_prob_[w] : std::nanf("");
      if (std::isnan(lp)) {
        if (len > 1) continue;
        lp = -1e4f;  // a character no vocabulary word covers: <unk> on its own
      }
      if (s->best[begin] + lp > s->best[end]) {
        s->best[end] = s->best[begin] + lp;
        s->back[end] = static_cast<uint8_t>(len);
      }
    }
  }
  s->run_words.clear();
  for (size_t end = n; end > 0; end -= s->back[end]) {
    const size_t begin = end - s->back[end];
    const std::string_view piece =
        run.substr(s->offsets[begin], s->offsets[end] - s->offsets[begin]);
    const int w = model_->vocab().Find(piece);
    s->run_words.push_back(std::isnan(log_prob_[w]) ? ModelConfig::kUnkWord : w);
  }
  words->insert(words->end(), s->run_words.rbegin(), s->run_words.rend());
}

}  // namespace keydecide
