#include "tools/replay.h"

#include <algorithm>
#include <chrono>
#include <cmath>

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

// Rank of `word` among the candidates (case-insensitive), or -1.
int RankOf(const Decision& d, std::string_view word) {
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    if (EqualsNoCase(d.candidates[i].text, word)) return static_cast<int>(i);
  }
  return -1;
}

double Rate(uint64_t num, uint64_t den) { return den ? static_cast<double>(num) / den : 0.0; }

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

double ReplayResult::PopupAuc() const {
  return RocAuc(popup);
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
       {{"p50", r.LatencyQuantile(0.5)}, {"p95", r.LatencyQuantile(0.95)},
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
    size_t end = pos;
    while (end < text.size() && IsAsciiLetter(text[end])) ++end;
    const std::string_view word = text.substr(pos, end - pos);
    ++result->words;
    result->characters += word.size();
    bool picked = false;
    // After an apostrophe or a non-ASCII letter the engine is still inside a word ("t" of
    // "don't"): that fragment is no word start for the next-word statistics.
    const bool word_start = session->composition().empty();
    result->word_starts += word_start;
    for (size_t i = 0; i < word.size() && !picked; ++i) {
      const auto start = std::chrono::steady_clock::now();
      KD_RETURN_IF_ERROR(session->Decide(static_cast<int>(i == 0 ? std::max<size_t>(k, 3) : k),
                                         &decision));
      result->latency_us.push_back(std::chrono::duration<float, std::micro>(
                                       std::chrono::steady_clock::now() - start)
                                       .count());
      const int rank = RankOf(decision, word);
      if (decision.has_model) {
        result->popup.push_back(
            {decision.popup.probability, rank >= 0 && rank < 3 && word.size() - i >= 2});
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
      }
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
