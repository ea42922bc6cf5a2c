#include "decide/word/word_features.h"

#include "decide/surface_form.h"
#include "decide/word/apostrophes.h"
#include "decide/word/word_state.h"
#include "text/letter_case.h"

namespace keydecide {

void WordFeatures::Read(WordContext* context) {
  const WordState& session = *context->session;
  const std::string_view word = session.text.composition();
  std::string& typed = context->typed;
  typed.clear();
  context->searchable = word.size() <= CandidateSearch::kMaxTyped;  // longer: no candidates
  if (context->searchable) AppendLowerUtf8(word, &typed);
  context->curly = word.find(kRightQuoteUtf8) != std::string_view::npos;
  if (context->curly) StraightenApostrophes(&typed);
  context->capitalize =
      StartsUpper(word) || (session.options.auto_capitalize &&
                            AtSentenceStart(session.text.text(), session.text.composition_start()));
  context->hits.clear();
  context->scored.clear();
  context->hidden = nullptr;
  context->small_active = false;
  context->keep_as_typed = false;
}

}  // namespace keydecide
