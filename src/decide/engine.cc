// The per-keystroke pipeline: features -> candidates -> (model) -> scoring -> post.
// ConcreteEngine and ConcreteSession stay in this file; callers see include/keydecide.

#include "keydecide/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "decide/baseline_scorer.h"
#include "decide/session_history.h"
#include "decide/surface_form.h"
#include "lexicon/candidate_search.h"
#include "lexicon/lexicon.h"
#include "lexicon/typing_costs.h"
#include "text/keyboard_layout.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

constexpr size_t kMaxTextBytes = 4096;  // context kept before the cursor
constexpr size_t kTrimTextBytes = 1024; // dropped at once when the context is full
constexpr int kMaxCandidatesLimit = 200;

using Clock = std::chrono::steady_clock;

float MicrosSince(Clock::time_point* t) {
  const Clock::time_point now = Clock::now();
  const float us = std::chrono::duration<float, std::micro>(now - *t).count();
  *t = now;
  return us;
}

// Byte offset where the word being typed starts in `text`: after the last character that
// is neither a letter nor an apostrophe following a letter ("don'" on the way to "don't").
size_t CompositionStart(std::string_view text) {
  size_t start = text.size();
  while (start > 0) {
    const size_t prev = utf8::LastCharStart(text.substr(0, start));
    size_t pos = prev;
    char32_t cp;
    utf8::Decode(text, &pos, &cp);
    if (IsLetter(cp)) {
      start = prev;
      continue;
    }
    if (cp == '\'' && prev > 0) {
      size_t before = utf8::LastCharStart(text.substr(0, prev));
      size_t p2 = before;
      char32_t c2;
      utf8::Decode(text, &p2, &c2);
      if (IsLetter(c2)) {
        start = prev;
        continue;
      }
    }
    break;
  }
  // A leading apostrophe is a quote mark, not part of the word.
  while (start < text.size() && text[start] == '\'') ++start;
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
  std::string_view text() const override { return text_; }
  std::string_view composition() const override {
    return std::string_view(text_).substr(composition_start_);
  }

 private:
  void AppendChar(std::string_view ch);
  void TrimText();
  void CollectHistoryCandidates();

  const ConcreteEngine* engine_;
  SessionOptions options_;
  std::string text_;
  size_t composition_start_ = 0;
  SessionHistory history_;
  CandidateSearch search_;

  // Scratch reused by every Decide.
  std::string typed_;
  std::vector<SearchHit> hits_;
  std::vector<ScoredCandidate> scored_;
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
  const CandidateSearch::Options& search_options() const { return search_options_; }

 private:
  std::unique_ptr<Lexicon> lexicon_;
  KeyboardLayout layout_;
  std::unique_ptr<TypingCosts> costs_;
  std::unique_ptr<Scorer> scorer_;
  CandidateSearch::Options search_options_;
  Info info_;
};

ConcreteSession::ConcreteSession(const ConcreteEngine* engine, const SessionOptions& options)
    : engine_(engine),
      options_(options),
      history_(&engine->lexicon()),
      search_(&engine->lexicon(), &engine->costs(), engine->search_options()) {
  text_.reserve(kMaxTextBytes + 8);
  typed_.reserve(CandidateSearch::kMaxTyped * 2);
  hits_.reserve(engine->search_options().max_candidates);
  scored_.reserve(engine->search_options().max_candidates + SessionHistory::kCapacity);
}

void ConcreteSession::TrimText() {
  if (text_.size() <= kMaxTextBytes) return;
  size_t cut = kTrimTextBytes;
  while (cut < text_.size() && (static_cast<unsigned char>(text_[cut]) & 0xC0) == 0x80) ++cut;
  text_.erase(0, cut);
  composition_start_ = CompositionStart(text_);
}

void ConcreteSession::AppendChar(std::string_view ch) {
  const size_t old_start = composition_start_;
  const size_t old_size = text_.size();
  text_.append(ch);
  composition_start_ = CompositionStart(text_);
  // The character ended the word being typed: remember that word.
  if (old_start < old_size && composition_start_ != old_start) {
    history_.Push(std::string_view(text_).substr(old_start, old_size - old_start));
  }
  TrimText();
}

Status ConcreteSession::Type(std::string_view text) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = pos;
    char32_t cp;
    utf8::Decode(text, &pos, &cp);
    AppendChar(text.substr(start, pos - start));
  }
  return Status::OK();
}

Status ConcreteSession::Backspace() {
  if (text_.empty()) return Status::OK();
  text_.resize(utf8::LastCharStart(text_));
  composition_start_ = CompositionStart(text_);
  return Status::OK();
}

Status ConcreteSession::Accept(std::string_view word) {
  KD_RETURN_IF_ERROR(utf8::Validate(word));
  size_t pos = 0;
  while (pos < word.size()) {
    char32_t cp;
    utf8::Decode(word, &pos, &cp);
    if (IsSpace(cp)) return Status::InvalidArgument("accepted word contains white space");
  }
  text_.resize(composition_start_);
  text_.append(word);
  TrimText();
  composition_start_ = CompositionStart(text_);
  return Status::OK();
}

Status ConcreteSession::SetContext(std::string_view text) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  if (text.size() > kMaxTextBytes) {
    size_t cut = text.size() - kMaxTextBytes;
    while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) ++cut;
    text.remove_prefix(cut);
  }
  text_.assign(text);
  composition_start_ = CompositionStart(text_);
  return Status::OK();
}

// History words that complete the typed letters exactly and that the lexicon search did
// not already return (unknown words, or known words below the search's cut).
void ConcreteSession::CollectHistoryCandidates() {
  for (const SessionHistory::Word& w : history_) {
    if (!w.key().starts_with(typed_)) continue;
    bool seen = false;
    if (w.entry != lexicon::kNoEntry) {
      for (const SearchHit& h : hits_) {
        if (h.entry == w.entry) {
          seen = true;
          break;
        }
      }
    }
    if (!seen) scored_.push_back({w.entry, w.entry == lexicon::kNoEntry ? &w : nullptr, 0, 0});
  }
}

Status ConcreteSession::Decide(int max_candidates, Decision* out) {
  if (max_candidates < 0) return Status::InvalidArgument("max_candidates < 0");
  Clock::time_point t = Clock::now();
  const Clock::time_point t0 = t;
  StageTimings& timings = out->timings;

  // Features: the composition, lower-cased for the search, and where we are in a sentence.
  const std::string_view word = composition();
  typed_.clear();
  AppendLowerUtf8(word, &typed_);
  const bool capitalize = StartsUpper(word) ||
                          (options_.auto_capitalize && AtSentenceStart(text_, composition_start_));
  timings.features_us = MicrosSince(&t);

  // Candidates: lexicon (exact and fuzzy), then the session's own words.
  search_.Search(typed_, &hits_);
  scored_.clear();
  for (const SearchHit& h : hits_) scored_.push_back({h.entry, nullptr, h.cost, 0});
  CollectHistoryCandidates();
  timings.candidates_us = MicrosSince(&t);
  timings.model_us = 0;

  // Scoring.
  const Lexicon& lex = engine_->lexicon();
  engine_->scorer().Score({typed_, &history_}, scored_);
  timings.heads_us = MicrosSince(&t);

  // Post: top-k by score (ties: lexicon order), cased for the cursor position.
  const size_t k = std::min<size_t>({static_cast<size_t>(max_candidates), scored_.size(),
                                     static_cast<size_t>(kMaxCandidatesLimit)});
  std::partial_sort(scored_.begin(), scored_.begin() + k, scored_.end(),
                    [](const ScoredCandidate& a, const ScoredCandidate& b) {
                      return a.score != b.score ? a.score > b.score : a.entry < b.entry;
                    });
  if (out->candidates.size() < k) out->candidates.resize(k);
  out->candidates.erase(out->candidates.begin() + k, out->candidates.end());
  for (size_t i = 0; i < k; ++i) {
    const ScoredCandidate& s = scored_[i];
    Candidate& c = out->candidates[i];
    const std::string_view spelling =
        s.entry != lexicon::kNoEntry
            ? lex.CommonSpelling(s.entry)
            : static_cast<const SessionHistory::Word*>(s.history)->key();
    WriteSurfaceForm(spelling, capitalize, &c.text);
    c.score = s.score;
    c.typing_cost = s.cost;
    c.kind = word.empty()  ? CandidateKind::kNextWord
             : s.cost == 0 ? CandidateKind::kCompletion
                           : CandidateKind::kCorrection;
  }
  out->composition.assign(word);
  out->tier = Tier::kLexiconOnly;
  timings.post_us = MicrosSince(&t);
  timings.total_us = std::chrono::duration<float, std::micro>(t - t0).count();
  return Status::OK();
}

std::string ResolveModelDir(const EngineOptions& options) {
  if (!options.model_dir.empty()) return options.model_dir;
  if (const char* env = std::getenv("KEYDECIDE_MODEL_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return KEYDECIDE_DEFAULT_MODEL_DIR;
}

Status ConcreteEngine::Init(const EngineOptions& options) {
  if (options.max_candidates < 1 || options.max_candidates > kMaxCandidatesLimit) {
    return Status::InvalidArgument("max_candidates must be in 1..200");
  }
  if (options.language != "en") {
    return Status::NotSupported("language '" + options.language + "' (only 'en' so far)");
  }
  const std::string dir = ResolveModelDir(options);
  const std::string lexicon_path = options.lexicon_path.empty()
                                       ? dir + "/" + options.language + "/lexicon.kdlex"
                                       : options.lexicon_path;
  KD_RETURN_IF_ERROR(Lexicon::Open(lexicon_path, &lexicon_));
  const std::string& name = options.keyboard_layout;
  const bool is_path = name.find('/') != std::string::npos || name.ends_with(".txt");
  KD_RETURN_IF_ERROR(
      KeyboardLayout::Load(is_path ? name : dir + "/layouts/" + name + ".txt", &layout_));
  costs_ = std::make_unique<TypingCosts>(&layout_);
  search_options_.max_candidates = static_cast<size_t>(options.max_candidates);
  scorer_ = std::make_unique<BaselineScorer>(lexicon_.get(), BaselineScorer::Options());

  info_.language = options.language;
  info_.lexicon_path = lexicon_path;
  info_.lexicon_words = lexicon_->entry_count();
  info_.lexicon_bytes = lexicon_->header().file_size;
  info_.keyboard_layout = layout_.name();
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
