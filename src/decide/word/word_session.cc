#include "decide/word/word_session.h"

#include <algorithm>
#include <cstring>

#include "decide/text_limits.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_pack_spec.h"
#include "personal/learner.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

bool OnlySpaces(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' '; });
}

PersonalRanking::Options PersonalOptions(const WordPack& pack, const SessionOptions& options) {
  PersonalRanking::Options o;
  o.learner = pack.learner();
  o.learn = o.learner != nullptr && pack.learning() && !options.no_learn;
  o.tuner = pack.fine_tuner();
  o.app = static_cast<int>(options.app);
  o.track_forgets = true;
  return o;  // one word held at a time: the last finished
}

}  // namespace

WordSession::WordSession(const WordPack* pack, const SessionOptions& options)
    : state_(pack, options), personal_(PersonalOptions(*pack, options), this) {
  context_.pack = pack;
  context_.session = &state_;
  context_.lexicon = &pack->lexicon();
  context_.personal = pack->learner() != nullptr ? &personal_ : nullptr;
  context_.typed.reserve(CandidateSearch::kMaxTyped * 2);
  context_.hits.reserve(pack->search_options().max_candidates);
  context_.scored.reserve(pack->search_options().max_candidates +
                          1);  // + the typed letters of an undo; each source reserves its own
  context_.previous_key.reserve(4 * sizeof(FinishedWord::text));
  context_.key_scratch.reserve(4 * sizeof(FinishedWord::text));
  stages_ = StagePipeline(pack->spec().stages, WordEnv{pack, &state_, &context_});
}

WordSession::~WordSession() { personal_.OfferPending(); }

void WordSession::TrimText() {
  const size_t cut = state_.text.TrimToLimit();
  if (cut == 0) return;
  state_.pushed_word_end = std::string::npos;
  ShiftPersonalOffsets(cut);
  if (state_.model.track) state_.model.track->OnTextTrimmed(cut);
  if (state_.model.small_track) state_.model.small_track->OnTextTrimmed(cut);
}

void WordSession::AppendChar(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms) {
  const size_t before = state_.text.text().size();
  const TypedText::Typed typed = state_.text.Append(ch, cp, t_ms);
  // Typing on at the end of a corrected word makes it another word: nothing to undo.
  if (typed.extended && before == state_.correction.end) state_.correction.Forget();
  if (typed.ended_end > typed.ended_start) {  // the character ended a word: remember it
    state_.history.Push(
        state_.text.text().substr(typed.ended_start, typed.ended_end - typed.ended_start));
    state_.pushed_word_end = typed.ended_end;
    OnWordEnded(typed.ended_start, typed.ended_end);
  }
  TrimText();
}

// --- The person's words ------------------------------------------------------------------

void WordSession::OnWordEnded(size_t start, size_t end) {
  personal_.CatchUpForget();
  const std::string_view text = state_.text.text();
  const std::string_view word = text.substr(start, end - start);
  FinishedWord& last = state_.last_word;
  const bool follows = last.end != std::string::npos && last.end <= start &&
                       OnlySpaces(text.substr(last.end, start - last.end));
  // A word that began in SetContext's text (the field's, not typed here) is never learned.
  const bool typed_here = start >= state_.context_end;
  if (personal_.learn()) {
    personal_.OfferPending();  // the word before was kept: this one came after it
    if (typed_here && word.size() <= last.text.size()) {
      const bool pair = follows && !state_.last_word_from_context;
      personal_.pending().Hold(word, pair ? last.view() : std::string_view(), {},
                               end == state_.accepted_end, end);
    }
  }
  if (word.size() <= last.text.size()) {
    std::memcpy(last.text.data(), word.data(), word.size());
    last.length = static_cast<uint8_t>(word.size());
    last.end = end;
    state_.last_word_from_context = !typed_here;
  } else {
    last.end = std::string::npos;
  }
}

void WordSession::RememberContextWord() {
  const std::string_view text = state_.text.text();
  const size_t composition = state_.text.composition_start();
  size_t end = composition;
  while (end > 0 && text[end - 1] == ' ') --end;
  if (end == composition) return;
  const size_t start = state_.pack->spec().rule->reopen(text.substr(0, end), 0);
  FinishedWord& last = state_.last_word;
  if (start == end || end - start > last.text.size()) return;
  std::memcpy(last.text.data(), text.data() + start, end - start);
  last.length = static_cast<uint8_t>(end - start);
  last.end = end;
  state_.last_word_from_context = true;  // ranks as the word before; never learned in a pair
}

void WordSession::OnForget() {
  state_.last_word.end = std::string::npos;
  state_.history.Clear();  // the session's own words: it may have typed the forgotten one
  state_.pushed_word_end = std::string::npos;
}

void WordSession::ShiftPersonalOffsets(size_t cut) {
  state_.context_end = state_.context_end > cut ? state_.context_end - cut : 0;
  personal_.pending().ShiftEnds(cut);
  for (size_t* end : {&state_.last_word.end, &state_.accepted_end}) {
    if (*end != std::string::npos) *end = *end >= cut ? *end - cut : std::string::npos;
  }
  Correction& correction = state_.correction;
  if (correction.end != std::string::npos && correction.start >= cut) {
    correction.start -= cut;
    correction.end -= cut;
  } else {
    correction.Forget();
  }
}

// --- Editing -------------------------------------------------------------------------------

Status WordSession::Type(std::string_view text, std::optional<int64_t> t_ms) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));  // refused: the ids offered stay valid
  offered_.Forget();
  return ForEachChar(text, [&](std::string_view ch, char32_t cp) { AppendChar(ch, cp, t_ms); });
}

Status WordSession::Backspace() {
  offered_.Forget();
  bool committed;
  if (!state_.text.Backspace(&committed)) return Status::OK();
  const size_t size = state_.text.text().size();
  personal_.pending().DropEndingAfter(size);  // deleted into it
  for (size_t* end : {&state_.last_word.end, &state_.accepted_end}) {
    if (*end != std::string::npos && size < *end) *end = std::string::npos;
  }
  state_.context_end = std::min(state_.context_end, size);
  if (state_.correction.end != std::string::npos && size < state_.correction.end) {
    state_.correction.Forget();
  }
  if (size == state_.pushed_word_end) {  // back into the word just remembered
    state_.history.PopLast();
    state_.pushed_word_end = std::string::npos;
  }
  return Status::OK();
}

Status WordSession::Accept(std::string_view word) {
  KD_RETURN_IF_ERROR(CheckAcceptedWord(word));
  offered_.Forget();  // `word` may be its text (Pick): that stays readable
  Correction& correction = state_.correction;
  // The typed letters taken back at a corrected word undo the correction; any other pick
  // leaves nothing to undo.
  const bool undo = state_.AtCorrectedWord() && !correction.undone && word == correction.typed;
  state_.text.ReplaceComposition(state_.text.composition().size(), word);
  state_.accepted_end = state_.text.text().size();
  if (undo) {
    correction.end = state_.accepted_end;
    correction.undone = true;
  } else {
    correction.Forget();
  }
  TrimText();
  return Status::OK();
}

Status WordSession::AcceptCorrection(std::string_view replacement) {
  KD_RETURN_IF_ERROR(CheckAcceptedWord(replacement));
  const std::string_view typed = composition();
  if (typed.empty()) return Status::InvalidArgument("no word is being composed to correct");
  offered_.Forget();
  const size_t start = state_.text.composition_start();
  Correction& correction = state_.correction;
  // Letters too long to accept back cannot be undone (the composition is kept whole).
  const bool undoable = typed.size() <= kMaxAcceptBytes;
  if (undoable) {
    correction.typed.assign(typed);
    correction.key.clear();
    AppendLowerUtf8(typed, &correction.key);
  }
  // Not an Accept: the replacement is the engine's, not the person's pick (never learned as
  // picked).
  state_.text.ReplaceComposition(typed.size(), replacement);
  correction.start = undoable ? start : std::string::npos;
  correction.end = undoable ? state_.text.text().size() : std::string::npos;
  correction.undone = false;
  TrimText();
  return Status::OK();
}

Status WordSession::SetContext(std::string_view text) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  offered_.Forget();
  // Words the new text still has where they were stay; the others were not kept.
  const std::string_view old = state_.text.text();
  const size_t same =
      std::mismatch(old.begin(), old.end(), text.begin(), text.end()).first - old.begin();
  personal_.pending().DropEndingAfter(std::min(same, text.size()));
  for (size_t* end : {&state_.last_word.end, &state_.accepted_end}) {
    if (*end != std::string::npos && (*end > same || *end > text.size())) *end = std::string::npos;
  }
  state_.text.Assign(text);
  state_.context_end = state_.text.text().size();  // the host's text: read, never learned
  if (state_.last_word.end == std::string::npos) RememberContextWord();
  state_.correction.Forget();
  state_.pushed_word_end = std::string::npos;
  if (state_.model.track) state_.model.track->Reset();
  if (state_.model.small_track) state_.model.small_track->Reset();
  return Status::OK();
}

Status WordSession::Decide(int max_candidates, Decision* out) {
  offered_.Begin();
  const Status status = stages_.Decide(max_candidates, out, &context_);
  if (status.ok()) offered_.Seal(&out->candidates);
  return status;
}

Status WordSession::Pick(uint32_t id) {
  std::string_view text;
  NoOrigin origin;
  if (!offered_.Find(id, &text, &origin)) return StaleCandidateId(id);
  return Accept(text);
}

}  // namespace keydecide
