#include "decide/word/write_candidates.h"

#include <algorithm>
#include <limits>

#include "decide/surface_form.h"
#include "decide/text_limits.h"
#include "decide/word/apostrophes.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"
#include "text/letter_case.h"

namespace keydecide {

void WriteCandidates::WriteTop(WordContext* context, size_t k) {
  std::vector<ScoredCandidate>& scored = context->scored;
  const Lexicon& lex = context->pack->lexicon();
  Decision* out = context->out;
  std::partial_sort(scored.begin(), scored.begin() + k, scored.end(),
                    [](const ScoredCandidate& a, const ScoredCandidate& b) {
                      if (a.score != b.score) return a.score > b.score;
                      if (a.entry != b.entry) return a.entry < b.entry;
                      return a.text < b.text;
                    });
  while (k > 0 && scored[k - 1].score == -std::numeric_limits<float>::infinity()) --k;
  slots_.Resize(k, &out->candidates);
  const std::string_view composition = context->session->text.composition();
  const bool word_start = composition.empty();
  const bool upper = IsAllUpper(composition);  // two capitals typed or more: "MO" -> MOUNT
  const std::string& undo = context->session->correction.typed;
  for (size_t i = 0; i < k; ++i) {
    const ScoredCandidate& s = scored[i];
    Candidate& c = out->candidates[i];
    if (s.text.data() == undo.data()) {  // an undo's letters, as typed (TypedCandidate)
      c.text.assign(s.text);
      c.score = (k > 1 ? scored[1].score : 0) + 1;  // first, and finite as every score
      c.typing_cost = 0;
      c.kind = CandidateKind::kTyped;
      continue;
    }
    const std::string_view spelling =
        s.entry != lexicon::kNoEntry ? lex.CommonSpelling(s.entry) : s.text;
    if (upper) {
      WriteUpperForm(spelling, &c.text);
    } else {
      WriteSurfaceForm(spelling, context->capitalize, &c.text);
    }
    if (context->curly) CurlApostrophes(&c.text);
    c.score = s.score;
    c.typing_cost = s.cost;
    c.kind = word_start    ? CandidateKind::kNextWord
             : s.cost == 0 ? CandidateKind::kCompletion
                           : CandidateKind::kCorrection;
  }
  context->written = k;
}

StageResult WriteCandidates::Write(WordContext* context) {
  Decision* out = context->out;
  const size_t k =
      std::min<size_t>({static_cast<size_t>(context->max_candidates), context->scored.size(),
                        static_cast<size_t>(kMaxCandidatesLimit)});
  WriteTop(context, k);
  const std::string_view word = context->session->text.composition();
  out->composition.assign(word);
  out->preedit.assign(word);
  const float* hidden = context->hidden;
  out->has_model = hidden != nullptr;
  if (hidden == nullptr) ClearModelOutputs(out);  // else the heads' stages write them
  const Tier tier = context->session->tier;
  out->tier = hidden == nullptr          ? Tier::kLexiconOnly
              : context->small_active    ? Tier::kSmallModel
              : tier == Tier::kFullModel ? Tier::kFullModel
                                         : Tier::kNoVocabProposals;
  return StageResult::kContinue;
}

}  // namespace keydecide
