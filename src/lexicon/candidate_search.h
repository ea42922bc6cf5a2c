// CandidateSearch: the words a typed prefix may be heading for. Finds lexicon entries one
// of whose prefixes matches the typed letters exactly or within a budget of typing slips
// (weighted Damerau-Levenshtein over key bytes, costs from TypingCosts), and returns the
// best of them by SearchScore: log(count) - nats_per_point * cost.
//
// Two phases over the trie: a depth-first walk that keeps one edit-distance row per depth
// (only where a row can still fall within the budget), then a best-first expansion of the
// subtrees below the walk, bounded by each node's max_count, so the top candidates of a
// short prefix are found without touching the whole trie.
//
// Searches carry over: the walk keeps the rows of the nodes it visited (SearchRowCache), so
// when the typed text grows by a byte, loses one or changes its last bytes, the next walk
// computes only the cells of the changed columns (one or two per node; the rows of nodes it
// had not visited come from their parents' rows), and does not compute the rows of children
// that cannot get within the budget (FindQuietChildren). Both walks visit the same nodes in the
// same order where it matters, so the results are those of a fresh search, bit for bit; the
// fresh walk (WalkAfresh) stays for a text the cache has no room for.
//
// Not thread-safe: one CandidateSearch per session. All buffers are allocated in the
// constructor (the carried rows: carried_rows x 65 bytes, 780 KiB by default); Search does
// not allocate.

#ifndef KEYDECIDE_LEXICON_CANDIDATE_SEARCH_H_
#define KEYDECIDE_LEXICON_CANDIDATE_SEARCH_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "lexicon/search_row_cache.h"

namespace keydecide {

class Lexicon;
class TypingCosts;

struct SearchHit {
  uint32_t entry;
  uint16_t cost;  // typing-slip points between the typed text and the word's best prefix
  float score;    // SearchScore(count, cost)
};

class CandidateSearch {
 public:
  static constexpr size_t kMaxTyped = 48;  // longer compositions find nothing
  static constexpr size_t kMaxDepth = kMaxTyped + 3;

  struct Options {
    size_t max_candidates = 200;
    float nats_per_point = 0.35f;  // one 10-point slip ~ a 33x rarer word
    uint16_t budget_short = 10;    // fewer than long_from typed bytes: one slip
    uint16_t budget_long = 20;     // from long_from typed bytes: two slips
    size_t long_from = 6;
    size_t max_expansions = 50000;  // safety cap on best-first steps per search
    // Rows kept between searches, 65 bytes each (12,288: 780 KiB). A word of English text
    // typed key by key took at most 10,554 (200,000 characters of data/en/dev.txt). A search
    // that needs more walks afresh, as does every search when 0.
    size_t carried_rows = 12288;
  };

  // REQUIRES: lexicon and costs outlive this object.
  CandidateSearch(const Lexicon* lexicon, const TypingCosts* costs, const Options& options);

  // Replaces *out with up to max_candidates hits, best first (ties: lower entry first).
  // `typed` is lower-cased UTF-8. REQUIRES: out->capacity() >= max_candidates to stay
  // allocation-free (Search reserves it otherwise).
  void Search(std::string_view typed, std::vector<SearchHit>* out);

  uint16_t Budget(size_t typed_length) const;
  static float SearchScore(uint32_t count, uint16_t cost, float nats_per_point);
  const Options& options() const { return options_; }

 private:
  struct Frontier {  // a run of siblings [node, end) all reached with the same cost
    float bound;     // SearchScore of nodes[node].max_count: no word below can beat it
    uint32_t node;
    uint32_t end;
    uint16_t cost;
  };

  struct QuietChildren {  // see FindQuietChildren
    bool IsQuiet(const TypingCosts& costs, uint8_t label, uint16_t budget) const {
      if (!any || (allowed[label >> 6] >> (label & 63) & 1) != 0) return false;
      return exact || IsQuietSubstitution(costs, label, budget);
    }
    bool IsQuietSubstitution(const TypingCosts& costs, uint8_t label, uint16_t budget) const;
    void Allow(uint8_t label) { allowed[label >> 6] |= uint64_t{1} << (label & 63); }
    bool any;    // false: no child can be quiet
    bool exact;  // only the labels in `allowed` can be within the budget
    uint8_t substitutions;
    uint64_t allowed[4];  // labels that are not quiet
    // Unless exact: the parent's cells within the budget (column, typed byte, cell).
    uint8_t column[kMaxTyped];
    uint8_t typed[kMaxTyped];
    uint8_t cell[kMaxTyped];
  };

  void IndexTyped();
  void WalkAfresh();
  bool WalkCarried();
  void Visit(uint32_t node, size_t depth, uint16_t inherited);
  bool VisitCarried(size_t depth, uint16_t inherited);
  bool CanImprove(size_t depth, uint16_t cost) const;
  void FindQuietChildren(size_t depth, uint16_t cost, QuietChildren* quiet) const;
  template <typename CellType>
  int Cell(size_t d, size_t i, uint8_t label, int omission, const CellType* prev,
           const CellType* row, const CellType* above) const;
  void ComputeRow(size_t depth, uint8_t label);
  void UpdateCarriedRoot();
  void UpdateCarriedRow(size_t depth, uint8_t label);
  void FinishCarriedRow(size_t depth, size_t from);
  void PushSiblings(uint32_t first, uint32_t end, uint16_t cost);
  void Offer(uint32_t entry, uint16_t cost);
  void ExpandBestFirst();

  const Lexicon* lexicon_;
  const TypingCosts* costs_;
  Options options_;

  // Per-search state, sized once.
  std::string_view typed_;
  uint16_t budget_ = 0;
  uint16_t insertion_[kMaxTyped];
  uint16_t rows_[kMaxDepth + 1][kMaxTyped + 1];
  uint16_t row_min_[kMaxDepth + 1];   // min of each row
  uint16_t swap_min_[kMaxDepth + 1];  // min of the cells a transposition can read
  static constexpr uint16_t kUnreachable = 0x7FFF;
  uint8_t labels_[kMaxDepth + 1];
  uint64_t typed_at_[256] = {};  // bit i: typed_[i] is this byte (for FindQuietChildren)
  char typed_text_[kMaxTyped];   // the bytes typed_at_ has bits for
  size_t typed_at_size_ = 0;
  bool carry_ = false;  // options allow carrying rows over (budgets below kCellMax)
  SearchRowCache row_cache_;
  SearchRowCache::Row* path_[kMaxDepth + 1];  // the carried rows of the walk's current path
  std::vector<Frontier> frontier_;            // binary max-heap on bound
  std::vector<SearchHit> best_;               // binary min-heap: the worst kept hit on top
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_CANDIDATE_SEARCH_H_
