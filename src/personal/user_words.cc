#include "personal/user_words.h"

#include <algorithm>
#include <map>

#include "text/letter_case.h"

namespace keydecide {

UserWords UserWords::Build(const std::vector<LearnedWord>& words,
                           const std::vector<LearnedPair>& pairs, uint64_t tick,
                           std::vector<Shortcut> shortcuts) {
  struct Merged {
    Word word;
    uint32_t spelling_count = 0;
  };
  std::map<std::string, Merged, std::less<>> merged;
  for (const LearnedWord& w : words) {
    Merged& m = merged[ToLowerUtf8(w.word)];
    m.word.weight += static_cast<float>(DecayedWeight(w.weight, w.last_tick, tick));
    m.word.count += w.count;
    m.word.picks += w.picks;
    if (w.count > m.spelling_count) {
      m.spelling_count = w.count;
      m.word.spelling = w.word;
    }
  }
  UserWords out;
  out.words_.reserve(merged.size());
  for (auto& [key, m] : merged) {
    m.word.key = key;
    out.words_.push_back(std::move(m.word));
  }
  std::map<std::pair<std::string, std::string>, float> pair_weight;
  for (const LearnedPair& p : pairs) {
    pair_weight[{ToLowerUtf8(p.previous), ToLowerUtf8(p.word)}] +=
        static_cast<float>(DecayedWeight(p.weight, p.last_tick, tick));
  }
  out.pairs_by_word_.reserve(pair_weight.size());  // the map's order: previous, then word
  for (const auto& [k, weight] : pair_weight) {
    out.pairs_by_word_.push_back({k.first, k.second, weight});
  }
  out.pairs_ = out.pairs_by_word_;
  std::sort(out.pairs_.begin(), out.pairs_.end(), [](const Pair& a, const Pair& b) {
    if (a.previous != b.previous) return a.previous < b.previous;
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.word < b.word;
  });
  out.shortcuts_ = std::move(shortcuts);
  std::sort(out.shortcuts_.begin(), out.shortcuts_.end(),
            [](const Shortcut& a, const Shortcut& b) { return a.trigger < b.trigger; });
  return out;
}

const Shortcut* UserWords::FindShortcut(std::string_view key) const {
  auto it = std::lower_bound(shortcuts_.begin(), shortcuts_.end(), key,
                             [](const Shortcut& s, std::string_view k) { return s.trigger < k; });
  return it != shortcuts_.end() && it->trigger == key ? &*it : nullptr;
}

const UserWords::Word* UserWords::Find(std::string_view key) const {
  auto it = std::lower_bound(words_.begin(), words_.end(), key,
                             [](const Word& w, std::string_view k) { return w.key < k; });
  return it != words_.end() && it->key == key ? &*it : nullptr;
}

std::span<const UserWords::Word> UserWords::WithPrefix(std::string_view prefix) const {
  auto first = std::lower_bound(words_.begin(), words_.end(), prefix,
                                [](const Word& w, std::string_view p) { return w.key < p; });
  auto last = std::upper_bound(first, words_.end(), prefix, [](std::string_view p, const Word& w) {
    return p < std::string_view(w.key).substr(0, p.size());
  });
  return {first, last};
}

std::span<const UserWords::Pair> UserWords::Following(std::string_view previous) const {
  auto first = std::lower_bound(pairs_.begin(), pairs_.end(), previous,
                                [](const Pair& p, std::string_view k) { return p.previous < k; });
  auto last = std::upper_bound(first, pairs_.end(), previous,
                               [](std::string_view k, const Pair& p) { return k < p.previous; });
  return {first, last};
}

float UserWords::PairWeight(std::string_view previous, std::string_view word) const {
  auto it = std::lower_bound(
      pairs_by_word_.begin(), pairs_by_word_.end(), std::make_pair(previous, word),
      [](const Pair& p, const std::pair<std::string_view, std::string_view>& k) {
        return std::string_view(p.previous) < k.first ||
               (std::string_view(p.previous) == k.first && std::string_view(p.word) < k.second);
      });
  return it != pairs_by_word_.end() && it->previous == previous && it->word == word ? it->weight
                                                                                    : 0;
}

}  // namespace keydecide
