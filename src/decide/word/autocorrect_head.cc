#include "decide/word/autocorrect_head.h"

#include "decide/personal_ranking.h"
#include "decide/word/apostrophes.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

namespace {

// A word the person keeps as they type it: one typed often or picked (the user store's
// offered words).
bool KeptByPerson(const WordContext& context) {
  const UserWords* words = context.personal ? context.personal->words().get() : nullptr;
  if (words == nullptr || context.typed.empty()) return false;
  const UserWords::Word* w = words->Find(context.typed);
  return w != nullptr && w->offered();
}

// A word the lexicon lacks that this text already has as typed: the person kept it there (an
// autocorrection they took back is remembered as typed, one they let stand as corrected), so
// it is the text's word, not a slip.
bool KeptInThisText(const WordContext& context) {
  return !context.typed.empty() &&
         context.pack->lexicon().Find(context.typed) == lexicon::kNoEntry &&
         context.session->history.CountOfUnknown(context.typed) > 0;
}

}  // namespace

bool KeptAsTyped(WordContext* context) {
  context->keep_as_typed =
      context->session->AtCorrectedWord() || KeptByPerson(*context) || KeptInThisText(*context);
  return context->keep_as_typed;
}

StageResult AutocorrectHead::Write(WordContext* context) {
  if (context->hidden == nullptr) return StageResult::kContinue;
  WordState& session = *context->session;
  Autocorrect& autocorrect =
      context->small_active ? *session.model.small_autocorrect : *session.model.autocorrect;
  const bool keep = KeptAsTyped(context);
  autocorrect.Decide(context->hidden,
                     {session.text.composition(), context->typed, context->capitalize, keep},
                     context->scored, session.tier == Tier::kFullModel, session.autocorrect_bars,
                     &context->out->autocorrect);
  if (context->curly) CurlApostrophes(&context->out->autocorrect.replacement);
  return StageResult::kContinue;
}

}  // namespace keydecide
