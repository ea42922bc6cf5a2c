#include "decide/autocorrect.h"

#include <algorithm>
#include <cmath>

#include "decide/surface_form.h"
#include "decide/text_limits.h"
#include "decide/top_words.h"
#include "lexicon/lexicon.h"
#include "lexicon/word_set.h"
#include "model/model_config.h"
#include "model/transformer.h"
#include "text/edit_distance.h"
#include "text/letter_case.h"

namespace keydecide {

namespace {

constexpr size_t kHintLengthSlack = 2;  // bytes a candidate hint may differ in length

}  // namespace

bool KeepAsTyped(std::string_view composition, std::string_view typed, const Lexicon& lexicon) {
  if (IsAllUpper(composition)) return true;
  if (!StartsUpper(composition)) return false;
  const uint32_t entry = lexicon.Find(typed);
  return entry != lexicon::kNoEntry && StartsUpper(lexicon.CommonSpelling(entry));
}

CorrectionPick::CorrectionPick(const Transformer* model)
    : model_(model), logits_(std::min(model->n_words(), kCorrectionWords)) {
  shortlist_.reserve(kCorrectionShortlist);
  lower_.reserve(kMaxEditDistanceBytes * 2);  // lower-casing never doubles a word's bytes
}

int CorrectionPick::Pick(const float* hidden, std::string_view typed, bool* typed_first) {
  if (typed_first != nullptr) *typed_first = false;
  model_->WordLogits(hidden, static_cast<int>(logits_.size()), logits_.data());
  TopLetterWords(*model_, logits_, kCorrectionShortlist, &shortlist_);
  // The typed word itself competes at no cost: where it scores best the model prefers it.
  int best = -1;
  bool best_is_typed = false;
  float best_score = 0;
  for (const auto& [logit, w] : shortlist_) {
    // Too long to compare is too far; skipping it keeps lower_ within its reserve.
    if (model_->vocab().Word(w).size() > kMaxEditDistanceBytes) continue;
    lower_.clear();
    AppendLowerUtf8(model_->vocab().Word(w), &lower_);
    const int edits = lower_ == typed ? 0 : BoundedEditDistance(typed, lower_, kMaxCorrectionEdits);
    if (edits > kMaxCorrectionEdits) continue;
    const bool extends = edits > 0 && lower_.starts_with(typed);
    const float score = logit - kCorrectionEditCost * static_cast<float>(edits) -
                        (extends ? kCorrectionExtensionCost : 0.0f);
    if (best < 0 || score > best_score) {
      best = w;
      best_is_typed = edits == 0;
      best_score = score;
    }
  }
  if (best_is_typed) {
    if (typed_first != nullptr) *typed_first = true;
    return -1;
  }
  return best;
}

Autocorrect::Autocorrect(const Transformer* model, const Lexicon* lexicon,
                         std::span<const uint32_t> word_entry, const WordSet* known_words)
    : model_(model),
      lexicon_(lexicon),
      word_entry_(word_entry),
      known_words_(known_words),
      pick_(model) {}

bool Autocorrect::Unknown(const Word& word) const {
  return known_words_ != nullptr && !StartsUpper(word.as_typed) &&
         lexicon_->Find(word.typed) == lexicon::kNoEntry && !known_words_->MayContain(word.typed);
}

void Autocorrect::Decide(const float* hidden, const Word& word,
                         std::span<const ScoredCandidate> candidates, bool full_rung,
                         const AutocorrectBars& bars, AutocorrectDecision* out) {
  out->apply = false;
  out->confidence = 0;
  out->replacement.clear();
  if (word.typed.empty()) return;
  out->confidence = model_->Autocorrect(hidden);
  if (out->replacement.capacity() < kCandidateTextReserve) {
    out->replacement.reserve(kCandidateTextReserve);
  }
  // A word the model knows needs more; an unknown one (a capitalised one is likely a name) less.
  const bool model_word = model_->vocab().Find(word.typed) > ModelConfig::kEmailWord;
  const bool unknown = !model_word && Unknown(word);
  const float needed = model_word ? std::max(bars.word, kModelWordThreshold)
                       : unknown  ? bars.unknown
                                  : bars.word;
  const bool fired =
      out->confidence >= needed && !word.keep && !KeepAsTyped(word.as_typed, word.typed, *lexicon_);
  if (fired && full_rung) {
    bool typed_first = false;
    const int w = pick_.Pick(hidden, word.typed, &typed_first);
    if (w >= 0) {
      const uint32_t entry = word_entry_[w];
      WriteSurfaceForm(
          entry != lexicon::kNoEntry ? lexicon_->CommonSpelling(entry) : model_->vocab().Word(w),
          word.capitalize, &out->replacement);
      out->apply = true;
      return;
    }
    // No word of the model's shortlist is near what was typed, and the lexicon does not know
    // it: the word meant is likely one the model cannot name, and the scored candidates can.
    if (!typed_first && lexicon_->Find(word.typed) == lexicon::kNoEntry &&
        WriteRareCorrection(word, candidates, kMaxCorrectionEdits, &out->replacement)) {
      out->apply = true;
      return;
    }
  }
  // The slip the head missed (kNearMisspellingFactor). Unknown words are never all capitals, so
  // KeepAsTyped holds nothing here.
  if (!fired && full_rung && unknown && !word.keep &&
      word.typed.size() >= kNearMisspellingMinBytes && out->confidence >= bars.near_unknown &&
      WriteRareCorrection(word, candidates, 1, &out->replacement)) {
    out->apply = true;
    return;
  }
  const bool hint = WriteCandidateHint(word, candidates, &out->replacement);
  // Below the full rung no vocabulary-wide work is done: the candidates' best stands in.
  out->apply = hint && fired && !full_rung;
}

// The words the model's shortlist cannot name: outside its vocabulary, or rare.
bool Autocorrect::WriteRareCorrection(const Word& word, std::span<const ScoredCandidate> candidates,
                                      int max_edits, std::string* out) const {
  const ScoredCandidate* best = nullptr;
  for (const ScoredCandidate& c : candidates) {
    if (c.entry == lexicon::kNoEntry || !std::isfinite(c.score)) continue;
    if (best != nullptr && c.score <= best->score) continue;
    const std::string_view key = lexicon_->Key(c.entry);
    if (key == word.typed || key.size() > kMaxEditDistanceBytes) continue;
    if (BoundedEditDistance(word.typed, key, max_edits) > max_edits) continue;
    best = &c;
  }
  if (best != nullptr)
    WriteSurfaceForm(lexicon_->CommonSpelling(best->entry), word.capitalize, out);
  return best != nullptr;
}

// Not the typed letters themselves, and not much longer or shorter than them. Cheap, as it
// reads only the logits already scored.
bool Autocorrect::WriteCandidateHint(const Word& word, std::span<const ScoredCandidate> candidates,
                                     std::string* out) const {
  const ScoredCandidate* best = nullptr;
  for (const ScoredCandidate& c : candidates) {
    const std::string_view key = c.entry != lexicon::kNoEntry ? lexicon_->Key(c.entry) : c.text;
    const size_t longer = std::max(key.size(), word.typed.size());
    const size_t shorter = std::min(key.size(), word.typed.size());
    if (key == word.typed || longer - shorter > kHintLengthSlack) continue;
    if (c.word <= ModelConfig::kEmailWord) continue;  // the model cannot vouch for it
    if (best == nullptr || c.logit > best->logit) best = &c;
  }
  if (best != nullptr) {
    WriteSurfaceForm(
        best->entry != lexicon::kNoEntry ? lexicon_->CommonSpelling(best->entry) : best->text,
        word.capitalize, out);
  }
  return best != nullptr;
}

}  // namespace keydecide
