// PinyinSentenceSearch: whole-sentence conversion of typed pinyin, the best hanzi sentences
// for all the letters typed ("womendezhongguo" → 我们的中国).
//
// The letters are read as a PinyinLattice (every edge, not only its best paths; initial-only
// edges only where no full syllable starts, see Options). From every position where a syllable
// starts, the lexicon trie is walked along the lattice's edges, up to max_word_syllables
// syllables, as PinyinCandidateSearch does from the start: every entry met at a syllable boundary
// gives word arcs [start, end) for its spellings with one hanzi per syllable; the words_per_span
// best distinct words of each span are kept. A beam search over the positions then keeps the
// beam_width best partial sentences ending at each position; those that end at the end of the
// input, deduplicated by text, are the sentences.
//
// Word score = log P(word) − nats_per_lattice_cost × (lattice cost of its edges), a sentence's the
// sum of its words'. Without a WordBigram, P is the unigram of the lexicon's counts (count /
// total), the prior PinyinCandidateSearch ranks words by; with one, P is the word's probability
// after the word before it in the hypothesis (the first word: after `context_word`). The best
// words of a span are chosen by the unigram; the bigram scores them in the beam, which is why the
// search is a beam and not a Viterbi over positions.
//
// With a teacher (Options::teacher: a general-language WordNgram of the same lexicon,
// word_ngram.h), a word's P is the bigram's and the teacher's mixed, (1 − λ) · P_bigram + λ ·
// P_teacher(word | the two words before it): the bigram knows the text the models were trained on,
// the teacher general language (issue 48). A word the teacher lacks keeps the bigram's share.
//
// With a WordBonus (set_bonus), each word's score also gets its Word bonus and, after the word
// before it, its Pair bonus: the person's own use (ZhSession: the words it learned). The bonus
// may also offer words the lexicon lacks (ExtraWords: a name the person built from single
// hanzi); they are scored by their own log P, without the bigram, which does not know them.
//
// Not thread-safe: one PinyinSentenceSearch per session. Buffers are sized in the constructor;
// Search does not allocate.

#ifndef KEYDECIDE_LEXICON_PINYIN_PINYIN_SENTENCE_H_
#define KEYDECIDE_LEXICON_PINYIN_PINYIN_SENTENCE_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "keydecide/status.h"
#include "lexicon/pinyin/pinyin_lattice.h"
#include "lexicon/word_ngram.h"

namespace keydecide {

class Lexicon;
class WordBigram;

// One word of a sentence.
struct PinyinSentenceWord {
  static constexpr uint32_t kNoExtra = 0xFFFFFFFF;

  std::string_view text;  // hanzi (points into the lexicon, or the WordBonus's words)
  uint32_t entry;         // lexicon entry (its key is the pinyin) and spelling; for a word
  uint16_t variant;       // beyond the lexicon, lexicon::kNoEntry and 0
  uint8_t begin;          // [begin, end): bytes of the typed text it converts
  uint8_t end;
  uint32_t word = 0;          // WordBigram id (0 without a bigram, or beyond the lexicon)
  uint32_t extra = kNoExtra;  // a word beyond the lexicon: its WordBonus::ExtraWord id
};

struct PinyinSentence {
  std::string_view text;  // the whole sentence (in the search's storage)
  float score;
  std::span<const PinyinSentenceWord> words;  // in order, covering every typed letter
  uint64_t breaks = 0;  // its reading's syllable breaks: bit i, a syllable ends after typed[i]
};

// A word the lexicon lacks, offered by a WordBonus where its letters begin the rest of the input.
struct ExtraWord {
  uint32_t id;      // the bonus's (WordBonus::ExtraText)
  uint32_t length;  // typed bytes it converts
  uint64_t breaks;  // bit i: one of its syllables ends after its i-th letter
  float log_p;      // its score in the search, as a lexicon word's log P plus its bonus
};

// Nats added to words in the search, by lexicon variant (Lexicon::VariantIndex). The search
// calls it for every word it considers, so a lookup must be cheap; it must not change during a
// Search.
class WordBonus {
 public:
  static constexpr uint32_t kStart = 0xFFFFFFFF;  // "previous" of the input's first word
  static constexpr size_t kMaxExtraWords = 8;     // offered per position

  virtual ~WordBonus() = default;
  virtual float Word(uint32_t variant) const = 0;
  // For `variant` after `previous` (kStart: the first word of the input, after whatever the
  // bonus knows came before).
  virtual float Pair(uint32_t previous, uint32_t variant) const = 0;
  // Bounds of the two over every variant (the search prunes with them); 0 when nothing is
  // ever added.
  virtual float max_word() const = 0;
  virtual float max_pair() const = 0;
  // The largest Word bonus of variants [begin, end) (one entry's spellings), at most max_word():
  // the search prunes each entry's spellings with it. Default: max_word().
  virtual float MaxWordIn(uint32_t begin, uint32_t end) const {
    (void)begin;
    (void)end;
    return max_word();
  }

  // Words beyond the lexicon whose letters begin `rest` (the input from a position where a
  // syllable starts to its end): at most out.size() written, best first; their number
  // returned. Called once per position, so it must be cheap. Default: none.
  virtual size_t ExtraWords(std::string_view rest, std::span<ExtraWord> out) const {
    (void)rest;
    (void)out;
    return 0;
  }
  // The hanzi of an ExtraWord id, valid while the bonus is unchanged.
  virtual std::string_view ExtraText(uint32_t id) const {
    (void)id;
    return {};
  }
};

// The typed letters with an apostrophe at every break of `breaks` (PinyinSentence::breaks) that a
// letter follows ("nihao" → "ni'hao"; apostrophes typed stay single), into *out.
void WriteSyllableBreaks(std::string_view typed, uint64_t breaks, std::string* out);

class PinyinSentenceSearch {
 public:
  struct Options {
    size_t beam_width = 8;               // partial sentences kept per position; sentences returned
    size_t words_per_span = 8;           // best words kept per span of typed letters
    size_t max_word_syllables = 8;       // longer words are not looked for
    float nats_per_lattice_cost = 3.0f;  // as in PinyinCandidateSearch::Options
    size_t max_trie_visits = 400000;     // safety cap on trie children looked at per Search
    size_t max_arcs = 16384;             // word arcs kept per Search
    PinyinLattice::Options lattice;      // max_paths is ignored (the search needs no paths)
    // Read a letter as an abbreviated syllable (an initial-only edge) also where a full syllable
    // starts. Off: where the letters spell a syllable, a person typing full pinyin meant it, and
    // abbreviations are read only elsewhere ("zg", "wmdzg", "zhongguor" still convert). On, the
    // search does about twice the work and converted the dev file no better
    // (docs/history/BENCHMARKS-to-2026-12-07.md).
    bool initials_beside_full_syllables = false;
    // The general-language teacher mixed with the bigram, with weight λ = teacher_weight in
    // [0, 1] (null, λ = 0 or no bigram: none). REQUIRES: built for the same lexicon as the
    // bigram; outlives the search.
    const WordNgram* teacher = nullptr;
    float teacher_weight = 0;
  };

  // REQUIRES: lexicon (and bigram, when not null) outlive this object; lexicon is pinyin-keyed
  // and bigram was built for it.
  PinyinSentenceSearch(const Lexicon* lexicon, const WordBigram* bigram, const Options& options);

  // Replaces sentences() with the conversions of `typed` (lower-case a-z and apostrophes).
  // InvalidArgument (no sentences) for other bytes or input longer than PinyinLattice::kMaxTyped.
  // Empty input, or letters with no complete reading, give no sentences.
  // `context_word`: the WordBigram id of the word just before the letters (0: a sentence start).
  Status Search(std::string_view typed, uint32_t context_word = 0);
  // The same over a lattice already built for `typed` (PinyinCandidateSearch's, say: the session
  // reads the letters once for both searches). REQUIRES: lattice was built from `typed` with
  // options().lattice but for max_paths, and lives through the call.
  void Search(const PinyinLattice& lattice, std::string_view typed, uint32_t context_word);

  // Best first, distinct texts, at most beam_width. Valid until the next Search.
  std::span<const PinyinSentence> sentences() const { return sentences_; }

  // WriteSyllableBreaks of the best sentence's reading. `typed` must be the text of the last
  // Search; without a sentence, *out = typed.
  void SyllableBreaks(std::string_view typed, std::string* out) const;

  // The bonus the next searches add (nullptr: none). REQUIRES: it outlives its use.
  void set_bonus(const WordBonus* bonus) { bonus_ = bonus; }

  bool truncated() const { return truncated_; }  // a cap cut the last Search short
  const Options& options() const { return options_; }

 private:
  struct Arc {               // one word over typed[begin, end)
    float score;             // unigram log P − penalty + bonus
    float penalty;           // nats_per_lattice_cost × lattice cost
    float unigram;           // WordBigram::Unigram of the word (0 without a bigram)
    float bonus;             // WordBonus::Word (0 without one)
    uint64_t breaks;         // bit i: a syllable of the word ends after typed[i]
    uint32_t entry;          // lexicon::kNoEntry: a WordBonus's extra word
    uint32_t variant_index;  // Lexicon::VariantIndex; an extra word's ExtraWord::id
    uint32_t word;           // WordBigram id (0 without a bigram, or an extra word)
    uint16_t variant;
    uint8_t begin;
    uint8_t end;
  };
  struct Hyp {  // a partial sentence over typed[start, node)
    float score;
    uint32_t arc;     // its last word
    uint32_t word;    // ... as a WordBigram id (the context word at the start)
    uint16_t parent;  // its rank at the position where that word begins; kNoParent at start
    WordNgram::Context teacher;  // its last two words, for the teacher (when there is one)
  };
  static constexpr uint16_t kNoParent = 0xFFFF;

  struct Reading {  // the syllables walked so far from begin_
    size_t syllables;
    float cost;       // lattice cost of their edges
    uint64_t breaks;  // as Arc::breaks
  };

  void CollectArcs(size_t begin);
  void OfferExtraWords(size_t begin);
  void Walk(uint32_t node, size_t pos, Reading reading);
  void WalkSyllable(uint32_t node, const PinyinEdge& edge, Reading reading, std::string_view rest);
  void OfferArcs(uint32_t entry, size_t end, const Reading& reading);
  void Extend(const Arc& arc, uint32_t arc_index);
  void EmitSentences(size_t last);
  size_t SkipApostrophes(size_t pos) const;

  const Lexicon* lexicon_;
  const WordBigram* bigram_;
  const WordBonus* bonus_ = nullptr;
  const WordNgram* teacher_ = nullptr;  // options_.teacher when it is used, else null
  Options options_;
  PinyinLattice own_lattice_;               // for Search(typed)
  const PinyinLattice* lattice_ = nullptr;  // during a Search only
  float log_total_ = 0;

  // Per-search state, sized once.
  std::string_view typed_;  // during Search only
  size_t begin_ = 0;        // start of the arcs being collected
  size_t visit_budget_ = 0;
  bool truncated_ = false;
  std::vector<Arc> arcs_;  // grouped by begin, ascending; then by end, best first
  // The best words from begin_ to each end, best first, while they are collected.
  std::vector<Arc> span_best_;  // words_per_span per end
  uint8_t num_span_best_[PinyinLattice::kMaxTyped + 1] = {};
  std::vector<Hyp> hyps_;  // beam_width per position, best first
  uint8_t num_hyps_[PinyinLattice::kMaxTyped + 1] = {};
  std::vector<char> text_;                 // sentence texts (never reallocated)
  std::vector<PinyinSentenceWord> words_;  // sentence words (never reallocated)
  std::vector<PinyinSentence> sentences_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_PINYIN_PINYIN_SENTENCE_H_
