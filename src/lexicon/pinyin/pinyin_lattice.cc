#include "lexicon/pinyin/pinyin_lattice.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <string>

#include "lexicon/pinyin/pinyin_syllables.h"
#include "text/keyboard_layout.h"

namespace keydecide {
namespace {

// Typed letters read as one syllable are at most a syllable plus or minus what the fuzzy pairs
// add or drop (an "h" on the initial, a "g" on the final).
constexpr size_t kMaxSpan = pinyin::kMaxSyllableLength + 2;

// At most: each span length, four spellings (as typed, fuzzy initial, fuzzy final, both), two
// edges each (a full syllable that is also a prefix at the end).
constexpr size_t kMaxEdgesPerBegin = kMaxSpan * 4 * 2;

// Typo edges from one begin: for each span of 2 to 6 letters, one per adjacent swap and one per
// neighbour substitution.
constexpr size_t kMaxTypoEdgesPerBegin = [] {
  size_t n = 0;
  for (size_t len = 2; len <= pinyin::kMaxSyllableLength; ++len) {
    n += (len - 1) + len * PinyinLattice::kMaxNeighbours;
  }
  return n;
}();

constexpr uint8_t kInitialFuzzy = kFuzzyZZh | kFuzzyCCh | kFuzzySSh | kFuzzyNL;

// One spelling of a span of typed letters.
struct Spelling {
  char letters[kMaxSpan + 2];
  size_t size = 0;
  uint8_t fuzzy = 0;
  std::string_view view() const { return {letters, size}; }
};

// Writes `head` + `tail` into *out.
void Spell(std::string_view head, std::string_view tail, uint8_t fuzzy, Spelling* out) {
  std::copy(head.begin(), head.end(), out->letters);
  std::copy(tail.begin(), tail.end(), out->letters + head.size());
  out->size = head.size() + tail.size();
  out->fuzzy = fuzzy;
}

// The other member of the span's initial pair, if that pair is enabled: writes it to *out.
bool FuzzyInitial(std::string_view span, uint8_t enabled, Spelling* out) {
  struct Pair {
    char letter;
    uint8_t bit;
  };
  constexpr Pair kRetroflex[] = {{'z', kFuzzyZZh}, {'c', kFuzzyCCh}, {'s', kFuzzySSh}};
  if (span.empty()) return false;
  for (const Pair& pair : kRetroflex) {
    if (span[0] != pair.letter || !(enabled & pair.bit)) continue;
    const char with_h[2] = {pair.letter, 'h'};
    if (span.size() >= 2 && span[1] == 'h') {
      Spell(span.substr(0, 1), span.substr(2), pair.bit, out);  // zh → z
    } else {
      Spell(std::string_view(with_h, 2), span.substr(1), pair.bit, out);  // z → zh
    }
    return true;
  }
  if ((enabled & kFuzzyNL) && (span[0] == 'n' || span[0] == 'l')) {
    Spell(span[0] == 'n' ? "l" : "n", span.substr(1), kFuzzyNL, out);
    return true;
  }
  return false;
}

// The other member of the spelling's final pair (an/ang, en/eng, in/ing), if enabled.
bool FuzzyFinal(const Spelling& in, uint8_t enabled, Spelling* out) {
  struct Pair {
    std::string_view short_final;
    uint8_t bit;
  };
  constexpr Pair kPairs[] = {{"an", kFuzzyAnAng}, {"en", kFuzzyEnEng}, {"in", kFuzzyInIng}};
  const std::string_view s = in.view();
  for (const Pair& pair : kPairs) {
    if (!(enabled & pair.bit)) continue;
    if (s.ends_with(pair.short_final)) {  // an → ang
      Spell(s, "g", in.fuzzy | pair.bit, out);
      return true;
    }
    if (s.size() >= 3 && s.ends_with('g') &&
        s.substr(0, s.size() - 1).ends_with(pair.short_final)) {
      Spell(s.substr(0, s.size() - 1), {}, in.fuzzy | pair.bit, out);  // ang → an
      return true;
    }
  }
  return false;
}

// Distance in key widths between the centres of two letters on the built-in US QWERTY (the
// geometry of models/layouts/qwerty.txt), or -1 for a byte that is not a letter there.
float QwertyDistance(char a, char b) {
  struct Row {
    std::string_view keys;
    float offset;
  };
  constexpr Row kRows[] = {{"qwertyuiop", 0.0f}, {"asdfghjkl", 0.25f}, {"zxcvbnm", 0.75f}};
  float pos[2][2];
  const char letters[2] = {a, b};
  for (int i = 0; i < 2; ++i) {
    bool found = false;
    for (size_t r = 0; r < std::size(kRows) && !found; ++r) {
      const size_t k = kRows[r].keys.find(letters[i]);
      if (k == std::string_view::npos) continue;
      pos[i][0] = kRows[r].offset + static_cast<float>(k);
      pos[i][1] = static_cast<float>(r);
      found = true;
    }
    if (!found) return -1.0f;
  }
  const float dx = pos[0][0] - pos[1][0], dy = pos[0][1] - pos[1][1];
  return std::sqrt(dx * dx + dy * dy);
}

int CountBits(uint8_t bits) {
  int n = 0;
  for (; bits; bits &= bits - 1) ++n;
  return n;
}

}  // namespace

PinyinLattice::PinyinLattice(const Options& options) : options_(options) {
  options_.max_paths = std::min(options_.max_paths, kMaxPaths);
  size_t edges_per_begin = kMaxEdgesPerBegin;
  if (options_.typos != 0) {
    edges_per_begin += kMaxTypoEdgesPerBegin;
    for (char a = 'a'; a <= 'z'; ++a) {
      uint8_t& n = num_neighbours_[a - 'a'];
      for (char b = 'a'; b <= 'z' && n < kMaxNeighbours; ++b) {
        if (b == a) continue;
        const float d =
            options_.layout != nullptr
                ? options_.layout->Distance(static_cast<char32_t>(a), static_cast<char32_t>(b))
                : QwertyDistance(a, b);
        if (d >= 0 && d < options_.neighbour_distance) neighbours_[a - 'a'][n++] = b;
      }
    }
  }
  options_.layout = nullptr;  // not kept
  edges_.reserve(kMaxTyped * edges_per_begin);
  candidates_.reserve(edges_per_begin * options_.max_paths);
  paths_.reserve(options_.max_paths);
  path_edges_.reserve(options_.max_paths * kMaxTyped);
}

Status PinyinLattice::Build(std::string_view typed) {
  edges_.clear();
  paths_.clear();
  path_edges_.clear();
  typed_ = {};
  typed_size_ = 0;
  if (typed.size() > kMaxTyped) {
    std::string msg = "pinyin input of ";
    msg += std::to_string(typed.size());
    msg += " bytes, at most ";
    msg += std::to_string(kMaxTyped);
    return Status::InvalidArgument(msg);
  }
  for (size_t i = 0; i < typed.size(); ++i) {
    const char c = typed[i];
    if ((c < 'a' || c > 'z') && c != '\'') {
      std::string msg = "pinyin input has a byte other than a-z and apostrophe at ";
      msg += std::to_string(i);
      return Status::InvalidArgument(msg);
    }
  }
  typed_ = typed;
  typed_size_ = typed.size();

  // Edges, by begin.
  size_t segment_end = 0;
  for (size_t begin = 0; begin < typed.size(); ++begin) {
    first_edge_[begin] = static_cast<uint16_t>(edges_.size());
    if (typed[begin] == '\'') continue;
    if (segment_end <= begin) {
      segment_end = typed.find('\'', begin);
      if (segment_end == std::string_view::npos) segment_end = typed.size();
    }
    AddEdges(begin, segment_end);
  }
  first_edge_[typed.size()] = static_cast<uint16_t>(edges_.size());

  // Best suffixes, from the end back; then the paths from the first letter.
  const size_t n = typed.size();
  best_[n][0] = {0.0f, 0, kNoEdge, 0};
  num_best_[n] = 1;
  const size_t start = SkipApostrophes(0);
  if (start == n || options_.max_paths == 0) {  // no letters, or no paths wanted
    typed_ = {};
    return Status::OK();
  }
  for (size_t node = n; node-- > 0;) RankSuffixes(node);
  for (size_t rank = 0; rank < num_best_[start]; ++rank) {
    const Suffix& head = best_[start][rank];
    Path path = {head.cost, static_cast<uint32_t>(path_edges_.size()), 0};
    for (const Suffix* s = &head; s->edge != kNoEdge;) {
      path_edges_.push_back(s->edge);
      ++path.size;
      s = &best_[SkipApostrophes(edges_[s->edge].end)][s->next_rank];
    }
    paths_.push_back(path);
  }
  typed_ = {};  // not kept past Build
  return Status::OK();
}

void PinyinLattice::AddEdges(size_t begin, size_t segment_end) {
  const uint8_t enabled = options_.fuzzy;
  const size_t max_end = std::min(segment_end, begin + kMaxSpan);
  for (size_t end = begin + 1; end <= max_end; ++end) {
    const std::string_view span = typed_.substr(begin, end - begin);
    const bool at_end = end == typed_.size();

    Spelling spellings[4];
    size_t num_spellings = 1;
    Spell(span, {}, 0, &spellings[0]);
    if (FuzzyInitial(span, enabled, &spellings[1])) ++num_spellings;
    for (size_t i = 0, count = num_spellings; i < count; ++i) {
      if (FuzzyFinal(spellings[i], enabled, &spellings[num_spellings])) ++num_spellings;
    }

    for (size_t i = 0; i < num_spellings; ++i) {
      const Spelling& spelling = spellings[i];
      const std::string_view s = spelling.view();
      const std::string_view syllable = pinyin::CanonicalSyllable(s);
      if (!syllable.empty()) {
        AddEdge(begin, end, PinyinEdgeKind::kFull, spelling.fuzzy, syllable != s, syllable);
      }
      // Prefixes and initials only change on the initial; a spelling that only adds letters to
      // what was typed ("z" → "zh") reads nothing the typed letters do not already cover.
      if (spelling.fuzzy & ~kInitialFuzzy) continue;
      if (i > 0 && s.starts_with(span)) continue;
      if (at_end) {
        if (pinyin::HasLongerSyllable(s)) {
          AddEdge(begin, end, PinyinEdgeKind::kPrefixAtEnd, spelling.fuzzy, false,
                  pinyin::StaticPrefix(s));
        }
      } else {
        const std::string_view initial = pinyin::StaticInitial(s);
        if (!initial.empty()) {
          AddEdge(begin, end, PinyinEdgeKind::kInitialOnly, spelling.fuzzy, false, initial);
        }
      }
    }
    if (options_.typos != 0) AddTypoEdges(begin, end);
  }
}

void PinyinLattice::AddTypoEdges(size_t begin, size_t end) {
  const size_t size = end - begin;
  if (size < 2 || size > pinyin::kMaxSyllableLength) return;
  char letters[pinyin::kMaxSyllableLength];
  std::copy(typed_.begin() + static_cast<ptrdiff_t>(begin),
            typed_.begin() + static_cast<ptrdiff_t>(end), letters);
  const std::string_view view(letters, size);
  if (options_.typos & kTypoSwap) {
    for (size_t i = 0; i + 1 < size; ++i) {
      if (letters[i] == letters[i + 1]) continue;
      std::swap(letters[i], letters[i + 1]);
      AddTypoEdge(begin, end, view, kTypoSwap);
      std::swap(letters[i], letters[i + 1]);
    }
  }
  if (options_.typos & kTypoNeighbour) {
    for (size_t i = 0; i < size; ++i) {
      const char typed = letters[i];
      const size_t k = static_cast<size_t>(typed - 'a');
      for (uint8_t j = 0; j < num_neighbours_[k]; ++j) {
        letters[i] = neighbours_[k][j];
        AddTypoEdge(begin, end, view, kTypoNeighbour);
      }
      letters[i] = typed;
    }
  }
}

void PinyinLattice::AddTypoEdge(size_t begin, size_t end, std::string_view letters, uint8_t typo) {
  const std::string_view syllable = pinyin::CanonicalSyllable(letters);
  if (syllable.empty()) return;
  // Not where a full-syllable edge over these letters (as typed, alias, fuzzy, or an earlier
  // typo) already reads it.
  for (size_t e = first_edge_[begin]; e < edges_.size(); ++e) {
    const PinyinEdge& edge = edges_[e];
    if (edge.end == end && edge.kind == PinyinEdgeKind::kFull && edge.text == syllable) return;
  }
  edges_.push_back({static_cast<uint8_t>(begin), static_cast<uint8_t>(end), PinyinEdgeKind::kFull,
                    0, syllable != letters, options_.typo_cost, syllable, typo});
}

void PinyinLattice::AddEdge(size_t begin, size_t end, PinyinEdgeKind kind, uint8_t fuzzy,
                            bool alias, std::string_view text) {
  float cost = options_.fuzzy_cost * static_cast<float>(CountBits(fuzzy));
  if (kind == PinyinEdgeKind::kPrefixAtEnd) cost += options_.prefix_at_end_cost;
  if (kind == PinyinEdgeKind::kInitialOnly) cost += options_.initial_only_cost;
  edges_.push_back(
      {static_cast<uint8_t>(begin), static_cast<uint8_t>(end), kind, fuzzy, alias, cost, text, 0});
}

size_t PinyinLattice::SkipApostrophes(size_t pos) const {
  while (pos < typed_.size() && typed_[pos] == '\'') ++pos;
  return pos;
}

bool PinyinLattice::SuffixBefore(const Suffix& a, const Suffix& b) const {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (a.pieces != b.pieces) return a.pieces < b.pieces;
  if (a.edge != b.edge) {
    const uint8_t a_end = edges_[a.edge].end, b_end = edges_[b.edge].end;
    if (a_end != b_end) return a_end > b_end;  // longer first piece first
    return a.edge < b.edge;
  }
  return a.next_rank < b.next_rank;
}

void PinyinLattice::RankSuffixes(size_t node) {
  num_best_[node] = 0;
  if (typed_[node] == '\'') return;
  candidates_.clear();
  for (uint16_t e = first_edge_[node]; e < first_edge_[node + 1]; ++e) {
    const size_t next = SkipApostrophes(edges_[e].end);
    for (uint16_t rank = 0; rank < num_best_[next]; ++rank) {
      const Suffix& rest = best_[next][rank];
      candidates_.push_back(
          {edges_[e].cost + rest.cost, static_cast<uint16_t>(rest.pieces + 1), e, rank});
    }
  }
  const size_t keep = std::min(candidates_.size(), options_.max_paths);
  std::partial_sort(candidates_.begin(), candidates_.begin() + static_cast<ptrdiff_t>(keep),
                    candidates_.end(),
                    [this](const Suffix& a, const Suffix& b) { return SuffixBefore(a, b); });
  std::copy(candidates_.begin(), candidates_.begin() + static_cast<ptrdiff_t>(keep), best_[node]);
  num_best_[node] = static_cast<uint8_t>(keep);
}

std::span<const PinyinEdge> PinyinLattice::EdgesFrom(size_t pos) const {
  if (pos >= typed_size_) return {};
  return std::span<const PinyinEdge>(edges_).subspan(first_edge_[pos],
                                                     first_edge_[pos + 1] - first_edge_[pos]);
}

std::span<const uint16_t> PinyinLattice::path(size_t i) const {
  return std::span<const uint16_t>(path_edges_).subspan(paths_[i].offset, paths_[i].size);
}

}  // namespace keydecide
