// PinyinCandidateSearch: the hanzi words to offer for typed pinyin, from a pinyin-keyed lexicon
// (keys: toneless syllables concatenated, "zhongguo"; spellings: hanzi words, most frequent
// first; see docs/MODEL.md "Chinese lexicon").
//
// The typed letters are read as a PinyinLattice; for each of its best paths the lexicon trie is
// walked constrained piece by piece from the path's start:
//   - a full syllable (kFull) matches exactly its letters (the syllable matched, for fuzzy
//     edges);
//   - an abbreviation (kInitialOnly, "z", "zh") or the unfinished last syllable (kPrefixAtEnd,
//     "zho") matches every syllable that starts with its letters, each followed in the trie
//     from the same node (the syllable table is sorted, so these are one contiguous run);
// never by enumerating the lexicon. Every entry met at a piece boundary is a candidate: its
// hanzi spellings consume the typed text up to that piece's end. Words that cover the whole
// input come first ("the best reading of what was typed"), then words that cover a prefix of
// it (the words that can start the sentence: "zhongguoren" → 中国人, then 中国 for the first
// 8 letters, then 中 ...), longer prefixes first.
//
// Score = log(spelling count) − nats_per_lattice_cost × (cost of the lattice pieces the word
// consumes). Within a group: higher score first, ties in lexicon order (entry, then spelling).
// The same (word, letters consumed) reached through several paths is kept once, best score; and
// each word is offered once, for the most letters it stands for (the whole input first): a list
// with 你好 twice, for "nihao" and for "nih" read as ni h*, would show the person one word twice.
//
// Not thread-safe: one PinyinCandidateSearch per session. All buffers are sized in the
// constructor; Search does not allocate.

#ifndef KEYDECIDE_LEXICON_PINYIN_PINYIN_CANDIDATES_H_
#define KEYDECIDE_LEXICON_PINYIN_PINYIN_CANDIDATES_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "keydecide/status.h"
#include "lexicon/pinyin/pinyin_lattice.h"

namespace keydecide {

class Lexicon;

struct PinyinCandidate {
  std::string_view text;  // the hanzi word (points into the lexicon)
  uint32_t entry;         // lexicon entry (its key is the pinyin)
  uint16_t variant;       // index of the spelling among the entry's variants
  uint8_t consumed;       // bytes of the typed text the word covers, from its start
                          // (letters and any apostrophes between them)
  bool full;              // covers every letter typed
  float score;
};

class PinyinCandidateSearch {
 public:
  struct Options {
    size_t max_candidates = 50;  // results kept, after dedupe
    size_t max_paths = 8;        // lattice paths walked (overrides lattice.max_paths)
    // Lattice cost (see PinyinLattice::Options) to score: one unit of path cost takes this many
    // nats off log(count). With 3 and the lattice's defaults an unfinished last syllable (0.5)
    // costs 1.5 nats, so "xian" offers 先 before 向 (xiang, 3x more frequent), and each
    // abbreviated syllable (1.0) costs 3 nats.
    float nats_per_lattice_cost = 3.0f;
    size_t max_variants_per_entry = 32;  // spellings offered per key (homophones), most frequent
    size_t max_trie_visits = 200000;     // safety cap on trie nodes looked at per Search
    size_t max_hits = 4096;              // raw hits (before dedupe) kept per Search
    PinyinLattice::Options lattice;
  };

  // REQUIRES: lexicon outlives this object and is pinyin-keyed.
  PinyinCandidateSearch(const Lexicon* lexicon, const Options& options);

  // Replaces candidates() with the words for `typed` (lower-case a-z and apostrophes).
  // InvalidArgument (candidates() empty) for other bytes or input longer than
  // PinyinLattice::kMaxTyped. Empty input, or letters with no reading, give no candidates.
  Status Search(std::string_view typed);

  // Best first, as described above. Valid until the next Search.
  std::span<const PinyinCandidate> candidates() const { return candidates_; }
  // The lattice of the last Search.
  const PinyinLattice& lattice() const { return lattice_; }
  // Trie nodes looked at by the last Search, and whether a cap (max_trie_visits, max_hits)
  // cut it short.
  size_t trie_visits() const { return options_.max_trie_visits - visit_budget_; }
  bool truncated() const { return truncated_; }
  const Options& options() const { return options_; }

 private:
  struct Hit {
    uint32_t entry;
    uint16_t variant;
    uint8_t consumed;
    bool full;
    float score;
  };

  void Walk(uint32_t node, size_t piece, float cost);
  void WalkSyllable(uint32_t node, size_t piece, float cost, std::string_view syllable);
  uint32_t Child(uint32_t node, std::string_view bytes);
  void Offer(uint32_t entry, size_t piece, float cost);

  static PinyinLattice::Options LatticeOptions(const Options& options);

  const Lexicon* lexicon_;
  Options options_;
  PinyinLattice lattice_;

  // Per-search state, sized once.
  std::span<const uint16_t> path_;
  size_t shared_ = 0;        // leading pieces of path_ already walked by an earlier path
  size_t visit_budget_ = 0;  // trie children still allowed this search
  bool truncated_ = false;
  std::vector<Hit> hits_;
  std::vector<PinyinCandidate> candidates_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_PINYIN_PINYIN_CANDIDATES_H_
