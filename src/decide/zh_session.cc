// PinyinSession and the "zh" engine: pinyin composition -> hanzi sentences and words, lexicon
// and word bigram.

#include "decide/zh_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "decide/model_track.h"
#include "decide/session_common.h"
#include "lexicon/lexicon.h"
#include "lexicon/pinyin/word_bigram.h"
#include "model/kernels/targets.h"
#include "model/transformer.h"
#include "text/keyboard_layout.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

constexpr size_t kMaxComposition = PinyinLattice::kMaxTyped;  // longer commits as typed
constexpr size_t kMinSearchCandidates = 50;
// The committed text the model's context is read from: the newest 256 bytes (~85 hanzi) of the
// paragraph, of which the newest kMaxContextWords words are kept (as English keeps 24 tokens,
// ModelTrack::kMaxContextTokens).
constexpr size_t kMaxContextBytes = 256;
constexpr size_t kMaxSentencesRanked = 64;  // EngineOptions::pinyin_beam_width's bound
// The search's best sentences the model scores again. On the tuning half of the pinyin dev file
// the best 4 gave top-1 0.836 against 0.837 for all 8, at 0.24 against 0.38 ms per keystroke
// (docs/MODEL.md, "Chinese model").
constexpr size_t kSentencesRescored = 4;
constexpr size_t kMaxContextWords = ModelTrack::kMaxContextTokens;
// Compositions the keystroke heads read: training typed latin runs of 2..24 keys and pinyin of
// at most 24 (config/zh.json); longer ones get no intent.
constexpr size_t kMinLatinKeys = 2;
constexpr size_t kMaxModelKeys = 24;
// P(latin) above which the letters as typed are the first candidate. Chosen on the tuning halves
// of the pinyin and latin dev files (docs/MODEL.md, "Chinese typing model"): higher thresholds
// kept the same pinyin top-1 and lost latin words.
constexpr float kLatinThreshold = 0.5f;

// Sentences offered before the words, as fcitx5's pinyin does by default ("Number of sentence").
constexpr size_t kSentencesOffered = 2;

bool IsPinyinLetter(char32_t cp) { return cp >= 'a' && cp <= 'z'; }

// EngineOptions::pinyin_fuzzy: "z/zh,n/l", "all" or "" into FuzzyPinyin bits.
Status ParseFuzzyPinyin(std::string_view spec, uint8_t* bits) {
  static constexpr std::pair<std::string_view, FuzzyPinyin> kPairs[] = {
      {"z/zh", kFuzzyZZh},     {"c/ch", kFuzzyCCh},     {"s/sh", kFuzzySSh},    {"n/l", kFuzzyNL},
      {"an/ang", kFuzzyAnAng}, {"en/eng", kFuzzyEnEng}, {"in/ing", kFuzzyInIng}};
  *bits = 0;
  if (spec == "all") {
    *bits = kFuzzyAll;
    return Status::OK();
  }
  if (spec.empty()) return Status::OK();
  for (bool more = true; more;) {  // every comma separates two names: "z/zh," is refused
    const size_t comma = spec.find(',');
    const std::string_view name = spec.substr(0, comma);
    more = comma != std::string_view::npos;
    if (more) spec.remove_prefix(comma + 1);
    const auto* pair = std::find_if(std::begin(kPairs), std::end(kPairs),
                                    [&](const auto& p) { return p.first == name; });
    if (pair == std::end(kPairs)) {
      return Status::InvalidArgument("pinyin_fuzzy: unknown pair '" + std::string(name) +
                                     "' (z/zh, c/ch, s/sh, n/l, an/ang, en/eng, in/ing, or all)");
    }
    *bits |= pair->second;
  }
  return Status::OK();
}

bool IsOffered(std::span<const PinyinSentence> sentences, std::string_view text) {
  return std::any_of(sentences.begin(), sentences.end(),
                     [&](const PinyinSentence& s) { return s.text == text; });
}

class PinyinEngine : public Engine {
 public:
  std::unique_ptr<Session> NewSession(const SessionOptions& options) const override {
    return std::make_unique<PinyinSession>(lexicon_.get(), bigram_.get(), search_options_,
                                           sentence_options_, session_model_, options.app);
  }
  Info info() const override { return info_; }

  Status Init(const EngineOptions& options);

 private:
  Status LoadModel(const std::string& path, float weight);

  std::unique_ptr<Lexicon> lexicon_;
  std::unique_ptr<WordBigram> bigram_;  // null without lexicon.kdbg
  std::unique_ptr<Transformer> model_;  // null without a zh model
  std::unique_ptr<ZhContext> context_;
  PinyinModel session_model_;
  KeyboardLayout layout_;  // pinyin_typos only (each lattice reads it once, at construction)
  PinyinCandidateSearch::Options search_options_;
  PinyinSentenceSearch::Options sentence_options_;
  Info info_;
};

Status PinyinEngine::Init(const EngineOptions& options) {
  if (options.max_candidates < 1 || options.max_candidates > kMaxCandidatesLimit) {
    return Status::InvalidArgument("max_candidates must be in 1..200");
  }
  std::string lexicon_path = options.lexicon_path;
  if (lexicon_path.empty()) {
    lexicon_path = ResolveModelDir(options);
    lexicon_path += "/zh/lexicon.kdlex";
  }
  KD_RETURN_IF_ERROR(Lexicon::Open(lexicon_path, &lexicon_));
  if (lexicon_->header().language != "zh") {
    std::string message = lexicon_path;
    message += ": not a pinyin-keyed (zh) lexicon";
    return Status::InvalidArgument(message);
  }
  // The lexicon's bigram sits beside it: lexicon.kdlex -> lexicon.kdbg.
  std::string bigram_path = lexicon_path;
  if (bigram_path.ends_with(".kdlex")) bigram_path.resize(bigram_path.size() - 6);
  bigram_path += ".kdbg";
  if (std::filesystem::exists(bigram_path)) {
    KD_RETURN_IF_ERROR(WordBigram::Open(bigram_path, *lexicon_, &bigram_));
  }
  search_options_.max_candidates =
      std::max(kMinSearchCandidates, static_cast<size_t>(options.max_candidates));
  if (options.pinyin_beam_width < 1 || options.pinyin_beam_width > 64) {
    return Status::InvalidArgument("pinyin_beam_width must be in 1..64");
  }
  sentence_options_.beam_width = static_cast<size_t>(options.pinyin_beam_width);
  PinyinLattice::Options lattice;
  KD_RETURN_IF_ERROR(ParseFuzzyPinyin(options.pinyin_fuzzy, &lattice.fuzzy));
  if (options.pinyin_typos) {
    lattice.typos = kTypoAll;
    KD_RETURN_IF_ERROR(LoadKeyboardLayout(options, &layout_));
    lattice.layout = &layout_;
    info_.keyboard_layout = options.keyboard_layout;  // only the slips read it
  }
  search_options_.lattice = lattice;
  sentence_options_.lattice = lattice;
  if (!(options.pinyin_model_weight >= 0 && options.pinyin_model_weight <= 10)) {
    return Status::InvalidArgument("pinyin_model_weight must be in 0..10");
  }
  if (const std::string model_path = ResolveModelPath(options, ResolveModelDir(options) + "/zh");
      model_path != "none") {
    KD_RETURN_IF_ERROR(LoadModel(model_path, options.pinyin_model_weight));
  }

  info_.language = "zh";
  info_.lexicon_path = lexicon_path;
  info_.lexicon_words = lexicon_->entry_count();
  info_.lexicon_bytes = lexicon_->header().file_size;
  info_.scorer = bigram_ != nullptr ? "lexicon+bigram" : "lexicon";
  if (model_ != nullptr) info_.scorer += "+model";
  KD_RETURN_IF_ERROR(kernels::ApplyTargetFromEnvironment());
  info_.simd_target = kernels::ActiveTarget();

  // Warm-up: touch the top of the trie and the code paths once.
  auto session = NewSession(SessionOptions());
  Decision d;
  for (const char* keys : {"n", "i", "h", "a", "o"}) {
    session->Type(keys);
    session->Decide(3, &d);
  }
  return Status::OK();
}

Status PinyinEngine::LoadModel(const std::string& path, float weight) {
  KD_RETURN_IF_ERROR(Transformer::Open(path, &model_));
  if (model_->language() != "zh") {
    return Status::InvalidArgument(path + ": a model for language '" +
                                   std::string(model_->language()) + "', not 'zh'");
  }
  if (model_->config().max_len < static_cast<int>(kMaxModelKeys) + 3) {
    return Status::InvalidArgument(path + ": max_len " + std::to_string(model_->config().max_len) +
                                   " is too short for a composition's keystrokes (at least " +
                                   std::to_string(kMaxModelKeys + 3) + ")");
  }
  context_ = std::make_unique<ZhContext>(model_.get(), lexicon_.get());
  session_model_.model = model_.get();
  session_model_.context = context_.get();
  session_model_.sentence_weight = weight;
  session_model_.lm.slots = kSentencesRescored + 4;  // a keystroke's sentences, the keys, more
  const double oov = static_cast<double>(lexicon_->total_count()) - context_->in_vocabulary_count();
  session_model_.log_oov_count = static_cast<float>(std::log(std::max(oov, 1.0)));
  const std::vector<std::string>& labels = model_->config().intent_labels;
  const auto latin = std::find(labels.begin(), labels.end(), "latin");
  session_model_.latin_label =
      latin == labels.end() ? -1 : static_cast<int>(latin - labels.begin());
  info_.intent_labels = labels;
  info_.model_path = path;
  info_.model_weights = model_->weight_format();
  info_.model_words = model_->n_words();
  return Status::OK();
}

}  // namespace

Status OpenPinyinEngine(const EngineOptions& options, std::unique_ptr<Engine>* out) {
  auto engine = std::make_unique<PinyinEngine>();
  KD_RETURN_IF_ERROR(engine->Init(options));
  *out = std::move(engine);
  return Status::OK();
}

PinyinSession::PinyinSession(const Lexicon* lexicon, const WordBigram* bigram,
                             const PinyinCandidateSearch::Options& search_options,
                             const PinyinSentenceSearch::Options& sentence_options,
                             const PinyinModel& model, AppType app)
    : search_(lexicon, search_options),
      sentence_search_(lexicon, bigram, sentence_options),
      lexicon_(lexicon),
      bigram_(bigram),
      model_(model) {
  if (model_.model != nullptr) {
    lm_ = std::make_unique<SentenceLm>(model_.model, static_cast<int>(app), model_.lm);
    context_words_.reserve(kMaxContextBytes);
    sentence_words_.reserve(PinyinLattice::kMaxTyped);
    context_text_.reserve(kMaxContextBytes);
    context_scratch_.Reserve(kMaxContextBytes);
    keys_.reserve(kMaxModelKeys);
    intent_.resize(model_.model->config().intent_labels.size());
  }
  ranked_.reserve(kMaxSentencesRanked);
  next_.reserve(kMaxCandidatesLimit);
  text_.reserve(kMaxTextBytes + kMaxAcceptBytes + kMaxComposition + 8);
  searched_.reserve(kMaxComposition + 8);
}

void PinyinSession::TrimText() {
  if (text_.size() <= kMaxTextBytes) return;
  size_t cut = utf8::BoundaryAtOrAfter(text_, text_.size() - kMaxTextBytes + kTrimTextBytes);
  cut = std::min(cut, composition_start_);  // the composition stays whole
  text_.erase(0, cut);
  composition_start_ -= cut;
}

void PinyinSession::AppendChar(std::string_view ch, char32_t cp) {
  const size_t letters = text_.size() - composition_start_;
  const bool pinyin = IsPinyinLetter(cp) || (cp == '\'' && letters > 0);
  if (pinyin && letters >= kMaxComposition) {
    composition_start_ = text_.size();  // too long to convert: commit it as typed
  }
  text_.append(ch);
  if (!pinyin) {  // commits the composition and `ch`
    composition_start_ = text_.size();
    context_word_ = 0;
  }
  TrimText();
}

Status PinyinSession::Type(std::string_view text) {
  return ForEachChar(text, [this](std::string_view ch, char32_t cp) { AppendChar(ch, cp); });
}

Status PinyinSession::Backspace() {
  if (text_.empty()) return Status::OK();
  text_.resize(utf8::LastCharStart(text_));
  if (composition_start_ > text_.size()) {  // into the committed text
    composition_start_ = text_.size();
    context_word_ = 0;
  }
  return Status::OK();
}

void PinyinSession::SearchComposition() {
  const std::string_view typed = composition();
  // The model's context is part of what the ranking was for: the committed text may change
  // (a commit, a deletion into it) while the letters come back the same.
  if (UseModel()) UpdateModelContext();
  if (search_valid_ && typed == searched_ && context_word_ == searched_context_ &&
      context_version_ == searched_context_version_) {
    return;
  }
  searched_.assign(typed);
  searched_context_ = context_word_;
  searched_context_version_ = context_version_;
  next_.clear();  // 联想 is for an empty composition only
  // One lattice for both searches. Not convertible (too long): no candidates, the searches
  // leave their lists empty.
  if (search_.Search(typed).ok()) {
    sentence_search_.Search(search_.lattice(), typed, context_word_);
  } else {
    (void)sentence_search_.Search(typed, context_word_);
  }
  RankSentences();
  search_valid_ = true;
}

void PinyinSession::UpdateModelContext() {
  std::string_view committed = std::string_view(text_).substr(0, composition_start_);
  if (const size_t nl = committed.rfind('\n'); nl != std::string_view::npos) {
    committed.remove_prefix(nl + 1);
  }
  if (committed.size() > kMaxContextBytes) {  // the model keeps the newest words only
    committed.remove_prefix(
        utf8::BoundaryAtOrAfter(committed, committed.size() - kMaxContextBytes));
  }
  if (committed == context_text_) return;
  ++context_version_;
  context_text_.assign(committed);
  context_words_.clear();
  model_.context->Tokenize(committed, &context_scratch_, &context_words_);
  const size_t keep = std::min(context_words_.size(), kMaxContextWords);
  lm_->SetContext(std::span(context_words_).last(keep));
}

void PinyinSession::RankSentences() {
  const std::span<const PinyinSentence> found = sentence_search_.sentences();
  ranked_.assign(found.begin(), found.end());
  const size_t rescored = std::min(ranked_.size(), kSentencesRescored);
  if (!UseModel() || model_.sentence_weight == 0 || rescored < 2) return;
  const Transformer& model = *model_.model;
  for (PinyinSentence& s : std::span(ranked_).first(rescored)) {
    sentence_words_.clear();
    float oov_share = 0;  // words outside the vocabulary: <unk>, shared out by their count
    for (const PinyinSentenceWord& w : s.words) {
      const int id = model.WordIndex(w.text);
      sentence_words_.push_back(id);
      if (id == ModelConfig::kUnkWord) {
        const uint32_t count = lexicon_->Variants(w.entry)[w.variant].count;
        oov_share +=
            std::log(static_cast<float>(std::max<uint32_t>(count, 1))) - model_.log_oov_count;
      }
    }
    s.score += model_.sentence_weight * (lm_->Score(sentence_words_) + oov_share);
  }
  // Only the rescored ones change places; the others, unscored, stay behind them. (An insertion
  // sort: stable, and unlike std::stable_sort it needs no buffer.)
  for (size_t i = 1; i < rescored; ++i) {
    for (size_t j = i; j > 0 && ranked_[j].score > ranked_[j - 1].score; --j) {
      std::swap(ranked_[j], ranked_[j - 1]);
    }
  }
}

std::span<const PinyinSentence> PinyinSession::OfferedSentences() const {
  const std::span<const PinyinSentence> sentences = ranked_;
  size_t n = 0;
  while (n < sentences.size() && n < kSentencesOffered && sentences[n].words.size() >= 2) ++n;
  return sentences.first(n);
}

Status PinyinSession::Accept(std::string_view word) {
  KD_RETURN_IF_ERROR(CheckAcceptedWord(word));
  // The letters the word stands for: those its best candidate consumed, else all of them (also
  // for a sentence, and for an unknown word).
  size_t consumed = text_.size() - composition_start_;
  uint32_t word_id = 0;
  if (consumed == 0) {
    word_id = AcceptedWordId(word);  // a 联想 pick
  } else {
    SearchComposition();
    const std::span<const PinyinSentence> sentences = OfferedSentences();
    const auto sentence = std::find_if(sentences.begin(), sentences.end(),
                                       [&](const PinyinSentence& s) { return s.text == word; });
    if (sentence != sentences.end()) {
      const PinyinSentenceWord& last = sentence->words.back();
      word_id = bigram_ ? bigram_->WordOf(lexicon_->VariantIndex(last.entry, last.variant)) : 0;
    } else {
      for (const PinyinCandidate& c : search_.candidates()) {
        if (c.text == word) {
          consumed = std::min<size_t>(c.consumed, consumed);
          word_id = bigram_ ? bigram_->WordOf(lexicon_->VariantIndex(c.entry, c.variant)) : 0;
          break;
        }
      }
    }
  }
  // The rest of the composition, without the apostrophes that separated it from the word.
  size_t rest = composition_start_ + consumed;
  while (rest < text_.size() && text_[rest] == '\'') ++rest;
  text_.replace(composition_start_, rest - composition_start_, word);
  composition_start_ += word.size();
  context_word_ = word_id;
  TrimText();
  return Status::OK();
}

uint32_t PinyinSession::AcceptedWordId(std::string_view word) const {
  if (bigram_ == nullptr) return 0;
  for (const NextWord& next : next_) {
    if (lexicon_->VariantTextAt(bigram_->VariantOf(next.word)) == word) return next.word;
  }
  return 0;
}

void PinyinSession::FindNextWords(size_t k) {
  next_.clear();
  if (bigram_ == nullptr || context_word_ == 0 || k == 0) return;
  const std::span<const uint32_t> words = bigram_->Followers(context_word_);
  const std::span<const uint32_t> counts = bigram_->FollowerCounts(context_word_);
  k = std::min(k, next_.capacity());
  // The k most frequent, by insertion into a short sorted list.
  for (size_t i = 0; i < words.size(); ++i) {
    if (bigram_->VariantOf(words[i]) == WordBigram::kNoVariant) continue;
    if (next_.size() == k && counts[i] <= next_.back().count) continue;
    if (next_.size() < k) next_.push_back({});
    size_t at = next_.size() - 1;
    while (at > 0 && next_[at - 1].count < counts[i]) {
      next_[at] = next_[at - 1];
      --at;
    }
    next_[at] = {words[i], counts[i]};
  }
}

Status PinyinSession::SetContext(std::string_view text) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  text_.assign(ContextTail(text));
  composition_start_ = text_.size();
  context_word_ = 0;
  return Status::OK();
}

Status PinyinSession::Decide(int max_candidates, Decision* out) {
  if (max_candidates < 0) return Status::InvalidArgument("max_candidates < 0");
  Clock::time_point t = Clock::now();
  const Clock::time_point t0 = t;
  StageTimings& timings = out->timings;

  // Features: the pinyin letters being converted.
  const std::string_view typed = composition();
  timings.features_us = MicrosSince(&t);

  // Candidates: the sentences and the hanzi words for the letters; with no letters, the words
  // that follow the one just committed (联想).
  std::span<const PinyinCandidate> found;
  std::span<const PinyinSentence> sentences;
  if (!typed.empty()) {
    SearchComposition();
    found = search_.candidates();
    sentences = OfferedSentences();
  } else {
    FindNextWords(std::min<size_t>(static_cast<size_t>(max_candidates), kMaxCandidatesLimit));
  }
  timings.candidates_us = MicrosSince(&t);
  // Model: the keystrokes of the composition (the sentences were scored in the search, which
  // brought the model's context up to date).
  const float* hidden = nullptr;
  if (UseModel() && !typed.empty() && typed.size() <= kMaxModelKeys) {
    keys_.clear();
    for (size_t i = 0; i < typed.size(); ++i) {
      keys_.push_back(ModelTrack::UntimedKeystroke(static_cast<unsigned char>(typed[i]), i));
    }
    hidden = lm_->Keystrokes(keys_);
  }
  timings.model_us = MicrosSince(&t);
  bool latin = false;
  if (hidden != nullptr) {
    model_.model->Intent(hidden, intent_.data());
    latin = model_.latin_label >= 0 && typed.size() >= kMinLatinKeys &&
            intent_[model_.latin_label] > kLatinThreshold;
  }
  timings.heads_us = MicrosSince(&t);

  // Post: the sentences, then the words (a word that is a sentence only once).
  const size_t k = std::min<size_t>({static_cast<size_t>(max_candidates),
                                     latin + found.size() + sentences.size() + next_.size(),
                                     static_cast<size_t>(kMaxCandidatesLimit)});
  slots_.Resize(k, &out->candidates);
  size_t filled = 0;
  if (latin && k > 0) {  // the letters as typed
    Candidate& c = out->candidates[filled++];
    c.text.assign(typed);
    c.score = std::log(intent_[model_.latin_label]);
    c.typing_cost = 0;
    c.kind = CandidateKind::kCompletion;
  }
  for (size_t i = 0; i < sentences.size() && filled < k; ++i) {
    Candidate& c = out->candidates[filled++];
    c.text.assign(sentences[i].text);
    c.score = sentences[i].score;
    c.typing_cost = 0;
    c.kind = CandidateKind::kSentence;
  }
  for (size_t i = 0; i < found.size() && filled < k; ++i) {
    const PinyinCandidate& p = found[i];
    if (p.full && IsOffered(sentences, p.text)) continue;
    Candidate& c = out->candidates[filled++];
    c.text.assign(p.text);
    c.score = p.score;
    c.typing_cost = 0;
    c.kind = CandidateKind::kCompletion;
  }
  for (size_t i = 0; i < next_.size() && filled < k; ++i) {
    Candidate& c = out->candidates[filled++];
    c.text.assign(lexicon_->VariantTextAt(bigram_->VariantOf(next_[i].word)));
    c.score = std::log(static_cast<float>(next_[i].count) /
                       static_cast<float>(bigram_->FollowerTotal(context_word_)));
    c.typing_cost = 0;
    c.kind = CandidateKind::kNextWord;
  }
  slots_.Resize(filled, &out->candidates);
  if (out->composition.capacity() < kMaxComposition) out->composition.reserve(kMaxComposition);
  out->composition.assign(typed);
  // Every letter may be followed by a break: twice the composition.
  if (out->preedit.capacity() < 2 * kMaxComposition) out->preedit.reserve(2 * kMaxComposition);
  // The breaks of the first conversion offered (the model may have moved it); none when the
  // letters as typed come first.
  const uint64_t breaks = latin || typed.empty() ? 0
                          : !sentences.empty()   ? sentences.front().breaks
                          : !ranked_.empty()     ? ranked_.front().breaks
                                                 : 0;
  WriteSyllableBreaks(typed, breaks, &out->preedit);
  ClearModelOutputs(out);
  out->has_model = hidden != nullptr;
  if (hidden != nullptr) {
    out->popup.probability = model_.model->Popup(hidden);
    const std::vector<std::string>& labels = model_.model->config().intent_labels;
    out->intent.probabilities.assign(intent_.begin(), intent_.end());
    out->intent.label = labels[std::max_element(intent_.begin(), intent_.end()) - intent_.begin()];
  }
  // The model's rung served it when the model ran: on the keystrokes, or (past kMaxModelKeys
  // letters) on the sentences alone.
  out->tier = UseModel() && !typed.empty() ? tier_ : Tier::kLexiconOnly;
  timings.post_us = MicrosSince(&t);
  timings.total_us = std::chrono::duration<float, std::micro>(t - t0).count();
  return Status::OK();
}

}  // namespace keydecide
