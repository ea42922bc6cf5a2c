#include "decide/en/spelling_rules.h"

#include "decide/autocorrect.h"
#include "decide/surface_form.h"
#include "decide/word/apostrophes.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

namespace {

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

}  // namespace

StageResult SpellingRules::Write(WordContext* context) {
  if (context->hidden == nullptr || context->keep_as_typed) return StageResult::kContinue;
  const std::string_view composition = context->session->text.composition();
  if (KeepAsTyped(composition, context->typed, context->pack->lexicon())) {
    return StageResult::kContinue;
  }
  AutocorrectDecision& out = context->out->autocorrect;
  if (Apply(*context, &out) && context->curly) CurlApostrophes(&out.replacement);
  return StageResult::kContinue;
}

bool SpellingRules::Apply(const WordContext& context, AutocorrectDecision* out) {
  const Lexicon& lex = context.pack->lexicon();
  const std::string& typed = context.typed;
  if (typed.empty() || context.session->options.autocorrect_threshold > 1.0f) return false;  // off
  const uint32_t own = lex.Find(typed);
  if (const ApostropheIndex::Word* w = context.pack->apostrophes().Exact(typed)) {
    const double own_count = own != lexicon::kNoEntry ? lex.Count(own) : 0;
    if (own_count < kContractionOwnShare * w->count && EndsInClitic(lex.Key(w->entry))) {
      WriteSurfaceForm(lex.CommonSpelling(w->entry), context.capitalize, &out->replacement);
      out->apply = true;
      return true;
    }
  }
  const std::string_view composition = context.session->text.composition();
  const bool pronoun_i = composition[0] == 'i' && (typed == "i" || typed.starts_with("i'"));
  if (out->apply || !pronoun_i || own == lexicon::kNoEntry) return false;
  const std::string_view common = lex.CommonSpelling(own);
  if (common.empty() || common[0] != 'I') return false;
  WriteSurfaceForm(common, context.capitalize, &out->replacement);
  out->apply = true;
  return true;
}

}  // namespace keydecide
