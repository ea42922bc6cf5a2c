// SessionWords: the session's own recent words that complete the typed letters exactly and that
// the lexicon's search did not return (unknown words, or known ones below its cut): the
// kCandidates used most beyond their share of text in general, as the scorer's cache bonus
// ranks them.

#ifndef KEYDECIDE_DECIDE_WORD_SESSION_WORDS_H_
#define KEYDECIDE_DECIDE_WORD_SESSION_WORDS_H_

#include <array>
#include <string>

#include "decide/candidate_source.h"
#include "decide/session_history.h"
#include "decide/word/word_context.h"

namespace keydecide {

class SessionWords : public CandidateSource<WordContext> {
 public:
  static constexpr size_t kCandidates = 16;

  explicit SessionWords(const WordEnv& env);
  const char* name() const override { return "session_words"; }

 protected:
  void Gather(WordContext* context) override;

 private:
  std::array<const SessionHistory::Word*, kCandidates> best_{};
  // The spellings of the unknown ones among them (reserved: written without allocating).
  std::array<std::string, kCandidates> spelling_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_SESSION_WORDS_H_
