// SearchRowCache: the edit-distance rows of the trie nodes a CandidateSearch visited, kept from
// one keystroke to the next so that the next search only computes the cells its new typed bytes
// change (one or two per node) instead of whole rows.
//
// A row's cell i is the cost of typing typed[0..i) for the node's word prefix. Cell i depends on
// typed[0..i] (the insertion cost of byte i-1 looks at its right neighbour), so it stays right
// while the typed text keeps its first i+1 bytes: Begin() keeps, for a new text, the cells the
// two texts share and forgets the rest (a backspace forgets nothing: the next walk recomputes
// the last cell of the rows it visits). Rows are saturated at kCellMax: the search compares
// costs only with budgets below it, where a saturated cell decides the same as the exact one.
//
// Rows are stored as a tree that mirrors the trie: a row knows where its children's rows start,
// and the children of a node are stored together, in trie order. Rows are only added until a
// text shares no byte with the last one (a new word) or the cache is full (Overflowed). Memory
// is fixed at construction: `capacity` rows of 65 bytes (the row and its label; CandidateSearch's
// default: 12,288 rows, 780 KiB).
//
// Not thread-safe: one per CandidateSearch.

#ifndef KEYDECIDE_LEXICON_SEARCH_ROW_CACHE_H_
#define KEYDECIDE_LEXICON_SEARCH_ROW_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace keydecide {

namespace lexicon {
struct TrieNode;
}  // namespace lexicon

class SearchRowCache {
 public:
  static constexpr size_t kMaxTyped = 48;  // CandidateSearch::kMaxTyped
  static constexpr uint8_t kCellMax = 255;
  static constexpr uint32_t kNoRow = 0xFFFFFFFFu;
  static constexpr size_t kMaxChildren = 256;  // a node's children have distinct byte labels

  struct alignas(64) Row {
    uint8_t cells[kMaxTyped + 1];
    uint8_t kept;      // cells[0..kept) are right for the current text; the rest are stale
    uint8_t min_size;  // min_cell is the minimum of cells[0..min_size)
    uint8_t min_cell;
    bool has_entry;        // copied from the trie node, so that a walk going below this node
    uint16_t child_count;  // need not read it
    uint32_t node;         // trie node index
    uint32_t children;     // first row of the node's children, or kNoRow
  };
  static_assert(sizeof(Row) == 64, "one cache line per row");

  // REQUIRES: `nodes` (the trie) outlives this object.
  SearchRowCache(std::span<const lexicon::TrieNode> nodes, size_t capacity);

  // Prepares for a search of `typed`: keeps the cells still right for it (see above), or starts
  // afresh (only the root row) when `typed` shares no byte with the last text. Returns false
  // when the cache is switched off for this text (see Overflowed). REQUIRES: typed.size() <=
  // kMaxTyped.
  bool Begin(std::string_view typed);

  Row& root() { return rows_[0]; }
  Row& at(uint32_t index) { return rows_[index]; }

  // Starts loading a row that is about to be used (GCC/Clang builtin; a hint only).
  void Prefetch(uint32_t index) const { __builtin_prefetch(&rows_[index]); }

  // The first row of the children of `parent`, created (nothing kept) on first use. Returns
  // kNoRow when the cache is full.
  uint32_t Children(Row* parent) {
    return parent->children != kNoRow ? parent->children : AddChildren(parent);
  }
  // The children's labels, in order, beside their rows: a walk that only looks at the labels
  // reads one dense line instead of the trie nodes.
  const uint8_t* labels(uint32_t first_row) const { return labels_.data() + first_row; }

  // Gives up the rows after a full cache: Begin starts afresh, and returns false until a text
  // that shares no byte with this one when even a fresh start ran out of rows.
  void Overflowed();

  size_t used() const { return used_; }
  size_t capacity() const { return rows_.size(); }

 private:
  uint32_t AddChildren(Row* parent);
  void Reset();
  void Init(uint32_t node, Row* row) const;

  std::span<const lexicon::TrieNode> nodes_;
  std::vector<Row> rows_;
  std::vector<uint8_t> labels_;  // the trie label of each row's node
  size_t used_ = 0;
  char text_[kMaxTyped] = {};  // the text the kept cells were computed for
  size_t text_size_ = 0;
  bool fresh_ = true;  // no row but the root's has kept cells
  bool disabled_ = false;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_SEARCH_ROW_CACHE_H_
