#include "lexicon/pinyin/pinyin_candidates.h"

#include <algorithm>
#include <cmath>

#include "lexicon/lexicon.h"
#include "lexicon/pinyin/pinyin_syllables.h"
#include "lexicon/trie_walk.h"
#include "text/utf8.h"

namespace keydecide {

PinyinLattice::Options PinyinCandidateSearch::LatticeOptions(const Options& options) {
  PinyinLattice::Options lattice = options.lattice;
  lattice.max_paths = options.max_paths;
  return lattice;
}

PinyinCandidateSearch::PinyinCandidateSearch(const Lexicon* lexicon, const Options& options)
    : lexicon_(lexicon), options_(options), lattice_(LatticeOptions(options)) {
  hits_.reserve(options_.max_hits);
  candidates_.reserve(std::min(options_.max_candidates, options_.max_hits));
}

Status PinyinCandidateSearch::Search(std::string_view typed) {
  hits_.clear();
  candidates_.clear();
  visit_budget_ = options_.max_trie_visits;
  truncated_ = false;
  KD_RETURN_IF_ERROR(lattice_.Build(typed));
  if (lexicon_->nodes().empty()) return Status::OK();

  for (size_t p = 0; p < lattice_.num_paths() && !truncated_; ++p) {
    path_ = lattice_.path(p);
    // Pieces shared with an earlier path (same edges from the start) were offered already,
    // at the same cost: walk through them without offering again.
    shared_ = 0;
    for (size_t q = 0; q < p; ++q) {
      const std::span<const uint16_t> earlier = lattice_.path(q);
      size_t same = 0;
      while (same < path_.size() && same < earlier.size() && path_[same] == earlier[same]) ++same;
      shared_ = std::max(shared_, same);
    }
    if (!path_.empty()) Walk(0, 0, 0.0f);
  }

  // The same spelling reached through several paths: keep its best score. Integer keys only;
  // the same text under two entries (a word with two readings, both matching an abbreviation)
  // is caught below, among the few kept.
  const auto lexicon_order = [](const Hit& a, const Hit& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.entry != b.entry ? a.entry < b.entry : a.variant < b.variant;
  };
  std::sort(hits_.begin(), hits_.end(), [&](const Hit& a, const Hit& b) {
    if (a.consumed != b.consumed) return a.consumed < b.consumed;
    if (a.entry != b.entry) return a.entry < b.entry;
    if (a.variant != b.variant) return a.variant < b.variant;
    return a.score > b.score;
  });
  const auto last = std::unique(hits_.begin(), hits_.end(), [](const Hit& a, const Hit& b) {
    return a.consumed == b.consumed && a.entry == b.entry && a.variant == b.variant;
  });
  hits_.erase(last, hits_.end());

  // Whole input first, then longer prefixes first; within a group by score.
  std::sort(hits_.begin(), hits_.end(), [&](const Hit& a, const Hit& b) {
    if (a.full != b.full) return a.full;
    if (a.consumed != b.consumed) return a.consumed > b.consumed;
    return lexicon_order(a, b);
  });
  for (const Hit& h : hits_) {
    if (candidates_.size() >= options_.max_candidates) break;
    const std::string_view text = lexicon_->VariantText(lexicon_->Variants(h.entry)[h.variant]);
    bool seen = false;
    for (const PinyinCandidate& c : candidates_) {
      // Each word once, for the most letters it can stand for: "nihao" offers 你好 for all
      // five, not also for "nih" read as ni h*; "nihaozhongg" 你好 for "nihao" only.
      if (c.text == text) {
        seen = true;
        break;
      }
    }
    if (!seen) candidates_.push_back({text, h.entry, h.variant, h.consumed, h.full, h.score});
  }
  return Status::OK();
}

// Matches path piece `piece` (and then the ones after it) below trie node `node`; `cost` is the
// lattice cost of the pieces before it.
void PinyinCandidateSearch::Walk(uint32_t node, size_t piece, float cost) {
  const PinyinEdge& edge = lattice_.edges()[path_[piece]];
  cost += edge.cost;
  if (edge.kind == PinyinEdgeKind::kFull) {
    WalkSyllable(node, piece, cost, edge.text);
    return;
  }
  // An initial or an unfinished syllable: every syllable that starts with its letters.
  const uint32_t below = Child(node, edge.text);
  if (below == kNoTrieNode) return;
  for (const std::string_view syllable : pinyin::SyllablesStartingWith(edge.text)) {
    if (truncated_) return;
    WalkSyllable(below, piece, cost, syllable.substr(edge.text.size()));
  }
}

// Follows the rest of one syllable of piece `piece` from `node`, offers the entry there, and
// goes on with the next piece.
void PinyinCandidateSearch::WalkSyllable(uint32_t node, size_t piece, float cost,
                                         std::string_view rest) {
  const uint32_t end = Child(node, rest);
  if (end == kNoTrieNode) return;
  const uint32_t entry = lexicon_->nodes()[end].entry;
  if (entry != lexicon::kNoEntry && piece >= shared_) Offer(entry, piece, cost);
  if (piece + 1 < path_.size() && lexicon_->nodes()[end].child_count > 0) {
    Walk(end, piece + 1, cost);
  }
}

// The node reached from `node` by `bytes`, or kNoTrieNode (also when the visit cap is hit).
uint32_t PinyinCandidateSearch::Child(uint32_t node, std::string_view bytes) {
  return TrieDescend(lexicon_->nodes(), node, bytes, &visit_budget_, &truncated_);
}

// The spellings of `entry`, reached with pieces [0, piece]: only those with one hanzi per
// syllable (the key "xian" holds both 先 and 西安; [xi an] offers only 西安).
void PinyinCandidateSearch::Offer(uint32_t entry, size_t piece, float cost) {
  const PinyinEdge& edge = lattice_.edges()[path_[piece]];
  const bool full = piece + 1 == path_.size();
  const size_t syllables = piece + 1;
  const float penalty = options_.nats_per_lattice_cost * cost;
  const std::span<const lexicon::Variant> variants = lexicon_->Variants(entry);
  size_t offered = 0;
  for (size_t v = 0; v < variants.size() && offered < options_.max_variants_per_entry; ++v) {
    if (utf8::Length(lexicon_->VariantText(variants[v])) != syllables) continue;
    if (hits_.size() >= options_.max_hits) {
      truncated_ = true;
      return;
    }
    const float score =
        std::log(static_cast<float>(std::max<uint32_t>(variants[v].count, 1))) - penalty;
    hits_.push_back({entry, static_cast<uint16_t>(v), edge.end, full, score});
    ++offered;
  }
}

}  // namespace keydecide
