// ZhSession: pinyin composition -> hanzi sentences and words, ranked by the bigram and the
// model, through the pack's stages (zh_pack.cc); what is committed, and what it teaches.

#include "decide/zh/zh_session.h"

#include <algorithm>
#include <cmath>

#include "decide/fine_tuner.h"
#include "decide/text_limits.h"
#include "decide/zh/pinyin_limits.h"
#include "lexicon/lexicon.h"
#include "lexicon/pinyin/pinyin_syllables.h"
#include "personal/learner.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

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

PersonalRanking::Options PersonalOptions(const ZhSessionPersonal& personal, AppType app) {
  PersonalRanking::Options o;
  o.learner = personal.learner;
  o.learn = personal.learn;
  o.tuner = personal.tuner;
  o.app = static_cast<int>(app);
  o.track_forgets = true;  // a forget drops the held words (OnForget: and the session's own)
  if (personal.learner != nullptr) {
    o.reserved_pending = kReservedPendingWords;
    o.max_pending = kMaxPendingWords;
  }
  return o;
}

}  // namespace

ZhSession::ZhSession(const Lexicon* lexicon, const WordBigram* bigram,
                     const PinyinCandidateSearch::Options& search_options,
                     const PinyinSentenceSearch::Options& sentence_options,
                     const ZhSessionModel& model, std::span<const StageEntry<PinyinEnv>> stages,
                     AppType app, const ZhSessionPersonal& personal)
    : state_(lexicon, bigram, search_options, sentence_options, model, static_cast<int>(app)),
      personal_options_(personal),
      personal_(PersonalOptions(personal, app), this) {
  if (personal.learner != nullptr) {
    state_.personal = &personal_;
    pieces_.reserve(PinyinLattice::kMaxTyped);
    previous_word_.reserve(Learner::kMaxWordBytes);
  }
  context_.session = &state_;
  context_.lexicon = lexicon;
  context_.personal = state_.personal;
  stages_ = StagePipeline(stages, PinyinEnv{&state_, &context_});
}

ZhSession::~ZhSession() { personal_.OfferPending(); }

void ZhSession::OnWordsChanged() {
  const UserWords* words = personal_.words().get();
  state_.next.clear();  // its person's words are the old snapshot's
  state_.user_bonus.Set(words, state_.lexicon, personal_options_.weights, state_.app);
  state_.sentence_search.set_bonus(words->size() > 0 ? &state_.user_bonus : nullptr);
  state_.search_valid = false;  // the sentences' scores depend on it
}

void ZhSession::OnForget() {
  ForgetPrevious();  // the word the next one would pair with
  pieces_.clear();   // a phrase being built from picks: it may hold the forgotten word
  state_.next.clear();
}

void ZhSession::OnAdapterChanged() {
  if (state_.lm == nullptr) return;
  state_.lm->SetAdapter(personal_.adapter(), personal_options_.fine_tune_weight);
  state_.search_valid = false;  // as for the words
}

void ZhSession::AppendChar(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms) {
  if (!state_.text.Append(ch, cp, t_ms).extended) {  // committed as typed
    state_.context_word = 0;
    ForgetPrevious();
    pieces_.clear();  // a phrase the person did not finish converting
  }
  state_.text.TrimToLimit();
}

Status ZhSession::Type(std::string_view text, std::optional<int64_t> t_ms) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));  // refused: the ids offered stay valid
  state_.offered_candidates.Forget();
  return ForEachChar(text, [&](std::string_view ch, char32_t cp) { AppendChar(ch, cp, t_ms); });
}

Status ZhSession::Backspace() {
  state_.offered_candidates.Forget();
  bool committed;
  if (state_.text.Backspace(&committed) && committed) {
    state_.context_word = 0;
    ForgetPrevious();
    personal_.pending().Clear();  // the person took the last commit (or what followed it) back
  }
  if (composition().empty()) pieces_.clear();
  return Status::OK();
}

Status ZhSession::SetContext(std::string_view text) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  state_.offered_candidates.Forget();
  // The last commit stays learnable while it is still just before the cursor.
  std::string_view committed = state_.text.text().substr(0, state_.text.composition_start());
  committed.remove_prefix(committed.size() - std::min<size_t>(committed.size(), kMaxSentenceBytes));
  if (!text.ends_with(committed)) personal_.pending().Clear();
  state_.text.Assign(text);
  state_.context_word = 0;
  ForgetPrevious();
  pieces_.clear();
  return Status::OK();
}

Status ZhSession::Decide(int max_candidates, Decision* out) {
  state_.offered_candidates.Begin();
  const Status status = stages_.Decide(max_candidates, out, &context_);
  if (status.ok()) state_.offered_candidates.Seal(&out->candidates);
  return status;
}

// --- Accepting a candidate -----------------------------------------------------------------

Status ZhSession::Accept(std::string_view word) {
  KD_RETURN_IF_ERROR(CheckAcceptedWord(word, kMaxSentenceBytes));
  state_.offered_candidates.Forget();
  Commit(word, FindOrigin(word));
  return Status::OK();
}

Status ZhSession::Pick(uint32_t id) {
  std::string_view text;
  PinyinOrigin origin;
  if (!state_.offered_candidates.Find(id, &text, &origin)) return StaleCandidateId(id);
  KD_RETURN_IF_ERROR(CheckAcceptedWord(text, kMaxSentenceBytes));  // as Accept(text) would
  state_.offered_candidates.Forget();                              // `text` stays readable
  Commit(text, Recorded(origin) ? origin : FindOrigin(text));
  return Status::OK();
}

bool ZhSession::Recorded(const PinyinOrigin& origin) const {
  // What the origin points at is the last Decide's, kept until the next one (a snapshot, the
  // sentences and the 联想 words change only in Decide); checked all the same.
  using Source = PinyinOrigin::Source;
  const UserWords* words = state_.user_words();
  switch (origin.source) {
    case Source::kUnknown:
      return false;
    case Source::kSentence:
      return origin.index < state_.ranked.size();
    case Source::kUser:
      return words != nullptr && origin.index < words->size();
    case Source::kNextWord:
      return origin.index < state_.next.size();
    default:
      return true;
  }
}

PinyinOrigin ZhSession::FindOrigin(std::string_view word) {
  using Source = PinyinOrigin::Source;
  if (state_.text.composition().empty()) {  // a 联想 word, the first of that text
    for (size_t i = 0; i < state_.next.size(); ++i) {
      if (state_.next[i].text == word) {
        return {.source = Source::kNextWord, .index = static_cast<uint32_t>(i)};
      }
    }
    return {.source = Source::kLetters};
  }
  // A sentence, the person's word, a searched word (in the order the writer gives them
  // precedence), or none: all the letters.
  state_.SearchComposition();
  state_.FindUserWords();  // with the snapshot the last Decide showed
  const std::span<const PinyinSentence> sentences = state_.OfferedSentences();
  for (size_t i = 0; i < sentences.size(); ++i) {
    if (state_.IsSentence(sentences[i], word)) {
      return {.source = Source::kSentence, .index = static_cast<uint32_t>(i)};
    }
  }
  const UserWords* words = state_.user_words();
  for (const auto* list : {&state_.user_first, &state_.user_prefix}) {
    for (const ZhState::UserCandidate& c : *list) {
      if (words->word(c.word).spelling == word) {
        return {.source = Source::kUser, .index = c.word, .consumed = c.consumed};
      }
    }
  }
  for (const PinyinCandidate& c : state_.search.candidates()) {
    if (c.text == word) {
      return {
          .source = Source::kWord, .consumed = c.consumed, .entry = c.entry, .variant = c.variant};
    }
  }
  return {.source = Source::kLetters};
}

void ZhSession::Commit(std::string_view word, const PinyinOrigin& origin) {
  const std::string_view composition = state_.text.composition();
  const bool learning = personal_.learn() && !composition.empty();
  if (learning) personal_.OfferPending();  // the commit before this one was kept
  // Chosen over the first candidate the person was shown for these letters.
  const bool picked =
      learning && composition == state_.first_offered_for && word != state_.first_offered;
  Accepted accepted{composition.size(), 0, word};
  if (composition.empty()) {  // a 联想 pick
    const ZhState::NextWord* next =
        origin.source == PinyinOrigin::Source::kNextWord ? &state_.next[origin.index] : nullptr;
    accepted.word_id = next != nullptr ? next->word : 0;
    if (personal_.learn()) LearnNextWordPick(word, next);
  } else {
    accepted = ResolveAccepted(word, origin, learning, picked);
  }
  // The rest of the composition, without the apostrophes that separated it from the word.
  size_t consumed = accepted.consumed;
  while (consumed < composition.size() && composition[consumed] == '\'') ++consumed;
  const bool whole = consumed == composition.size();
  state_.last_word.assign(accepted.last.size() <= Learner::kMaxWordBytes ? accepted.last : "");
  state_.text.ReplaceComposition(consumed, word);
  state_.context_word = accepted.word_id;
  if (learning && whole) LearnPhrase();
  state_.text.TrimToLimit();
}

ZhSession::Accepted ZhSession::ResolveAccepted(std::string_view word, const PinyinOrigin& origin,
                                               bool learning, bool picked) {
  using Source = PinyinOrigin::Source;
  const std::string_view composition = state_.text.composition();
  Accepted accepted{composition.size(), 0, word};
  const WordBigram* bigram = state_.bigram;
  const Lexicon& lexicon = *state_.lexicon;
  if (origin.source == Source::kSentence) {  // all the letters
    const PinyinSentence& sentence = state_.ranked[origin.index];
    const PinyinSentenceWord& last_word = sentence.words.back();
    accepted.last = last_word.text;
    accepted.word_id =
        bigram != nullptr && last_word.entry != lexicon::kNoEntry
            ? bigram->WordOf(lexicon.VariantIndex(last_word.entry, last_word.variant))
            : 0;
    if (learning) LearnSentence(sentence, picked);
    return accepted;
  }
  if (origin.source == Source::kUser) {
    const UserWords::Word& w = state_.user_words()->word(origin.index);
    accepted.consumed = std::min<size_t>(origin.consumed, accepted.consumed);
    const uint32_t tag = w.tag;  // its lexicon spelling, if any
    accepted.word_id = bigram != nullptr && tag != UserWords::kNoTag ? bigram->WordOf(tag) : 0;
    if (learning) LearnAccepted(word, w.reading, picked);
    return accepted;
  }
  const bool searched = origin.source == Source::kWord;
  if (searched) {  // the letters its best reading consumed
    accepted.consumed = std::min<size_t>(origin.consumed, accepted.consumed);
    accepted.word_id =
        bigram ? bigram->WordOf(lexicon.VariantIndex(origin.entry, origin.variant)) : 0;
  }
  if (learning) {
    // Its reading: the lexicon key's syllables, else (a learned word, a word the host made)
    // the letters it replaces, when they spell one syllable per hanzi.
    const std::string_view letters =
        searched ? lexicon.Key(origin.entry) : composition.substr(0, accepted.consumed);
    LearnAccepted(word, ReadingOf(letters, word, &reading_scratch_), picked);
  }
  return accepted;
}

void ZhSession::LearnPhrase() {
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
        reading.size() <= Learner::kMaxReadingBytes) {
      personal_.pending().Hold(phrase, "", reading, true);
    }
  }
  pieces_.clear();
}

// --- Learning --------------------------------------------------------------------------------

void ZhSession::QueueWord(std::string_view text, std::string_view reading, bool picked) {
  personal_.pending().Hold(text, previous_word_, reading, picked);
  previous_word_.assign(text.size() <= Learner::kMaxWordBytes ? text : "");
}

void ZhSession::LearnAccepted(std::string_view text, std::string_view reading, bool picked) {
  QueueWord(text, reading, picked);
  pieces_.push_back({std::string(text), std::string(reading)});
}

void ZhSession::LearnNextWordPick(std::string_view word, const ZhState::NextWord* next) {
  personal_.OfferPending();  // the commit before was kept
  std::string_view reading;
  const Lexicon& lexicon = *state_.lexicon;
  if (next != nullptr && next->variant != UserWords::kNoTag) {
    if (const uint32_t entry = lexicon.EntryOfVariant(next->variant); entry != lexicon::kNoEntry) {
      reading = ReadingOf(lexicon.Key(entry), word, &reading_scratch_);
    }
  } else if (const UserWords* words = state_.user_words()) {
    if (const UserWords::Word* w = words->Find(word)) reading = w->reading;
  }
  QueueWord(word, reading, false);
}

void ZhSession::LearnSentence(const PinyinSentence& sentence, bool picked) {
  const Lexicon& lexicon = *state_.lexicon;
  const PinyinWindow& window = state_.window;
  const UserWords* words = state_.user_words();
  // A long composition's fixed part first (IsSentence: the kept text is it and the sentence).
  // The same in every sentence offered, so never picked over another.
  if (window.live_begin() > 0) {
    for (const PinyinWindow::FixedWord& w : window.fixed_words()) {
      const std::string_view text =
          window.fixed_text().substr(w.text_begin, w.text_end - w.text_begin);
      if (w.entry != lexicon::kNoEntry) {
        ReadingOf(lexicon.Key(w.entry), text, &reading_scratch_);
      } else {  // a learned word, by its spelling (the snapshot may be newer than the window)
        const UserWords::Word* learned = words ? words->Find(text) : nullptr;
        reading_scratch_.assign(learned != nullptr ? learned->reading : "");
      }
      QueueWord(text, reading_scratch_, false);
    }
  }
  std::string reading;  // the whole sentence's, "" once a word has none
  bool readable = true;
  for (const PinyinSentenceWord& w : sentence.words) {
    if (w.entry == lexicon::kNoEntry) {  // a learned word (PinyinUserBonus::ExtraWords)
      reading_scratch_.assign(words->word(w.extra).reading);
    } else {
      ReadingOf(lexicon.Key(w.entry), w.text, &reading_scratch_);
    }
    QueueWord(w.text, reading_scratch_, picked);
    readable = readable && !reading_scratch_.empty();
    if (!reading.empty()) reading.push_back('\'');
    reading += reading_scratch_;
  }
  // A sentence chosen over the first one is the person's phrase for these letters.
  if (picked && readable && sentence.words.size() >= 2 &&
      sentence.text.size() <= Learner::kMaxWordBytes &&
      reading.size() <= Learner::kMaxReadingBytes) {
    personal_.pending().Hold(sentence.text, "", reading, true);
  }
  pieces_.clear();  // the sentence converts what was left; earlier picks stand alone
}

}  // namespace keydecide
