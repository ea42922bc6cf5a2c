// The Chinese (pinyin) language pack behind the same Engine/Session/Decision API: lexicon
// only, no model yet (issue 6).
//
// A PinyinSession keeps the committed text and, as its suffix, the composition: the pinyin
// letters typed since the last commit (a-z, and apostrophes after the first letter). Any other
// character commits the composition as typed and is appended to the text. Decide offers, for the
// composition, the best whole sentences of PinyinSentenceSearch (kind kSentence, two when they
// have more than one word), then the hanzi words of PinyinCandidateSearch that can start it; the
// preedit shows the composition's syllable breaks in the best sentence's reading. Accept(sentence)
// replaces the whole composition; Accept(word) replaces the letters that word consumed and keeps
// the rest of the composition for the next conversion.

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
// pinyin-keyed. A model path other than "" or "none" is NotSupported for now.
Status OpenPinyinEngine(const EngineOptions& options, std::unique_ptr<Engine>* out);

class PinyinSession : public Session {
 public:
  // REQUIRES: lexicon is pinyin-keyed and outlives the session.
  PinyinSession(const Lexicon* lexicon, const PinyinCandidateSearch::Options& search_options,
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

  std::string text_;
  size_t composition_start_ = 0;
  PinyinCandidateSearch search_;
  PinyinSentenceSearch sentence_search_;
  std::string searched_;       // the composition both searches last ran on
  bool search_valid_ = false;  // their results are those of searched_
  CandidateSlots slots_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_PINYIN_SESSION_H_
