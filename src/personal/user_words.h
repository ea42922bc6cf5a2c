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

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/user_store.h"

namespace keydecide {

class UserWords {
 public:
  static constexpr uint32_t kSightingsToOffer = 2;

  struct Word {
    std::string key;       // lower-cased
    std::string spelling;  // the most used form as typed
    float weight = 0;      // decayed count, all spellings together
    uint32_t count = 0;
    uint32_t picks = 0;
    bool offered() const { return count >= kSightingsToOffer || picks >= 1; }
  };
  struct Pair {
    std::string previous;  // lower-cased keys
    std::string word;
    float weight = 0;
  };

  // A snapshot of `words` and `pairs` (one language), weights decayed to `tick`, and the
  // person's shortcuts (every language's).
  static UserWords Build(const std::vector<LearnedWord>& words,
                         const std::vector<LearnedPair>& pairs, uint64_t tick,
                         std::vector<Shortcut> shortcuts = {});

  // The word keyed `key` (lower-cased), or nullptr.
  const Word* Find(std::string_view key) const;
  // The words whose key starts with `prefix`, in key order; valid as long as this object.
  std::span<const Word> WithPrefix(std::string_view prefix) const;
  // The weight of `word` after `previous` (lower-cased keys), 0 if never seen. O(log pairs):
  // a decision asks it for every candidate.
  float PairWeight(std::string_view previous, std::string_view word) const;
  // The pairs after `previous`, heaviest first.
  std::span<const Pair> Following(std::string_view previous) const;

  // The shortcut whose trigger is `key` (lower-cased), or nullptr.
  const Shortcut* FindShortcut(std::string_view key) const;

  size_t size() const { return words_.size(); }

 private:
  std::vector<Word> words_;          // by key
  std::vector<Pair> pairs_;          // by previous, then weight descending (Following)
  std::vector<Pair> pairs_by_word_;  // by previous, then word (PairWeight: a binary search)
  std::vector<Shortcut> shortcuts_;  // by trigger
};

}  // namespace keydecide

#endif  // KEYDECIDE_PERSONAL_USER_WORDS_H_
