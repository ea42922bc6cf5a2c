// TeacherScore: score += weight * log(P_teacher(word | context) / P_teacher(word)), as the
// bigram's (BigramScore): what general language says the context adds to a word beyond its
// frequency. A word of this text the lexicon lacks (a name) is one the teacher cannot judge: it
// gets the best gain any candidate got, so that the teacher never buries the text's own words
// under general ones ("the qu" after two quokkas: quokka, not Queen). Without that, the
// held-out tuning texts replayed the same (docs/MODEL.md, "English teacher").

#ifndef KEYDECIDE_DECIDE_WORD_TEACHER_SCORE_H_
#define KEYDECIDE_DECIDE_WORD_TEACHER_SCORE_H_

#include "decide/score_adjuster.h"
#include "decide/word/word_context.h"

namespace keydecide {

class TeacherScore : public ScoreAdjuster<WordContext> {
 public:
  const char* name() const override { return "teacher_score"; }

 protected:
  void Adjust(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_TEACHER_SCORE_H_
