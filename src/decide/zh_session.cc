// ZhSession: pinyin composition -> hanzi sentences and words, ranked by the bigram and the
// model.

#include "decide/zh_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "decide/fine_tuner.h"
#include "decide/model_track.h"
#include "decide/stage_clock.h"
#include "decide/text_limits.h"
#include "lexicon/lexicon.h"
#include "lexicon/pinyin/pinyin_syllables.h"
#include "model/transformer.h"
#include "personal/learner.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

constexpr size_t kMaxComposition = PinyinWindow::kMaxComposition;  // longer commits as typed
// A sentence of a composition that long: at most one hanzi (4 bytes) per letter.
constexpr size_t kMaxSentenceBytes = 4 * kMaxComposition;
// The committed text the model's context is read from: the newest 256 bytes (~85 hanzi) of the
// paragraph, of which the newest kMaxContextWords words are kept (as English keeps 24 tokens,
// ModelTrack::kMaxContextTokens).
constexpr size_t kMaxContextBytes = 256;
constexpr size_t kMaxSentencesRanked = 64;  // EngineOptions::pinyin_beam_width's bound
constexpr size_t kMaxContextWords = ModelTrack::kMaxContextTokens;
constexpr size_t kMinLatinKeys = 2;  // shorter letter runs are never latin
// P(latin) above which the letters as typed are the first candidate. Chosen on the tuning halves
// of the pinyin and latin dev files (docs/MODEL.md, "Chinese typing model"): higher thresholds
// kept the same pinyin top-1 and lost latin words.
constexpr float kLatinThreshold = 0.5f;

// Sentences offered before the words, as fcitx5's pinyin does by default ("Number of sentence").
constexpr size_t kSentencesOffered = 2;

// The person's words: at most this many before the sentences and after them, read from the
// composition's first kMaxUserLetters letters; a commit's words held until the next commit.
constexpr size_t kMaxUserFirst = 2;
constexpr size_t kMaxUserPrefix = 3;
constexpr size_t kMaxUserLetters = 64;
// The person's words for the whole composition weighed again per app type: the heaviest this
// many of its letters' words and of its initials'.
constexpr size_t kMaxUserOrder = 16;
// A commit's words held until the next commit: a long composition's (PinyinWindow) may be many
// more than a window's, reserved for; a word converts at least one letter.
constexpr size_t kReservedPendingWords = PinyinLattice::kMaxTyped + 1;
constexpr size_t kMaxPendingWords = PinyinWindow::kMaxComposition + 1;
// Shorter starts of the composition are not matched against learned readings (a single
// letter or two would match too much).
constexpr size_t kMinUserPrefixLetters = 3;

// The reading of `hanzi` typed as `letters` (apostrophes ignored): one syllable per hanzi,
// joined by apostrophes, into *out; "" when the letters do not spell one.
std::string_view ReadingOf(std::string_view letters, std::string_view hanzi, std::string* out) {
  std::string joined;
  for (const char c : letters) {
    if (c != '\'') joined.push_back(c);
  }
  if (!pinyin::SplitSyllables(joined, utf8::Length(hanzi), out)) out->clear();
  return *out;
}

bool IsPinyinLetter(char32_t cp) { return cp >= 'a' && cp <= 'z'; }

bool ExtendsPinyin(char32_t cp, std::string_view composition) {
  return IsPinyinLetter(cp) || (cp == '\'' && !composition.empty());
}

size_t KeepStart(std::string_view /*text*/, size_t start) { return start; }

}  // namespace

const CompositionRule kPinyinComposition = {ExtendsPinyin, KeepStart, kMaxComposition};

ZhSession::ZhSession(const Lexicon* lexicon, const WordBigram* bigram,
                     const PinyinCandidateSearch::Options& search_options,
                     const PinyinSentenceSearch::Options& sentence_options,
                     const ZhSessionModel& model, AppType app, const ZhSessionPersonal& personal)
    : text_(&kPinyinComposition),
      search_(lexicon, search_options),
      sentence_search_(lexicon, bigram, sentence_options),
      window_(&sentence_search_),
      lexicon_(lexicon),
      bigram_(bigram),
      model_(model),
      app_(static_cast<int>(app)),
      personal_(personal) {
  if (personal_.learner != nullptr) {
    user_first_.reserve(kMaxUserFirst);
    user_prefix_.reserve(kMaxUserPrefix);
    user_order_.reserve(2 * kMaxUserOrder);
    user_letters_.reserve(kMaxComposition);
    first_offered_.reserve(kMaxSentenceBytes);
    first_offered_for_.reserve(kMaxComposition);
    pending_.reserve(kReservedPendingWords);
    pieces_.reserve(PinyinLattice::kMaxTyped);
    previous_word_.reserve(Learner::kMaxWordBytes);
  }
  if (model_.model != nullptr) {
    lm_ = std::make_unique<SentenceLm>(model_.model, static_cast<int>(app), model_.lm);
    context_words_.reserve(kMaxContextBytes);
    sentence_words_.reserve(PinyinLattice::kMaxTyped);
    context_text_.reserve(kMaxContextBytes);
    context_buffer_.reserve(kMaxContextBytes + kMaxSentenceBytes);
    context_scratch_.Reserve(kMaxContextBytes);
    keys_.reserve(ZhSession::kMaxModelKeys);
    intent_.resize(model_.model->config().intent_labels.size());
  }
  ranked_.reserve(kMaxSentencesRanked);
  next_.reserve(kMaxCandidatesLimit + kUserNextWords);
  next_ids_.reserve(kMaxCandidatesLimit);
  next_log_p_.reserve(kMaxCandidatesLimit);
  ranked_words_.reserve(kMaxCandidatesLimit);
  word_ids_.reserve(kMaxCandidatesLimit);
  word_log_p_.reserve(kMaxCandidatesLimit);
  searched_.reserve(kMaxComposition + 8);
}

ZhSession::~ZhSession() { OfferPending(); }

void ZhSession::AppendChar(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms) {
  if (!text_.Append(ch, cp, t_ms).extended) {  // committed as typed
    context_word_ = 0;
    ForgetPrevious();
    pieces_.clear();  // a phrase the person did not finish converting
  }
  text_.TrimToLimit();
}

Status ZhSession::Type(std::string_view text, std::optional<int64_t> t_ms) {
  return ForEachChar(text, [&](std::string_view ch, char32_t cp) { AppendChar(ch, cp, t_ms); });
}

Status ZhSession::Backspace() {
  bool committed;
  if (text_.Backspace(&committed) && committed) {
    context_word_ = 0;
    ForgetPrevious();
    pending_.clear();  // the person took the last commit (or what followed it) back
  }
  if (composition().empty()) pieces_.clear();
  return Status::OK();
}

void ZhSession::SearchComposition() {
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
  next_.clear();  // 联想 is for an empty composition only
  user_bonus_.context = bigram_ != nullptr && context_word_ != 0 ? bigram_->VariantOf(context_word_)
                                                                 : UserWords::kNoTag;
  // A long composition: its early part fixed, the sentences for the rest, the words for its
  // start. Else one lattice for both searches. Not convertible (a byte other than a-z and '):
  // no candidates, the searches leave their lists empty.
  const bool windowed = window_.Update(typed, context_word_).ok() && window_.live_begin() > 0;
  if (windowed) {
    (void)search_.Search(typed.substr(0, PinyinWindow::kWindow));
    (void)sentence_search_.Search(typed.substr(window_.live_begin()), window_.live_context());
  } else if (search_.Search(typed).ok()) {
    sentence_search_.Search(search_.lattice(), typed, context_word_);
  } else {
    (void)sentence_search_.Search(typed, context_word_);
  }
  // The model reads the fixed part as context (UpdateModelContext).
  if (UseModel()) UpdateModelContext();
  searched_context_version_ = context_version_;
  RankSentences();
  search_valid_ = true;
}

void ZhSession::UpdateModelContext() {
  std::string_view committed = text_.text().substr(0, text_.composition_start());
  if (const size_t nl = committed.rfind('\n'); nl != std::string_view::npos) {
    committed.remove_prefix(nl + 1);
  }
  if (window_.live_begin() > 0 && !composition().empty()) {  // then the fixed words
    if (committed.size() > kMaxContextBytes) {               // (within context_buffer_'s reserve)
      committed.remove_prefix(
          utf8::BoundaryAtOrAfter(committed, committed.size() - kMaxContextBytes));
    }
    context_buffer_.assign(committed);
    context_buffer_.append(window_.fixed_text());
    committed = context_buffer_;
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

void ZhSession::RankSentences() {
  const std::span<const PinyinSentence> found = sentence_search_.sentences();
  ranked_.assign(found.begin(), found.end());
  sentences_model_failed_ = false;
  const size_t rescored = std::min(ranked_.size(), ZhSession::kSentencesRescored);
  if (!UseModel() || model_.sentence_weight == 0 || rescored < 2) return;
  const Transformer& model = *model_.model;
  for (PinyinSentence& s : std::span(ranked_).first(rescored)) {
    sentence_words_.clear();
    float oov_share = 0;  // words outside the vocabulary: <unk>, shared out by their count
    for (const PinyinSentenceWord& w : s.words) {
      const int id = model.vocab().Find(w.text);
      sentence_words_.push_back(id);
      if (id == ModelConfig::kUnkWord) {
        // A learned word beyond the lexicon counts as its rarest words do.
        const uint32_t count =
            w.entry == lexicon::kNoEntry ? 1 : lexicon_->Variants(w.entry)[w.variant].count;
        oov_share +=
            std::log(static_cast<float>(std::max<uint32_t>(count, 1))) - model_.log_oov_count;
      }
    }
    const float log_p = lm_->Score(sentence_words_);
    if (!std::isfinite(log_p)) {  // the model overflowed on these words: the bigram's order
      ranked_.assign(found.begin(), found.end());
      sentences_model_failed_ = true;
      return;
    }
    s.score += model_.sentence_weight * (log_p + oov_share);
  }
  // Only the rescored ones change places; the others, unscored, stay behind them. (An insertion
  // sort: stable, and unlike std::stable_sort it needs no buffer.)
  for (size_t i = 1; i < rescored; ++i) {
    for (size_t j = i; j > 0 && ranked_[j].score > ranked_[j - 1].score; --j) {
      std::swap(ranked_[j], ranked_[j - 1]);
    }
  }
}

std::span<const PinyinSentence> ZhSession::OfferedSentences() const {
  const std::span<const PinyinSentence> sentences = ranked_;
  size_t n = 0;
  // After a fixed part, every sentence has several words.
  const bool fixed = window_.live_begin() > 0 && !composition().empty();
  while (n < sentences.size() && n < kSentencesOffered &&
         (fixed || sentences[n].words.size() >= 2)) {
    ++n;
  }
  return sentences.first(n);
}

bool ZhSession::IsSentence(const PinyinSentence& sentence, std::string_view text) const {
  const std::string_view fixed =
      window_.live_begin() > 0 && !composition().empty() ? window_.fixed_text() : "";
  return text.size() == fixed.size() + sentence.text.size() && text.starts_with(fixed) &&
         text.ends_with(sentence.text);
}

bool ZhSession::IsOffered(std::span<const PinyinSentence> sentences, std::string_view text) const {
  return std::any_of(sentences.begin(), sentences.end(),
                     [&](const PinyinSentence& s) { return IsSentence(s, text); });
}

Status ZhSession::Accept(std::string_view word) {
  KD_RETURN_IF_ERROR(CheckAcceptedWord(word, kMaxSentenceBytes));
  // The letters the word stands for: those its best candidate consumed, else all of them (also
  // for a sentence, and for an unknown word).
  const std::string_view composition = text_.composition();
  size_t consumed = composition.size();
  uint32_t word_id = 0;
  const bool learning = personal_.learn && !composition.empty();
  if (learning) OfferPending();  // the commit before this one was kept
  // Chosen over the first candidate the person was shown for these letters.
  const bool picked = learning && composition == first_offered_for_ && word != first_offered_;
  std::string_view last = word;  // the last word committed
  if (consumed == 0) {
    word_id = AcceptedWordId(word);  // a 联想 pick
    if (personal_.learn) LearnNextWordPick(word);
  } else {
    SearchComposition();
    FindUserWords();  // with the snapshot the last Decide showed
    const std::span<const PinyinSentence> sentences = OfferedSentences();
    const auto sentence =
        std::find_if(sentences.begin(), sentences.end(),
                     [&](const PinyinSentence& s) { return IsSentence(s, word); });
    const auto is_word = [&](const UserCandidate& c) {
      return user_words_->word(c.word).spelling == word;
    };
    const UserCandidate* user = nullptr;
    for (const std::vector<UserCandidate>* list : {&user_first_, &user_prefix_}) {
      const auto it = std::find_if(list->begin(), list->end(), is_word);
      if (user == nullptr && it != list->end()) user = &*it;
    }
    const bool user_found = user != nullptr;
    if (sentence != sentences.end()) {
      const PinyinSentenceWord& last_word = sentence->words.back();
      last = last_word.text;
      word_id = bigram_ != nullptr && last_word.entry != lexicon::kNoEntry
                    ? bigram_->WordOf(lexicon_->VariantIndex(last_word.entry, last_word.variant))
                    : 0;
      if (learning) LearnSentence(*sentence, picked);
    } else if (user_found) {
      consumed = std::min<size_t>(user->consumed, consumed);
      const uint32_t tag = user_words_->word(user->word).tag;  // its lexicon spelling, if any
      word_id = bigram_ != nullptr && tag != UserWords::kNoTag ? bigram_->WordOf(tag) : 0;
      if (learning) LearnAccepted(word, user_words_->word(user->word).reading, picked);
    } else {
      const PinyinCandidate* found = nullptr;
      for (const PinyinCandidate& c : search_.candidates()) {
        if (c.text == word) {
          found = &c;
          break;
        }
      }
      if (found != nullptr) {
        consumed = std::min<size_t>(found->consumed, consumed);
        word_id =
            bigram_ ? bigram_->WordOf(lexicon_->VariantIndex(found->entry, found->variant)) : 0;
      }
      if (learning) {
        // Its reading: the lexicon key's syllables, else (a learned word, a word the host
        // made) the letters it replaces, when they spell one syllable per hanzi.
        const std::string_view letters =
            found != nullptr ? lexicon_->Key(found->entry) : composition.substr(0, consumed);
        LearnAccepted(word, ReadingOf(letters, word, &reading_scratch_), picked);
      }
    }
  }
  // The rest of the composition, without the apostrophes that separated it from the word.
  while (consumed < composition.size() && composition[consumed] == '\'') ++consumed;
  const bool whole = consumed == composition.size();
  last_word_.assign(last.size() <= Learner::kMaxWordBytes ? last : "");
  text_.ReplaceComposition(consumed, word);
  context_word_ = word_id;
  if (learning && whole) {
    // A phrase the person built from several picks is learned as a word of its own.
    if (pieces_.size() >= 2) {
      std::string phrase, reading;
      bool readable = true;
      for (const Piece& p : pieces_) {
        phrase += p.text;
        readable = readable && !p.reading.empty();
        if (!reading.empty()) reading.push_back('\'');
        reading += p.reading;
      }
      if (readable && phrase.size() <= Learner::kMaxWordBytes &&
          reading.size() <= Learner::kMaxReadingBytes && pending_.size() < kMaxPendingWords) {
        pending_.push_back({std::move(phrase), "", std::move(reading), true});
      }
    }
    pieces_.clear();
  }
  text_.TrimToLimit();
  return Status::OK();
}

void ZhSession::QueueWord(std::string_view text, std::string_view reading, bool picked) {
  if (pending_.size() < kMaxPendingWords) {
    pending_.push_back({std::string(text), previous_word_, std::string(reading), picked});
  }
  previous_word_.assign(text.size() <= Learner::kMaxWordBytes ? text : "");
}

void ZhSession::LearnAccepted(std::string_view text, std::string_view reading, bool picked) {
  QueueWord(text, reading, picked);
  pieces_.push_back({std::string(text), std::string(reading)});
}

void ZhSession::LearnNextWordPick(std::string_view word) {
  OfferPending();  // the commit before was kept
  const auto next =
      std::find_if(next_.begin(), next_.end(), [&](const NextWord& n) { return n.text == word; });
  std::string_view reading;
  if (next != next_.end() && next->variant != UserWords::kNoTag) {
    if (const uint32_t entry = lexicon_->EntryOfVariant(next->variant);
        entry != lexicon::kNoEntry) {
      reading = ReadingOf(lexicon_->Key(entry), word, &reading_scratch_);
    }
  } else if (const UserWords::Word* w = user_words_ ? user_words_->Find(word) : nullptr) {
    reading = w->reading;
  }
  QueueWord(word, reading, false);
}

void ZhSession::LearnSentence(const PinyinSentence& sentence, bool picked) {
  // A long composition's fixed part first (IsSentence: the kept text is it and the sentence).
  // The same in every sentence offered, so never picked over another.
  if (window_.live_begin() > 0) {
    for (const PinyinWindow::FixedWord& w : window_.fixed_words()) {
      const std::string_view text =
          window_.fixed_text().substr(w.text_begin, w.text_end - w.text_begin);
      if (w.entry != lexicon::kNoEntry) {
        ReadingOf(lexicon_->Key(w.entry), text, &reading_scratch_);
      } else {  // a learned word, by its spelling (the snapshot may be newer than the window)
        const UserWords::Word* learned = user_words_ ? user_words_->Find(text) : nullptr;
        reading_scratch_.assign(learned != nullptr ? learned->reading : "");
      }
      QueueWord(text, reading_scratch_, false);
    }
  }
  std::string reading;  // the whole sentence's, "" once a word has none
  bool readable = true;
  for (const PinyinSentenceWord& w : sentence.words) {
    if (w.entry == lexicon::kNoEntry) {  // a learned word (UserBonus::ExtraWords)
      reading_scratch_.assign(user_words_->word(w.extra).reading);
    } else {
      ReadingOf(lexicon_->Key(w.entry), w.text, &reading_scratch_);
    }
    QueueWord(w.text, reading_scratch_, picked);
    readable = readable && !reading_scratch_.empty();
    if (!reading.empty()) reading.push_back('\'');
    reading += reading_scratch_;
  }
  // A sentence chosen over the first one is the person's phrase for these letters.
  if (picked && readable && sentence.words.size() >= 2 &&
      sentence.text.size() <= Learner::kMaxWordBytes &&
      reading.size() <= Learner::kMaxReadingBytes && pending_.size() < kMaxPendingWords) {
    pending_.push_back({std::string(sentence.text), "", std::move(reading), true});
  }
  pieces_.clear();  // the sentence converts what was left; earlier picks stand alone
}

void ZhSession::OfferPending() {
  if (personal_.learner == nullptr) return;
  for (const Pending& p : pending_) {
    personal_.learner->Offer(p.word, p.previous, p.picked, p.reading, app_);
  }
  pending_.clear();
}

uint32_t ZhSession::AcceptedWordId(std::string_view word) const {
  for (const NextWord& next : next_) {
    if (next.text == word) return next.word;
  }
  return 0;
}

void ZhSession::FindNextWords(size_t k) {
  next_.clear();
  if (k == 0) return;
  float total = 0;  // c(word before)
  if (bigram_ != nullptr && context_word_ != 0) {
    const std::span<const uint32_t> words = bigram_->Followers(context_word_);
    const std::span<const uint32_t> counts = bigram_->FollowerCounts(context_word_);
    // The most frequent followers (k of them, or kNextWordsRescored for the model to re-rank),
    // by insertion into a short sorted list.
    const size_t kept = std::min(UseModel() ? std::max(k, kNextWordsRescored) : k,
                                 next_.capacity() - kUserNextWords);
    for (size_t i = 0; i < words.size(); ++i) {
      const uint32_t variant = bigram_->VariantOf(words[i]);
      if (variant == WordBigram::kNoVariant) continue;
      if (next_.size() == kept && counts[i] <= next_.back().count) continue;
      if (next_.size() < kept) next_.push_back({});
      size_t at = next_.size() - 1;
      while (at > 0 && next_[at - 1].count < counts[i]) {
        next_[at] = next_[at - 1];
        --at;
      }
      next_[at] = {lexicon_->VariantTextAt(variant), words[i], variant, counts[i], 0, 0};
    }
    total = static_cast<float>(bigram_->FollowerTotal(context_word_));
  }
  AddUserNextWords();
  for (NextWord& next : next_) {
    const float p_bigram = total > 0 ? static_cast<float>(next.count) / total : 0.0f;
    next.score = std::log(std::max(p_bigram + kUserNextWeight * next.p_user, 1e-30f));
  }
  if (UseModel() && model_.sentence_weight != 0 && next_.size() > 1) RankNextWords();
  // Once more after the model, which has not seen the person's text and may rank their word
  // far down: not below log(kUserNextFloor × P_user).
  for (NextWord& next : next_) {
    if (next.p_user > 0) next.score = std::log(std::exp(next.score) + kUserNextFloor * next.p_user);
  }
  for (size_t i = 1; i < next_.size(); ++i) {  // stable, without std::stable_sort's buffer
    for (size_t j = i; j > 0 && next_[j].score > next_[j - 1].score; --j) {
      std::swap(next_[j], next_[j - 1]);
    }
  }
  if (next_.size() > k) next_.resize(k);
}

void ZhSession::AddUserNextWords() {
  if (user_words_ == nullptr || last_word_.empty()) return;
  const UserWords::Word* before = user_words_->Find(last_word_);
  if (before == nullptr || before->weight <= 0) return;
  size_t added = 0;
  for (const UserWords::Pair& pair : user_words_->Following(last_word_)) {
    if (added == kUserNextWords) break;
    const UserWords::Word* w = user_words_->Find(pair.word);
    if (w == nullptr || pair.weight <= 0) continue;
    ++added;
    const float p_user = std::min(pair.weight / before->weight, 1.0f);
    const auto known = std::find_if(next_.begin(), next_.end(),
                                    [&](const NextWord& n) { return n.text == w->spelling; });
    if (known != next_.end()) {
      known->p_user = p_user;
      continue;
    }
    NextWord next{w->spelling, 0, w->tag, 0, p_user, 0};
    if (bigram_ != nullptr && w->tag != UserWords::kNoTag) {
      next.word = bigram_->WordOf(w->tag);
      next.count = context_word_ != 0 ? bigram_->PairCount(context_word_, next.word) : 0;
    }
    next_.push_back(next);
  }
}

std::span<const PinyinCandidate> ZhSession::RankWords(const float* hidden,
                                                      std::span<const PinyinCandidate> found) {
  if (found.size() < 2 || model_.sentence_weight == 0) return found;
  const Transformer& model = *model_.model;
  ranked_words_.assign(found.begin(), found.end());
  const size_t n = std::min(ranked_words_.size(), kWordsRescored);
  word_ids_.clear();
  for (size_t i = 0; i < n; ++i) word_ids_.push_back(model.vocab().Find(ranked_words_[i].text));
  word_log_p_.resize(n);
  // Raw logits: a shift common to all of them changes no order within a group.
  model.WordLogits(hidden, word_ids_, word_log_p_.data());
  if (!AllFinite(word_log_p_)) return found;
  for (size_t i = 0; i < n; ++i) {
    float log_p = word_log_p_[i];
    if (word_ids_[i] == ModelConfig::kUnkWord) {
      const uint32_t count = std::max<uint32_t>(
          lexicon_->Variants(ranked_words_[i].entry)[ranked_words_[i].variant].count, 1);
      log_p += std::log(static_cast<float>(count)) - model_.log_oov_count;
    }
    ranked_words_[i].score += kWordModelWeight * log_p;
  }
  // The search's groups stay in place: whole input first, then longer prefixes first.
  const auto before = [](const PinyinCandidate& a, const PinyinCandidate& b) {
    if (a.full != b.full) return a.full;
    if (a.consumed != b.consumed) return a.consumed > b.consumed;
    return a.score > b.score;
  };
  for (size_t i = 1; i < n; ++i) {  // stable, without std::stable_sort's buffer
    for (size_t j = i; j > 0 && before(ranked_words_[j], ranked_words_[j - 1]); --j) {
      std::swap(ranked_words_[j], ranked_words_[j - 1]);
    }
  }
  return ranked_words_;
}

void ZhSession::RankNextWords() {
  UpdateModelContext();
  const Transformer& model = *model_.model;
  next_ids_.clear();
  for (const NextWord& next : next_) next_ids_.push_back(model.vocab().Find(next.text));
  next_log_p_.resize(next_ids_.size());
  lm_->NextWords(next_ids_, next_log_p_);
  if (!AllFinite(next_log_p_)) return;  // the model overflowed here: the bigram's order
  for (size_t i = 0; i < next_.size(); ++i) {
    float log_p = next_log_p_[i];
    if (next_ids_[i] == ModelConfig::kUnkWord) {  // <unk>'s share, as for the sentences
      const uint32_t variant = next_[i].variant;
      const uint32_t count = variant != UserWords::kNoTag
                                 ? std::max<uint32_t>(lexicon_->VariantCountAt(variant), 1)
                                 : 1;
      log_p += std::log(static_cast<float>(count)) - model_.log_oov_count;
    }
    next_[i].score += model_.sentence_weight * log_p;
  }
}

Status ZhSession::SetContext(std::string_view text) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  // The last commit stays learnable while it is still just before the cursor.
  std::string_view committed = text_.text().substr(0, text_.composition_start());
  committed.remove_prefix(committed.size() - std::min<size_t>(committed.size(), kMaxSentenceBytes));
  if (!text.ends_with(committed)) pending_.clear();
  text_.Assign(text);
  context_word_ = 0;
  ForgetPrevious();
  pieces_.clear();
  return Status::OK();
}

const float* ZhSession::ReadKeystrokes() {
  const std::string_view typed = composition();
  if (!UseModel() || typed.empty() || typed.size() > ZhSession::kMaxModelKeys) return nullptr;
  keys_.clear();
  const size_t start = text_.composition_start();
  for (size_t i = 0; i < typed.size(); ++i) {
    keys_.push_back(ModelTrack::Keystroke(
        model_.model->config(), static_cast<unsigned char>(typed[i]), i, text_.meta(start + i)));
  }
  return lm_->Keystrokes(keys_);
}

void ZhSession::WriteCandidates(size_t k, bool latin, std::span<const PinyinCandidate> found,
                                std::span<const PinyinSentence> sentences, Decision* out) {
  slots_.Resize(k, &out->candidates);
  size_t filled = 0;
  auto next = [&](float score, CandidateKind kind) -> std::string& {
    Candidate& c = out->candidates[filled++];
    c.score = score;
    c.typing_cost = 0;
    c.kind = kind;
    return c.text;
  };
  auto user = [&](const UserCandidate& c) {
    const UserWords::Word& w = user_words_->word(c.word);
    next(std::log1p(w.weight), CandidateKind::kCompletion).assign(w.spelling);
  };
  for (size_t i = 0; i < user_first_.size() && filled < k; ++i) user(user_first_[i]);
  if (latin && filled < k) {  // the letters as typed
    next(std::log(intent_[model_.latin_label]), CandidateKind::kCompletion).assign(composition());
  }
  const std::string_view fixed = window_.live_begin() > 0 ? window_.fixed_text() : "";
  for (size_t i = 0; i < sentences.size() && filled < k; ++i) {
    if (!user_first_.empty() && IsUserCandidate(sentences[i].text) && fixed.empty()) continue;
    std::string& text = next(sentences[i].score, CandidateKind::kSentence);
    text.assign(fixed);
    text.append(sentences[i].text);
  }
  // Words for all the letters (a one-word conversion is offered here, not as a sentence), then
  // the person's words for a start of them, then the search's.
  const auto words = [&](bool full) {
    for (size_t i = 0; i < found.size() && filled < k; ++i) {
      const PinyinCandidate& p = found[i];
      if (p.full != full || IsUserCandidate(p.text)) continue;
      if (p.full && IsOffered(sentences, p.text)) continue;  // a word that is a sentence only once
      next(p.score, CandidateKind::kCompletion).assign(p.text);
    }
  };
  words(true);
  for (size_t i = 0; i < user_prefix_.size() && filled < k; ++i) user(user_prefix_[i]);
  words(false);
  for (size_t i = 0; i < next_.size() && filled < k; ++i) {
    next(next_[i].score, CandidateKind::kNextWord).assign(next_[i].text);
  }
  slots_.Resize(filled, &out->candidates);
}

bool ZhSession::IsUserCandidate(std::string_view text) const {
  const auto is = [&](const UserCandidate& c) {
    return user_words_->word(c.word).spelling == text;
  };
  return std::any_of(user_first_.begin(), user_first_.end(), is) ||
         std::any_of(user_prefix_.begin(), user_prefix_.end(), is);
}

void ZhSession::RefreshUserWords() {
  if (personal_.learner == nullptr) return;
  const uint64_t version = personal_.learner->version();
  if (version == user_words_version_) return;
  user_words_ = personal_.learner->words();
  user_words_version_ = version;
  next_.clear();  // its person's words are the old snapshot's
  user_bonus_.Set(user_words_.get(), lexicon_, personal_, app_);
  sentence_search_.set_bonus(user_words_->size() > 0 ? &user_bonus_ : nullptr);
  search_valid_ = false;  // the sentences' scores depend on it
}

void ZhSession::RefreshAdapter() {
  if (personal_.tuner == nullptr || lm_ == nullptr) return;
  const uint64_t version = personal_.tuner->version();
  if (version == adapter_version_) return;
  adapter_ = personal_.tuner->adapter();
  adapter_version_ = version;
  lm_->SetAdapter(adapter_.get(), personal_.fine_tune_weight);
  search_valid_ = false;  // as for the words
}

void ZhSession::FindUserWords() {
  user_first_.clear();
  user_prefix_.clear();
  if (user_words_ == nullptr || user_words_->size() == 0) return;
  const std::string_view typed = composition();
  user_letters_.clear();
  for (const char c : typed) {
    if (c != '\'') user_letters_.push_back(c);
  }
  // The whole composition: the person's heaviest word for these letters (or initials) first,
  // and the next while they are words the search alone would not put there.
  const auto trusted = [&](const UserWords::Word& w) {
    return w.offered() && (w.picks > 0 || w.tag == UserWords::kNoTag);
  };
  // The heaviest of each list (by overall weight), heaviest first in this app type
  // (UserBonus::UserProb), a word for the whole letters before one for their initials on a tie.
  const std::span<const uint32_t> full = user_words_->WithLetters(user_letters_);
  const std::span<const uint32_t> initials = user_letters_.size() >= 2
                                                 ? user_words_->WithInitials(user_letters_)
                                                 : std::span<const uint32_t>();
  user_order_.clear();
  for (const std::span<const uint32_t> list : {full, initials}) {
    for (const uint32_t i : list.first(std::min(list.size(), kMaxUserOrder))) {
      user_order_.push_back({i, user_bonus_.UserProb(user_words_->word(i))});
    }
  }
  std::stable_sort(user_order_.begin(), user_order_.end(),
                   [](const UserOrder& x, const UserOrder& y) { return x.p > y.p; });
  for (const UserOrder& o : user_order_) {
    if (user_first_.size() == kMaxUserFirst) break;
    const uint32_t i = o.word;
    const UserWords::Word& w = user_words_->word(i);
    if (!w.offered()) continue;
    if (!trusted(w)) break;
    if (std::none_of(user_first_.begin(), user_first_.end(),
                     [&](const UserCandidate& c) { return c.word == i; })) {
      user_first_.push_back({i, static_cast<uint32_t>(typed.size())});
    }
  }
  // Starts of the composition, longest first (letters only: a typed apostrophe ends the match).
  const size_t letters = std::min({typed.find('\''), typed.size(), kMaxUserLetters});
  for (size_t n = std::min(letters, typed.size() - 1); n >= kMinUserPrefixLetters; --n) {
    for (const uint32_t i : user_words_->WithLetters(typed.substr(0, n))) {
      if (user_prefix_.size() == kMaxUserPrefix) return;
      if (trusted(user_words_->word(i))) user_prefix_.push_back({i, static_cast<uint32_t>(n)});
    }
  }
}

void ZhSession::UserBonus::Set(const UserWords* words, const Lexicon* lexicon,
                               const ZhSessionPersonal& personal, int app) {
  words_ = words;
  lexicon_ = lexicon;
  word_weight_ = personal.word_weight;
  pair_weight_ = personal.pair_weight;
  const float app_total = words != nullptr ? words->app_total_weight(app) : 0.0f;
  app_ = app_total > 0 ? app : 0;  // (a valid index even when unused)
  app_share_ = app_total > 0 ? personal.app_share : 0.0f;
  inv_app_total_ = app_total > 0 ? 1.0f / app_total : 0.0f;
  max_word_ = max_pair_ = 0;
  word_bonus_.clear();
  extra_.clear();
  std::fill(std::begin(bucket_begin_), std::end(bucket_begin_), 0);
  if (words == nullptr || words->total_weight() <= 0) return;
  inv_total_ = 1.0f / words->total_weight();
  inv_lexicon_total_ = 1.0f / static_cast<float>(std::max<uint64_t>(lexicon->total_count(), 1));
  float min_prob = 1;
  for (const uint32_t i : words->tagged()) {
    const UserWords::Word& w = words->word(i);
    const float p = LexiconProb(w.tag);
    min_prob = std::min(min_prob, p);
    const float bonus = std::log1p(word_weight_ * UserProb(w) / p);
    max_word_ = std::max(max_word_, bonus);
    if (bonus > 0) word_bonus_.push_back({w.tag, bonus});  // tagged() is in tag order
  }
  // P_user(w | previous) is at most 1.
  if (words->max_pair_weight() > 0) max_pair_ = std::log1p(pair_weight_ / min_prob);
  SetExtraWords();
}

size_t ZhSession::UserBonus::ExtraWords(std::string_view rest, std::span<ExtraWord> out) const {
  if (rest.size() < 2 || out.empty() || !IsPinyinLetter(static_cast<unsigned char>(rest[0])) ||
      !IsPinyinLetter(static_cast<unsigned char>(rest[1]))) {
    return 0;
  }
  const std::span<const Extra> bucket = Bucket(rest);
  size_t n = 0;
  for (const Extra& e : bucket) {  // best first
    const UserWords::Word& w = words_->word(e.word);
    if (!rest.starts_with(w.letters)) continue;
    out[n++] = {e.word, static_cast<uint32_t>(w.letters.size()), e.breaks, e.log_p};
    if (n == out.size()) break;
  }
  return n;
}

std::string_view ZhSession::UserBonus::ExtraText(uint32_t id) const {
  return words_->word(id).spelling;
}

std::span<const ZhSession::UserBonus::Extra> ZhSession::UserBonus::Bucket(
    std::string_view letters) const {
  const size_t b = BucketOf(letters);
  return std::span(extra_).subspan(bucket_begin_[b], bucket_begin_[b + 1] - bucket_begin_[b]);
}

size_t ZhSession::UserBonus::BucketOf(std::string_view letters) {
  return static_cast<size_t>(letters[0] - 'a') * 26 + static_cast<size_t>(letters[1] - 'a');
}

void ZhSession::UserBonus::SetExtraWords() {
  extra_.clear();
  std::fill(std::begin(bucket_begin_), std::end(bucket_begin_), 0);
  if (word_weight_ == 0 || words_->total_weight() <= 0) return;
  for (uint32_t i = 0; i < words_->size(); ++i) {
    const UserWords::Word& w = words_->word(i);
    // Offered words the lexicon lacks, of a reading of whole syllables with one hanzi each.
    if (w.tag != UserWords::kNoTag || !w.offered() || w.letters.size() < 2 ||
        w.letters.size() > PinyinLattice::kMaxTyped || w.reading.empty()) {
      continue;
    }
    if (!std::all_of(w.letters.begin(), w.letters.end(),
                     [](char c) { return IsPinyinLetter(static_cast<unsigned char>(c)); })) {
      continue;
    }
    uint64_t breaks = 0;
    size_t letters = 0, syllables = 0;
    for (const char c : w.reading) {
      if (c == '\'') {
        if (letters > 0) breaks |= uint64_t{1} << (letters - 1);
        ++syllables;
      } else {
        ++letters;
      }
    }
    breaks |= uint64_t{1} << (letters - 1);
    ++syllables;
    if (letters != w.letters.size() || utf8::Length(w.spelling) != syllables) continue;
    const float log_p = std::log(word_weight_ * UserProb(w));
    if (!std::isfinite(log_p)) continue;
    extra_.push_back({i, breaks, log_p});
  }
  // By bucket, best first within one.
  std::sort(extra_.begin(), extra_.end(), [&](const Extra& a, const Extra& b) {
    const size_t ba = BucketOf(words_->word(a.word).letters);
    const size_t bb = BucketOf(words_->word(b.word).letters);
    return ba != bb ? ba < bb : a.log_p > b.log_p;
  });
  for (const Extra& e : extra_) ++bucket_begin_[BucketOf(words_->word(e.word).letters) + 1];
  for (size_t b = 1; b <= kBuckets; ++b) bucket_begin_[b] += bucket_begin_[b - 1];
}

float ZhSession::UserBonus::MaxWordIn(uint32_t begin, uint32_t end) const {
  auto it = std::lower_bound(word_bonus_.begin(), word_bonus_.end(), begin,
                             [](const TagBonus& b, uint32_t v) { return b.tag < v; });
  float most = 0;
  for (; it != word_bonus_.end() && it->tag < end; ++it) most = std::max(most, it->bonus);
  return most;
}

float ZhSession::UserBonus::LexiconProb(uint32_t variant) const {
  return static_cast<float>(std::max<uint32_t>(lexicon_->VariantCountAt(variant), 1)) *
         inv_lexicon_total_;
}

float ZhSession::UserBonus::UserProb(const UserWords::Word& w) const {
  return (1 - app_share_) * w.weight * inv_total_ +
         app_share_ * w.app_weight[app_] * inv_app_total_;
}

float ZhSession::UserBonus::Word(uint32_t variant) const {
  const auto it = std::lower_bound(word_bonus_.begin(), word_bonus_.end(), variant,
                                   [](const TagBonus& b, uint32_t v) { return b.tag < v; });
  return it != word_bonus_.end() && it->tag == variant ? it->bonus : 0.0f;
}

float ZhSession::UserBonus::Pair(uint32_t previous, uint32_t variant) const {
  if (previous == kStart) previous = context;
  if (previous == UserWords::kNoTag || pair_weight_ == 0) return 0;
  const float weight = words_->PairWeightByTag(previous, variant);
  if (weight <= 0) return 0;
  const UserWords::Word* before = words_->FindTag(previous);
  if (before == nullptr || before->weight <= 0) return 0;
  return std::log1p(pair_weight_ * std::min(weight / before->weight, 1.0f) / LexiconProb(variant));
}

void ZhSession::WritePreedit(bool latin, std::span<const PinyinSentence> sentences, Decision* out) {
  const std::string_view typed = composition();
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
  window_.WriteSyllableBreaks(typed, breaks, &out->preedit);
}

Status ZhSession::Decide(int max_candidates, Decision* out) {
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
  RefreshUserWords();
  RefreshAdapter();
  user_first_.clear();  // none without letters
  user_prefix_.clear();
  if (!typed.empty()) {
    SearchComposition();
    found = search_.candidates();
    sentences = OfferedSentences();
    FindUserWords();
  } else {
    FindNextWords(std::min<size_t>(static_cast<size_t>(max_candidates), kMaxCandidatesLimit));
  }
  timings.candidates_us = MicrosSince(&t);
  // Model: the keystrokes of the composition (the sentences were scored in the search, which
  // brought the model's context up to date).
  const float* hidden = ReadKeystrokes();
  timings.model_us = MicrosSince(&t);
  bool latin = false;
  float popup = 0;
  bool overflowed = false;
  if (hidden != nullptr) {
    model_.model->Intent(hidden, intent_.data());
    popup = model_.model->Popup(hidden);
    // A model that overflowed on these keys serves no one: the lexicon tier does.
    const size_t d = static_cast<size_t>(model_.model->config().d_model);
    overflowed = !AllFinite({hidden, d}) || !AllFinite(intent_) || !std::isfinite(popup);
    if (overflowed) hidden = nullptr;
  }
  if (hidden != nullptr) {
    latin = model_.latin_label >= 0 && typed.size() >= kMinLatinKeys &&
            intent_[model_.latin_label] > kLatinThreshold;
    found = RankWords(hidden, found);
  }
  timings.heads_us = MicrosSince(&t);

  // Post: the candidates, the preedit, the heads.
  const size_t k = std::min<size_t>({static_cast<size_t>(max_candidates),
                                     latin + found.size() + sentences.size() + next_.size() +
                                         user_first_.size() + user_prefix_.size(),
                                     static_cast<size_t>(kMaxCandidatesLimit)});
  WriteCandidates(k, latin, found, sentences, out);
  if (personal_.learn) {  // what Accept compares a pick with
    first_offered_for_.assign(typed);
    first_offered_.assign(out->candidates.empty() ? std::string_view() : out->candidates[0].text);
  }
  WritePreedit(latin, sentences, out);
  ClearModelOutputs(out);
  out->has_model = hidden != nullptr;
  if (hidden != nullptr) {
    out->popup.probability = popup;
    const std::vector<std::string>& labels = model_.model->config().intent_labels;
    out->intent.probabilities.assign(intent_.begin(), intent_.end());
    out->intent.label = labels[std::max_element(intent_.begin(), intent_.end()) - intent_.begin()];
  }
  // The model's rung served it when the model ran: on the keystrokes, or (past kMaxModelKeys
  // letters) on the sentences alone; not when it overflowed on either.
  const bool model_served = !overflowed && !sentences_model_failed_;
  out->tier = UseModel() && !typed.empty() && model_served ? tier_ : Tier::kLexiconOnly;
  timings.post_us = MicrosSince(&t);
  timings.total_us = std::chrono::duration<float, std::micro>(t - t0).count();
  return Status::OK();
}

}  // namespace keydecide
