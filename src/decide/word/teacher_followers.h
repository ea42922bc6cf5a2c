// TeacherFollowers: the general-language teacher's context (the two words before the
// composition) and its likeliest next words among those completing the typed letters: the
// listed trigrams of the context, then the bigrams of its last word (below their back-off), each
// one id range of its row, as words are numbered in key order.

#ifndef KEYDECIDE_DECIDE_WORD_TEACHER_FOLLOWERS_H_
#define KEYDECIDE_DECIDE_WORD_TEACHER_FOLLOWERS_H_

#include "decide/candidate_source.h"
#include "decide/word/word_context.h"

namespace keydecide {

class TeacherFollowers : public CandidateSource<WordContext> {
 public:
  // The words the teacher expects next that join a decision's candidates (also what the
  // engine indexes each word's likeliest followers for, WordNgram::IndexTopBigrams).
  static constexpr size_t kFollowers = 8;

  explicit TeacherFollowers(const WordEnv& env);
  const char* name() const override { return "teacher_followers"; }

 protected:
  void Gather(WordContext* context) override;

 private:
  // The teacher reads the two words before the composition, where only spaces separate them
  // from it and each other. Where anything else comes first (the text's start, punctuation: a
  // comma as a full stop, since the teacher, a model of speech, has no punctuation), the sentence
  // start; a word the lexicon lacks leaves the rest unknown.
  static void FindContext(WordContext* context);
  static void AddFollowers(WordContext* context);
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_TEACHER_FOLLOWERS_H_
