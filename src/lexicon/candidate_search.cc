#include "lexicon/candidate_search.h"

#include <algorithm>
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

}  // namespace

CandidateSearch::CandidateSearch(const Lexicon* lexicon, const TypingCosts* costs,
                                 const Options& options)
    : lexicon_(lexicon), costs_(costs), options_(options) {
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

  // Row 0: the empty word prefix against the typed prefixes (all typed keys are extra).
  rows_[0][0] = 0;
  for (size_t i = 0; i < m; ++i) {
    insertion_[i] = costs_->Insertion(typed, i);
    rows_[0][i + 1] = static_cast<uint16_t>(rows_[0][i] + insertion_[i]);
  }
  row_min_[0] = 0;
  swap_min_[0] = m >= 2 ? 0 : kUnreachable;
  labels_[0] = 0;
  Visit(0, 0, UINT16_MAX);
  ExpandBestFirst();

  std::sort_heap(best_.begin(), best_.end(), Better);
  out->assign(best_.begin(), best_.end());
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
  // A deeper row takes its values from the row above (plus a cost >= 0) or, through a
  // transposition, from the row two above plus its cost. Once neither can get below both
  // the budget and the cost already reached, no deeper prefix matches better: every word
  // below completes this prefix at `cost`.
  int floor = row_min_[depth];
  if (depth > 0) floor = std::min(floor, swap_min_[depth - 1] + costs_->Transposition());
  const bool can_improve = depth < kMaxDepth && floor <= budget_ && floor < cost;
  if (!can_improve) {
    if (cost <= budget_) PushSiblings(first, end, cost);
    return;
  }
  for (uint32_t child = first; child < end; ++child) {
    ComputeRow(depth + 1, lexicon_->nodes()[child].label);
    Visit(child, depth + 1, cost);
  }
}

// Weighted optimal-string-alignment distance, one row: rows_[d][i] is the cost of typing
// typed[0..i) when the intended word prefix is labels_[1..d].
void CandidateSearch::ComputeRow(size_t d, uint8_t label) {
  labels_[d] = label;
  const uint16_t* prev = rows_[d - 1];
  uint16_t* row = rows_[d];
  const uint16_t omission = costs_->Omission(d - 1);
  row[0] = static_cast<uint16_t>(prev[0] + omission);
  uint16_t row_min = row[0];
  // Transpositions read cells 0..m-2 of this row when filling the row two below.
  uint16_t swap_min = typed_.size() >= 2 ? row[0] : kUnreachable;
  for (size_t i = 1; i <= typed_.size(); ++i) {
    const auto t = static_cast<uint8_t>(typed_[i - 1]);
    int v = prev[i - 1] + costs_->Substitution(t, label, i - 1);
    v = std::min(v, row[i - 1] + insertion_[i - 1]);
    v = std::min(v, prev[i] + omission);
    if (d >= 2 && i >= 2 && t == labels_[d - 1] && static_cast<uint8_t>(typed_[i - 2]) == label &&
        t != label) {
      v = std::min(v, rows_[d - 2][i - 2] + costs_->Transposition());
    }
    row[i] = static_cast<uint16_t>(v);
    row_min = std::min(row_min, row[i]);
    if (i + 2 <= typed_.size()) swap_min = std::min(swap_min, row[i]);
  }
  row_min_[d] = row_min;
  swap_min_[d] = swap_min;
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
