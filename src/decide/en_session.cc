// The per-keystroke pipeline: features -> candidates -> model -> scoring and heads -> post.
// ConcreteEngine and ConcreteSession stay in this file; callers see include/keydecide.

#include "keydecide/engine.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <vector>

#include "decide/baseline_scorer.h"
#include "decide/autocorrect.h"
#include "decide/model_scorer.h"
#include "decide/model_track.h"
#include "decide/zh_session.h"
#include "decide/popup_estimate.h"
#include "decide/session_common.h"
#include "decide/session_history.h"
#include "decide/surface_form.h"
#include "decide/top_words.h"
#include "lexicon/candidate_search.h"
#include "lexicon/lexicon.h"
#include "lexicon/typing_costs.h"
#include "model/kernels/targets.h"
#include "model/transformer.h"
#include "text/keyboard_layout.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

constexpr int kModelProposals = 16;  // model words added at a word start
// ... chosen among the model's 8192 most frequent words (its vocabulary is in frequency
// order): the whole word table (20k rows) costs more than the rest of the decision. On 50 KB
// of dev text: KSR 0.4177 vs 0.4178 with all rows, next-word top-3 0.2323 vs 0.2326,
// P95 latency 0.50 ms vs 0.80 ms (docs/BENCHMARKS.md).
constexpr int kProposalWords = 8192;
constexpr size_t kAutocorrectLengthSlack = 2;  // bytes a replacement may differ in length
constexpr float kNatsPerPoint = 0.35f;         // search and baseline: one 10-point slip ~ 3.5 nats

char32_t CharBefore(std::string_view text, size_t end, size_t* start) {
  *start = utf8::LastCharStart(text.substr(0, end));
  size_t pos = *start;
  char32_t cp;
  utf8::Decode(text, &pos, &cp);
  return cp;
}

// Byte offset where the word being typed starts in `text`: after the last character that
// is neither a letter nor an apostrophe following a letter ("don'" on the way to "don't").
size_t CompositionStart(std::string_view text) {
  size_t start = text.size();
  while (start > 0) {
    size_t prev;
    const char32_t cp = CharBefore(text, start, &prev);
    size_t before;
    if (IsLetter(cp) || (cp == '\'' && prev > 0 && IsLetter(CharBefore(text, prev, &before)))) {
      start = prev;
      continue;
    }
    break;
  }
  while (start < text.size() && text[start] == '\'') ++start;  // a quote mark, not the word
  return start;
}

class ConcreteEngine;

class ConcreteSession : public Session {
 public:
  ConcreteSession(const ConcreteEngine* engine, const SessionOptions& options);

  Status Type(std::string_view text) override;
  Status Backspace() override;
  Status Accept(std::string_view word) override;
  Status SetContext(std::string_view text) override;
  Status Decide(int max_candidates, Decision* out) override;
  void SetTier(Tier tier) override { tier_ = tier; }
  std::string_view text() const override { return text_; }
  std::string_view composition() const override {
    return std::string_view(text_).substr(composition_start_);
  }

 private:
  void AppendChar(std::string_view ch, char32_t cp);
  void TrimText();
  void GatherCandidates();
  void AddModelProposals(const float* hidden);
  void FillHeads(const float* hidden, bool capitalize, Decision* out);
  bool WriteCorrectionHint(bool capitalize, std::string* out) const;

  const ConcreteEngine* engine_;
  SessionOptions options_;
  std::string text_;
  size_t composition_start_ = 0;
  size_t pushed_word_end_ = std::string::npos;  // where the last remembered word ended
  SessionHistory history_;
  CandidateSearch search_;
  std::unique_ptr<ModelTrack> track_;  // when the engine has a model
  Tier tier_ = Tier::kFullModel;       // costliest rung Decide may use (SetTier)

  // Scratch reused by every Decide.
  std::string typed_;
  std::vector<SearchHit> hits_;
  std::vector<ScoredCandidate> scored_;
  CandidateSlots slots_;
  std::vector<float> logits_;
  std::vector<std::pair<float, int>> proposals_;
  std::unique_ptr<CorrectionPick> correction_;  // when the engine has a model
};

class ConcreteEngine : public Engine {
 public:
  std::unique_ptr<Session> NewSession(const SessionOptions& options) const override {
    return std::make_unique<ConcreteSession>(this, options);
  }
  Info info() const override { return info_; }

  Status Init(const EngineOptions& options);

  const Lexicon& lexicon() const { return *lexicon_; }
  const TypingCosts& costs() const { return *costs_; }
  const Scorer& scorer() const { return *scorer_; }
  // The count baseline: the scorer without a model, and the lexicon-only rung with one.
  const Scorer& baseline() const { return *baseline_; }
  const Transformer* model() const { return model_.get(); }
  const CandidateSearch::Options& search_options() const { return search_options_; }
  // Model word index of a lexicon entry (-1 if the vocabulary lacks it), and back.
  int32_t WordOf(uint32_t entry) const { return model_ ? entry_word_[entry] : -1; }
  uint32_t EntryOf(int word) const { return word_entry_[word]; }

 private:
  Status LoadModel(const std::string& path);

  std::unique_ptr<Lexicon> lexicon_;
  KeyboardLayout layout_;
  std::unique_ptr<TypingCosts> costs_;
  std::unique_ptr<Transformer> model_;
  std::vector<int32_t> entry_word_;
  std::vector<uint32_t> word_entry_;
  std::unique_ptr<Scorer> scorer_;
  std::unique_ptr<Scorer> baseline_;
  CandidateSearch::Options search_options_;
  Info info_;
};

ConcreteSession::ConcreteSession(const ConcreteEngine* engine, const SessionOptions& options)
    : engine_(engine),
      options_(options),
      history_(&engine->lexicon()),
      search_(&engine->lexicon(), &engine->costs(), engine->search_options()) {
  text_.reserve(kMaxTextBytes + kMaxAcceptBytes + 8);
  typed_.reserve(CandidateSearch::kMaxTyped * 2);
  hits_.reserve(engine->search_options().max_candidates);
  scored_.reserve(engine->search_options().max_candidates + SessionHistory::kCapacity +
                  kModelProposals);
  if (const Transformer* model = engine->model()) {
    track_ = std::make_unique<ModelTrack>(model, static_cast<int>(options.app));
    logits_.resize(std::min(model->n_words(), kProposalWords));
    proposals_.reserve(kModelProposals + 1);
    correction_ = std::make_unique<CorrectionPick>(model);
  }
}

void ConcreteSession::TrimText() {
  if (text_.size() <= kMaxTextBytes) return;
  const size_t cut = utf8::BoundaryAtOrAfter(text_, text_.size() - kMaxTextBytes + kTrimTextBytes);
  text_.erase(0, cut);
  composition_start_ = CompositionStart(text_);
  pushed_word_end_ = std::string::npos;
  if (track_) track_->OnTextTrimmed(cut);
}

void ConcreteSession::AppendChar(std::string_view ch, char32_t cp) {
  const size_t old_start = composition_start_;
  const size_t old_size = text_.size();
  const bool in_word = old_start < old_size;
  text_.append(ch);
  // The word goes on with a letter, or with an apostrophe after a letter ("don'").
  const bool extends =
      IsLetter(cp) ? in_word : (cp == '\'' && in_word && text_[old_size - 1] != '\'');
  if (IsLetter(cp) && !in_word) {
    composition_start_ = old_size;
  } else if (!extends) {
    composition_start_ = text_.size();
    if (in_word) {  // the character ended the word being typed: remember that word
      history_.Push(std::string_view(text_).substr(old_start, old_size - old_start));
      pushed_word_end_ = old_size;
    }
  }
  TrimText();
}

Status ConcreteSession::Type(std::string_view text) {
  return ForEachChar(text, [this](std::string_view ch, char32_t cp) { AppendChar(ch, cp); });
}

Status ConcreteSession::Backspace() {
  if (text_.empty()) return Status::OK();
  text_.resize(utf8::LastCharStart(text_));
  composition_start_ = CompositionStart(text_);
  if (text_.size() == pushed_word_end_) {  // back into the word just remembered
    history_.PopLast();
    pushed_word_end_ = std::string::npos;
  }
  return Status::OK();
}

Status ConcreteSession::Accept(std::string_view word) {
  KD_RETURN_IF_ERROR(CheckAcceptedWord(word));
  text_.resize(composition_start_);
  text_.append(word);
  composition_start_ = CompositionStart(text_);
  TrimText();
  return Status::OK();
}

Status ConcreteSession::SetContext(std::string_view text) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  text_.assign(ContextTail(text));
  composition_start_ = CompositionStart(text_);
  pushed_word_end_ = std::string::npos;
  if (track_) track_->Reset();
  return Status::OK();
}

// Lexicon hits, then the session's own words that complete the typed letters exactly and
// that the search did not return (unknown words, or known ones below its cut).
void ConcreteSession::GatherCandidates() {
  for (const SearchHit& h : hits_) {
    scored_.push_back(
        {h.entry, engine_->WordOf(h.entry), {}, h.cost, history_.CountOf(h.entry), 0});
  }
  for (const SessionHistory::Word& w : history_) {
    if (!w.key().starts_with(typed_)) continue;
    const bool known = w.entry != lexicon::kNoEntry;
    if (known && std::any_of(hits_.begin(), hits_.end(),
                             [&](const SearchHit& h) { return h.entry == w.entry; })) {
      continue;
    }
    scored_.push_back(
        {w.entry, known ? engine_->WordOf(w.entry) : -1, known ? "" : w.key(), 0, w.count, 0});
  }
}

// At a word start the lexicon offers only its most frequent words; the model's own best
// next words join them.
void ConcreteSession::AddModelProposals(const float* hidden) {
  const Transformer& model = *engine_->model();
  const int words = std::min(model.n_words(), kProposalWords);
  model.WordLogits(hidden, words, logits_.data());
  TopLetterWords(model, logits_, kModelProposals, &proposals_);
  for (const auto& [logit, w] : proposals_) {
    const uint32_t entry = engine_->EntryOf(w);
    const bool present = std::any_of(scored_.begin(), scored_.end(), [&](const auto& c) {
      return c.word == w || (entry != lexicon::kNoEntry && c.entry == entry);
    });
    if (present) continue;
    scored_.push_back({entry, w, entry == lexicon::kNoEntry ? model.Word(w) : "", 0,
                       entry != lexicon::kNoEntry ? history_.CountOf(entry) : uint16_t{0}, 0});
  }
}

void ConcreteSession::FillHeads(const float* hidden, bool capitalize, Decision* out) {
  const Transformer& model = *engine_->model();
  const auto& labels = model.config().intent_labels;
  out->popup.probability =
      MixPopup(model.Popup(hidden),
               SavingShare(scored_, out->candidates.size(), typed_.size(), engine_->lexicon()));
  out->popup.show = !out->candidates.empty() && out->popup.probability >= options_.popup_threshold;
  AutocorrectDecision& ac = out->autocorrect;
  ac.apply = false;
  ac.confidence = 0;
  ac.replacement.clear();
  if (!typed_.empty()) {
    ac.confidence = model.Autocorrect(hidden);
    if (ac.replacement.capacity() < kCandidateTextReserve) {
      ac.replacement.reserve(kCandidateTextReserve);
    }
    const Lexicon& lex = engine_->lexicon();
    const bool fired =
        ac.confidence >= options_.autocorrect_threshold && !KeepAsTyped(composition(), typed_, lex);
    if (fired && tier_ == Tier::kFullModel) {
      // The replacement is the model's own best word (decide/autocorrect.h).
      const int w = correction_->Pick(hidden, typed_);
      if (w >= 0) {
        const uint32_t entry = engine_->EntryOf(w);
        WriteSurfaceForm(entry != lexicon::kNoEntry ? lex.CommonSpelling(entry) : model.Word(w),
                         capitalize, &ac.replacement);
        ac.apply = true;
      }
    }
    if (!ac.apply) {
      const bool hint = WriteCorrectionHint(capitalize, &ac.replacement);
      // Below the full rung no vocabulary-wide work is done: the candidates' best stands in.
      ac.apply = hint && fired && tier_ != Tier::kFullModel;
    }
  }
  out->intent.probabilities.resize(labels.size());
  model.Intent(hidden, out->intent.probabilities.data());
  const size_t best_label =
      std::max_element(out->intent.probabilities.begin(), out->intent.probabilities.end()) -
      out->intent.probabilities.begin();
  out->intent.label.assign(labels[best_label]);
}

// The model's favourite among the candidates that could be the whole word: not the typed
// letters themselves, and not much longer or shorter than them. Cheap, as it reads only the
// logits already scored: the replacement shown when the head does not fire (not applied), and
// the one applied below the full rung. Returns whether there was one.
bool ConcreteSession::WriteCorrectionHint(bool capitalize, std::string* out) const {
  const Lexicon& lex = engine_->lexicon();
  const ScoredCandidate* best = nullptr;
  for (const ScoredCandidate& c : scored_) {
    const std::string_view key = c.entry != lexicon::kNoEntry ? lex.Key(c.entry) : c.text;
    const size_t longer = std::max(key.size(), typed_.size());
    const size_t shorter = std::min(key.size(), typed_.size());
    if (key == typed_ || longer - shorter > kAutocorrectLengthSlack) continue;
    if (c.word <= ModelConfig::kEmailWord) continue;  // the model cannot vouch for it
    if (best == nullptr || c.logit > best->logit) best = &c;
  }
  if (best != nullptr) {
    WriteSurfaceForm(
        best->entry != lexicon::kNoEntry ? lex.CommonSpelling(best->entry) : best->text, capitalize,
        out);
  }
  return best != nullptr;
}

Status ConcreteSession::Decide(int max_candidates, Decision* out) {
  if (max_candidates < 0) return Status::InvalidArgument("max_candidates < 0");
  Clock::time_point t = Clock::now();
  const Clock::time_point t0 = t;
  StageTimings& timings = out->timings;

  // Features: the composition, lower-cased for the search, and where we are in a sentence.
  const std::string_view word = composition();
  typed_.clear();
  const bool searchable = word.size() <= CandidateSearch::kMaxTyped;
  if (searchable) AppendLowerUtf8(word, &typed_);
  const bool capitalize =
      StartsUpper(word) || (options_.auto_capitalize && AtSentenceStart(text_, composition_start_));
  timings.features_us = MicrosSince(&t);

  // Candidates: lexicon (exact and fuzzy), then the session's own words.
  hits_.clear();
  scored_.clear();
  if (searchable) {  // a "word" longer than any word has no candidates
    search_.Search(typed_, &hits_);
    GatherCandidates();
  }
  timings.candidates_us = MicrosSince(&t);

  // Model: one step per new token; at a word start, its own proposals. Below the model
  // rungs (no smaller model exists yet) the track is left behind; it catches up on the
  // next Sync.
  const float* hidden = nullptr;
  if (track_ && searchable && tier_ < Tier::kSmallModel) {
    hidden = track_->Sync(text_, composition_start_);
    if (word.empty() && tier_ == Tier::kFullModel) AddModelProposals(hidden);
  }
  timings.model_us = MicrosSince(&t);

  // Scoring.
  const Scorer& scorer = hidden != nullptr ? engine_->scorer() : engine_->baseline();
  scorer.Score({typed_, history_.size(), hidden}, scored_);
  timings.heads_us = MicrosSince(&t);

  // Post: top-k by score (ties: lexicon order, then spelling), cased for the cursor.
  const Lexicon& lex = engine_->lexicon();
  const size_t k = std::min<size_t>({static_cast<size_t>(max_candidates), scored_.size(),
                                     static_cast<size_t>(kMaxCandidatesLimit)});
  std::partial_sort(scored_.begin(), scored_.begin() + k, scored_.end(),
                    [](const ScoredCandidate& a, const ScoredCandidate& b) {
                      if (a.score != b.score) return a.score > b.score;
                      if (a.entry != b.entry) return a.entry < b.entry;
                      return a.text < b.text;
                    });
  slots_.Resize(k, &out->candidates);
  for (size_t i = 0; i < k; ++i) {
    const ScoredCandidate& s = scored_[i];
    Candidate& c = out->candidates[i];
    WriteSurfaceForm(s.entry != lexicon::kNoEntry ? lex.CommonSpelling(s.entry) : s.text,
                     capitalize, &c.text);
    c.score = s.score;
    c.typing_cost = s.cost;
    c.kind = word.empty()  ? CandidateKind::kNextWord
             : s.cost == 0 ? CandidateKind::kCompletion
                           : CandidateKind::kCorrection;
  }
  out->composition.assign(word);
  out->preedit.assign(word);
  out->has_model = hidden != nullptr;
  if (hidden != nullptr) {
    FillHeads(hidden, capitalize, out);
  } else {
    ClearModelOutputs(out);
  }
  out->tier = hidden == nullptr           ? Tier::kLexiconOnly
              : tier_ == Tier::kFullModel ? Tier::kFullModel
                                          : Tier::kNoVocabProposals;
  timings.post_us = MicrosSince(&t);
  timings.total_us = std::chrono::duration<float, std::micro>(t - t0).count();
  return Status::OK();
}

Status ConcreteEngine::LoadModel(const std::string& path) {
  KD_RETURN_IF_ERROR(Transformer::Open(path, &model_));
  if (model_->language() != "en") {
    return Status::InvalidArgument(path + ": a model for language '" +
                                   std::string(model_->language()) + "', not 'en'");
  }
  // Map lexicon entries to vocabulary words and back, once, so the hot path does no
  // string lookups.
  entry_word_.assign(lexicon_->entry_count(), -1);
  word_entry_.assign(model_->n_words(), lexicon::kNoEntry);
  double oov_count = 0;
  for (uint32_t e = 0; e < lexicon_->entry_count(); ++e) {
    const int w = model_->WordIndex(lexicon_->Key(e));
    if (w > ModelConfig::kEmailWord) {
      entry_word_[e] = w;
      word_entry_[w] = e;
    } else {
      oov_count += lexicon_->Count(e);
    }
  }
  scorer_ = std::make_unique<ModelScorer>(lexicon_.get(), model_.get(), oov_count,
                                          ModelScorer::Options());
  info_.model_path = path;
  info_.model_weights = model_->weight_format();
  info_.model_words = model_->n_words();
  info_.intent_labels = model_->config().intent_labels;
  return Status::OK();
}

Status ConcreteEngine::Init(const EngineOptions& options) {
  if (options.max_candidates < 1 || options.max_candidates > kMaxCandidatesLimit) {
    return Status::InvalidArgument("max_candidates must be in 1..200");
  }
  if (options.language != "en") {
    return Status::NotSupported("language '" + options.language + "' (only 'en' so far)");
  }
  const std::string dir = ResolveModelDir(options);
  const std::string pack = dir + "/" + options.language;
  const std::string lexicon_path =
      options.lexicon_path.empty() ? pack + "/lexicon.kdlex" : options.lexicon_path;
  KD_RETURN_IF_ERROR(Lexicon::Open(lexicon_path, &lexicon_));
  KD_RETURN_IF_ERROR(LoadKeyboardLayout(options, &layout_));
  costs_ = std::make_unique<TypingCosts>(&layout_);
  search_options_.max_candidates = static_cast<size_t>(options.max_candidates);
  search_options_.nats_per_point = kNatsPerPoint;

  info_.language = options.language;
  info_.lexicon_path = lexicon_path;
  info_.lexicon_words = lexicon_->entry_count();
  info_.lexicon_bytes = lexicon_->header().file_size;
  info_.keyboard_layout = layout_.name();
  KD_RETURN_IF_ERROR(kernels::ApplyTargetFromEnvironment());
  info_.simd_target = kernels::ActiveTarget();

  const std::string model_path = ResolveModelPath(options, pack);
  BaselineScorer::Options o;
  o.nats_per_point = kNatsPerPoint;
  baseline_ = std::make_unique<BaselineScorer>(lexicon_.get(), o);
  if (model_path != "none") {
    KD_RETURN_IF_ERROR(LoadModel(model_path));
  } else {
    scorer_ = std::make_unique<BaselineScorer>(lexicon_.get(), o);
  }
  info_.scorer = scorer_->name();

  // Warm-up: touch the top of the trie and the code paths once, so the first real
  // keystroke does not pay for page faults.
  auto session = NewSession(SessionOptions());
  Decision d;
  for (const char* keys : {"t", "h", "e", " ", "q"}) {
    session->Type(keys);
    session->Decide(3, &d);
  }
  return Status::OK();
}

}  // namespace

Status Engine::Open(const EngineOptions& options, std::unique_ptr<Engine>* out) {
  if (options.language == "zh") return OpenPinyinEngine(options, out);
  auto engine = std::make_unique<ConcreteEngine>();
  KD_RETURN_IF_ERROR(engine->Init(options));
  *out = std::move(engine);
  return Status::OK();
}

const char* CandidateKindName(CandidateKind kind) {
  switch (kind) {
    case CandidateKind::kCompletion:
      return "completion";
    case CandidateKind::kCorrection:
      return "correction";
    case CandidateKind::kNextWord:
      return "next_word";
    case CandidateKind::kSentence:
      return "sentence";
  }
  return "completion";
}

const char* TierName(Tier tier) {
  switch (tier) {
    case Tier::kFullModel:
      return "full_model";
    case Tier::kNoVocabProposals:
      return "no_vocab_proposals";
    case Tier::kSmallModel:
      return "small_model";
    case Tier::kLexiconOnly:
      return "lexicon_only";
  }
  return "lexicon_only";
}

}  // namespace keydecide
