#include "lexicon/candidate_search.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "lexicon/lexicon.h"
#include "lexicon/typing_costs.h"

namespace keydecide {

using lexicon::TrieNode;

namespace {

// Strict weak order "a ranks before b": higher score, then lower entry id.
bool Better(const SearchHit& a, const SearchHit& b) {
  return a.score != b.score ? a.score > b.score : a.entry < b.entry;
}

bool BoundLess(const auto& a, const auto& b) { return a.bound < b.bound; }

uint8_t SaturateCell(int v) {
  return static_cast<uint8_t>(std::min<int>(v, SearchRowCache::kCellMax));
}

// Carried cells saturate at kCellMax, which decides as the exact cost only below it.
bool CanCarry(const CandidateSearch::Options& options) {
  return options.carried_rows > 0 && options.budget_short < SearchRowCache::kCellMax &&
         options.budget_long < SearchRowCache::kCellMax;
}

}  // namespace

static_assert(SearchRowCache::kMaxTyped == CandidateSearch::kMaxTyped);

CandidateSearch::CandidateSearch(const Lexicon* lexicon, const TypingCosts* costs,
                                 const Options& options)
    : lexicon_(lexicon),
      costs_(costs),
      options_(options),
      carry_(CanCarry(options)),
      row_cache_(lexicon->nodes(), carry_ ? options.carried_rows : 1) {
  frontier_.reserve(1 << 14);
  best_.reserve(options_.max_candidates);
}

float CandidateSearch::SearchScore(uint32_t count, uint16_t cost, float nats_per_point) {
  return std::log(static_cast<float>(std::max<uint32_t>(count, 1))) -
         nats_per_point * static_cast<float>(cost);
}

uint16_t CandidateSearch::Budget(size_t typed_length) const {
  if (typed_length == 0) return 0;
  return typed_length < options_.long_from ? options_.budget_short : options_.budget_long;
}

void CandidateSearch::Search(std::string_view typed, std::vector<SearchHit>* out) {
  out->clear();
  out->reserve(options_.max_candidates);
  best_.clear();
  frontier_.clear();
  if (typed.size() > kMaxTyped || options_.max_candidates == 0) return;
  typed_ = typed;
  budget_ = Budget(typed.size());
  const size_t m = typed.size();

  for (size_t i = 0; i < m; ++i) insertion_[i] = costs_->Insertion(typed, i);
  IndexTyped();
  labels_[0] = 0;
  if (!WalkCarried()) WalkAfresh();
  ExpandBestFirst();

  std::sort_heap(best_.begin(), best_.end(), Better);
  out->assign(best_.begin(), best_.end());
}

// typed_at_ for typed_, clearing only the bits the last text set.
void CandidateSearch::IndexTyped() {
  for (size_t i = 0; i < typed_at_size_; ++i) typed_at_[static_cast<uint8_t>(typed_text_[i])] = 0;
  for (size_t i = 0; i < typed_.size(); ++i) {
    typed_text_[i] = typed_[i];
    typed_at_[static_cast<uint8_t>(typed_[i])] |= uint64_t{1} << i;
  }
  typed_at_size_ = typed_.size();
}

void CandidateSearch::WalkAfresh() {
  // Row 0: the empty word prefix against the typed prefixes (all typed keys are extra).
  const size_t m = typed_.size();
  rows_[0][0] = 0;
  for (size_t i = 0; i < m; ++i) {
    rows_[0][i + 1] = static_cast<uint16_t>(rows_[0][i] + insertion_[i]);
  }
  row_min_[0] = 0;
  swap_min_[0] = m >= 2 ? 0 : kUnreachable;
  Visit(0, 0, UINT16_MAX);
}

// The walk of WalkAfresh over the carried rows: the same offers and pushes in the same order
// (it leaves out only nodes where Visit does nothing), so the same hits and the same frontier.
// False (nothing found, the cache given up) when it runs out of rows.
bool CandidateSearch::WalkCarried() {
  if (!carry_ || !row_cache_.Begin(typed_)) return false;
  path_[0] = &row_cache_.root();
  UpdateCarriedRoot();
  if (VisitCarried(0, UINT16_MAX)) return true;
  row_cache_.Overflowed();
  best_.clear();
  frontier_.clear();
  return false;
}

// rows_[depth] holds the distances between the word prefix ending at `node` and every typed
// prefix. `inherited` is the best cost of any shorter word prefix matching all typed keys.
void CandidateSearch::Visit(uint32_t node_index, size_t depth, uint16_t inherited) {
  const TrieNode& node = lexicon_->nodes()[node_index];
  const uint16_t cost = std::min(inherited, rows_[depth][typed_.size()]);
  if (node.entry != lexicon::kNoEntry && cost <= budget_) Offer(node.entry, cost);
  if (node.child_count == 0) return;
  const uint32_t first = node.first_child;
  const uint32_t end = first + node.child_count;
  if (!CanImprove(depth, cost)) {
    if (cost <= budget_) PushSiblings(first, end, cost);
    return;
  }
  for (uint32_t child = first; child < end; ++child) {
    ComputeRow(depth + 1, lexicon_->nodes()[child].label);
    Visit(child, depth + 1, cost);
  }
}

// As Visit, with path_[depth] (brought up to date) for rows_[depth]. False when the cache has
// no rows left for the children.
bool CandidateSearch::VisitCarried(size_t depth, uint16_t inherited) {
  SearchRowCache::Row& row = *path_[depth];
  const uint16_t cost = std::min<uint16_t>(inherited, row.cells[typed_.size()]);
  if (row.has_entry && cost <= budget_) Offer(lexicon_->nodes()[row.node].entry, cost);
  if (row.child_count == 0) return true;
  if (!CanImprove(depth, cost)) {
    const uint32_t first = lexicon_->nodes()[row.node].first_child;
    if (cost <= budget_) PushSiblings(first, first + row.child_count, cost);
    return true;
  }
  const uint32_t children = row_cache_.Children(&row);
  if (children == SearchRowCache::kNoRow) return false;
  QuietChildren quiet;
  FindQuietChildren(depth, cost, &quiet);
  // Two passes: the rows of the children to visit are fetched from memory together, not one
  // after the other (the search is bound by those loads once other stages evicted them).
  const uint8_t* labels = row_cache_.labels(children);
  uint8_t loud[SearchRowCache::kMaxChildren];
  size_t loud_count = 0;
  for (uint32_t k = 0; k < row.child_count; ++k) {
    loud[loud_count] = static_cast<uint8_t>(k);
    const bool quiet_child = quiet.IsQuiet(*costs_, labels[k], budget_);
    if (!quiet_child) row_cache_.Prefetch(children + k);
    loud_count += !quiet_child;  // a quiet child's row waits until it is needed
  }
  for (size_t n = 0; n < loud_count; ++n) {
    path_[depth + 1] = &row_cache_.at(children + loud[n]);
    UpdateCarriedRow(depth + 1, labels[loud[n]]);
    if (!VisitCarried(depth + 1, cost)) return false;
  }
  return true;
}

// A deeper row takes its values from the row above (plus a cost >= 0) or, through a
// transposition, from the row two above plus its cost. Once neither can get below both the
// budget and the cost already reached, no deeper prefix matches better: every word below
// completes this prefix at `cost`.
bool CandidateSearch::CanImprove(size_t depth, uint16_t cost) const {
  int floor = row_min_[depth];
  if (depth > 0) floor = std::min(floor, swap_min_[depth - 1] + costs_->Transposition());
  return depth < kMaxDepth && floor <= budget_ && floor < cost;
}

// Weighted optimal-string-alignment distance, one cell: the cost of typing typed[0..i) when the
// intended word prefix is labels_[1..d-1] and `label`, from the row above (`prev`), this row's
// cells before i (`row`) and, for a transposition, the row two above (`above`, null when d < 2).
// The one recurrence of both walks: ComputeRow's rows and the carried, saturated ones.
template <typename CellType>
int CandidateSearch::Cell(size_t d, size_t i, uint8_t label, int omission, const CellType* prev,
                          const CellType* row, const CellType* above) const {
  const auto t = static_cast<uint8_t>(typed_[i - 1]);
  int v = prev[i - 1] + costs_->Substitution(t, label, i - 1);
  v = std::min(v, row[i - 1] + insertion_[i - 1]);
  v = std::min(v, prev[i] + omission);
  if (d >= 2 && i >= 2 && t == labels_[d - 1] && static_cast<uint8_t>(typed_[i - 2]) == label &&
      t != label) {
    v = std::min(v, above[i - 2] + costs_->Transposition());
  }
  return v;
}

// One row of Cell: rows_[d][i] for every typed prefix i.
void CandidateSearch::ComputeRow(size_t d, uint8_t label) {
  labels_[d] = label;
  const uint16_t* prev = rows_[d - 1];
  uint16_t* row = rows_[d];
  const uint16_t omission = costs_->Omission(d - 1);
  row[0] = static_cast<uint16_t>(prev[0] + omission);
  uint16_t row_min = row[0];
  // Transpositions read cells 0..m-2 of this row when filling the row two below.
  uint16_t swap_min = typed_.size() >= 2 ? row[0] : kUnreachable;
  const uint16_t* above = d >= 2 ? rows_[d - 2] : nullptr;
  for (size_t i = 1; i <= typed_.size(); ++i) {
    row[i] = static_cast<uint16_t>(Cell(d, i, label, omission, prev, row, above));
    row_min = std::min(row_min, row[i]);
    if (i + 2 <= typed_.size()) swap_min = std::min(swap_min, row[i]);
  }
  row_min_[d] = row_min;
  swap_min_[d] = swap_min;
}

// Most children of a node the walk goes below offer nothing, push nothing and are not gone
// below in turn: their rows stay above the budget. Every cell of a child's row comes, through
// moves of cost >= 0, from a cell of its parent's row (a substitution or an omission) or of its
// grandparent's (a transposition), so when no such move lands within the budget, neither does
// any cell: the child is quiet, and Visit would do nothing there but compute its row.
void CandidateSearch::FindQuietChildren(size_t depth, uint16_t cost, QuietChildren* q) const {
  const uint8_t* cells = path_[depth]->cells;
  const std::string_view typed = typed_;
  const size_t m = typed.size();
  const uint16_t budget = budget_;
  const int transposition = costs_->Transposition();
  q->any = cost > budget && swap_min_[depth] + transposition > budget &&
           row_min_[depth] + costs_->Omission(depth) > budget;
  if (!q->any) return;
  // Substitutions into cells 1..m read cells 0..m-1: swap_min_ holds the minimum of 0..m-2.
  const int source_min =
      m == 0 ? SearchRowCache::kCellMax : std::min<int>(swap_min_[depth], cells[m - 1]);
  q->exact =
      source_min + costs_->MinSubstitution() > budget;  // a wrong byte costs too much anywhere
  q->substitutions = 0;
  std::fill(std::begin(q->allowed), std::end(q->allowed), 0);
  uint64_t within = 0;  // bit j: cell j is within the budget
  for (size_t j = 0; j < m; ++j) within |= uint64_t{cells[j] <= budget} << j;
  for (; within != 0; within &= within - 1) {
    const auto j = static_cast<size_t>(std::countr_zero(within));
    q->Allow(static_cast<uint8_t>(typed[j]));
    if (q->exact) continue;
    q->column[q->substitutions] = static_cast<uint8_t>(j);
    q->typed[q->substitutions] = static_cast<uint8_t>(typed[j]);
    q->cell[q->substitutions++] = cells[j];
  }
  if (depth == 0) return;
  const uint8_t* above = path_[depth - 1]->cells;
  // A transposition into cell i (as in ComputeRow) needs typed[i-1] == this node's label.
  for (uint64_t at = typed_at_[labels_[depth]] & ~uint64_t{1}; at != 0; at &= at - 1) {
    const auto i = static_cast<size_t>(std::countr_zero(at)) + 1;
    const auto label = static_cast<uint8_t>(typed[i - 2]);
    if (label != labels_[depth] && above[i - 2] + transposition <= budget) q->Allow(label);
  }
}

// A child whose label is neither allowed (a substitution at no cost, a transposition) nor
// within the budget as a wrong byte.
bool CandidateSearch::QuietChildren::IsQuietSubstitution(const TypingCosts& costs, uint8_t label,
                                                         uint16_t budget) const {
  for (size_t k = 0; k < substitutions; ++k) {
    if (cell[k] + costs.Substitution(typed[k], label, column[k]) <= budget) return false;
  }
  return true;
}

// Row 0 of the carried walk, as in WalkAfresh, from its first stale cell on.
void CandidateSearch::UpdateCarriedRoot() {
  SearchRowCache::Row& row = *path_[0];
  const size_t m = typed_.size();
  const size_t from = std::min<size_t>(row.kept, m);
  row.cells[0] = 0;
  for (size_t i = std::max<size_t>(from, 1); i <= m; ++i) {
    row.cells[i] = SaturateCell(row.cells[i - 1] + insertion_[i - 1]);
  }
  FinishCarriedRow(0, from);
}

// ComputeRow for path_[d], from its first stale cell on: the cells before it are right for the
// typed text (SearchRowCache), and so are those of the rows above it on the path. A cell is the
// minimum over the same moves as in ComputeRow, saturated at kCellMax.
void CandidateSearch::UpdateCarriedRow(size_t d, uint8_t label) {
  labels_[d] = label;
  SearchRowCache::Row& row = *path_[d];
  const uint8_t* prev = path_[d - 1]->cells;
  const size_t m = typed_.size();
  const int omission = costs_->Omission(d - 1);
  const size_t from = std::min<size_t>(row.kept, m);
  if (from == 0) row.cells[0] = SaturateCell(prev[0] + omission);
  const uint8_t* above = d >= 2 ? path_[d - 2]->cells : nullptr;
  for (size_t i = std::max<size_t>(from, 1); i <= m; ++i) {
    row.cells[i] = SaturateCell(Cell(d, i, label, omission, prev, row.cells, above));
  }
  FinishCarriedRow(d, from);
}

// Marks cells [0, m) of path_[d] kept (cell m, the last, depends on the byte typed next) and
// sets row_min_[d] and swap_min_[d], keeping the minimum of the cells a transposition can read
// (the row's [0, m-2]) so that it too costs O(1) cells when the text grows by a byte.
void CandidateSearch::FinishCarriedRow(size_t d, size_t from) {
  SearchRowCache::Row& row = *path_[d];
  const size_t m = typed_.size();
  const size_t swap_cells = m >= 2 ? m - 1 : 0;
  row.kept = static_cast<uint8_t>(m);
  if (row.min_size > std::min(from, swap_cells)) {
    row.min_size = 0;
    row.min_cell = SearchRowCache::kCellMax;
  }
  for (; row.min_size < swap_cells; ++row.min_size) {
    row.min_cell = std::min(row.min_cell, row.cells[row.min_size]);
  }
  uint8_t row_min = row.min_cell;
  for (size_t i = swap_cells; i <= m; ++i) row_min = std::min(row_min, row.cells[i]);
  row_min_[d] = row_min;
  swap_min_[d] = m >= 2 ? row.min_cell : kUnreachable;
}

void CandidateSearch::PushSiblings(uint32_t first, uint32_t end, uint16_t cost) {
  const float bound =
      SearchScore(lexicon_->nodes()[first].max_count, cost, options_.nats_per_point);
  frontier_.push_back({bound, first, end, cost});
  std::push_heap(frontier_.begin(), frontier_.end(), BoundLess<Frontier, Frontier>);
}

void CandidateSearch::Offer(uint32_t entry, uint16_t cost) {
  const SearchHit hit{entry, cost,
                      SearchScore(lexicon_->Count(entry), cost, options_.nats_per_point)};
  if (best_.size() < options_.max_candidates) {
    best_.push_back(hit);
    std::push_heap(best_.begin(), best_.end(), Better);
  } else if (Better(hit, best_.front())) {
    std::pop_heap(best_.begin(), best_.end(), Better);
    best_.back() = hit;
    std::push_heap(best_.begin(), best_.end(), Better);
  }
}

void CandidateSearch::ExpandBestFirst() {
  const auto nodes = lexicon_->nodes();
  for (size_t steps = 0; !frontier_.empty() && steps < options_.max_expansions; ++steps) {
    const Frontier f = frontier_.front();
    // Ties must still be expanded: an equal score with a lower entry id ranks first.
    if (best_.size() == options_.max_candidates && f.bound < best_.front().score) break;
    std::pop_heap(frontier_.begin(), frontier_.end(), BoundLess<Frontier, Frontier>);
    frontier_.pop_back();
    // Siblings are ordered by max_count, so the next one is bounded by this one's bound.
    if (f.node + 1 < f.end) PushSiblings(f.node + 1, f.end, f.cost);
    const TrieNode& node = nodes[f.node];
    if (node.entry != lexicon::kNoEntry) Offer(node.entry, f.cost);
    if (node.child_count > 0) {
      PushSiblings(node.first_child, node.first_child + node.child_count, f.cost);
    }
  }
}

}  // namespace keydecide
