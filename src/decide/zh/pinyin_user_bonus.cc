#include "decide/zh/pinyin_user_bonus.h"

#include <algorithm>
#include <cmath>

#include "lexicon/lexicon.h"
#include "lexicon/pinyin/pinyin_lattice.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

bool IsPinyinLetter(char32_t cp) { return cp >= 'a' && cp <= 'z'; }

}  // namespace

void PinyinUserBonus::Set(const UserWords* words, const Lexicon* lexicon, const Weights& weights,
                          int app) {
  words_ = words;
  lexicon_ = lexicon;
  word_weight_ = weights.word;
  pair_weight_ = weights.pair;
  max_word_ = max_pair_ = 0;
  word_bonus_.clear();
  extra_.clear();
  std::fill(std::begin(bucket_begin_), std::end(bucket_begin_), 0);
  share_ = UserShare();
  if (words == nullptr || words->total_weight() <= 0) return;
  share_ = UserShare(*words, app, weights.app_share, 0.0f);
  inv_lexicon_total_ = 1.0f / static_cast<float>(std::max<uint64_t>(lexicon->total_count(), 1));
  float min_prob = 1;
  for (const uint32_t i : words->tagged()) {
    const UserWords::Word& w = words->word(i);
    const float p = LexiconProb(w.tag);
    min_prob = std::min(min_prob, p);
    const float bonus = std::log1p(word_weight_ * UserProb(w) / p);
    max_word_ = std::max(max_word_, bonus);
    if (bonus > 0) word_bonus_.push_back({w.tag, bonus});  // tagged() is in tag order
  }
  // P_user(w | previous) is at most 1.
  if (words->max_pair_weight() > 0) max_pair_ = std::log1p(pair_weight_ / min_prob);
  SetExtraWords();
}

size_t PinyinUserBonus::ExtraWords(std::string_view rest, std::span<ExtraWord> out) const {
  if (rest.size() < 2 || out.empty() || !IsPinyinLetter(static_cast<unsigned char>(rest[0])) ||
      !IsPinyinLetter(static_cast<unsigned char>(rest[1]))) {
    return 0;
  }
  const std::span<const Extra> bucket = Bucket(rest);
  size_t n = 0;
  for (const Extra& e : bucket) {  // best first
    const UserWords::Word& w = words_->word(e.word);
    if (!rest.starts_with(w.letters)) continue;
    out[n++] = {e.word, static_cast<uint32_t>(w.letters.size()), e.breaks, e.log_p};
    if (n == out.size()) break;
  }
  return n;
}

std::string_view PinyinUserBonus::ExtraText(uint32_t id) const { return words_->word(id).spelling; }

std::span<const PinyinUserBonus::Extra> PinyinUserBonus::Bucket(std::string_view letters) const {
  const size_t b = BucketOf(letters);
  return std::span(extra_).subspan(bucket_begin_[b], bucket_begin_[b + 1] - bucket_begin_[b]);
}

size_t PinyinUserBonus::BucketOf(std::string_view letters) {
  return static_cast<size_t>(letters[0] - 'a') * 26 + static_cast<size_t>(letters[1] - 'a');
}

void PinyinUserBonus::SetExtraWords() {
  extra_.clear();
  std::fill(std::begin(bucket_begin_), std::end(bucket_begin_), 0);
  if (word_weight_ == 0 || words_->total_weight() <= 0) return;
  for (uint32_t i = 0; i < words_->size(); ++i) {
    const UserWords::Word& w = words_->word(i);
    // Offered words the lexicon lacks, of a reading of whole syllables with one hanzi each.
    if (w.tag != UserWords::kNoTag || !w.offered() || w.letters.size() < 2 ||
        w.letters.size() > PinyinLattice::kMaxTyped || w.reading.empty()) {
      continue;
    }
    if (!std::all_of(w.letters.begin(), w.letters.end(),
                     [](char c) { return IsPinyinLetter(static_cast<unsigned char>(c)); })) {
      continue;
    }
    uint64_t breaks = 0;
    size_t letters = 0, syllables = 0;
    for (const char c : w.reading) {
      if (c == '\'') {
        if (letters > 0) breaks |= uint64_t{1} << (letters - 1);
        ++syllables;
      } else {
        ++letters;
      }
    }
    breaks |= uint64_t{1} << (letters - 1);
    ++syllables;
    if (letters != w.letters.size() || utf8::Length(w.spelling) != syllables) continue;
    const float log_p = std::log(word_weight_ * UserProb(w));
    if (!std::isfinite(log_p)) continue;
    extra_.push_back({i, breaks, log_p});
  }
  // By bucket, best first within one.
  std::sort(extra_.begin(), extra_.end(), [&](const Extra& a, const Extra& b) {
    const size_t ba = BucketOf(words_->word(a.word).letters);
    const size_t bb = BucketOf(words_->word(b.word).letters);
    return ba != bb ? ba < bb : a.log_p > b.log_p;
  });
  for (const Extra& e : extra_) ++bucket_begin_[BucketOf(words_->word(e.word).letters) + 1];
  for (size_t b = 1; b <= kBuckets; ++b) bucket_begin_[b] += bucket_begin_[b - 1];
}

float PinyinUserBonus::MaxWordIn(uint32_t begin, uint32_t end) const {
  auto it = std::lower_bound(word_bonus_.begin(), word_bonus_.end(), begin,
                             [](const TagBonus& b, uint32_t v) { return b.tag < v; });
  float most = 0;
  for (; it != word_bonus_.end() && it->tag < end; ++it) most = std::max(most, it->bonus);
  return most;
}

float PinyinUserBonus::LexiconProb(uint32_t variant) const {
  return static_cast<float>(std::max<uint32_t>(lexicon_->VariantCountAt(variant), 1)) *
         inv_lexicon_total_;
}

float PinyinUserBonus::Word(uint32_t variant) const {
  const auto it = std::lower_bound(word_bonus_.begin(), word_bonus_.end(), variant,
                                   [](const TagBonus& b, uint32_t v) { return b.tag < v; });
  return it != word_bonus_.end() && it->tag == variant ? it->bonus : 0.0f;
}

float PinyinUserBonus::Pair(uint32_t previous, uint32_t variant) const {
  if (previous == kStart) previous = context;
  if (previous == UserWords::kNoTag || pair_weight_ == 0) return 0;
  const float weight = words_->PairWeightByTag(previous, variant);
  if (weight <= 0) return 0;
  const UserWords::Word* before = words_->FindTag(previous);
  if (before == nullptr || before->weight <= 0) return 0;
  return std::log1p(pair_weight_ * std::min(weight / before->weight, 1.0f) / LexiconProb(variant));
}

}  // namespace keydecide
