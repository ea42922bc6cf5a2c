// SpellingRules: English autocorrections that are spelling, not slips, written after the
// autocorrect head: a contraction typed without its apostrophe, which takes precedence over the
// model's pick (that only knows edit distance: "theyre" -> "there"); and the pronoun I typed in
// lower case ("i", "i'm"), when nothing else is corrected. Other words the lexicon writes
// capitalised are left to the candidates ("london" offers "London"): as an autocorrection they
// changed 20 correctly typed lower-case words in the first 100 KB of dev text ("miss",
// "almanac", "nicky" -> "NICKY"), and overrode model corrections ("mst" -> "MST").

#ifndef KEYDECIDE_DECIDE_EN_SPELLING_RULES_H_
#define KEYDECIDE_DECIDE_EN_SPELLING_RULES_H_

#include "decide/decision_writer.h"
#include "decide/word/word_context.h"
#include "keydecide/decision.h"

namespace keydecide {

class SpellingRules : public DecisionWriter<WordContext> {
 public:
  // Letters typed without a contraction's apostrophe are that contraction when the letters
  // alone, as a word of their own, are rarer than this share of it in the lexicon's text
  // ("dont" 1% of "don't", "im" 2% of "i'm"; "its" 209% of "it's", "ill" 47% of "i'll", "lets"
  // 14% of "let's": left alone; counts of the English training split).
  static constexpr double kContractionOwnShare = 0.05;

  const char* name() const override { return "spelling_rules"; }

 protected:
  StageResult Write(WordContext* context) override;

 private:
  // Writes a rule's replacement into *out; false when none applies.
  static bool Apply(const WordContext& context, AutocorrectDecision* out);
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_EN_SPELLING_RULES_H_
