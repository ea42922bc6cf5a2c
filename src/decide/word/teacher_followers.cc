#include "decide/word/teacher_followers.h"

#include <algorithm>
#include <array>

#include "decide/word/apostrophes.h"
#include "decide/word/bigram_followers.h"
#include "decide/word/keep_heaviest.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_pack_spec.h"
#include "decide/word/word_state.h"
#include "text/letter_case.h"

namespace keydecide {

TeacherFollowers::TeacherFollowers(const WordEnv& env) {
  env.context->scored.reserve(env.context->scored.capacity() + kFollowers);
}

void TeacherFollowers::Gather(WordContext* context) {
  if (context->pack->teacher() == nullptr) return;
  FindContext(context);
  if (context->searchable) AddFollowers(context);
}

void TeacherFollowers::FindContext(WordContext* context) {
  const WordPack& pack = *context->pack;
  const TypedText& typed_text = context->session->text;
  const std::string_view text = typed_text.text();
  std::string& key = context->key_scratch;
  uint32_t words[2] = {WordNgram::kNoWord, WordNgram::kNoWord};  // the last word, the one before
  size_t end = typed_text.composition_start();
  for (uint32_t& word : words) {
    size_t e = end;
    while (e > 0 && text[e - 1] == ' ') --e;
    const size_t start = pack.spec().rule->reopen(text.substr(0, e), 0);
    if (start == e) {
      word = WordNgram::kSentenceStart;
      break;
    }
    key.clear();
    AppendLowerUtf8(text.substr(start, e - start), &key);
    StraightenApostrophes(&key);
    while (!key.empty() && key.back() == '\'') key.pop_back();
    const uint32_t entry = pack.lexicon().Find(key);
    if (entry == lexicon::kNoEntry) break;
    word = pack.BigramWordOf(entry);
    end = start;
  }
  context->teacher_context = pack.teacher()->Find(words[1], words[0]);
}

void TeacherFollowers::AddFollowers(WordContext* context) {
  const WordPack& pack = *context->pack;
  const WordNgram& teacher = *pack.teacher();
  const WordNgram::Context& teacher_context = context->teacher_context;
  // (Not a structured binding: clang 14, the fuzz build's compiler, refuses to capture one.)
  const auto range = pack.BigramWordsWithPrefix(context->typed);
  const auto first = range.first, last = range.second;
  struct Follower {
    uint32_t word;
    float score;
  };
  std::array<Follower, 2 * kFollowers> found;
  std::array<const Follower*, kFollowers> best{};
  size_t n_found = 0, n = 0;
  const auto scan = [&](const WordNgram::Row& row, float offset) {
    const auto begin = std::lower_bound(row.words.begin(), row.words.end(), first);
    const auto end = std::lower_bound(begin, row.words.end(), last);
    std::array<const int16_t*, kFollowers> top{};
    size_t k = 0;
    for (auto it = begin; it != end; ++it) {
      KeepHeaviest(
          &row.scores[it - row.words.begin()], [](int16_t q) { return q; }, &top, &k);
    }
    for (size_t i = 0; i < k; ++i) {
      const size_t at = top[i] - row.scores.data();
      found[n_found++] = {row.words[at], offset + ngram::Dequantize(*top[i])};
    }
  };
  scan(teacher.Trigrams(teacher_context), 0.0f);
  if (context->typed.empty()) {  // the whole row: its likeliest, indexed at load
    const WordNgram::Row top = teacher.TopBigrams(teacher_context.last);
    for (size_t i = 0; i < top.words.size(); ++i) {
      found[n_found++] = {top.words[i],
                          teacher_context.pair_backoff + ngram::Dequantize(top.scores[i])};
    }
  } else {
    scan(teacher.Bigrams(teacher_context.last), teacher_context.pair_backoff);
  }
  for (size_t i = 0; i < n_found; ++i) {
    KeepHeaviest(
        &found[i], [](const Follower& f) { return f.score; }, &best, &n);
  }
  for (size_t i = 0; i < n; ++i) AddEntryOnce(context, pack.EntryOfBigramWord(best[i]->word));
}

}  // namespace keydecide
