#include "lexicon/search_row_cache.h"

#include <algorithm>

#include "lexicon/lexicon_format.h"

namespace keydecide {

SearchRowCache::SearchRowCache(std::span<const lexicon::TrieNode> nodes, size_t capacity)
    : nodes_(nodes), rows_(std::max<size_t>(capacity, 1)), labels_(rows_.size()) {
  Reset();
}

bool SearchRowCache::Begin(std::string_view typed) {
  const std::string_view last(text_, text_size_);
  const size_t shared = static_cast<size_t>(
      std::mismatch(typed.begin(), typed.end(), last.begin(), last.end()).first - typed.begin());
  if (disabled_ && shared > 0) return false;
  fresh_ = shared == 0;
  if (fresh_) {
    disabled_ = false;
    Reset();
  } else if (shared < typed.size() && shared < last.size()) {
    // A different byte at `shared`: cells from there on were computed for other bytes.
    for (size_t i = 0; i < used_; ++i) {
      rows_[i].kept = std::min(rows_[i].kept, static_cast<uint8_t>(shared));
    }
  }
  // A shorter text (a backspace) keeps the longer one: the cells beyond it are still right for
  // it, and typing the same bytes again finds them.
  if (shared < typed.size() || fresh_) {
    std::copy(typed.begin(), typed.end(), text_);
    text_size_ = typed.size();
  }
  return true;
}

uint32_t SearchRowCache::AddChildren(Row* parent) {
  const lexicon::TrieNode& node = nodes_[parent->node];
  if (node.child_count > rows_.size() - used_) return kNoRow;
  const auto first = static_cast<uint32_t>(used_);
  for (uint32_t child = node.first_child; child < node.first_child + node.child_count; ++child) {
    labels_[used_] = nodes_[child].label;
    Init(child, &rows_[used_++]);
  }
  parent->children = first;
  return first;
}

void SearchRowCache::Overflowed() {
  if (fresh_) disabled_ = true;  // the text needs more rows than there are: wait for another
  Reset();
  if (!disabled_) text_size_ = 0;  // start afresh next time
}

void SearchRowCache::Reset() {
  used_ = 1;
  Init(0, &rows_[0]);
}

void SearchRowCache::Init(uint32_t node, Row* row) const {
  row->kept = 0;
  row->min_size = 0;
  row->min_cell = kCellMax;
  row->has_entry = nodes_[node].entry != lexicon::kNoEntry;
  row->child_count = nodes_[node].child_count;
  row->node = node;
  row->children = kNoRow;
}

}  // namespace keydecide
