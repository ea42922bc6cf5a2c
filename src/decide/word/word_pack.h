// WordPack: what the word engine (word_engine.h) loads for a language typed word by word and
// every session of it reads: lexicon, keyboard costs, scorers, the word bigram, the teacher,
// the typing models and their heads' helpers, the person's learner. Which of them a pack has
// depends on its files; which it uses, on its stage table (WordPackSpec).

#ifndef KEYDECIDE_DECIDE_WORD_WORD_PACK_H_
#define KEYDECIDE_DECIDE_WORD_WORD_PACK_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "decide/fine_tuner.h"
#include "decide/scorer.h"
#include "decide/word/apostrophe_index.h"
#include "lexicon/candidate_search.h"
#include "lexicon/lexicon.h"
#include "lexicon/typing_costs.h"
#include "lexicon/word_bigram.h"
#include "lexicon/word_ngram.h"
#include "lexicon/word_set.h"
#include "model/intent_ngrams.h"
#include "model/popup_net.h"
#include "model/transformer.h"
#include "personal/learner.h"
#include "text/keyboard_layout.h"

namespace keydecide {

struct WordPackSpec;

// What a word pack loads once and its sessions share; filled by WordEngine::Init, read-only
// afterwards.
class WordPack {
 public:
  const WordPackSpec& spec() const { return *spec_; }
  const Lexicon& lexicon() const { return *lexicon_; }
  const TypingCosts& costs() const { return *costs_; }
  const Scorer& scorer() const { return *scorer_; }
  // The count baseline: the scorer without a model, and the lexicon-only rung with one.
  const Scorer& baseline() const { return *baseline_; }
  const Transformer* model() const { return model_.get(); }
  // The small-model rung (Tier::kSmallModel): a smaller model of the same vocabulary and its
  // scorer; null without one (then that rung is served by the lexicon).
  const Transformer* small_model() const { return small_model_.get(); }
  const Scorer& small_scorer() const { return *small_scorer_; }
  // The popup network fitted to the typing model (popup.json); null without one (then the
  // popup head is mixed with the candidates' share).
  const PopupNet* popup_net() const { return popup_net_.get(); }
  // The intent n-grams whose logits join the typing model's intent head
  // (intent_ngrams.safetensors); null without them.
  const IntentNgrams* intent_ngrams() const { return intent_ngrams_.get(); }
  const CandidateSearch::Options& search_options() const { return search_options_; }
  // The word bigram beside the lexicon (lexicon.kdbg), and how much its context counts in a
  // model-scored candidate's score (EngineOptions::word_bigram_weight); null without the file
  // or at weight 0.
  const WordBigram* bigram() const { return bigram_.get(); }
  float bigram_weight() const { return bigram_weight_; }
  // The bigram's word of a lexicon entry, and back (REQUIRES: a bigram; 0 < word <
  // bigram()->word_count()).
  uint32_t BigramWordOf(uint32_t entry) const {
    return bigram_->WordOf(lexicon_->VariantIndex(entry, 0));
  }
  uint32_t EntryOfBigramWord(uint32_t word) const { return bigram_entry_[word]; }
  // The general-language teacher beside the lexicon (lexicon.kdng), numbered as the bigram is,
  // and its weight (EngineOptions::teacher_weight); null without the file, the bigram, or at 0.
  const WordNgram* teacher() const { return teacher_.get(); }
  float teacher_weight() const { return teacher_weight_; }
  // The bigram words whose keys start with `prefix`: [first, second), one range because a word
  // pack's bigram numbers its words in key order. REQUIRES: a bigram.
  std::pair<uint32_t, uint32_t> BigramWordsWithPrefix(std::string_view prefix) const {
    const auto key = [this](uint32_t entry) { return lexicon_->Key(entry); };
    const auto first = std::partition_point(bigram_entry_.begin() + 1, bigram_entry_.end(),
                                            [&](uint32_t e) { return key(e) < prefix; });
    const auto last = std::partition_point(first, bigram_entry_.end(),
                                           [&](uint32_t e) { return key(e).starts_with(prefix); });
    return {static_cast<uint32_t>(first - bigram_entry_.begin()),
            static_cast<uint32_t>(last - bigram_entry_.begin())};
  }
  // The words beyond the lexicon's (lexicon.kdws beside it), for autocorrect; null without the
  // file.
  const WordSet* known_words() const { return known_words_.get(); }
  // The lexicon's words with apostrophes by their letters ("dont" -> "don't"); empty unless
  // WordPackSpec::index_apostrophes.
  const ApostropheIndex& apostrophes() const { return apostrophes_; }
  // Model word index of a lexicon entry (-1 if the vocabulary lacks it), and back.
  int32_t WordOf(uint32_t entry) const { return model_ ? entry_word_[entry] : -1; }
  uint32_t EntryOf(int word) const { return word_entry_[word]; }
  std::span<const uint32_t> word_entries() const { return word_entry_; }
  // The person's learner (EngineOptions::personal and a store that opened), else null. It is
  // thread-safe, so sessions of a const pack may offer it words.
  Learner* learner() const { return learner_.get(); }
  bool learning() const { return learning_; }
  // The person's fine-tuned adapter's trainer and server (EngineOptions::fine_tune); else null.
  FineTuner* fine_tuner() const { return fine_tuner_.get(); }
  struct PersonalWeights {  // EngineOptions::user_*_weight, user_new_word_bonus, fine_tune_weight,
                            // user_app_share
    float word = 0, pair = 0, new_word = 0, adapter = 0, app_share = 0;
  };
  const PersonalWeights& personal_weights() const { return personal_weights_; }

 private:
  friend class WordEngine;

  const WordPackSpec* spec_ = nullptr;
  std::unique_ptr<Lexicon> lexicon_;
  KeyboardLayout layout_;
  std::unique_ptr<TypingCosts> costs_;
  std::unique_ptr<Transformer> model_;
  std::unique_ptr<Transformer> small_model_;
  std::unique_ptr<PopupNet> popup_net_;
  std::unique_ptr<IntentNgrams> intent_ngrams_;
  std::unique_ptr<Scorer> small_scorer_;
  double oov_count_ = 0;  // lexicon counts of the words outside the vocabulary
  std::vector<int32_t> entry_word_;
  std::vector<uint32_t> word_entry_;
  std::unique_ptr<Scorer> scorer_;
  std::unique_ptr<Scorer> baseline_;
  std::unique_ptr<WordBigram> bigram_;
  std::unique_ptr<WordSet> known_words_;
  float bigram_weight_ = 0;
  std::unique_ptr<WordNgram> teacher_;
  float teacher_weight_ = 0;
  std::vector<uint32_t> bigram_entry_;  // per bigram word (0: the sentence start, no entry)
  CandidateSearch::Options search_options_;
  ApostropheIndex apostrophes_;
  std::unique_ptr<Learner> learner_;
  std::unique_ptr<FineTuner> fine_tuner_;  // after learner_: it reads the learner's store
  bool learning_ = false;
  PersonalWeights personal_weights_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WORD_PACK_H_
