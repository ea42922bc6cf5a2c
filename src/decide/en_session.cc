#include "decide/en_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "decide/en_pack.h"
#include "decide/popup_estimate.h"
#include "decide/stage_clock.h"
#include "decide/surface_form.h"
#include "decide/text_limits.h"
#include "decide/top_words.h"
#include "lexicon/lexicon.h"
#include "model/transformer.h"
#include "personal/learner.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

constexpr int kModelProposals = 16;  // model words added at a word start
// ... chosen among the model's 8192 most frequent words (its vocabulary is in frequency
// order): the whole word table (20k rows) costs more than the rest of the decision. On 50 KB
// of dev text: KSR 0.4177 vs 0.4178 with all rows, next-word top-3 0.2323 vs 0.2326,
// P95 latency 0.50 ms vs 0.80 ms (docs/history/BENCHMARKS-to-2026-12-07.md).
constexpr int kProposalWords = 8192;
// The person's words added per keystroke beside the lexicon's (the heaviest completing the
// typed letters, or at a word start the heaviest after the previous word).
constexpr size_t kUserCandidates = 4;
// Words with apostrophes whose letters complete the typed ones ("dont" -> "don't"), the most
// frequent first, added as completions.
constexpr size_t kApostropheCandidates = 3;
// The bigram's most frequent followers of the word before that complete the typed letters,
// added beside the search's (which ranks by count alone, and misses a rare word the context
// calls for). On the first 100 KB of the tuning text 4 / 8 / 16 replayed at KSR 0.4453 / 0.4456 /
// 0.4459 (none: 0.4432).
constexpr size_t kBigramFollowers = 8;
// The spelling rules of autocorrect (ApplySpellingRules): letters typed without a contraction's
// apostrophe are that contraction when the letters alone, as a word of their own, are rarer
// than this share of it in the lexicon's text ("dont" 1% of "don't", "im" 2% of "i'm"; "its"
// 209% of "it's", "ill" 47% of "i'll", "lets" 14% of "let's": left alone; counts of the English
// training split).
constexpr double kContractionOwnShare = 0.05;

// A contraction of the rule: the apostrophe stands for a word after it, one of English's
// clitics (n't, 's, 're, 've, 'll, 'd, 'm). Other apostrophe words of the lexicon are elisions of
// old verse or dialect (o'er, ne'er, e'er, goin'), which a person typing "oer" rarely means: on
// the tuning text the rule wrote o'er for 69 typed "oer" of "over". They are left to the model.
bool EndsInClitic(std::string_view word) {
  const size_t at = word.rfind('\'');
  if (at == std::string_view::npos || at == 0) return false;
  const std::string_view after = word.substr(at + 1);
  for (std::string_view c : {"t", "s", "re", "ve", "ll", "d", "m"}) {
    if (after == c) return true;
  }
  return false;
}

// Keeps the N heaviest items offered so far in (*best)[0..*n), heaviest first; of equal
// weights the one offered first stays ahead. No allocation: it runs on every keystroke.
template <typename T, size_t N, typename Weight>
void KeepHeaviest(const T* item, Weight weight, std::array<const T*, N>* best, size_t* n) {
  size_t i = *n < N ? (*n)++ : N;
  if (i == N) {
    if (weight(*item) <= weight(*(*best)[N - 1])) return;
    i = N - 1;
  }
  for (; i > 0 && weight(*(*best)[i - 1]) < weight(*item); --i) (*best)[i] = (*best)[i - 1];
  (*best)[i] = item;
}

bool OnlySpaces(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' '; });
}

char32_t CharBefore(std::string_view text, size_t end, size_t* start) {
  *start = utf8::LastCharStart(text.substr(0, end));
  size_t pos = *start;
  char32_t cp;
  utf8::Decode(text, &pos, &cp);
  return cp;
}

// The straight apostrophe and the typographic one (U+2019, what many keyboards and phones
// send): both continue a word ("don't", "don’t").
constexpr char32_t kRightQuote = 0x2019;
constexpr std::string_view kRightQuoteUtf8 = "\xE2\x80\x99";
bool IsApostrophe(char32_t cp) { return cp == '\'' || cp == kRightQuote; }

// Byte offset where the word being typed starts in `text`: after the last character that
// is neither a letter nor an apostrophe following a letter ("don'" on the way to "don't").
size_t CompositionStart(std::string_view text, size_t /*start*/) {
  size_t start = text.size();
  while (start > 0) {
    size_t prev;
    const char32_t cp = CharBefore(text, start, &prev);
    size_t before;
    if (IsLetter(cp) ||
        (IsApostrophe(cp) && prev > 0 && IsLetter(CharBefore(text, prev, &before)))) {
      start = prev;
      continue;
    }
    break;
  }
  // A quote mark, not the word.
  for (;;) {
    if (start < text.size() && text[start] == '\'') {
      ++start;
    } else if (text.substr(start).starts_with(kRightQuoteUtf8)) {
      start += kRightQuoteUtf8.size();
    } else {
      break;
    }
  }
  return start;
}

// The word goes on with a letter, or with an apostrophe after a letter ("don'").
bool ExtendsWord(char32_t cp, std::string_view word) {
  return IsLetter(cp) || (IsApostrophe(cp) && !word.empty() && word.back() != '\'' &&
                          !word.ends_with(kRightQuoteUtf8));
}

// The lexicon keys apostrophes as '\'': the typographic one is read as it, in place.
void StraightenApostrophes(std::string* s) {
  size_t out = 0;
  for (size_t i = 0; i < s->size();) {
    if (std::string_view(*s).substr(i).starts_with(kRightQuoteUtf8)) {
      (*s)[out++] = '\'';
      i += kRightQuoteUtf8.size();
    } else {
      (*s)[out++] = (*s)[i++];
    }
  }
  s->resize(out);
}

// ... and written back as the person types them, when they do.
void CurlApostrophes(std::string* s) {
  for (size_t i = s->find('\''); i != std::string::npos; i = s->find('\'', i + 3)) {
    s->replace(i, 1, kRightQuoteUtf8);
  }
}

}  // namespace

const CompositionRule kEnglishComposition = {ExtendsWord, CompositionStart, std::string::npos};

EnSession::EnSession(const EnPack* engine, const SessionOptions& options)
    : engine_(engine),
      options_(options),
      text_(&kEnglishComposition),
      history_(&engine->lexicon()),
      search_(&engine->lexicon(), &engine->costs(), engine->search_options()) {
  autocorrect_bars_ = AutocorrectBarsFor(options_);
  options_.autocorrect_threshold = autocorrect_bars_.word;  // the level's, when not explicit
  correction_.typed.reserve(kMaxAcceptBytes);
  correction_.key.reserve(2 * kMaxAcceptBytes);  // lower-casing never more than doubles it
  typed_.reserve(CandidateSearch::kMaxTyped * 2);
  hits_.reserve(engine->search_options().max_candidates);
  scored_.reserve(engine->search_options().max_candidates + kHistoryCandidates + kModelProposals +
                  kUserCandidates + kApostropheCandidates + kBigramFollowers +
                  1);  // + the typed letters of an undo
  previous_key_.reserve(4 * sizeof(FinishedWord::text));
  bigram_key_.reserve(4 * sizeof(FinishedWord::text));
  // Capitalising one letter adds at most a few bytes (a UTF-8 sequence of up to 4).
  for (std::string& s : history_spelling_) s.reserve(SessionHistory::kMaxWordBytes + 4);
  if (engine->learner() != nullptr) {
    learner_ = engine->learner();
    learn_ = engine->learning() && !options.no_learn;
    forget_epoch_ = learner_->forget_epoch();
    user_key_.reserve(4 * sizeof(FinishedWord::text));
  }
  if (const Transformer* model = engine->model()) {
    track_ = std::make_unique<ModelTrack>(model, static_cast<int>(options.app));
    logits_.resize(std::min(model->n_words(), kProposalWords));
    proposals_.reserve(kModelProposals + 1);
    autocorrect_ = std::make_unique<Autocorrect>(model, &engine->lexicon(), engine->word_entries(),
                                                 engine->known_words());
  }
  if (const Transformer* small = engine->small_model()) {
    small_track_ = std::make_unique<ModelTrack>(small, static_cast<int>(options.app));
    small_autocorrect_ = std::make_unique<Autocorrect>(
        small, &engine->lexicon(), engine->word_entries(), engine->known_words());
  }
}

EnSession::~EnSession() { OfferPending(); }

void EnSession::TrimText() {
  const size_t cut = text_.TrimToLimit();
  if (cut == 0) return;
  pushed_word_end_ = std::string::npos;
  ShiftPersonalOffsets(cut);
  if (track_) track_->OnTextTrimmed(cut);
  if (small_track_) small_track_->OnTextTrimmed(cut);
}

void EnSession::AppendChar(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms) {
  const size_t before = text_.text().size();
  const TypedText::Typed typed = text_.Append(ch, cp, t_ms);
  // Typing on at the end of a corrected word makes it another word: nothing to undo.
  if (typed.extended && before == correction_.end) ForgetCorrection();
  if (typed.ended_end > typed.ended_start) {  // the character ended a word: remember it
    history_.Push(text_.text().substr(typed.ended_start, typed.ended_end - typed.ended_start));
    pushed_word_end_ = typed.ended_end;
    OnWordEnded(typed.ended_start, typed.ended_end);
  }
  TrimText();
}

// --- The person's words ------------------------------------------------------------------

void EnSession::OnWordEnded(size_t start, size_t end) {
  CatchUpForget();
  const std::string_view word = text_.text().substr(start, end - start);
  const bool follows = last_word_.end != std::string::npos && last_word_.end <= start &&
                       OnlySpaces(text_.text().substr(last_word_.end, start - last_word_.end));
  // A word that began in SetContext's text (the field's, not typed here) is never learned.
  const bool typed_here = start >= context_end_;
  if (learn_) {
    OfferPending();  // the word before was kept: this one came after it
    if (typed_here && word.size() <= pending_.text.size()) {
      std::memcpy(pending_.text.data(), word.data(), word.size());
      pending_.length = static_cast<uint8_t>(word.size());
      pending_.end = end;
      pending_previous_ = last_word_;
      if (!follows || last_word_from_context_) pending_previous_.length = 0;
      pending_picked_ = end == accepted_end_;
    }
  }
  if (word.size() <= last_word_.text.size()) {
    std::memcpy(last_word_.text.data(), word.data(), word.size());
    last_word_.length = static_cast<uint8_t>(word.size());
    last_word_.end = end;
    last_word_from_context_ = !typed_here;
  } else {
    last_word_.end = std::string::npos;
  }
}

// The host's text ends with a word and spaces before the composition: that word is the word
// before (the bigram's context, the person's pairs), as if typed here. It is not offered to the
// learner itself; a word typed after it is learned as following it, as after a typed word.
void EnSession::RememberContextWord() {
  const std::string_view text = text_.text();
  const size_t composition = text_.composition_start();
  size_t end = composition;
  while (end > 0 && text[end - 1] == ' ') --end;
  if (end == composition) return;
  const size_t start = CompositionStart(text.substr(0, end), 0);
  if (start == end || end - start > last_word_.text.size()) return;
  std::memcpy(last_word_.text.data(), text.data() + start, end - start);
  last_word_.length = static_cast<uint8_t>(end - start);
  last_word_.end = end;
  last_word_from_context_ = true;  // ranks as the word before; never learned in a pair
}

void EnSession::OfferPending() {
  if (!learn_) return;
  CatchUpForget();
  if (pending_.end == std::string::npos) return;
  // Not queued when the learner's queue is full or being emptied this instant: one word
  // fewer learned, never a wait on the keystroke path. Refused too when a forget came since
  // the word was typed (the learner noticed it after the check above).
  learner_->Offer(pending_.view(), pending_previous_.view(), pending_picked_, {},
                  static_cast<int>(options_.app), forget_epoch_);
  pending_.end = std::string::npos;
}

void EnSession::CatchUpForget() {
  if (learner_ == nullptr) return;
  const uint64_t epoch = learner_->forget_epoch();
  if (epoch == forget_epoch_) return;
  forget_epoch_ = epoch;
  pending_.end = std::string::npos;
  last_word_.end = std::string::npos;
  history_.Clear();  // the session's own words: it may have typed the forgotten one
  pushed_word_end_ = std::string::npos;
}

void EnSession::ShiftPersonalOffsets(size_t cut) {
  context_end_ = context_end_ > cut ? context_end_ - cut : 0;
  for (size_t* end : {&pending_.end, &last_word_.end, &accepted_end_}) {
    if (*end != std::string::npos) *end = *end >= cut ? *end - cut : std::string::npos;
  }
  if (correction_.end != std::string::npos && correction_.start >= cut) {
    correction_.start -= cut;
    correction_.end -= cut;
  } else {
    ForgetCorrection();
  }
}

// previous_key_: the lower-cased word before the composition, when only spaces separate them.
void EnSession::FindPreviousKey() {
  previous_key_.clear();
  const size_t start = text_.composition_start();
  if (last_word_.end == std::string::npos || last_word_.end > start ||
      !OnlySpaces(text_.text().substr(last_word_.end, start - last_word_.end))) {
    return;
  }
  AppendLowerUtf8(last_word_.view(), &previous_key_);
}

// The person's heaviest offered words that complete the typed letters (at a word start: those
// that most often followed the previous word), unless already a candidate.
void EnSession::AddUserCandidates() {
  size_t n = 0;
  if (typed_.empty()) {
    if (previous_key_.empty()) return;
    // The heaviest pairs first: the first few offered words will do (a common previous word
    // has hundreds of pairs, and each is a lookup).
    for (const UserWords::Pair& p : user_words_->Following(previous_key_)) {
      const UserWords::Word* w = user_words_->Find(p.word);
      if (w == nullptr || !w->offered()) continue;
      user_best_[n++] = w;
      if (n == user_best_.size()) break;
    }
  } else {
    for (const UserWords::Word& w : user_words_->WithPrefix(typed_)) {
      if (!w.offered()) continue;
      KeepHeaviest(
          &w, [](const UserWords::Word& u) { return u.weight; }, &user_best_, &n);
    }
  }
  const Lexicon& lex = engine_->lexicon();
  for (size_t i = 0; i < n; ++i) {
    const UserWords::Word& w = *user_best_[i];
    const uint32_t entry = lex.Find(w.key);
    const bool present = std::any_of(scored_.begin(), scored_.end(), [&](const auto& c) {
      return entry != lexicon::kNoEntry ? c.entry == entry
                                        : (c.entry == lexicon::kNoEntry && c.text == w.key);
    });
    if (present) continue;
    const bool known = entry != lexicon::kNoEntry;
    scored_.push_back({entry, known ? engine_->WordOf(entry) : -1,
                       known ? std::string_view() : std::string_view(w.spelling), 0,
                       known ? history_.CountOf(entry) : uint16_t{0}, 0});
  }
}

void EnSession::AddAdapterDelta(const float* hidden) {
  adapter_z_.resize(adapter_->rank);  // allocates once: the rank never changes
  adapter_->Project(hidden, adapter_z_.data());
  const float weight = engine_->personal_weights().adapter;
  for (ScoredCandidate& c : scored_) {
    if (c.word >= 0 && c.word < adapter_->n_words && std::isfinite(c.score)) {
      c.score += weight * adapter_->Delta(adapter_z_.data(), c.word);
    }
  }
}

// previous_word_: the bigram's word for previous_key_, or its sentence start (no word before, or
// one the lexicon lacks).
void EnSession::FindPreviousWord() {
  previous_word_ = WordBigram::kSentenceStart;
  if (previous_key_.empty()) return;
  bigram_key_.assign(previous_key_);  // keyed as the lexicon and the bigram's text read it
  StraightenApostrophes(&bigram_key_);
  while (!bigram_key_.empty() && bigram_key_.back() == '\'') bigram_key_.pop_back();
  if (const uint32_t entry = engine_->lexicon().Find(bigram_key_); entry != lexicon::kNoEntry) {
    previous_word_ = engine_->BigramWordOf(entry);
  }
}

// The heaviest followers of the word before among the words completing the typed letters: one
// id range of its row, as the bigram numbers words in key order.
void EnSession::AddBigramFollowers() {
  const WordBigram& bigram = *engine_->bigram();
  const auto [first, last] = engine_->BigramWordsWithPrefix(typed_);
  const std::span<const uint32_t> followers = bigram.Followers(previous_word_);
  const std::span<const uint32_t> counts = bigram.FollowerCounts(previous_word_);
  const size_t begin =
      std::lower_bound(followers.begin(), followers.end(), first) - followers.begin();
  const size_t end =
      std::lower_bound(followers.begin() + begin, followers.end(), last) - followers.begin();
  std::array<const uint32_t*, kBigramFollowers> best{};
  size_t n = 0;
  for (size_t i = begin; i < end; ++i) {
    KeepHeaviest(
        &counts[i], [](uint32_t count) { return count; }, &best, &n);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t entry = engine_->EntryOfBigramWord(followers[best[i] - counts.data()]);
    const bool present = std::any_of(scored_.begin(), scored_.end(),
                                     [&](const ScoredCandidate& c) { return c.entry == entry; });
    if (!present) {
      scored_.push_back({entry, engine_->WordOf(entry), {}, 0, history_.CountOf(entry), 0});
    }
  }
}

// score += weight * log(P(word | the word before) / P(word)): what the word before says about a
// candidate beyond its own frequency, which the scores already hold (the model's logit, or the
// baseline's count). The words outside the model's vocabulary have no context otherwise. With
// the model the weight is EngineOptions::word_bigram_weight; without it (the lexicon-only rung,
// the count baseline) 1, which turns the baseline's unigram into the bigram. After no word (a
// sentence start, punctuation between) the context is the bigram's sentence start.
void EnSession::AddBigramScore(bool model) {
  const WordBigram& bigram = *engine_->bigram();
  const Lexicon& lex = engine_->lexicon();
  const float weight = model ? engine_->bigram_weight() : 1.0f;
  const float inv_total = 1.0f / static_cast<float>(std::max<uint64_t>(lex.total_count(), 1));
  for (ScoredCandidate& c : scored_) {
    if (c.entry == lexicon::kNoEntry || !std::isfinite(c.score)) continue;
    const uint32_t word = engine_->BigramWordOf(c.entry);
    const float unigram = bigram.Unigram(word, static_cast<float>(lex.Count(c.entry)) * inv_total);
    c.score += weight * (bigram.LogProb(previous_word_, word, unigram) -
                         std::log(std::max(unigram, 1e-30f)));
  }
}

// The teacher reads the two words before the composition, where only spaces separate them from
// it and each other. Where anything else comes first (the text's start, punctuation: a comma as
// a full stop, since the teacher, a model of speech, has no punctuation), the sentence start; a
// word the lexicon lacks leaves the rest unknown.
void EnSession::FindTeacherContext() {
  const std::string_view text = text_.text();
  uint32_t words[2] = {WordNgram::kNoWord, WordNgram::kNoWord};  // the last word, the one before
  size_t end = text_.composition_start();
  for (uint32_t& word : words) {
    size_t e = end;
    while (e > 0 && text[e - 1] == ' ') --e;
    const size_t start = CompositionStart(text.substr(0, e), 0);
    if (start == e) {
      word = WordNgram::kSentenceStart;
      break;
    }
    bigram_key_.clear();
    AppendLowerUtf8(text.substr(start, e - start), &bigram_key_);
    StraightenApostrophes(&bigram_key_);
    while (!bigram_key_.empty() && bigram_key_.back() == '\'') bigram_key_.pop_back();
    const uint32_t entry = engine_->lexicon().Find(bigram_key_);
    if (entry == lexicon::kNoEntry) break;
    word = engine_->BigramWordOf(entry);
    end = start;
  }
  teacher_context_ = engine_->teacher()->Find(words[1], words[0]);
}

// The teacher's likeliest next words among those completing the typed letters: the listed
// trigrams of the context, then the bigrams of its last word (below their back-off), each one
// id range of its row, as words are numbered in key order.
void EnSession::AddTeacherFollowers() {
  const WordNgram& teacher = *engine_->teacher();
  const auto [first, last] = engine_->BigramWordsWithPrefix(typed_);
  struct Follower {
    uint32_t word;
    float score;
  };
  std::array<Follower, 2 * kTeacherFollowers> found;
  std::array<const Follower*, kTeacherFollowers> best{};
  size_t n_found = 0, n = 0;
  const auto scan = [&](const WordNgram::Row& row, float offset) {
    const auto begin = std::lower_bound(row.words.begin(), row.words.end(), first);
    const auto end = std::lower_bound(begin, row.words.end(), last);
    std::array<const int16_t*, kTeacherFollowers> top{};
    size_t k = 0;
    for (auto it = begin; it != end; ++it) {
      KeepHeaviest(
          &row.scores[it - row.words.begin()], [](int16_t q) { return q; }, &top, &k);
    }
    for (size_t i = 0; i < k; ++i) {
      const size_t at = top[i] - row.scores.data();
      found[n_found++] = {row.words[at], offset + ngram::Dequantize(*top[i])};
    }
  };
  scan(teacher.Trigrams(teacher_context_), 0.0f);
  if (typed_.empty()) {  // the whole row: its likeliest, indexed at load
    const WordNgram::Row top = teacher.TopBigrams(teacher_context_.last);
    for (size_t i = 0; i < top.words.size(); ++i) {
      found[n_found++] = {top.words[i],
                          teacher_context_.pair_backoff + ngram::Dequantize(top.scores[i])};
    }
  } else {
    scan(teacher.Bigrams(teacher_context_.last), teacher_context_.pair_backoff);
  }
  for (size_t i = 0; i < n_found; ++i) {
    KeepHeaviest(
        &found[i], [](const Follower& f) { return f.score; }, &best, &n);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t entry = engine_->EntryOfBigramWord(best[i]->word);
    const bool present = std::any_of(scored_.begin(), scored_.end(),
                                     [&](const ScoredCandidate& c) { return c.entry == entry; });
    if (!present) {
      scored_.push_back({entry, engine_->WordOf(entry), {}, 0, history_.CountOf(entry), 0});
    }
  }
}

// score += weight * log(P_teacher(word | context) / P_teacher(word)), as the bigram's
// (AddBigramScore): what general language says the context adds to a word beyond its frequency.
// A word of this text the lexicon lacks (a name) is one the teacher cannot judge: it gets the best
// gain any candidate got, so that the teacher never buries the text's own words under general
// ones ("the qu" after two quokkas: quokka, not Queen). Without that, the held-out tuning texts
// replayed the same (docs/MODEL.md, "English teacher").
void EnSession::AddTeacherScore() {
  const WordNgram& teacher = *engine_->teacher();
  const float weight = engine_->teacher_weight();
  float best = 0;
  for (ScoredCandidate& c : scored_) {
    if (c.entry == lexicon::kNoEntry || !std::isfinite(c.score)) continue;
    const uint32_t word = engine_->BigramWordOf(c.entry);
    const float gain = weight * (teacher.LogProb(teacher_context_, word) - teacher.Unigram(word));
    c.score += gain;
    best = std::max(best, gain);
  }
  for (ScoredCandidate& c : scored_) {
    if (c.entry == lexicon::kNoEntry && c.cache > 0 && std::isfinite(c.score)) c.score += best;
  }
}

// The person's words as a cache model (EngineOptions::user_word_weight): score +=
// word_weight * log(1 + P_user(w) / P_lexicon(w)) (P_user mixed with the session's app type's
// share, EngineOptions::user_app_share) + pair_weight * log(1 + kUserPairShare *
// P_user(w | previous) / P_lexicon(w)), and the new-word bonus for an offered word that has no
// model or lexicon score of its own. A word gains by how much more the person uses it than
// text in general does: their names and jargon much, "the" little.
void EnSession::AddUserBonus() {
  const EnPack::PersonalWeights& weights = engine_->personal_weights();
  const Lexicon& lex = engine_->lexicon();
  const float inv_lexicon_total =
      1.0f / static_cast<float>(std::max<uint64_t>(lex.total_count(), 1));
  const float inv_user_total = 1.0f / std::max(user_words_->total_weight(), 1.0f);
  // What the person wrote in this session's app type, when anything (EngineOptions).
  const int app = static_cast<int>(options_.app);
  const float app_total = user_words_->app_total_weight(app);
  const float app_share = app_total > 0 ? weights.app_share : 0.0f;
  const float inv_app_total = app_total > 0 ? 1.0f / app_total : 0.0f;
  const UserWords::Word* before =
      previous_key_.empty() ? nullptr : user_words_->Find(previous_key_);
  for (ScoredCandidate& c : scored_) {
    std::string_view key;  // lower-cased, as the person's words are keyed
    if (c.entry != lexicon::kNoEntry) {
      key = lex.Key(c.entry);
    } else {
      user_key_.clear();
      AppendLowerUtf8(c.text, &user_key_);
      key = user_key_;
    }
    const UserWords::Word* w = user_words_->Find(key);
    if (w == nullptr) continue;
    // A word the lexicon lacks counts as seen once.
    const uint32_t count = c.entry != lexicon::kNoEntry ? lex.Count(c.entry) : 1;
    const float p_lexicon = static_cast<float>(std::max<uint32_t>(count, 1)) * inv_lexicon_total;
    const float p_user = (1 - app_share) * w->weight * inv_user_total +
                         (app_share > 0 ? app_share * w->app_weight[app] * inv_app_total : 0.0f);
    float bonus = weights.word * std::log1p(p_user / p_lexicon);
    if (before != nullptr && before->weight > 0) {
      const float pair = user_words_->PairWeight(previous_key_, key);
      const float p_pair = std::min(pair / before->weight, 1.0f);
      bonus += weights.pair * std::log1p(kUserPairShare * p_pair / p_lexicon);
    }
    if (c.entry == lexicon::kNoEntry && c.word < 0 && w->offered()) bonus += weights.new_word;
    // The larger of this and the session's cache bonus (ModelScorer), not both: each says how
    // much more this person, or this text, uses the word than text in general, and a word of
    // the person's is mostly one of the text's too (summed, learning added nothing on the
    // Wesnoth tuning split: docs/history/BENCHMARKS-to-2026-12-07.md, "The session's words").
    c.score += std::max(0.0f, bonus - c.cache);
  }
}

Status EnSession::Type(std::string_view text, std::optional<int64_t> t_ms) {
  return ForEachChar(text, [&](std::string_view ch, char32_t cp) { AppendChar(ch, cp, t_ms); });
}

Status EnSession::Backspace() {
  bool committed;
  if (!text_.Backspace(&committed)) return Status::OK();
  const size_t size = text_.text().size();
  for (size_t* end : {&pending_.end, &last_word_.end, &accepted_end_}) {
    if (*end != std::string::npos && size < *end) *end = std::string::npos;  // deleted into it
  }
  context_end_ = std::min(context_end_, size);
  if (correction_.end != std::string::npos && size < correction_.end) ForgetCorrection();
  if (text_.text().size() == pushed_word_end_) {  // back into the word just remembered
    history_.PopLast();
    pushed_word_end_ = std::string::npos;
  }
  return Status::OK();
}

Status EnSession::Accept(std::string_view word) {
  KD_RETURN_IF_ERROR(CheckAcceptedWord(word));
  // The typed letters taken back at a corrected word undo the correction; any other pick
  // leaves nothing to undo.
  const bool undo = AtCorrectedWord() && !correction_.undone && word == correction_.typed;
  text_.ReplaceComposition(text_.composition().size(), word);
  accepted_end_ = text_.text().size();
  if (undo) {
    correction_.end = accepted_end_;
    correction_.undone = true;
  } else {
    ForgetCorrection();
  }
  TrimText();
  return Status::OK();
}

Status EnSession::AcceptCorrection(std::string_view replacement) {
  KD_RETURN_IF_ERROR(CheckAcceptedWord(replacement));
  const std::string_view typed = composition();
  if (typed.empty()) return Status::InvalidArgument("no word is being composed to correct");
  const size_t start = text_.composition_start();
  // Letters too long to accept back cannot be undone (the composition is kept whole).
  const bool undoable = typed.size() <= kMaxAcceptBytes;
  if (undoable) {
    correction_.typed.assign(typed);
    correction_.key.clear();
    AppendLowerUtf8(typed, &correction_.key);
  }
  // Not an Accept: the replacement is the engine's, not the person's pick (never learned as
  // picked).
  text_.ReplaceComposition(typed.size(), replacement);
  correction_.start = undoable ? start : std::string::npos;
  correction_.end = undoable ? text_.text().size() : std::string::npos;
  correction_.undone = false;
  TrimText();
  return Status::OK();
}

Status EnSession::SetContext(std::string_view text) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  // Words the new text still has where they were stay; the others were not kept.
  const std::string_view old = text_.text();
  const size_t same =
      std::mismatch(old.begin(), old.end(), text.begin(), text.end()).first - old.begin();
  for (size_t* end : {&pending_.end, &last_word_.end, &accepted_end_}) {
    if (*end != std::string::npos && (*end > same || *end > text.size())) *end = std::string::npos;
  }
  text_.Assign(text);
  context_end_ = text_.text().size();  // the host's text: read, never learned
  if (last_word_.end == std::string::npos) RememberContextWord();
  ForgetCorrection();
  pushed_word_end_ = std::string::npos;
  if (track_) track_->Reset();
  if (small_track_) small_track_->Reset();
  return Status::OK();
}

// --- Undoing an autocorrection -------------------------------------------------------------

// The cursor is at the end of the corrected word (or of the typed letters taken back), and the
// composition is that word.
bool EnSession::AtCorrectedWord() const {
  return correction_.end != std::string::npos && correction_.end == text_.text().size() &&
         correction_.start == text_.composition_start();
}

// The typed letters first: a candidate that outscores every other, written as typed
// (WriteCandidates). The same word found by the search is scored out (-inf: never written), not
// erased, so that the candidates gathered before the model keep their places.
void EnSession::AddTypedCandidate() {
  const uint32_t entry = engine_->lexicon().Find(correction_.key);
  for (ScoredCandidate& c : scored_) {
    if (entry != lexicon::kNoEntry ? c.entry == entry : c.text == correction_.key) {
      c.score = -std::numeric_limits<float>::infinity();
    }
  }
  scored_.push_back(
      {lexicon::kNoEntry, -1, correction_.typed, 0, 0, std::numeric_limits<float>::infinity()});
}

// A word the person keeps as they type it: one typed often or picked (the user store's offered
// words). Never autocorrected.
bool EnSession::KeptByPerson() const {
  if (!user_words_ || typed_.empty()) return false;
  const UserWords::Word* w = user_words_->Find(typed_);
  return w != nullptr && w->offered();
}

// A word the lexicon lacks that this text already has as typed: the person kept it there (an
// autocorrection they took back is remembered as typed, one they let stand as corrected), so
// it is the text's word (a name, a program), not a slip. Never autocorrected.
bool EnSession::KeptInThisText() const {
  return !typed_.empty() && engine_->lexicon().Find(typed_) == lexicon::kNoEntry &&
         history_.CountOfUnknown(typed_) > 0;
}

// Lexicon hits, then the session's own words that complete the typed letters exactly and
// that the search did not return (unknown words, or known ones below its cut): the
// kHistoryCandidates used most beyond their share of text in general, as the scorer's cache
// bonus ranks them.
void EnSession::GatherCandidates() {
  for (const SearchHit& h : hits_) {
    scored_.push_back(
        {h.entry, engine_->WordOf(h.entry), {}, h.cost, history_.CountOf(h.entry), 0});
  }
  const Lexicon& lex = engine_->lexicon();
  auto weight = [&](const SessionHistory::Word& w) {
    const uint32_t count = w.entry != lexicon::kNoEntry ? lex.Count(w.entry) : 1;
    return static_cast<float>(w.count) / static_cast<float>(std::max<uint32_t>(count, 1));
  };
  size_t n = 0;
  for (const SessionHistory::Word& w : history_) {
    if (w.count > 0 && w.key().starts_with(typed_)) KeepHeaviest(&w, weight, &history_best_, &n);
  }
  for (size_t i = 0; i < n; ++i) {
    const SessionHistory::Word& w = *history_best_[i];
    const bool known = w.entry != lexicon::kNoEntry;
    if (known && std::any_of(hits_.begin(), hits_.end(),
                             [&](const SearchHit& h) { return h.entry == w.entry; })) {
      continue;
    }
    std::string_view text;  // an unknown word's spelling: a name keeps its capital
    if (!known) {
      WriteSurfaceForm(w.key(), w.capitalized, &history_spelling_[i]);
      text = history_spelling_[i];
    }
    scored_.push_back({w.entry, known ? engine_->WordOf(w.entry) : -1, text, 0, w.count, 0});
  }
}

// The contractions whose letters complete the typed ones, at no typing cost (a search hit that
// counted the missing apostrophe as a slip becomes a completion).
void EnSession::AddApostropheWords() {
  if (typed_.find('\'') != std::string::npos) return;
  std::array<const ApostropheIndex::Word*, kApostropheCandidates> best{};
  size_t n = 0;
  for (const ApostropheIndex::Word& w : engine_->apostrophes().WithPrefix(typed_)) {
    KeepHeaviest(
        &w, [](const ApostropheIndex::Word& a) { return a.count; }, &best, &n);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t entry = best[i]->entry;
    auto it = std::find_if(scored_.begin(), scored_.end(),
                           [&](const ScoredCandidate& c) { return c.entry == entry; });
    if (it != scored_.end()) {
      it->cost = 0;
    } else {
      scored_.push_back({entry, engine_->WordOf(entry), {}, 0, history_.CountOf(entry), 0});
    }
  }
}

// Autocorrections that are spelling, not slips: a contraction typed without its apostrophe,
// which takes precedence over the model's pick (that only knows edit distance: "theyre" ->
// "there"); and the pronoun I typed in lower case ("i", "i'm"), when nothing else is corrected.
// Other words the lexicon writes capitalised are left to the candidates ("london" offers
// "London"): as an autocorrection they changed 20 correctly typed lower-case words in the first
// 100 KB of dev text ("miss", "almanac", "nicky" -> "NICKY"), and overrode model corrections
// ("mst" -> "MST").
void EnSession::ApplySpellingRules(bool capitalize, AutocorrectDecision* out) const {
  const Lexicon& lex = engine_->lexicon();
  if (typed_.empty() || options_.autocorrect_threshold > 1.0f) return;  // off
  const uint32_t own = lex.Find(typed_);
  if (const ApostropheIndex::Word* w = engine_->apostrophes().Exact(typed_)) {
    const double own_count = own != lexicon::kNoEntry ? lex.Count(own) : 0;
    if (own_count < kContractionOwnShare * w->count && EndsInClitic(lex.Key(w->entry))) {
      WriteSurfaceForm(lex.CommonSpelling(w->entry), capitalize, &out->replacement);
      out->apply = true;
      return;
    }
  }
  const bool pronoun_i = composition()[0] == 'i' && (typed_ == "i" || typed_.starts_with("i'"));
  if (out->apply || !pronoun_i || own == lexicon::kNoEntry) return;
  const std::string_view common = lex.CommonSpelling(own);
  if (common.empty() || common[0] != 'I') return;
  WriteSurfaceForm(common, capitalize, &out->replacement);
  out->apply = true;
}

void EnSession::ApplyShortcut(int max_candidates, Decision* out) const {
  ShortcutDecision& sc = out->shortcut;
  sc.fire = false;
  sc.trigger.clear();
  sc.expansion.clear();
  const Shortcut* found =
      user_words_ && !typed_.empty() ? user_words_->FindShortcut(typed_) : nullptr;
  if (found == nullptr) return;
  // A trigger that is also a word (the lexicon's, or one the person types as such) is only
  // offered: expanding it on every space would make the word impossible to type.
  const UserWords::Word* own = user_words_->Find(typed_);
  sc.fire =
      engine_->lexicon().Find(typed_) == lexicon::kNoEntry && (own == nullptr || !own->offered());
  sc.trigger = found->trigger;
  sc.expansion = found->expansion;
  if (sc.fire) out->autocorrect.apply = false;
  if (max_candidates <= 0) return;
  out->popup.show = true;  // the person asked for this expansion: worth the bar
  std::vector<Candidate>& c = out->candidates;
  std::erase_if(c, [&](const Candidate& x) { return x.text == found->expansion; });
  Candidate first;
  first.text = found->expansion;
  first.score = c.empty() ? 0 : c.front().score;
  first.kind = CandidateKind::kShortcut;
  c.insert(c.begin(), std::move(first));
  if (c.size() > static_cast<size_t>(max_candidates)) c.resize(max_candidates);
}

// At a word start the lexicon offers only its most frequent words; the model's own best
// next words join them.
void EnSession::AddModelProposals(const float* hidden) {
  const Transformer& model = *engine_->model();
  const int words = std::min(model.n_words(), kProposalWords);
  model.WordLogits(hidden, words, logits_.data());
  TopLetterWords(model, logits_, kModelProposals, &proposals_);
  for (const auto& proposal : proposals_) {
    const auto w = proposal.second;  // not a structured binding: clang 14 cannot capture one
    const uint32_t entry = engine_->EntryOf(w);
    const bool present = std::any_of(scored_.begin(), scored_.end(), [&](const auto& c) {
      return c.word == w || (entry != lexicon::kNoEntry && c.entry == entry);
    });
    if (present) continue;
    scored_.push_back({entry, w, entry == lexicon::kNoEntry ? model.vocab().Word(w) : "", 0,
                       entry != lexicon::kNoEntry ? history_.CountOf(entry) : uint16_t{0}, 0});
  }
}

// The popup network's estimate with the full model, else the head mixed with the candidates'
// share (the network is fitted to the typing model's outputs, not the small model's).
float EnSession::EstimatePopup(float head, size_t offered, bool capitalize) {
  const Lexicon& lex = engine_->lexicon();
  const uint32_t own = typed_.empty() ? lexicon::kNoEntry : lex.Find(typed_);
  ComputePopupFeatures({head, scored_, offered, typed_.size(), &lex,
                        own != lexicon::kNoEntry ? lex.Count(own) : 0, capitalize},
                       &popup_features_);
  const PopupNet* net = engine_->popup_net();
  if (net != nullptr && !small_active_) return net->Probability(popup_features_);
  return MixPopupLogits(popup_features_[0], popup_features_[1]);
}

void EnSession::FillHeads(const float* hidden, bool capitalize, Decision* out) {
  const Transformer& model = small_active_ ? *engine_->small_model() : *engine_->model();
  Autocorrect& autocorrect = small_active_ ? *small_autocorrect_ : *autocorrect_;
  const auto& labels = model.config().intent_labels;
  out->popup.probability = EstimatePopup(model.Popup(hidden), out->candidates.size(), capitalize);
  out->popup.show = !out->candidates.empty() && out->popup.probability >= options_.popup_threshold;
  // At a corrected word the person deleted back to (or took the letters back at), it is not
  // corrected again.
  const bool keep = AtCorrectedWord() || KeptByPerson() || KeptInThisText();
  autocorrect.Decide(hidden, {composition(), typed_, capitalize, keep}, scored_,
                     tier_ == Tier::kFullModel, autocorrect_bars_, &out->autocorrect);
  if (!keep && !KeepAsTyped(composition(), typed_, engine_->lexicon())) {
    ApplySpellingRules(capitalize, &out->autocorrect);
  }
  if (curly_) CurlApostrophes(&out->autocorrect.replacement);
  out->intent.probabilities.resize(labels.size());
  model.Intent(hidden, out->intent.probabilities.data());
  if (const IntentNgrams* ngrams = engine_->intent_ngrams(); ngrams != nullptr && !small_active_) {
    ngrams->Blend(text_.text(), out->intent.probabilities);
  }
  const size_t best_label =
      std::max_element(out->intent.probabilities.begin(), out->intent.probabilities.end()) -
      out->intent.probabilities.begin();
  out->intent.label.assign(labels[best_label]);
}

// Post: the top k by score (ties: lexicon order, then spelling), cased for the cursor.
void EnSession::WriteCandidates(size_t k, bool capitalize, Decision* out) {
  const Lexicon& lex = engine_->lexicon();
  std::partial_sort(scored_.begin(), scored_.begin() + k, scored_.end(),
                    [](const ScoredCandidate& a, const ScoredCandidate& b) {
                      if (a.score != b.score) return a.score > b.score;
                      if (a.entry != b.entry) return a.entry < b.entry;
                      return a.text < b.text;
                    });
  while (k > 0 && scored_[k - 1].score == -std::numeric_limits<float>::infinity()) --k;
  slots_.Resize(k, &out->candidates);
  const bool word_start = composition().empty();
  const bool upper = IsAllUpper(composition());  // two capitals typed or more: "MO" -> MOUNT
  for (size_t i = 0; i < k; ++i) {
    const ScoredCandidate& s = scored_[i];
    Candidate& c = out->candidates[i];
    if (s.text.data() == correction_.typed.data()) {  // an undo's letters, as typed
      c.text.assign(s.text);
      c.score = (k > 1 ? scored_[1].score : 0) + 1;  // first, and finite as every score
      c.typing_cost = 0;
      c.kind = CandidateKind::kTyped;
      continue;
    }
    const std::string_view spelling =
        s.entry != lexicon::kNoEntry ? lex.CommonSpelling(s.entry) : s.text;
    if (upper) {
      WriteUpperForm(spelling, &c.text);
    } else {
      WriteSurfaceForm(spelling, capitalize, &c.text);
    }
    if (curly_) CurlApostrophes(&c.text);
    c.score = s.score;
    c.typing_cost = s.cost;
    c.kind = word_start    ? CandidateKind::kNextWord
             : s.cost == 0 ? CandidateKind::kCompletion
                           : CandidateKind::kCorrection;
  }
}

// Scoring, then the post stage: the top candidates and, with `hidden`, the heads. Adds the
// time of each to out->timings (heads_us, post_us), from *t on.
void EnSession::ScoreAndPost(const float* hidden, int max_candidates, bool capitalize,
                             Clock::time_point* t, Decision* out) {
  const Scorer& scorer = hidden == nullptr ? engine_->baseline()
                         : small_active_   ? engine_->small_scorer()
                                           : engine_->scorer();
  scorer.Score({typed_, history_.size(), hidden}, scored_);
  if (adapter_ && hidden != nullptr && !small_active_) AddAdapterDelta(hidden);
  if (engine_->bigram() != nullptr) AddBigramScore(hidden != nullptr);
  if (engine_->teacher() != nullptr) AddTeacherScore();
  if (user_words_) AddUserBonus();
  if (AtCorrectedWord() && !correction_.undone) AddTypedCandidate();
  out->timings.heads_us += MicrosSince(t);
  const size_t k = std::min<size_t>({static_cast<size_t>(max_candidates), scored_.size(),
                                     static_cast<size_t>(kMaxCandidatesLimit)});
  WriteCandidates(k, capitalize, out);
  const std::string_view word = composition();
  out->composition.assign(word);
  out->preedit.assign(word);
  out->has_model = hidden != nullptr;
  if (hidden != nullptr) {
    FillHeads(hidden, capitalize, out);
  } else {
    ClearModelOutputs(out);
  }
  out->tier = hidden == nullptr           ? Tier::kLexiconOnly
              : small_active_             ? Tier::kSmallModel
              : tier_ == Tier::kFullModel ? Tier::kFullModel
                                          : Tier::kNoVocabProposals;
  out->timings.post_us += MicrosSince(t);
}

Status EnSession::Decide(int max_candidates, Decision* out) {
  if (max_candidates < 0) return Status::InvalidArgument("max_candidates < 0");
  Clock::time_point t = Clock::now();
  const Clock::time_point t0 = t;
  StageTimings& timings = out->timings;

  // Features: the composition, lower-cased for the search, and where we are in a sentence.
  const std::string_view word = composition();
  typed_.clear();
  const bool searchable = word.size() <= CandidateSearch::kMaxTyped;
  if (searchable) AppendLowerUtf8(word, &typed_);
  curly_ = word.find(kRightQuoteUtf8) != std::string_view::npos;
  if (curly_) StraightenApostrophes(&typed_);
  const bool capitalize =
      StartsUpper(word) ||
      (options_.auto_capitalize && AtSentenceStart(text_.text(), text_.composition_start()));
  timings.features_us = MicrosSince(&t);

  // Candidates: lexicon (exact and fuzzy), then the session's own words.
  hits_.clear();
  scored_.clear();
  if (learner_ != nullptr) {
    CatchUpForget();
    // A new snapshot is fetched (a short lock) only when the learner published one: most
    // keystrokes cost one atomic load here, and none a SQLite call.
    if (const uint64_t version = learner_->version(); version != user_words_version_) {
      user_words_ = learner_->words();
      user_words_version_ = version;
    }
  }
  FindPreviousKey();
  if (engine_->bigram() != nullptr) FindPreviousWord();
  if (engine_->teacher() != nullptr) FindTeacherContext();
  if (const FineTuner* tuner = engine_->fine_tuner()) {
    if (const uint64_t version = tuner->version(); version != adapter_version_) {
      adapter_ = tuner->adapter();
      adapter_version_ = version;
      adapter_z_.reserve(LogitAdapter::kMaxRank);
    }
  }
  if (searchable) {  // a "word" longer than any word has no candidates
    search_.Search(typed_, &hits_);
    GatherCandidates();
    if (!typed_.empty()) AddApostropheWords();
    if (engine_->bigram() != nullptr && !typed_.empty()) AddBigramFollowers();
    if (engine_->teacher() != nullptr) AddTeacherFollowers();
    if (user_words_) AddUserCandidates();
  }
  timings.candidates_us = MicrosSince(&t);

  // Model: one step per new token; at a word start, its own proposals. The small-model rung
  // steps the small model instead (or, without one, the lexicon serves it); a track not used
  // is left behind and catches up on its next Sync. A hidden state that overflowed serves no
  // one: the lexicon tier does.
  const size_t gathered = scored_.size();
  const float* hidden = nullptr;
  small_active_ = tier_ == Tier::kSmallModel && small_track_ != nullptr;
  ModelTrack* track = tier_ < Tier::kSmallModel ? track_.get()
                      : small_active_           ? small_track_.get()
                                                : nullptr;
  if (track != nullptr && searchable) {
    hidden = track->Sync(text_);
    const Transformer& model = small_active_ ? *engine_->small_model() : *engine_->model();
    if (!AllFinite({hidden, static_cast<size_t>(model.config().d_model)})) hidden = nullptr;
    if (hidden != nullptr && word.empty() && tier_ == Tier::kFullModel) {
      AddModelProposals(hidden);
    }
  }
  timings.model_us = MicrosSince(&t);

  // Scoring, then the post stage.
  timings.heads_us = timings.post_us = 0;
  ScoreAndPost(hidden, max_candidates, capitalize, &t, out);
  if (hidden != nullptr && !ModelOutputsFinite(*out)) {
    // A logit or a head overflowed on this input: the decision without the model.
    scored_.resize(gathered);
    ScoreAndPost(nullptr, max_candidates, capitalize, &t, out);
  }
  ApplyShortcut(max_candidates, out);
  timings.total_us = std::chrono::duration<float, std::micro>(t - t0).count();
  return Status::OK();
}

}  // namespace keydecide
