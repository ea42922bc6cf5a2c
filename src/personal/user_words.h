// UserWords: what one language's sessions rank with from the user store, as an immutable
// in-memory snapshot, so that a keystroke reads it without touching SQLite.
//
// Words are keyed lower-cased (as the lexicon keys them); each keeps its most used spelling.
// A word is offered as a candidate once it was typed kSightingsToOffer times or picked from
// the candidates once (a typo typed once is stored, not offered). Weights are the store's
// decayed counts as of the snapshot's tick.
//
// Thread-safety: immutable after Build; any number of threads may read it.

#ifndef KEYDECIDE_PERSONAL_USER_WORDS_H_
#define KEYDECIDE_PERSONAL_USER_WORDS_H_

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/user_store.h"

namespace keydecide {

class UserWords {
 public:
  static constexpr uint32_t kSightingsToOffer = 2;

  static constexpr uint32_t kNoTag = std::numeric_limits<uint32_t>::max();

  struct Word {
    std::string key;       // lower-cased
    std::string spelling;  // the most used form as typed
    float weight = 0;      // decayed count, all spellings together
    uint32_t count = 0;
    uint32_t picks = 0;
    std::string reading;  // the most used spelling's ("" when none)
    std::string letters;  // the reading without apostrophes
    uint32_t tag = kNoTag;
    // The part of weight written in each app type (LearnedWord::apps), by AppType value.
    std::array<float, UserStore::kAppTypes> app_weight{};
    bool offered() const { return count >= kSightingsToOffer || picks >= 1; }
  };
  // What a language pack attaches to a word (kNoTag: nothing). Called once per word in Build.
  using Tagger = std::function<uint32_t(const Word&)>;
  struct Pair {
    std::string previous;  // lower-cased keys
    std::string word;
    float weight = 0;
  };

  // A snapshot of `words` and `pairs` (one language), weights decayed to `tick`, and the
  // person's shortcuts (every language's).
  static UserWords Build(const std::vector<LearnedWord>& words,
                         const std::vector<LearnedPair>& pairs, uint64_t tick,
                         std::vector<Shortcut> shortcuts = {}, const Tagger& tagger = nullptr);

  // The word keyed `key` (lower-cased), or nullptr.
  const Word* Find(std::string_view key) const;
  // The words whose key starts with `prefix`, in key order; valid as long as this object.
  std::span<const Word> WithPrefix(std::string_view prefix) const;
  // The weight of `word` after `previous` (lower-cased keys), 0 if never seen. O(log pairs):
  // a decision asks it for every candidate.
  float PairWeight(std::string_view previous, std::string_view word) const;
  // The pairs after `previous`, heaviest first.
  std::span<const Pair> Following(std::string_view previous) const;

  // The word tagged `tag`, or nullptr. O(log words).
  const Word* FindTag(uint32_t tag) const;
  // The weight of the pair of the words tagged `previous` and `word`, 0 if never seen.
  float PairWeightByTag(uint32_t previous, uint32_t word) const;
  // The sum of the words' weights, and the heaviest word's and pair's (bounds for a search).
  float total_weight() const { return total_weight_; }
  // The sum of the words' weights in app type `app` (0 outside 0..UserStore::kAppTypes-1).
  float app_total_weight(int app) const {
    return app >= 0 && app < UserStore::kAppTypes ? app_total_weight_[app] : 0.0f;
  }
  float max_word_weight() const { return max_word_weight_; }
  float max_pair_weight() const { return max_pair_weight_; }
  // The indices of the tagged words (for word()).
  std::span<const uint32_t> tagged() const { return by_tag_; }

  // The words whose reading's letters are `letters`, or whose initials are `initials`
  // (indices for word()), heaviest first.
  std::span<const uint32_t> WithLetters(std::string_view letters) const;
  std::span<const uint32_t> WithInitials(std::string_view initials) const;
  const Word& word(uint32_t index) const { return words_[index]; }

  // The shortcut whose trigger is `key` (lower-cased), or nullptr.
  const Shortcut* FindShortcut(std::string_view key) const;

  size_t size() const { return words_.size(); }

 private:
  // Build's second half: the pairs, by word and by tag (REQUIRES: the words built).
  void BuildPairs(const std::vector<LearnedPair>& pairs, uint64_t tick);
  std::vector<Word> words_;          // by key
  std::vector<Pair> pairs_;          // by previous, then weight descending (Following)
  std::vector<Pair> pairs_by_word_;  // by previous, then word (PairWeight: a binary search)
  std::vector<Shortcut> shortcuts_;  // by trigger
  struct TagPair {
    uint32_t previous, word;
    float weight;
  };
  // Hash indices (open addressing, linear probing, at most half full; kEmptySlot marks a free
  // slot) into words_ by key and into pairs_by_word_ by (previous, word): a decision asks Find
  // and PairWeight for each of up to 64 candidates, and binary searches over strings were
  // about a tenth of a keystroke with a person's 8,000 words (docs/PERSONAL.md, "Latency").
  static constexpr uint32_t kEmptySlot = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> word_slots_;
  std::vector<uint32_t> pair_slots_;
  std::vector<uint32_t> by_tag_;       // indices of tagged words, by tag
  std::vector<TagPair> tag_pairs_;     // by previous, then word
  std::vector<uint32_t> by_letters_;   // indices of words with a reading, by letters
  std::vector<std::string> initials_;  // per word: its reading's initials (two syllables or more)
  std::vector<uint32_t> by_initials_;  // indices of words with initials, by them
  float total_weight_ = 0, max_word_weight_ = 0, max_pair_weight_ = 0;
  std::array<float, UserStore::kAppTypes> app_total_weight_{};
};

}  // namespace keydecide

#endif  // KEYDECIDE_PERSONAL_USER_WORDS_H_
