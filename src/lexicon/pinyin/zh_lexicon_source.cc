#include "lexicon/pinyin/zh_lexicon_source.h"

#include <iconv.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "base/text_lines.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/pinyin/pinyin_syllables.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

constexpr std::string_view kUmlaut = "\xC3\xBC";  // ü

// Splits a line into fields separated by runs of spaces and tabs.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

class Errors {
 public:
  Errors(std::string_view name, ZhLexiconStats* stats) : name_(name), stats_(stats) {}
  void Add(size_t line, std::string_view reason) {
    ++stats_->malformed_lines;
    if (stats_->errors.size() >= ZhLexiconStats::kMaxErrors) return;
    std::string e(name_);
    e += ':';
    e += std::to_string(line);
    e += ": ";
    e += reason;
    stats_->errors.push_back(std::move(e));
  }

 private:
  std::string_view name_;
  ZhLexiconStats* stats_;
};

// Letters and apostrophes only, no empty syllable.
bool WellFormedReading(std::string_view r) {
  if (r.empty() || r.front() == '\'' || r.back() == '\'') return false;
  for (size_t i = 0; i < r.size(); ++i) {
    const char c = r[i];
    if (c == '\'') {
      if (r[i + 1] == '\'') return false;
    } else if (r.substr(i, kUmlaut.size()) == kUmlaut) {
      i += kUmlaut.size() - 1;
    } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool PinyinReadingToKey(std::string_view reading, std::string* key) {
  key->clear();
  std::string syllable;
  size_t i = 0;
  while (true) {
    const bool end = i == reading.size();
    if (end || reading[i] == '\'') {
      const std::string_view canonical = pinyin::CanonicalSyllable(syllable);
      if (canonical.empty()) return false;
      *key += canonical;
      syllable.clear();
      if (end) return true;
      ++i;
      continue;
    }
    if (reading.substr(i, kUmlaut.size()) == kUmlaut) {
      syllable += 'v';
      i += kUmlaut.size();
      continue;
    }
    const char c = reading[i++];
    if (c >= 'A' && c <= 'Z') {
      syllable += static_cast<char>(c - 'A' + 'a');
    } else if (c >= 'a' && c <= 'z') {
      syllable += c;
    } else {
      return false;
    }
  }
}

const std::vector<char32_t>& GbkMisreadPunctuation() {
  static const std::vector<char32_t> chars = [] {
    // The CJK and full-width punctuation, quotes and dashes people type in Chinese: three
    // UTF-8 bytes each, so a GBK reading of the first two leaves a byte dangling (the mark of
    // mojibake). Not "·" (two bytes, whose GBK reading is 路, a real word) nor the rare
    // full-width ～｛｝ (read as 锝, technetium).
    static constexpr std::string_view kPunctuation =
        "、。，：；！？“”‘’（）《》【】「」『』…—〈〉〔〕．／＂＇［］";
    std::vector<char32_t> out;
    iconv_t cd = ::iconv_open("UTF-8", "GBK");
    if (cd == reinterpret_cast<iconv_t>(-1)) return out;  // no GBK table: nothing to filter
    size_t pos = 0;
    while (pos < kPunctuation.size()) {
      const size_t start = pos;
      char32_t cp;
      utf8::Decode(kPunctuation, &pos, &cp);
      char in[2] = {kPunctuation[start], kPunctuation[start + 1]};
      char decoded[8];
      char* in_ptr = in;
      char* out_ptr = decoded;
      size_t in_left = 2, out_left = sizeof(decoded);
      ::iconv(cd, nullptr, nullptr, nullptr, nullptr);  // reset the state
      if (::iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left) == static_cast<size_t>(-1)) continue;
      size_t at = 0;
      char32_t misread;
      if (utf8::Decode(std::string_view(decoded, out_ptr - decoded), &at, &misread) &&
          misread >= 0x80 && std::find(out.begin(), out.end(), misread) == out.end()) {
        out.push_back(misread);
      }
    }
    ::iconv_close(cd);
    return out;
  }();
  return chars;
}

bool StartsWithGbkMisread(std::string_view word) {
  size_t pos = 0;
  char32_t cp;
  if (!utf8::Decode(word, &pos, &cp)) return false;
  const std::vector<char32_t>& misread = GbkMisreadPunctuation();
  return std::find(misread.begin(), misread.end(), cp) != misread.end();
}

namespace {

// word -> (key, weight) for each usable reading.
using ReadingsByWord = std::unordered_map<std::string, std::vector<std::pair<std::string, double>>>;

// The readings file ("word pin'yin [score]" lines) into *by_word.
void ReadReadings(std::string_view readings, std::string_view readings_name, ZhLexiconStats* stats,
                  ReadingsByWord* by_word) {
  Errors reading_errors(readings_name, stats);
  std::string key;
  ForEachLine(readings, [&](size_t number, std::string_view line) {
    ++stats->reading_lines;
    const std::vector<std::string_view> f = Fields(line);
    if (f.size() < 2 || f.size() > 3) {
      reading_errors.Add(number, "expected WORD PIN'YIN [SCORE]");
      return;
    }
    if (!utf8::Validate(f[0]).ok()) {
      reading_errors.Add(number, "word is not valid UTF-8");
      return;
    }
    if (StartsWithGbkMisread(f[0])) {
      ++stats->skipped_mojibake;
      return;
    }
    if (!WellFormedReading(f[1])) {
      reading_errors.Add(number, "reading is not pinyin letters separated by apostrophes");
      return;
    }
    double score = 0;
    if (f.size() == 3) {
      const auto [end, ec] = std::from_chars(f[2].data(), f[2].data() + f[2].size(), score);
      if (ec != std::errc() || end != f[2].data() + f[2].size() || !std::isfinite(score) ||
          score > 6 || score < -30) {
        reading_errors.Add(number, "score is not a number in [-30, 6]");
        return;
      }
    }
    if (!PinyinReadingToKey(f[1], &key)) {
      ++stats->readings_bad_syllable;
      return;
    }
    auto& list = (*by_word)[std::string(f[0])];
    const double weight = std::pow(10.0, score);
    for (auto& [k, w] : list) {
      if (k == key) {  // the same toneless reading twice: keep the larger weight
        w = std::max(w, weight);
        return;
      }
    }
    list.emplace_back(key, weight);
  });
}

// The counts file ("word count [tag]" lines) into *word_counts, the words in *order of first
// appearance (so the build is deterministic).
void ReadCounts(std::string_view counts, std::string_view counts_name, ZhLexiconStats* stats,
                std::unordered_map<std::string, uint64_t>* word_counts,
                std::vector<std::string>* order) {
  Errors count_errors(counts_name, stats);
  ForEachLine(counts, [&](size_t number, std::string_view line) {
    ++stats->count_lines;
    const std::vector<std::string_view> f = Fields(line);
    if (f.size() < 2 || f.size() > 3) {
      count_errors.Add(number, "expected WORD COUNT [TAG]");
      return;
    }
    if (!utf8::Validate(f[0]).ok()) {
      count_errors.Add(number, "word is not valid UTF-8");
      return;
    }
    uint64_t count = 0;
    const auto [end, ec] = std::from_chars(f[1].data(), f[1].data() + f[1].size(), count);
    if (ec != std::errc() || end != f[1].data() + f[1].size() || count > 1000000000) {
      count_errors.Add(number, "count is not an integer in [0, 1e9]");
      return;
    }
    if (count == 0) return;
    if (StartsWithGbkMisread(f[0])) {
      ++stats->skipped_mojibake;
      return;
    }
    auto [it, inserted] = word_counts->emplace(std::string(f[0]), 0);
    if (inserted) order->push_back(it->first);
    it->second = std::min<uint64_t>(it->second + count, 1000000000);
  });
}

}  // namespace

Status AddZhLexiconWords(std::string_view counts, std::string_view counts_name,
                         std::string_view readings, std::string_view readings_name,
                         size_t max_malformed, LexiconBuilder* builder, ZhLexiconStats* stats) {
  *stats = ZhLexiconStats();
  ReadingsByWord by_word;
  ReadReadings(readings, readings_name, stats, &by_word);
  std::unordered_map<std::string, uint64_t> word_counts;
  std::vector<std::string> order;
  ReadCounts(counts, counts_name, stats, &word_counts, &order);

  if (stats->malformed_lines > max_malformed) {
    std::string message = std::to_string(stats->malformed_lines);
    message += " malformed line(s) (at most ";
    message += std::to_string(max_malformed);
    message += " allowed)";
    for (const std::string& e : stats->errors) {
      message += "\n  ";
      message += e;
    }
    return Status::InvalidArgument(message);
  }

  stats->words = order.size();
  for (const std::string& word : order) {
    const auto it = by_word.find(word);
    if (it == by_word.end()) {
      ++stats->skipped_no_reading;
      continue;
    }
    double total_weight = 0;
    bool any = false;
    for (const auto& [k, w] : it->second) {
      if (k.size() > lexicon::kMaxKeyBytes) continue;
      total_weight += w;
      any = true;
    }
    if (!any) {
      ++stats->skipped_long_key;
      continue;
    }
    const double count = static_cast<double>(word_counts[word]);
    for (const auto& [k, w] : it->second) {
      if (k.size() > lexicon::kMaxKeyBytes) continue;
      builder->AddKeyedWord(k, word, count * w / total_weight);
    }
    ++stats->words_added;
  }
  return Status::OK();
}

}  // namespace keydecide
