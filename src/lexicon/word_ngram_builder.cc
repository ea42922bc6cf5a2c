#include "lexicon/word_ngram_builder.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <tuple>

#include "lexicon/lexicon.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/word_ngram.h"

namespace keydecide {

namespace {

constexpr double kNatsPerLog10 = 2.302585092994046;

void AppendU32(uint32_t v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

// int16 values, padded with zeros to a multiple of 4 bytes (word_ngram.h).
template <typename Values>
void AppendI16(const Values& values, std::string* out) {
  size_t n = 0;
  for (const int16_t v : values) {
    out->append(reinterpret_cast<const char*>(&v), sizeof(v));
    ++n;
  }
  if (n % 2 == 1) out->append(2, '\0');
}

// The whitespace-separated fields of an ARPA line.
size_t SplitFields(std::string_view line, std::string_view* fields, size_t max_fields) {
  size_t n = 0;
  size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    if (pos == line.size()) break;
    const size_t end = line.find_first_of(" \t", pos);
    if (n == max_fields) return max_fields + 1;  // too many
    fields[n++] = line.substr(pos, end == std::string_view::npos ? line.npos : end - pos);
    pos = end == std::string_view::npos ? line.size() : end;
  }
  return n;
}

bool ParseDouble(std::string_view s, double* out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(*out);
}

}  // namespace

WordNgramBuilder::WordNgramBuilder(const Lexicon& lexicon)
    : lexicon_(lexicon),
      ids_(lexicon),
      unigram_(ids_.word_count(), 0),
      unigram_backoff_(ids_.word_count(), 0),
      has_unigram_(ids_.word_count(), false) {}

uint32_t WordNgramBuilder::IdOf(std::string_view word) const {
  if (word == "<s>") return WordNgram::kSentenceStart;
  if (word == "</s>" || word == "<unk>") return kSkip;
  const uint32_t id = ids_.Find(word);
  return id == 0 ? kSkip : id;
}

Status WordNgramBuilder::AddLine(int order, std::string_view line, size_t number) {
  std::string_view f[5];
  const size_t n = SplitFields(line, f, 5);
  const auto bad = [&](const char* why) {
    return Status::InvalidArgument("ARPA line " + std::to_string(number) + ": " + why);
  };
  double log10_p = 0, log10_b = 0;
  if (n != static_cast<size_t>(order) + 1 && n != static_cast<size_t>(order) + 2) {
    return bad("expected a score, the words and perhaps a back-off");
  }
  if (!ParseDouble(f[0], &log10_p) || log10_p > 0) return bad("bad log10 probability");
  if (n == static_cast<size_t>(order) + 2 && !ParseDouble(f[order + 1], &log10_b)) {
    return bad("bad log10 back-off");
  }
  ++stats_.listed[order - 1];
  if (order == 1 && f[1] == "<unk>") {
    unknown_log10_ = log10_p;
    has_unknown_ = true;
  }
  uint32_t w[3] = {};
  for (int i = 0; i < order; ++i) {
    w[i] = IdOf(f[1 + i]);
    if (w[i] == kSkip) return Status::OK();
    // The sentence start begins an n-gram, and is never predicted.
    if (w[i] == WordNgram::kSentenceStart && i != 0) return Status::OK();
  }
  const int16_t score = ngram::Quantize(log10_p * kNatsPerLog10);
  const int16_t backoff = ngram::Quantize(log10_b * kNatsPerLog10);
  if (order == 1) {
    // <s> has a probability of -99 by convention (never predicted); it keeps its back-off.
    if (w[0] != WordNgram::kSentenceStart) lowest_log10_ = std::min(lowest_log10_, log10_p);
    if (has_unigram_[w[0]] && unigram_[w[0]] >= score) return Status::OK();
    unigram_[w[0]] = w[0] == WordNgram::kSentenceStart ? int16_t{0} : score;
    unigram_backoff_[w[0]] = backoff;
    has_unigram_[w[0]] = true;
  } else if (order == 2) {
    bigrams_.push_back({w[0], w[1], score, backoff});
  } else {
    trigrams_.push_back({w[0], w[1], w[2], score});
  }
  return Status::OK();
}

Status WordNgramBuilder::ReadArpa(std::string_view arpa) {
  int order = 0;  // of the section being read; 0 before the first
  size_t number = 0;
  while (!arpa.empty()) {
    const size_t nl = arpa.find('\n');
    std::string_view line = arpa.substr(0, nl);
    arpa.remove_prefix(nl == std::string_view::npos ? arpa.size() : nl + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line[0] == '\\') {
      if (line == "\\end\\") break;
      if (line == "\\data\\") continue;
      if (line.size() == 9 && line.substr(2) == "-grams:" && line[1] >= '1' && line[1] <= '9') {
        order = line[1] - '0';
        if (order > 3) {
          return Status::InvalidArgument("ARPA line " + std::to_string(number) +
                                         ": n-grams above trigrams are not supported");
        }
        continue;
      }
      return Status::InvalidArgument("ARPA line " + std::to_string(number) + ": unknown section");
    }
    if (order == 0) continue;  // \data\'s "ngram N=count" lines: the sections count themselves
    KD_RETURN_IF_ERROR(AddLine(order, line, number));
  }
  return Status::OK();
}

void WordNgramBuilder::Finish(std::string* bytes) {
  const uint32_t words = ids_.word_count();
  const int16_t unknown =
      ngram::Quantize((has_unknown_ ? unknown_log10_ : lowest_log10_) * kNatsPerLog10);
  stats_.words = words;
  stats_.known_words = 0;
  for (uint32_t w = 1; w < words; ++w) {
    if (has_unigram_[w]) {
      ++stats_.known_words;
    } else {
      unigram_[w] = unknown;
    }
  }
  stats_.kept[0] = stats_.known_words;

  // Sorted by context then word; of two entries for the same n-gram the likelier comes first and
  // is kept.
  std::sort(bigrams_.begin(), bigrams_.end(), [](const Bigram& a, const Bigram& b) {
    return std::tie(a.left, a.word, b.score) < std::tie(b.left, b.word, a.score);
  });
  bigrams_.erase(std::unique(bigrams_.begin(), bigrams_.end(),
                             [](const Bigram& a, const Bigram& b) {
                               return a.left == b.left && a.word == b.word;
                             }),
                 bigrams_.end());
  std::sort(trigrams_.begin(), trigrams_.end(), [](const Trigram& a, const Trigram& b) {
    return std::tie(a.older, a.left, a.word, b.score) < std::tie(b.older, b.left, b.word, a.score);
  });
  trigrams_.erase(std::unique(trigrams_.begin(), trigrams_.end(),
                              [](const Trigram& a, const Trigram& b) {
                                return a.older == b.older && a.left == b.left && a.word == b.word;
                              }),
                  trigrams_.end());
  // A trigram whose first two words are not a kept bigram cannot be reached: left out.
  std::vector<uint32_t> trigram_begin(bigrams_.size() + 1, 0);
  std::vector<Trigram> kept_trigrams;
  kept_trigrams.reserve(trigrams_.size());
  size_t t = 0;
  for (size_t b = 0; b < bigrams_.size(); ++b) {
    trigram_begin[b] = static_cast<uint32_t>(kept_trigrams.size());
    const auto key = std::tie(bigrams_[b].left, bigrams_[b].word);
    while (t < trigrams_.size() && std::tie(trigrams_[t].older, trigrams_[t].left) < key) ++t;
    while (t < trigrams_.size() && std::tie(trigrams_[t].older, trigrams_[t].left) == key) {
      kept_trigrams.push_back(trigrams_[t++]);
    }
  }
  trigram_begin[bigrams_.size()] = static_cast<uint32_t>(kept_trigrams.size());
  stats_.kept[1] = bigrams_.size();
  stats_.kept[2] = kept_trigrams.size();

  ngram::Header h;
  h.variant_count = static_cast<uint32_t>(ids_.word_of_variant().size());
  h.lexicon_crc32 = lexicon_.header().file_crc32;
  h.word_count = words;
  h.bigram_count = static_cast<uint32_t>(bigrams_.size());
  h.trigram_count = static_cast<uint32_t>(kept_trigrams.size());
  h.EncodeTo(bytes);
  bytes->reserve(h.expected_file_size());
  for (const uint32_t w : ids_.word_of_variant()) AppendU32(w, bytes);
  AppendI16(unigram_, bytes);
  AppendI16(unigram_backoff_, bytes);
  size_t next = 0;
  for (uint32_t v = 0; v <= words; ++v) {
    while (next < bigrams_.size() && bigrams_[next].left < v) ++next;
    AppendU32(static_cast<uint32_t>(next), bytes);
  }
  for (const Bigram& b : bigrams_) AppendU32(b.word, bytes);
  std::vector<int16_t> values(bigrams_.size());
  for (size_t i = 0; i < bigrams_.size(); ++i) values[i] = bigrams_[i].score;
  AppendI16(values, bytes);
  for (size_t i = 0; i < bigrams_.size(); ++i) values[i] = bigrams_[i].backoff;
  AppendI16(values, bytes);
  for (const uint32_t b : trigram_begin) AppendU32(b, bytes);
  for (const Trigram& tri : kept_trigrams) AppendU32(tri.word, bytes);
  values.resize(kept_trigrams.size());
  for (size_t i = 0; i < kept_trigrams.size(); ++i) values[i] = kept_trigrams[i].score;
  AppendI16(values, bytes);
  lexicon::SealFile(bytes);
}

}  // namespace keydecide
