#include "lexicon/pinyin/pinyin_sentence.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "lexicon/lexicon.h"
#include "lexicon/pinyin/pinyin_syllables.h"
#include "lexicon/trie_walk.h"
#include "lexicon/word_bigram.h"

namespace keydecide {

namespace {

constexpr size_t kMaxBeamWidth = 64;
constexpr size_t kMaxWordsPerSpan = 16;
// A sentence has at most one hanzi (at most 4 bytes) per typed letter.
constexpr size_t kMaxSentenceBytes = 4 * PinyinLattice::kMaxTyped;

// Code points of valid UTF-8 (the lexicon validates its strings): a byte count, no decoding, on
// the search's innermost loop.
size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<uint8_t>(c) & 0xC0) != 0x80;
  return n;
}

PinyinLattice::Options LatticeOptions(const PinyinSentenceSearch::Options& options) {
  PinyinLattice::Options lattice = options.lattice;
  lattice.max_paths = 0;  // edges only
  return lattice;
}

PinyinSentenceSearch::Options Clamped(PinyinSentenceSearch::Options options) {
  options.beam_width = std::clamp<size_t>(options.beam_width, 1, kMaxBeamWidth);
  options.words_per_span = std::clamp<size_t>(options.words_per_span, 1, kMaxWordsPerSpan);
  options.max_word_syllables =
      std::clamp<size_t>(options.max_word_syllables, 1, PinyinLattice::kMaxTyped);
  options.teacher_weight = std::clamp(options.teacher_weight, 0.0f, 1.0f);
  return options;
}

// log((1 − λ) · e^a + λ · e^b): two models' probabilities mixed, in logs.
float MixLogProb(float a, float b, float lambda) {
  const float m = std::max(a, b);
  return m + std::log((1 - lambda) * std::exp(a - m) + lambda * std::exp(b - m));
}

}  // namespace

PinyinSentenceSearch::PinyinSentenceSearch(const Lexicon* lexicon, const WordBigram* bigram,
                                           const Options& options)
    : lexicon_(lexicon),
      bigram_(bigram),
      options_(Clamped(options)),
      own_lattice_(LatticeOptions(options)) {
  if (bigram_ != nullptr && options_.teacher_weight > 0) teacher_ = options_.teacher;
  log_total_ = std::log(static_cast<float>(std::max<uint64_t>(lexicon_->total_count(), 1)));
  arcs_.reserve(options_.max_arcs);
  hyps_.resize((PinyinLattice::kMaxTyped + 1) * options_.beam_width);
  text_.resize(options_.beam_width * kMaxSentenceBytes);
  words_.resize(options_.beam_width * PinyinLattice::kMaxTyped);
  span_best_.resize((PinyinLattice::kMaxTyped + 1) * options_.words_per_span);
  sentences_.reserve(options_.beam_width);
}

Status PinyinSentenceSearch::Search(std::string_view typed, uint32_t context_word) {
  const Status built = own_lattice_.Build(typed);
  if (!built.ok()) {
    arcs_.clear();
    sentences_.clear();
    return built;
  }
  Search(own_lattice_, typed, context_word);
  return Status::OK();
}

void PinyinSentenceSearch::Search(const PinyinLattice& lattice, std::string_view typed,
                                  uint32_t context_word) {
  arcs_.clear();
  sentences_.clear();
  visit_budget_ = options_.max_trie_visits;
  truncated_ = false;
  lattice_ = &lattice;
  typed_ = typed;
  const size_t n = typed.size();
  const size_t start = SkipApostrophes(0);
  if (start == n || lexicon_->nodes().empty()) {
    typed_ = {};
    return;
  }

  std::fill(num_hyps_, num_hyps_ + n + 1, 0);
  hyps_[start * options_.beam_width] = {0.0f, 0, bigram_ != nullptr ? context_word : 0, kNoParent,
                                        teacher_ != nullptr
                                            ? teacher_->Find(WordNgram::kNoWord, context_word)
                                            : WordNgram::Context()};
  num_hyps_[start] = 1;
  // Positions in order: every word ends after it begins, so the beam at a position is final
  // before the words from it are added.
  for (size_t pos = start; pos < n; ++pos) {
    if (num_hyps_[pos] == 0) continue;
    const size_t from = arcs_.size();
    CollectArcs(pos);
    for (size_t a = from; a < arcs_.size(); ++a) Extend(arcs_[a], static_cast<uint32_t>(a));
  }
  EmitSentences(n);
  typed_ = {};
  lattice_ = nullptr;
}

size_t PinyinSentenceSearch::SkipApostrophes(size_t pos) const {
  while (pos < typed_.size() && typed_[pos] == '\'') ++pos;
  return pos;
}

void PinyinSentenceSearch::CollectArcs(size_t begin) {
  begin_ = begin;
  for (size_t end = begin + 1; end <= typed_.size(); ++end) num_span_best_[end] = 0;
  Walk(0, begin, {0, 0.0f, 0});
  if (bonus_ != nullptr) OfferExtraWords(begin);
  for (size_t end = begin + 1; end <= typed_.size(); ++end) {
    for (size_t k = 0; k < num_span_best_[end]; ++k) {
      if (arcs_.size() >= options_.max_arcs) {
        truncated_ = true;
        return;
      }
      arcs_.push_back(span_best_[end * options_.words_per_span + k]);
    }
  }
}

// The bonus's words beyond the lexicon from `begin`, into the best words of their spans (after
// the lexicon's: OfferArcs never compares a word with them).
void PinyinSentenceSearch::OfferExtraWords(size_t begin) {
  ExtraWord extra[WordBonus::kMaxExtraWords];
  const size_t found = bonus_->ExtraWords(typed_.substr(begin), extra);
  const size_t width = options_.words_per_span;
  for (size_t i = 0; i < std::min(found, WordBonus::kMaxExtraWords); ++i) {
    const ExtraWord& w = extra[i];
    const size_t end = begin + w.length;
    const std::string_view text = bonus_->ExtraText(w.id);
    // At most one hanzi per letter (the sentence buffers rely on it), within the input.
    if (w.length == 0 || end > typed_.size() || !std::isfinite(w.log_p) ||
        CodePoints(text) > w.length || text.size() > 4 * size_t{w.length}) {
      continue;
    }
    Arc* best = &span_best_[end * width];
    uint8_t& size = num_span_best_[end];
    const float score = std::min(w.log_p, 0.0f);  // a log P: Extend's pruning relies on it
    if (size == width && score <= best[size - 1].score) continue;
    size_t at = std::min<size_t>(size, width - 1);
    if (size < width) ++size;
    while (at > 0 && best[at - 1].score < score) {
      best[at] = best[at - 1];
      --at;
    }
    // Its score is all bonus: Extend adds it as it is, and bounds the gain by it.
    best[at] = {score,
                0.0f,
                0.0f,
                score,
                w.breaks << begin,
                lexicon::kNoEntry,
                w.id,
                0,
                0,
                static_cast<uint8_t>(begin),
                static_cast<uint8_t>(end)};
  }
}

// Reads the next syllable from lattice position `pos`, below trie node `node`.
void PinyinSentenceSearch::Walk(uint32_t node, size_t pos, Reading reading) {
  const std::span<const PinyinEdge> edges = lattice_->EdgesFrom(pos);
  const bool skip_initials = !options_.initials_beside_full_syllables &&
                             std::any_of(edges.begin(), edges.end(), [](const PinyinEdge& e) {
                               return e.kind == PinyinEdgeKind::kFull;
                             });
  for (const PinyinEdge& edge : edges) {
    if (truncated_) return;
    if (skip_initials && edge.kind == PinyinEdgeKind::kInitialOnly) continue;
    Reading next = reading;
    next.cost += edge.cost;
    if (edge.kind == PinyinEdgeKind::kFull) {
      WalkSyllable(node, edge, next, edge.text);
      continue;
    }
    // An initial or an unfinished syllable: every syllable that starts with its letters.
    const uint32_t below =
        TrieDescend(lexicon_->nodes(), node, edge.text, &visit_budget_, &truncated_);
    if (below == kNoTrieNode) continue;
    for (const std::string_view syllable : pinyin::SyllablesStartingWith(edge.text)) {
      if (truncated_) return;
      WalkSyllable(below, edge, next, syllable.substr(edge.text.size()));
    }
  }
}

// Follows the rest of one syllable read by `edge`, offers the words that end there, and reads on.
void PinyinSentenceSearch::WalkSyllable(uint32_t node, const PinyinEdge& edge, Reading reading,
                                        std::string_view rest) {
  const uint32_t end = TrieDescend(lexicon_->nodes(), node, rest, &visit_budget_, &truncated_);
  if (end == kNoTrieNode) return;
  ++reading.syllables;
  reading.breaks |= uint64_t{1} << (edge.end - 1);
  const lexicon::TrieNode& trie_node = lexicon_->nodes()[end];
  if (trie_node.entry != lexicon::kNoEntry) OfferArcs(trie_node.entry, edge.end, reading);
  const size_t next = SkipApostrophes(edge.end);
  if (reading.syllables < options_.max_word_syllables && trie_node.child_count > 0 &&
      next < typed_.size()) {
    Walk(end, next, reading);
  }
}

// The spellings of `entry` with one hanzi per syllable read (the key "xian" holds both 先 and
// 西安; one syllable offers only 先), into the best words of their span.
void PinyinSentenceSearch::OfferArcs(uint32_t entry, size_t end, const Reading& reading) {
  const size_t width = options_.words_per_span;
  Arc* best = &span_best_[end * width];
  uint8_t& size = num_span_best_[end];
  const float penalty = options_.nats_per_lattice_cost * reading.cost;
  const float base = -log_total_ - penalty;
  const std::span<const lexicon::Variant> variants = lexicon_->Variants(entry);
  const uint32_t first = lexicon_->VariantIndex(entry, 0);
  const float max_bonus =
      bonus_ != nullptr ? bonus_->MaxWordIn(first, first + static_cast<uint32_t>(variants.size()))
                        : 0.0f;
  for (size_t v = 0; v < variants.size(); ++v) {
    const float lexical =
        base + std::log(static_cast<float>(std::max<uint32_t>(variants[v].count, 1)));
    // Spellings are most frequent first: none after this one would be kept either.
    if (size == width && lexical + max_bonus <= best[size - 1].score) return;
    const std::string_view text = lexicon_->VariantText(variants[v]);
    if (CodePoints(text) != reading.syllables) continue;
    const uint32_t index = first + static_cast<uint32_t>(v);
    const float bonus = max_bonus > 0 ? bonus_->Word(index) : 0.0f;
    const float score = lexical + bonus;
    if (size == width && score <= best[size - 1].score) continue;
    // The same word by another reading of the letters: keep its better score. With a bigram,
    // equal word ids are equal texts.
    const uint32_t word = bigram_ != nullptr ? bigram_->WordOf(index) : 0;
    const auto same = [&](const Arc& a) {
      return bigram_ != nullptr
                 ? a.word == word
                 : lexicon_->VariantText(lexicon_->Variants(a.entry)[a.variant]) == text;
    };
    size_t at = 0;
    while (at < size && !same(best[at])) ++at;
    if (at < size) {
      if (best[at].score >= score) continue;
      std::copy(best + at + 1, best + size, best + at);  // re-inserted below
      --size;
    }
    at = std::min<size_t>(size, width - 1);
    if (size < width) ++size;
    while (at > 0 && best[at - 1].score < score) {
      best[at] = best[at - 1];
      --at;
    }
    const float unigram =
        bigram_ != nullptr ? bigram_->Unigram(word, std::exp(lexical + penalty)) : 0.0f;
    best[at] = {score,
                penalty,
                unigram,
                bonus,
                reading.breaks,
                entry,
                index,
                word,
                static_cast<uint16_t>(v),
                static_cast<uint8_t>(begin_),
                static_cast<uint8_t>(end)};
  }
}

// Adds `arc` to every partial sentence ending where it begins, into the beam where it ends.
void PinyinSentenceSearch::Extend(const Arc& arc, uint32_t arc_index) {
  const size_t width = options_.beam_width;
  const size_t node = SkipApostrophes(arc.end);
  const Hyp* parents = &hyps_[arc.begin * width];
  Hyp* beam = &hyps_[node * width];
  const float max_pair = bonus_ != nullptr ? bonus_->max_pair() : 0.0f;
  for (uint16_t rank = 0; rank < num_hyps_[arc.begin]; ++rank) {
    const Hyp& parent = parents[rank];
    size_t size = num_hyps_[node];
    // Parents are best first and a log probability is at most 0: once even a certain word
    // would not enter the full beam, no later parent's extension would either.
    if (size == width &&
        parent.score - arc.penalty + arc.bonus + max_pair <= beam[size - 1].score) {
      break;
    }
    const bool extra = arc.entry == lexicon::kNoEntry;
    float gain = arc.score;
    if (bigram_ != nullptr && !extra) {
      float log_p = bigram_->LogProb(parent.word, arc.word, arc.unigram);
      if (teacher_ != nullptr) {
        log_p =
            MixLogProb(log_p, teacher_->LogProb(parent.teacher, arc.word), options_.teacher_weight);
      }
      gain = log_p - arc.penalty + arc.bonus;
    }
    const bool after_extra =
        parent.parent != kNoParent && arcs_[parent.arc].entry == lexicon::kNoEntry;
    if (max_pair > 0 && !extra && !after_extra) {
      gain += bonus_->Pair(
          parent.parent == kNoParent ? WordBonus::kStart : arcs_[parent.arc].variant_index,
          arc.variant_index);
    }
    Hyp hyp = {parent.score + gain, arc_index, arc.word, rank, {}};
    if (size == width && hyp.score <= beam[size - 1].score) {
      // Without a bigram or pairs, the gain is the same for every parent.
      if (bigram_ == nullptr && max_pair == 0) break;
      continue;
    }
    // After a word beyond the lexicon the teacher knows no context.
    if (teacher_ != nullptr && !extra) hyp.teacher = teacher_->Find(parent.word, arc.word);
    size_t at = std::min(size, width - 1);
    if (size < width) ++size;
    while (at > 0 && beam[at - 1].score < hyp.score) {
      beam[at] = beam[at - 1];
      --at;
    }
    beam[at] = hyp;
    num_hyps_[node] = static_cast<uint8_t>(size);
  }
}

// The partial sentences that reach `last` (the end of the input), as text, distinct.
void PinyinSentenceSearch::EmitSentences(size_t last) {
  const size_t width = options_.beam_width;
  PinyinSentenceWord reversed[PinyinLattice::kMaxTyped];
  for (size_t rank = 0; rank < num_hyps_[last]; ++rank) {
    size_t count = 0;
    uint64_t sentence_breaks = 0;
    size_t pos = last, r = rank;
    for (const Hyp* h = &hyps_[pos * width + r]; h->parent != kNoParent;) {
      const Arc& arc = arcs_[h->arc];
      if (arc.entry == lexicon::kNoEntry) {
        reversed[count++] = {bonus_->ExtraText(arc.variant_index),
                             arc.entry,
                             0,
                             arc.begin,
                             arc.end,
                             0,
                             arc.variant_index};
      } else {
        reversed[count++] = {lexicon_->VariantText(lexicon_->Variants(arc.entry)[arc.variant]),
                             arc.entry,
                             arc.variant,
                             arc.begin,
                             arc.end,
                             arc.word};
      }
      sentence_breaks |= arc.breaks;
      pos = arc.begin;
      r = h->parent;
      h = &hyps_[pos * width + r];
    }
    const size_t slot = sentences_.size();
    char* text = &text_[slot * kMaxSentenceBytes];
    PinyinSentenceWord* words = &words_[slot * PinyinLattice::kMaxTyped];
    size_t bytes = 0;
    for (size_t w = 0; w < count; ++w) {
      const PinyinSentenceWord& word = reversed[count - 1 - w];
      std::memcpy(text + bytes, word.text.data(), word.text.size());
      bytes += word.text.size();
      words[w] = word;
    }
    const std::string_view sentence(text, bytes);
    bool seen = false;
    for (const PinyinSentence& s : sentences_) seen = seen || s.text == sentence;
    if (seen) continue;
    sentences_.push_back(
        {sentence, hyps_[last * width + rank].score, {words, count}, sentence_breaks});
  }
}

void PinyinSentenceSearch::SyllableBreaks(std::string_view typed, std::string* out) const {
  WriteSyllableBreaks(typed, sentences_.empty() ? 0 : sentences_.front().breaks, out);
}

void WriteSyllableBreaks(std::string_view typed, uint64_t breaks, std::string* out) {
  out->clear();
  for (size_t i = 0; i < typed.size(); ++i) {
    out->push_back(typed[i]);
    const bool next_is_letter = i + 1 < typed.size() && typed[i + 1] != '\'';
    if (next_is_letter && i < 64 && (breaks >> i & 1)) out->push_back('\'');
  }
}

}  // namespace keydecide
