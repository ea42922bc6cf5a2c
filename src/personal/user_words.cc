#include "personal/user_words.h"

#include <algorithm>
#include <map>

#include "personal/export_format.h"
#include "text/letter_case.h"

namespace keydecide {

namespace {

uint64_t HashKey(std::string_view key) { return std::hash<std::string_view>{}(key); }

uint64_t HashPair(std::string_view previous, std::string_view word) {
  return HashKey(previous) * 0x9E3779B97F4A7C15u ^ HashKey(word);
}

// The slots of a hash index over n items (at most half full), item i at the first free slot
// from hash(i).
template <typename Hash>
std::vector<uint32_t> MakeSlots(size_t n, uint32_t empty, Hash hash) {
  size_t size = 1;
  while (size < 2 * n) size *= 2;
  std::vector<uint32_t> slots(size, empty);
  for (uint32_t i = 0; i < n; ++i) {
    size_t at = hash(i) & (size - 1);
    while (slots[at] != empty) at = (at + 1) & (size - 1);
    slots[at] = i;
  }
  return slots;
}

// The item at the slots for `hash` that `is` accepts, or `empty`.
template <typename Is>
uint32_t Probe(const std::vector<uint32_t>& slots, uint32_t empty, uint64_t hash, Is is) {
  if (slots.empty()) return empty;
  for (size_t at = hash & (slots.size() - 1);; at = (at + 1) & (slots.size() - 1)) {
    if (slots[at] == empty || is(slots[at])) return slots[at];
  }
}

}  // namespace

void UserWords::BuildPairs(const std::vector<LearnedPair>& pairs, uint64_t tick) {
  std::map<std::pair<std::string, std::string>, float> pair_weight;
  for (const LearnedPair& p : pairs) {
    if (!personal::IsStorableWord(p.previous) || !personal::IsStorableWord(p.word)) continue;
    pair_weight[{ToLowerUtf8(p.previous), ToLowerUtf8(p.word)}] +=
        static_cast<float>(DecayedWeight(p.weight, p.last_tick, tick));
  }
  pairs_by_word_.reserve(pair_weight.size());  // the map's order: previous, then word
  for (const auto& [k, weight] : pair_weight) {
    pairs_by_word_.push_back({k.first, k.second, weight});
  }
  pair_slots_ = MakeSlots(pairs_by_word_.size(), kEmptySlot, [this](uint32_t i) {
    return HashPair(pairs_by_word_[i].previous, pairs_by_word_[i].word);
  });
  for (const Pair& p : pairs_by_word_) {
    max_pair_weight_ = std::max(max_pair_weight_, p.weight);
    const Word* previous = Find(p.previous);
    const Word* word = Find(p.word);
    if (previous == nullptr || word == nullptr || previous->tag == kNoTag || word->tag == kNoTag) {
      continue;
    }
    tag_pairs_.push_back({previous->tag, word->tag, p.weight});
  }
  std::sort(tag_pairs_.begin(), tag_pairs_.end(), [](const TagPair& a, const TagPair& b) {
    return a.previous != b.previous ? a.previous < b.previous : a.word < b.word;
  });
  pairs_ = pairs_by_word_;
  std::sort(pairs_.begin(), pairs_.end(), [](const Pair& a, const Pair& b) {
    if (a.previous != b.previous) return a.previous < b.previous;
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.word < b.word;
  });
}

UserWords UserWords::Build(const std::vector<LearnedWord>& words,
                           const std::vector<LearnedPair>& pairs, uint64_t tick,
                           std::vector<Shortcut> shortcuts, const Tagger& tagger) {
  struct Merged {
    Word word;
    uint32_t spelling_count = 0;
  };
  std::map<std::string, Merged, std::less<>> merged;
  for (const LearnedWord& w : words) {
    // A damaged row (bytes that are not UTF-8, written by another program) never reaches a
    // decision: the daemon would write it onto the wire, a host into its field.
    if (!personal::IsStorableWord(w.word)) continue;
    Merged& m = merged[ToLowerUtf8(w.word)];
    m.word.weight += static_cast<float>(DecayedWeight(w.weight, w.last_tick, tick));
    for (const AppCount& a : w.apps) {
      if (a.app < 0 || a.app >= UserStore::kAppTypes) continue;
      m.word.app_weight[a.app] += static_cast<float>(DecayedWeight(a.weight, a.last_tick, tick));
    }
    // Saturating: several spellings at the store's cap would wrap.
    m.word.count =
        static_cast<uint32_t>(std::min<uint64_t>(uint64_t{m.word.count} + w.count, UINT32_MAX));
    m.word.picks =
        static_cast<uint32_t>(std::min<uint64_t>(uint64_t{m.word.picks} + w.picks, UINT32_MAX));
    if (w.count > m.spelling_count) {
      m.spelling_count = w.count;
      m.word.spelling = w.word;
      if (!w.reading.empty() || m.word.reading.empty()) m.word.reading = w.reading;
    }
  }
  UserWords out;
  out.words_.reserve(merged.size());
  for (auto& [key, m] : merged) {
    m.word.key = key;
    out.words_.push_back(std::move(m.word));
  }
  out.word_slots_ = MakeSlots(out.words_.size(), kEmptySlot,
                              [&out](uint32_t i) { return HashKey(out.words_[i].key); });
  out.initials_.resize(out.words_.size());
  for (uint32_t i = 0; i < out.words_.size(); ++i) {
    Word& w = out.words_[i];
    out.max_word_weight_ = std::max(out.max_word_weight_, w.weight);
    out.total_weight_ += w.weight;
    for (int app = 0; app < UserStore::kAppTypes; ++app) {
      out.app_total_weight_[app] += w.app_weight[app];
    }
    for (size_t at = 0; at < w.reading.size(); ++at) {
      if (w.reading[at] != '\'') w.letters.push_back(w.reading[at]);
      if (at == 0 || w.reading[at - 1] == '\'') out.initials_[i].push_back(w.reading[at]);
    }
    if (tagger) w.tag = tagger(w);  // it may read the letters
    if (w.tag != kNoTag) out.by_tag_.push_back(i);
    if (w.reading.empty()) continue;
    out.by_letters_.push_back(i);
    if (out.initials_[i].size() >= 2) out.by_initials_.push_back(i);
  }
  // Heaviest first within equal keys.
  const auto by = [&out](auto key) {
    return [&out, key](uint32_t a, uint32_t b) {
      const std::string_view ka = key(a), kb = key(b);
      return ka != kb ? ka < kb : out.words_[a].weight > out.words_[b].weight;
    };
  };
  std::sort(out.by_letters_.begin(), out.by_letters_.end(),
            by([&out](uint32_t i) -> std::string_view { return out.words_[i].letters; }));
  std::sort(out.by_initials_.begin(), out.by_initials_.end(),
            by([&out](uint32_t i) -> std::string_view { return out.initials_[i]; }));
  std::sort(out.by_tag_.begin(), out.by_tag_.end(),
            [&out](uint32_t a, uint32_t b) { return out.words_[a].tag < out.words_[b].tag; });
  out.BuildPairs(pairs, tick);
  out.shortcuts_ = std::move(shortcuts);
  std::erase_if(out.shortcuts_, [](const Shortcut& sc) {
    return !personal::IsShortcutTrigger(sc.trigger) || !personal::IsShortcutExpansion(sc.expansion);
  });
  std::sort(out.shortcuts_.begin(), out.shortcuts_.end(),
            [](const Shortcut& a, const Shortcut& b) { return a.trigger < b.trigger; });
  return out;
}

const Shortcut* UserWords::FindShortcut(std::string_view key) const {
  auto it = std::lower_bound(shortcuts_.begin(), shortcuts_.end(), key,
                             [](const Shortcut& s, std::string_view k) { return s.trigger < k; });
  return it != shortcuts_.end() && it->trigger == key ? &*it : nullptr;
}

const UserWords::Word* UserWords::FindTag(uint32_t tag) const {
  auto it = std::lower_bound(by_tag_.begin(), by_tag_.end(), tag,
                             [this](uint32_t i, uint32_t t) { return words_[i].tag < t; });
  return it != by_tag_.end() && words_[*it].tag == tag ? &words_[*it] : nullptr;
}

float UserWords::PairWeightByTag(uint32_t previous, uint32_t word) const {
  auto it =
      std::lower_bound(tag_pairs_.begin(), tag_pairs_.end(), std::make_pair(previous, word),
                       [](const TagPair& p, const std::pair<uint32_t, uint32_t>& k) {
                         return p.previous != k.first ? p.previous < k.first : p.word < k.second;
                       });
  return it != tag_pairs_.end() && it->previous == previous && it->word == word ? it->weight : 0;
}

std::span<const uint32_t> UserWords::WithLetters(std::string_view letters) const {
  auto first = std::lower_bound(
      by_letters_.begin(), by_letters_.end(), letters,
      [this](uint32_t i, std::string_view k) { return std::string_view(words_[i].letters) < k; });
  auto last = std::upper_bound(
      first, by_letters_.end(), letters,
      [this](std::string_view k, uint32_t i) { return k < std::string_view(words_[i].letters); });
  return {first, last};
}

std::span<const uint32_t> UserWords::WithInitials(std::string_view initials) const {
  auto first = std::lower_bound(
      by_initials_.begin(), by_initials_.end(), initials,
      [this](uint32_t i, std::string_view k) { return std::string_view(initials_[i]) < k; });
  auto last = std::upper_bound(
      first, by_initials_.end(), initials,
      [this](std::string_view k, uint32_t i) { return k < std::string_view(initials_[i]); });
  return {first, last};
}

const UserWords::Word* UserWords::Find(std::string_view key) const {
  const uint32_t found = Probe(word_slots_, kEmptySlot, HashKey(key),
                               [&](uint32_t i) { return words_[i].key == key; });
  return found != kEmptySlot ? &words_[found] : nullptr;
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
  const uint32_t found = Probe(pair_slots_, kEmptySlot, HashPair(previous, word), [&](uint32_t i) {
    return pairs_by_word_[i].previous == previous && pairs_by_word_[i].word == word;
  });
  return found != kEmptySlot ? pairs_by_word_[found].weight : 0;
}

}  // namespace keydecide
