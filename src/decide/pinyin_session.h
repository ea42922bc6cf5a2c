// The Chinese (pinyin) language pack behind the same Engine/Session/Decision API: lexicon and
// word bigram (<model_dir>/zh/lexicon.kdbg, when present), no Transformer yet (issue 6).
//
// A PinyinSession keeps the committed text and, as its suffix, the composition: the pinyin
// letters typed since the last commit (a-z, and apostrophes after the first letter). Any other
// character commits the composition as typed and is appended to the text. Decide offers, for the
// composition, the best whole sentences of PinyinSentenceSearch (kind kSentence, two when they
// have more than one word), then the hanzi words of PinyinCandidateSearch that can start it; the
// preedit shows the composition's syllable breaks in the best sentence's reading. Accept(sentence)
// replaces the whole composition; Accept(word) replaces the letters that word consumed and keeps
// the rest of the composition for the next conversion.
//
// With a bigram, the session remembers the word just committed (by Accept; anything else typed,
// SetContext or deleting into the text forgets it): the sentence search scores the first word of
// the next composition after it, and with no composition Decide offers the words that followed it
// most often in the training text (联想, kind kNextWord).

#ifndef KEYDECIDE_DECIDE_PINYIN_SESSION_H_
#define KEYDECIDE_DECIDE_PINYIN_SESSION_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "decide/session_common.h"
#include "keydecide/engine.h"
#include "lexicon/pinyin_candidates.h"
#include "lexicon/pinyin_sentence.h"

namespace keydecide {

class Lexicon;

// Opens the "zh" engine: <model_dir>/zh/lexicon.kdlex (or options.lexicon_path), which must be
// pinyin-keyed, and the word bigram beside it (the same name ending in .kdbg) when present (a
// malformed one, or one built for another lexicon, fails the open). A model path other than "" or
// "none" is NotSupported for now.
Status OpenPinyinEngine(const EngineOptions& options, std::unique_ptr<Engine>* out);

class PinyinSession : public Session {
 public:
  // REQUIRES: lexicon (and bigram, may be null) outlive the session; lexicon is pinyin-keyed.
  PinyinSession(const Lexicon* lexicon, const WordBigram* bigram,
                const PinyinCandidateSearch::Options& search_options,
                const PinyinSentenceSearch::Options& sentence_options);

  Status Type(std::string_view text) override;
  Status Backspace() override;
  Status Accept(std::string_view word) override;
  Status SetContext(std::string_view text) override;
  Status Decide(int max_candidates, Decision* out) override;
  std::string_view text() const override { return text_; }
  std::string_view composition() const override {
    return std::string_view(text_).substr(composition_start_);
  }

 private:
  void AppendChar(std::string_view ch, char32_t cp);
  void TrimText();
  // Runs the searches for the current composition unless the last ones were for it.
  void SearchComposition();
  // The sentences to offer before the words: the best two, unless the best is one word (then
  // it is the first word candidate), and only those of several words.
  std::span<const PinyinSentence> OfferedSentences() const;
  // The bigram word id of `word` among the last 联想 candidates (0 when not one of them).
  uint32_t AcceptedWordId(std::string_view word) const;
  // 联想: the words that most often followed context_word_, most frequent first, into next_.
  void FindNextWords(size_t k);

  std::string text_;
  size_t composition_start_ = 0;
  PinyinCandidateSearch search_;
  PinyinSentenceSearch sentence_search_;
  const Lexicon* lexicon_;
  const WordBigram* bigram_;
  uint32_t context_word_ = 0;  // bigram id of the word just committed; 0: none known
  std::string searched_;       // the composition both searches last ran on
  uint32_t searched_context_ = 0;
  bool search_valid_ = false;  // their results are those of searched_ and searched_context_
  struct NextWord {
    uint32_t word;
    uint32_t count;
  };
  std::vector<NextWord> next_;  // 联想 candidates of the last Decide without a composition
  CandidateSlots slots_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_PINYIN_SESSION_H_
