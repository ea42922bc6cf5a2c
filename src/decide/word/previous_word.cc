#include "decide/word/previous_word.h"

#include <algorithm>

#include "decide/word/apostrophes.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"
#include "text/letter_case.h"

namespace keydecide {

namespace {

bool OnlySpaces(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' '; });
}

// The previous key as the bigram's word.
uint32_t BigramWordOf(const WordPack& pack, std::string_view previous_key, std::string* key) {
  if (previous_key.empty()) return WordBigram::kSentenceStart;
  key->assign(previous_key);  // keyed as the lexicon and the bigram's text read it
  StraightenApostrophes(key);
  while (!key->empty() && key->back() == '\'') key->pop_back();
  const uint32_t entry = pack.lexicon().Find(*key);
  return entry != lexicon::kNoEntry ? pack.BigramWordOf(entry) : WordBigram::kSentenceStart;
}

}  // namespace

void PreviousWord::Read(WordContext* context) {
  const WordState& session = *context->session;
  context->previous_key.clear();
  context->previous_word = WordBigram::kSentenceStart;
  const size_t start = session.text.composition_start();
  const FinishedWord& last = session.last_word;
  if (last.end != std::string::npos && last.end <= start &&
      OnlySpaces(session.text.text().substr(last.end, start - last.end))) {
    AppendLowerUtf8(last.view(), &context->previous_key);
  }
  if (context->pack->bigram() != nullptr) {
    context->previous_word =
        BigramWordOf(*context->pack, context->previous_key, &context->key_scratch);
  }
}

}  // namespace keydecide
