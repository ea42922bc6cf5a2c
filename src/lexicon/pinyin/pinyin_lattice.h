// PinyinLattice: every way to read typed pinyin letters as syllables. From each letter position,
// one edge per reading of the letters from there:
//   - kFull: a whole syllable ("xian", or "xi" then "an");
//   - kPrefixAtEnd: the last letters of the input, a strict prefix of longer syllables still
//     being typed ("zho" heading for zhong or zhou); only when nothing, not even an apostrophe,
//     follows;
//   - kInitialOnly: an abbreviation by its initial ("zg" → z g for zhong guo, "zhgg" → zh g g).
//     A one-letter initial stands for every syllable that starts with that letter ("z": zi, zhong
//     ...), as in Rime's abbreviations; "zh", "ch", "sh" only for syllables that start with them.
// An apostrophe forces a syllable boundary: no edge spans one. With a fuzzy pair switched on
// (z/zh, c/ch, s/sh, n/l on the initial; an/ang, en/eng, in/ing on the final) the letters may also
// read as the other member of the pair, at a penalty; the edge's text is then the syllable matched,
// not the letters typed.
//
// Typing errors (off by default; Options::typos): with kTypoSwap, letters that read as a syllable
// once two adjacent different letters inside them are swapped ("xign" → xing, "huna" → huan);
// with kTypoNeighbour, letters that read as a syllable once one of them is replaced by a key next
// to it ("xinf" → xing, f next to g). Neighbours come from Options::layout when given (keys whose
// centres are closer than Options::neighbour_distance key widths, as in TypingCosts; at most
// kMaxNeighbours per letter, in a-z order), else from a built-in US QWERTY table with the
// geometry of models/layouts/qwerty.txt. A typo edge is a kFull edge over the typed letters it
// replaces (2 to 6 letters, within one syllable, no fuzzy pair on top) whose text is the syllable
// it reads as, with `typo` set to the one error applied and cost typo_cost. It is never added
// where another full-syllable edge over the same letters already reads that syllable (so never
// where the letters are that syllable as typed).
//
// Build also enumerates the best paths through the lattice (segmentations of the whole input),
// by cost, then fewer pieces, then longer first piece: "xian" → [xian], [xi an], ...; "fangan" →
// [fang an], [fan gan], .... A k-best dynamic programme from the end of the input back: each
// position keeps its max_paths best readings of the rest.
//
// Not thread-safe: one PinyinLattice per session. All buffers are sized for the worst case in the
// constructor (about 200 KB with the default max_paths, most of it the edge list; about 700 KB
// with typos on); Build does not allocate. The typed text is not kept: edges and paths stay valid
// after it is gone.

#ifndef KEYDECIDE_LEXICON_PINYIN_PINYIN_LATTICE_H_
#define KEYDECIDE_LEXICON_PINYIN_PINYIN_LATTICE_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

class KeyboardLayout;

// One bit per fuzzy pair; each pair works both ways.
enum FuzzyPinyin : uint8_t {
  kFuzzyZZh = 1 << 0,
  kFuzzyCCh = 1 << 1,
  kFuzzySSh = 1 << 2,
  kFuzzyNL = 1 << 3,
  kFuzzyAnAng = 1 << 4,
  kFuzzyEnEng = 1 << 5,
  kFuzzyInIng = 1 << 6,
  kFuzzyAll = 0x7F,
};

// One bit per kind of typing error read through; at most one error per edge.
enum PinyinTypo : uint8_t {
  kTypoSwap = 1 << 0,       // two adjacent letters swapped
  kTypoNeighbour = 1 << 1,  // one letter replaced by a neighbouring key
  kTypoAll = 0x03,
};

enum class PinyinEdgeKind : uint8_t { kFull, kPrefixAtEnd, kInitialOnly };

struct PinyinEdge {
  uint8_t begin;  // [begin, end): byte positions in the typed text, letters only
  uint8_t end;
  PinyinEdgeKind kind;
  uint8_t fuzzy;          // FuzzyPinyin bits applied to read the letters; 0: read as typed
  bool alias;             // typed as an alias of the syllable ("lue" for lve)
  float cost;             // 0 for a full syllable read as typed; penalties add up
  std::string_view text;  // the syllable, the syllable prefix, or the initial (static storage)
  uint8_t typo = 0;       // the PinyinTypo bit read through (kFull edges only); 0: none
};

class PinyinLattice {
 public:
  static constexpr size_t kMaxTyped = 64;      // longer input is rejected
  static constexpr size_t kMaxPaths = 64;      // upper bound on Options::max_paths
  static constexpr size_t kMaxNeighbours = 8;  // neighbour keys kept per letter

  struct Options {
    // Behaviour.
    uint8_t fuzzy = 0;     // FuzzyPinyin bits switched on; none by default, as in libime
    size_t max_paths = 8;  // paths kept by Build; clamped to [0, kMaxPaths]

    // Penalties, in the same units as the model's costs (nats); a full syllable read as typed
    // costs 0.
    float prefix_at_end_cost = 0.5f;  // the last syllable is not finished yet
    float initial_only_cost = 1.0f;   // per abbreviated syllable
    float fuzzy_cost = 1.5f;          // per fuzzy pair applied (an edge may apply two)

    // Typing errors (after the fields above, so existing initializers keep their meaning).
    uint8_t typos = 0;       // PinyinTypo bits switched on; none by default
    float typo_cost = 2.5f;  // per typo edge; above fuzzy_cost: a slip is rarer
    // Key geometry for kTypoNeighbour; null: built-in US QWERTY. Only read by the constructor
    // (options().layout is null afterwards).
    const KeyboardLayout* layout = nullptr;
    float neighbour_distance = 1.5f;  // key centres closer than this (key widths) are neighbours
  };

  explicit PinyinLattice(const Options& options);

  // Replaces the lattice and paths with those of `typed`: lower-case letters a-z and
  // apostrophes. On success edges() and paths hold the result (both empty for empty input). On
  // failure (InvalidArgument: longer than kMaxTyped, or a byte other than a-z and '\'') both are
  // empty.
  Status Build(std::string_view typed);

  // Every edge, sorted by begin. Valid until the next Build.
  const std::vector<PinyinEdge>& edges() const { return edges_; }
  // The edges that start at byte position `pos` (empty for apostrophes and past the end).
  std::span<const PinyinEdge> EdgesFrom(size_t pos) const;

  // The best paths, best first; each a list of indices into edges() whose spans, in order, cover
  // every letter of the input once. Fewer than max_paths (maybe none) when the letters have
  // fewer readings. Valid until the next Build.
  size_t num_paths() const { return paths_.size(); }
  std::span<const uint16_t> path(size_t i) const;
  float path_cost(size_t i) const { return paths_[i].cost; }

  const Options& options() const { return options_; }

 private:
  struct Suffix {  // one of the best readings of typed[node, end)
    float cost;
    uint16_t pieces;
    uint16_t edge;       // first edge; kNoEdge at the end of input
    uint16_t next_rank;  // rank of the rest in best_[next node]
  };
  struct Path {
    float cost;
    uint32_t offset;  // into path_edges_
    uint32_t size;
  };
  static constexpr uint16_t kNoEdge = 0xFFFF;

  void AddEdges(size_t begin, size_t segment_end);
  void AddEdge(size_t begin, size_t end, PinyinEdgeKind kind, uint8_t fuzzy, bool alias,
               std::string_view text);
  void AddTypoEdges(size_t begin, size_t end);
  void AddTypoEdge(size_t begin, size_t end, std::string_view letters, uint8_t typo);
  void RankSuffixes(size_t node);
  size_t SkipApostrophes(size_t pos) const;
  bool SuffixBefore(const Suffix& a, const Suffix& b) const;

  Options options_;
  char neighbours_[26][kMaxNeighbours] = {};  // per letter a-z, its neighbouring letters
  uint8_t num_neighbours_[26] = {};

  // Per-build state, sized once.
  std::string_view typed_;  // during Build only
  size_t typed_size_ = 0;
  std::vector<PinyinEdge> edges_;
  uint16_t first_edge_[kMaxTyped + 2];  // edges from position p: [first_edge_[p], first_edge_[p+1])
  Suffix best_[kMaxTyped + 1][kMaxPaths];
  uint8_t num_best_[kMaxTyped + 1];
  std::vector<Suffix> candidates_;
  std::vector<Path> paths_;
  std::vector<uint16_t> path_edges_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_PINYIN_PINYIN_LATTICE_H_
