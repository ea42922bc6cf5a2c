#include "lexicon/word_bigram_builder.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "lexicon/lexicon.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/lexicon_word_ids.h"
#include "lexicon/word_bigram.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

// CJK Unified Ideographs and their extensions, and the compatibility ideographs.
bool IsHan(char32_t cp) {
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x3134F);
}

// A hanzi without a word: far below any word, so the segmentation uses it only when it must.
constexpr float kUnknownLogP = -40.0f;

void AppendU32(uint32_t v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

}  // namespace

WordBigramBuilder::WordBigramBuilder(const Lexicon& lexicon, const Options& options)
    : lexicon_(lexicon), options_(options), ids_(lexicon), by_entry_(ids_.by_entry()) {
  // Each word's count in the lexicon: its entry's (English), or its spellings' summed.
  std::vector<uint64_t> counts(ids_.word_count(), 0);  // id 0: the sentence start
  for (uint32_t e = 0; e < lexicon.entry_count(); ++e) {
    const std::span<const lexicon::Variant> variants = lexicon.Variants(e);
    if (by_entry_) {
      counts[ids_.OfEntry(e)] = lexicon.Count(e);
      continue;
    }
    for (size_t v = 0; v < variants.size(); ++v) {
      counts[ids_.word_of_variant()[lexicon.VariantIndex(e, v)]] += variants[v].count;
    }
  }
  const double log_total =
      std::log(static_cast<double>(std::max<uint64_t>(lexicon.total_count(), 1)));
  log_p_.resize(counts.size());
  for (size_t id = 1; id < counts.size(); ++id) {
    log_p_[id] = static_cast<float>(
        std::log(static_cast<double>(std::max<uint64_t>(counts[id], 1))) - log_total);
  }
  stats_.words = static_cast<uint32_t>(counts.size());
  word_total_.assign(counts.size(), 0);
  unlisted_followers_.assign(counts.size(), 0);
}

uint32_t WordBigramBuilder::WordId(std::string_view text) const { return ids_.Find(text); }

void WordBigramBuilder::AddText(std::string_view text) {
  if (by_entry_) {
    AddLetterText(text);
  } else {
    AddHanText(text);
  }
}

// English words as the session reads them (en_session.cc's composition rule), keyed as the
// lexicon keys them: lower-cased, with a straight apostrophe.
void WordBigramBuilder::AddLetterText(std::string_view text) {
  constexpr char32_t kRightQuote = 0x2019;
  std::string word, key;
  uint32_t previous = WordBigram::kSentenceStart;
  bool spaces_only = false;  // since the last word ended, nothing but spaces
  const auto end_word = [&] {
    while (!word.empty() && word.back() == '\'') word.pop_back();  // "dogs'" is "dogs"
    if (word.empty()) return;
    key.clear();
    AppendLowerUtf8(word, &key);
    word.clear();
    const uint32_t entry = lexicon_.Find(key);
    if (entry == lexicon::kNoEntry) {
      ++stats_.unknown_words;
      previous = WordBigram::kSentenceStart;
    } else {
      const uint32_t id = ids_.OfEntry(entry);
      if (!spaces_only) previous = WordBigram::kSentenceStart;
      ++stats_.tokens;
      ++word_total_[id];
      ++pairs_[uint64_t{previous} << 32 | id];
      previous = id;
    }
    spaces_only = true;
  };
  for (size_t pos = 0; pos < text.size();) {
    const size_t at = pos;
    char32_t cp = 0;
    const bool valid = utf8::Decode(text, &pos, &cp);
    if (valid && IsLetter(cp)) {
      word.append(text.substr(at, pos - at));
    } else if (valid && (cp == '\'' || cp == kRightQuote) && !word.empty() && word.back() != '\'') {
      word.push_back('\'');
    } else {
      end_word();
      if (!(valid && cp == ' ')) spaces_only = false;
    }
  }
  end_word();
}

void WordBigramBuilder::AddHanText(std::string_view text) {
  size_t pos = 0, run_start = 0;
  bool in_run = false;
  while (pos < text.size()) {
    const size_t at = pos;
    char32_t cp = 0;
    const bool valid = utf8::Decode(text, &pos, &cp);
    const bool han = valid && IsHan(cp);
    if (han && !in_run) run_start = at;
    if (!han && in_run) AddRun(text.substr(run_start, at - run_start));
    in_run = han;
  }
  if (in_run) AddRun(text.substr(run_start));
}

Status WordBigramBuilder::AddTeacherCounts(std::string_view tsv, double weight) {
  if (!(std::isfinite(weight) && weight > 0)) {
    return Status::InvalidArgument("teacher weight must be finite and positive");
  }
  // Counted apart first: a word's count must cover the pairs it starts (WordBigram checks it), and
  // the teacher's rounded counts may not, nor its unigram where its pairs' left words differ.
  std::vector<uint64_t> unigrams(word_total_.size(), 0), lefts(word_total_.size(), 0);
  const auto add_totals = [&] {
    for (size_t w = 1; w < word_total_.size(); ++w) {
      const uint64_t add = std::max(unigrams[w], lefts[w]);
      word_total_[w] = static_cast<uint32_t>(std::min<uint64_t>(word_total_[w] + add, 0xFFFFFFFFu));
      stats_.tokens += add;
      // The teacher's occurrences of w beyond its listed pairs were followed by words it left
      // to its back-off: they count in c(w), so that mass stays with the back-off (word_bigram.h)
      // instead of going to the listed pairs.
      unlisted_followers_[w] += add - lefts[w];
    }
  };
  std::vector<uint32_t> left_ids, right_ids;
  size_t number = 0;
  while (!tsv.empty()) {
    const size_t nl = tsv.find('\n');
    const std::string_view line = tsv.substr(0, nl);
    tsv.remove_prefix(nl == std::string_view::npos ? tsv.size() : nl + 1);
    ++number;
    if (line.empty()) continue;
    const size_t tab1 = line.find('\t');
    const size_t tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
    uint64_t count = 0;
    const std::string_view digits =
        tab2 == std::string_view::npos ? std::string_view() : line.substr(tab2 + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
      add_totals();  // the lines before stay added, consistently
      return Status::InvalidArgument("teacher counts line " + std::to_string(number) +
                                     ": expected left<TAB>right<TAB>count");
    }
    const std::string_view left = line.substr(0, tab1);
    const std::string_view right = line.substr(tab1 + 1, tab2 - tab1 - 1);
    const double scaled = std::round(static_cast<double>(count) * weight);
    const bool unigram = left == "<unigram>";
    const bool start = left == "<s>";
    // A word the lexicon does not spell is read as the lexicon words it splits into (Segment;
    // every hanzi must have one): the pair goes to its first word and from its last one.
    const bool known = SegmentTeacherWord(right, &right_ids) &&
                       (unigram || start || SegmentTeacherWord(left, &left_ids));
    if (!known || scaled < 1) {
      ++stats_.teacher_skipped;
      continue;
    }
    const auto add = static_cast<uint32_t>(std::min<double>(scaled, 1e9));
    ++stats_.teacher_lines;
    const auto add_pair = [&](uint32_t v, uint32_t w) {
      uint32_t& pair = pairs_[uint64_t{v} << 32 | w];
      pair = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{pair} + add, 0xFFFFFFFFu));
      lefts[v] += add;
    };
    if (unigram) {
      for (const uint32_t id : right_ids) unigrams[id] += add;
    } else {
      add_pair(start ? WordBigram::kSentenceStart : left_ids.back(), right_ids.front());
    }
    if (unigram) {  // the pairs within a split word: once per occurrence of the word
      for (size_t i = 0; i + 1 < right_ids.size(); ++i) add_pair(right_ids[i], right_ids[i + 1]);
    }
  }
  add_totals();
  return Status::OK();
}

bool WordBigramBuilder::SegmentTeacherWord(std::string_view text,
                                           std::vector<uint32_t>* ids) const {
  if (const uint32_t id = WordId(text); id != 0) {
    ids->assign(1, id);
    return true;
  }
  if (!options_.split_teacher_words || text.empty()) return false;
  Segment(text, ids);
  return std::find(ids->begin(), ids->end(), 0u) == ids->end();
}

void WordBigramBuilder::Segment(std::string_view run, std::vector<uint32_t>* ids) const {
  ids->clear();
  std::vector<size_t> offsets;  // code point starts, then run.size()
  for (size_t pos = 0; pos < run.size();) {
    offsets.push_back(pos);
    char32_t cp;
    utf8::Decode(run, &pos, &cp);
  }
  const size_t n = offsets.size();
  offsets.push_back(run.size());
  // best[i]: the best segmentation of the first i characters; from[i]: where its last word
  // starts, word[i]: that word's id (0: an unknown character).
  std::vector<float> best(n + 1, -std::numeric_limits<float>::infinity());
  std::vector<size_t> from(n + 1, 0);
  std::vector<uint32_t> word(n + 1, 0);
  best[0] = 0;
  for (size_t i = 1; i <= n; ++i) {
    best[i] = best[i - 1] + kUnknownLogP;
    from[i] = i - 1;
    for (size_t len = 1; len <= std::min(i, options_.max_word_chars); ++len) {
      const size_t j = i - len;
      const uint32_t id = WordId(run.substr(offsets[j], offsets[i] - offsets[j]));
      if (id != 0 && best[j] + log_p_[id] > best[i]) {
        best[i] = best[j] + log_p_[id];
        from[i] = j;
        word[i] = id;
      }
    }
  }
  for (size_t i = n; i > 0; i = from[i]) ids->push_back(word[i]);
  std::reverse(ids->begin(), ids->end());
}

void WordBigramBuilder::AddRun(std::string_view run) {
  std::vector<uint32_t> ids;
  Segment(run, &ids);
  stats_.han_chars += utf8::Length(run);
  uint32_t previous = WordBigram::kSentenceStart;
  for (const uint32_t id : ids) {
    if (id == 0) {  // an unknown hanzi: the run starts again after it
      ++stats_.unknown_chars;
      previous = WordBigram::kSentenceStart;
      continue;
    }
    ++stats_.tokens;
    ++word_total_[id];
    ++pairs_[uint64_t{previous} << 32 | id];
    previous = id;
  }
}

Status WordBigramBuilder::Finish(std::string* bytes, Stats* stats) const {
  if (!(options_.discount > 0.0f && options_.discount < 1.0f)) {
    return Status::InvalidArgument("discount must be in (0, 1)");
  }
  if (!(options_.unigram_weight >= 0.0f && options_.unigram_weight <= 1.0f)) {
    return Status::InvalidArgument("unigram weight must be in [0, 1]");
  }
  const uint32_t words = stats_.words;
  std::vector<uint32_t> left_total(words, 0), left_distinct(words, 0);
  std::vector<std::pair<uint64_t, uint32_t>> kept;
  for (const auto& [pair, count] : pairs_) {
    const auto left = static_cast<uint32_t>(pair >> 32);
    left_total[left] += count;
    ++left_distinct[left];
    if (count >= options_.min_pair_count) kept.emplace_back(pair, count);
  }
  for (uint32_t v = 1; v < words; ++v) {  // the sentence start has no teacher occurrences
    left_total[v] = static_cast<uint32_t>(
        std::min<uint64_t>(uint64_t{left_total[v]} + unlisted_followers_[v], word_total_[v]));
  }
  std::sort(kept.begin(), kept.end());
  if (kept.size() > std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("too many word pairs");
  }

  bigram::Header h;
  h.variant_count = static_cast<uint32_t>(ids_.word_of_variant().size());
  h.lexicon_crc32 = lexicon_.header().file_crc32;
  h.word_count = words;
  h.pair_count = static_cast<uint32_t>(kept.size());
  h.discount = options_.discount;
  h.unigram_weight = stats_.tokens > 0 ? options_.unigram_weight : 0.0f;
  h.tokens = stats_.tokens;
  h.EncodeTo(bytes);
  bytes->reserve(h.expected_file_size());
  for (const uint32_t w : ids_.word_of_variant()) AppendU32(w, bytes);
  for (const uint32_t c : left_total) AppendU32(c, bytes);
  for (const uint32_t c : left_distinct) AppendU32(c, bytes);
  for (const uint32_t c : word_total_) AppendU32(c, bytes);
  size_t next = 0;
  for (uint32_t v = 0; v <= words; ++v) {
    while (next < kept.size() && (kept[next].first >> 32) < v) ++next;
    AppendU32(static_cast<uint32_t>(next), bytes);
  }
  for (const auto& [pair, count] : kept) AppendU32(static_cast<uint32_t>(pair), bytes);
  for (const auto& [pair, count] : kept) AppendU32(count, bytes);
  lexicon::SealFile(bytes);

  *stats = stats_;
  stats->pairs_seen = pairs_.size();
  stats->pairs_kept = kept.size();
  return Status::OK();
}

}  // namespace keydecide
