#include "tools/replay.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "decide/popup_probe.h"
#include "keydecide/engine.h"
#include "tools/progress_bar.h"
#include "tools/text_util.h"
#include "tools/typist.h"

namespace keydecide {

namespace {

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x += 32;
    if (y >= 'A' && y <= 'Z') y += 32;
    if (x != y) return false;
  }
  return true;
}

// Rank of `word` among the candidates (case-insensitive unless exact_case), or -1.
int RankOf(const Decision& d, std::string_view word, bool exact_case) {
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    if (exact_case ? d.candidates[i].text == word : EqualsNoCase(d.candidates[i].text, word)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// The end of the word that starts at `pos`: its run of letters, and with `contractions` the
// apostrophes between letters ("don't", "o'clock").
size_t WordEnd(std::string_view text, size_t pos, bool contractions) {
  size_t end = pos;
  while (end < text.size() &&
         (IsAsciiLetter(text[end]) || (contractions && text[end] == '\'' && end > pos &&
                                       end + 1 < text.size() && IsAsciiLetter(text[end + 1])))) {
    ++end;
  }
  return end;
}

double Rate(uint64_t num, uint64_t den) { return den ? static_cast<double>(num) / den : 0.0; }

// One row of --popup-features: the label, then the features of the decision just made.
void WritePopupRow(const Session& session, bool helps, std::ostream* out) {
  PopupFeatures f;
  if (!LatestPopupFeatures(session, &f)) return;
  char buf[32];
  *out << (helps ? '1' : '0');
  for (float v : f) {
    std::snprintf(buf, sizeof buf, "\t%.7g", v);
    *out << buf;
  }
  *out << '\n';
}

}  // namespace

double RocAuc(std::vector<std::pair<float, bool>> scored) {
  // Mann-Whitney U: the mean rank of the positives among all, ties sharing their ranks.
  std::sort(scored.begin(), scored.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  double positive_rank_sum = 0;
  uint64_t positives = 0;
  for (size_t i = 0; i < scored.size();) {
    size_t j = i;
    while (j < scored.size() && scored[j].first == scored[i].first) ++j;
    const double mid_rank = (static_cast<double>(i) + static_cast<double>(j - 1)) / 2.0 + 1.0;
    for (size_t k = i; k < j; ++k) {
      if (scored[k].second) {
        positive_rank_sum += mid_rank;
        ++positives;
      }
    }
    i = j;
  }
  const uint64_t negatives = scored.size() - positives;
  if (positives == 0 || negatives == 0) return std::nan("");
  const double p = static_cast<double>(positives);
  return (positive_rank_sum - p * (p + 1) / 2.0) / (p * static_cast<double>(negatives));
}

double ReplayResult::ksr() const { return characters ? 1.0 - Rate(keystrokes, characters) : 0; }
double ReplayResult::ksr_word_only() const {
  return characters ? 1.0 - Rate(keystrokes_word_only, characters) : 0;
}
double ReplayResult::next_word_top1_rate() const { return Rate(next_word_top1, word_starts); }
double ReplayResult::next_word_top3_rate() const { return Rate(next_word_top3, word_starts); }

double ReplayResult::LatencyQuantile(double q) const {
  if (latency_us.empty()) return 0;
  std::vector<float> v = latency_us;
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v.end());
  return v[i];
}

double ReplayResult::PopupAuc() const { return RocAuc(popup); }

nlohmann::json WordTraceJson(std::string_view text, const WordTrace& t) {
  nlohmann::json ranks = nlohmann::json::array();
  for (size_t i = 0; i < WordTrace::kTracedLetters && i <= t.typed; ++i) ranks.push_back(t.rank[i]);
  return {{"offset", t.offset},         {"word", text.substr(t.offset, t.length)},
          {"typed", t.typed},           {"picked", t.picked},
          {"word_start", t.word_start}, {"ranks", ranks}};
}

nlohmann::json ReplayReport(const ReplayResult& r) {
  const double auc = r.PopupAuc();
  return {
      {"ksr", r.ksr()},
      {"ksr_word_only", r.ksr_word_only()},
      {"next_word_top1", r.next_word_top1_rate()},
      {"next_word_top3", r.next_word_top3_rate()},
      {"keystrokes", r.keystrokes},
      {"keystrokes_word_only", r.keystrokes_word_only},
      {"characters", r.characters},
      {"words", r.words},
      {"words_picked", r.words_picked},
      {"decisions", r.latency_us.size()},
      {"latency_us",
       {{"p50", r.LatencyQuantile(0.5)},
        {"p95", r.LatencyQuantile(0.95)},
        {"p99", r.LatencyQuantile(0.99)}}},
      {"popup_auc", std::isnan(auc) ? nlohmann::json(nullptr) : nlohmann::json(auc)},
  };
}

Status Replay(std::string_view text, Session* session, const ReplayOptions& options,
              ReplayResult* result) {
  if (options.suggestions < 1 || options.suggestions > 200) {
    return Status::InvalidArgument("suggestions must be in 1..200");
  }
  *result = ReplayResult();
  ProgressBar progress(options.progress ? "replay" : "", options.progress ? text.size() : 0);
  const size_t k = static_cast<size_t>(options.suggestions);
  if (options.trace != nullptr) options.trace->clear();
  if (options.popup_features != nullptr) {
    *options.popup_features << "label";
    for (std::string_view name : kPopupFeatureNames) *options.popup_features << '\t' << name;
    *options.popup_features << '\n';
  }
  const size_t asked =
      options.trace != nullptr ? std::max<size_t>(k, static_cast<size_t>(options.trace_depth)) : k;
  Decision decision;
  auto type = [&](std::string_view keys) {
    return options.typist ? session->Type(keys, options.typist->Press(keys)) : session->Type(keys);
  };
  size_t pos = 0;
  while (pos < text.size()) {
    progress.Update(pos);
    if (!IsAsciiLetter(text[pos])) {
      // One keystroke for one character (a whole UTF-8 sequence).
      const size_t end = BoundaryAtOrAfter(text, pos + 1);
      KD_RETURN_IF_ERROR(type(text.substr(pos, end - pos)));
      ++result->characters;
      ++result->keystrokes;
      ++result->keystrokes_word_only;
      pos = end;
      continue;
    }
    const size_t end = WordEnd(text, pos, options.contractions);
    const std::string_view word = text.substr(pos, end - pos);
    ++result->words;
    result->characters += word.size();
    bool picked = false;
    // After an apostrophe or a non-ASCII letter the engine is still inside a word ("t" of
    // "don't"): that fragment is no word start for the next-word statistics.
    const bool word_start = session->composition().empty();
    result->word_starts += word_start;
    WordTrace* trace = nullptr;
    if (options.trace != nullptr) {
      trace = &options.trace->emplace_back();
      trace->offset = pos;
      trace->length = static_cast<uint16_t>(std::min<size_t>(word.size(), 65535));
      trace->word_start = word_start;
      std::fill(std::begin(trace->rank), std::end(trace->rank), int16_t{-1});
    }
    size_t typed = 0;
    for (size_t i = 0; i < word.size() && !picked; ++i) {
      const auto start = std::chrono::steady_clock::now();
      KD_RETURN_IF_ERROR(session->Decide(
          static_cast<int>(i == 0 ? std::max<size_t>(asked, 3) : asked), &decision));
      result->latency_us.push_back(
          std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - start)
              .count());
      const int rank = RankOf(decision, word, options.exact_case);
      if (trace != nullptr && i < WordTrace::kTracedLetters) {
        trace->rank[i] = static_cast<int16_t>(rank);
      }
      if (decision.has_model) {
        const bool helps = rank >= 0 && rank < 3 && word.size() - i >= 2;
        result->popup.push_back({decision.popup.probability, helps});
        if (options.popup_features != nullptr) {
          WritePopupRow(*session, helps, options.popup_features);
        }
      }
      if (i == 0 && word_start) {
        result->next_word_top1 += rank == 0;
        result->next_word_top3 += rank >= 0 && rank < 3;
      }
      ++result->keystrokes;
      ++result->keystrokes_word_only;
      if (rank >= 0 && static_cast<size_t>(rank) < k) {
        picked = true;
        // The pick completes the word as written in the text. Typing the rest (free of
        // keystrokes) leaves the session exactly where the text goes on.
        KD_RETURN_IF_ERROR(type(word.substr(i)));
      } else {
        KD_RETURN_IF_ERROR(type(word.substr(i, 1)));
        ++typed;
      }
    }
    if (trace != nullptr) {
      trace->typed = static_cast<uint16_t>(typed);
      trace->picked = picked;
    }
    pos = end;
    if (picked) {
      ++result->words_picked;
      if (pos < text.size() && text[pos] == ' ') {  // auto-space: the space comes free
        KD_RETURN_IF_ERROR(type(" "));
        ++result->characters;
        ++result->keystrokes_word_only;
        ++pos;
      }
    }
  }
  return Status::OK();
}

}  // namespace keydecide
