// WordNgram and WordNgramBuilder: an ARPA teacher converted over a lexicon's words (English by
// entry, Chinese by hanzi text), the back-off arithmetic of ARPA files, words and n-grams the
// lexicon lacks left out, the rows a session proposes from, the same ids as the word bigram's,
// the sentence search mixing the teacher in, and refusal of malformed ARPA text and files (bad
// magic, truncation, checksum, another lexicon, hostile rows and scores).

#include "lexicon/word_ngram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "lexicon/lexicon.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/lexicon_tool.h"
#include "lexicon/lexicon_word_ids.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "lexicon/word_bigram.h"
#include "lexicon/word_bigram_builder.h"
#include "lexicon/word_ngram_builder.h"
#include "test_util.h"

namespace keydecide {
namespace {

constexpr float kLn10 = 2.302585093f;
constexpr float kStep = 1.0f / ngram::kUnitsPerNat;  // the stored scores' resolution

std::unique_ptr<Lexicon> EnglishLexicon() {
  std::string bytes;
  EXPECT_TRUE(
      BuildLexiconFromText("the The you you any questions have have new year york", 1, &bytes)
          .ok());
  std::unique_ptr<Lexicon> lex;
  EXPECT_TRUE(Lexicon::FromBytes(std::move(bytes), &lex).ok());
  return lex;
}

// A teacher that knows "have any questions", "happy new year" and words the lexicon lacks.
constexpr std::string_view kArpa = R"(\data\
ngram 1=9
ngram 2=7
ngram 3=3

\1-grams:
-1.0	</s>
-99	<s>	-0.5
-2.0	<unk>
-1.2	the	-0.3
-1.5	have	-0.2
-2.0	any	-0.4
-2.5	questions	-0.1
-2.6	new	-0.2
-3.0	happy	-0.3

\2-grams:
-0.7	<s> the	-0.1
-0.5	have any	-0.2
-0.9	any questions	-0.05
-1.1	any new
-0.8	happy new	-0.3
-0.6	new questions
-1.0	happy </s>

\3-grams:
-0.1	have any questions
-0.3	have any new
-0.2	happy new year

\end\
)";

std::unique_ptr<WordNgram> Convert(const Lexicon& lex, std::string_view arpa,
                                   WordNgramBuilder::Stats* stats = nullptr) {
  WordNgramBuilder builder(lex);
  const Status read = builder.ReadArpa(arpa);
  EXPECT_TRUE(read.ok()) << read.ToString();
  std::string bytes;
  builder.Finish(&bytes);
  if (stats != nullptr) *stats = builder.stats();
  std::unique_ptr<WordNgram> model;
  const Status opened = WordNgram::FromBytes(std::move(bytes), lex, &model);
  EXPECT_TRUE(opened.ok()) << opened.ToString();
  return model;
}

uint32_t Id(const Lexicon& lex, std::string_view word) { return LexiconWordIds(lex).Find(word); }

TEST(WordNgramTest, BacksOffAsAnArpaFileSays) {
  const auto lex = EnglishLexicon();
  WordNgramBuilder::Stats stats;
  const auto model = Convert(*lex, kArpa, &stats);
  ASSERT_NE(model, nullptr);
  const uint32_t have = Id(*lex, "have"), any = Id(*lex, "any"), q = Id(*lex, "questions"),
                 neww = Id(*lex, "new"), the = Id(*lex, "the"), you = Id(*lex, "you"),
                 year = Id(*lex, "year");

  // Listed trigram.
  EXPECT_NEAR(model->LogProb(model->Find(have, any), q), -0.1f * kLn10, kStep);
  // A trigram's context listed, the trigram not: its back-off, then the bigram.
  EXPECT_NEAR(model->LogProb(model->Find(any, neww), q), (-0.0f - 0.6f) * kLn10, kStep);
  EXPECT_NEAR(model->LogProb(model->Find(have, any), neww), -0.3f * kLn10, kStep);
  // Neither listed: b(have any) + b(any) + P(the).
  EXPECT_NEAR(model->LogProb(model->Find(have, any), the), (-0.2f - 0.4f - 1.2f) * kLn10,
              3 * kStep);
  // Only the last word known (the sentence start, a word before it unknown).
  EXPECT_NEAR(model->LogProb(model->Find(WordNgram::kNoWord, WordNgram::kSentenceStart), the),
              -0.7f * kLn10, kStep);
  // A lexicon word the teacher lacks has <unk>'s unigram; "happy" and "year" (not in the
  // lexicon / not a teacher word) drop their n-grams.
  EXPECT_NEAR(model->Unigram(you), -2.0f * kLn10, kStep);
  EXPECT_NEAR(model->LogProb(model->Find(have, any), year), (-0.2f - 0.4f - 2.0f) * kLn10,
              3 * kStep);
  EXPECT_EQ(stats.listed[0], 9u);
  EXPECT_EQ(stats.listed[1], 7u);
  EXPECT_EQ(stats.listed[2], 3u);
  EXPECT_EQ(stats.kept[1], 5u);  // <s> the, have any, any questions, any new, new questions
  EXPECT_EQ(stats.kept[2], 2u);  // have any questions, have any new
  // Of the lexicon's words the teacher knows the, have, any, questions and new ("The" is "the").
  EXPECT_EQ(stats.known_words, 5u);
}

TEST(WordNgramTest, RowsListTheWordsExpectedNext) {
  const auto lex = EnglishLexicon();
  const auto model = Convert(*lex, kArpa);
  const uint32_t have = Id(*lex, "have"), any = Id(*lex, "any");
  const WordNgram::Context c = model->Find(have, any);
  const WordNgram::Row tri = model->Trigrams(c);
  ASSERT_EQ(tri.words.size(), 2u);
  EXPECT_LT(tri.words[0], tri.words[1]);  // id order, which is key order in English
  const WordNgram::Row bi = model->Bigrams(any);
  EXPECT_EQ(bi.words.size(), 2u);
  EXPECT_TRUE(model->Trigrams(model->Find(WordNgram::kNoWord, any)).words.empty());
}

TEST(WordNgramTest, NumbersWordsAsTheWordBigramDoes) {
  const auto lex = EnglishLexicon();
  const auto model = Convert(*lex, kArpa);
  WordBigramBuilder bigram_builder(*lex, {});
  bigram_builder.AddText("have any questions");
  std::string bytes;
  WordBigramBuilder::Stats stats;
  ASSERT_TRUE(bigram_builder.Finish(&bytes, &stats).ok());
  std::unique_ptr<WordBigram> bigram;
  ASSERT_TRUE(WordBigram::FromBytes(std::move(bytes), *lex, &bigram).ok());
  ASSERT_EQ(bigram->word_count(), model->word_count());
  for (uint32_t v = 0; v < lex->variant_count(); ++v) {
    EXPECT_EQ(model->WordOf(v), bigram->WordOf(v)) << v;
  }
}

TEST(WordNgramTest, ChineseWordsAreHanziTexts) {
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(testing::PinyinLexiconBytes({{"gushi", "股市", 100},
                                                              {"gushi", "故事", 900},
                                                              {"de", "的", 20000},
                                                              {"zhangdie", "涨跌", 50}}),
                                 &lex)
                  .ok());
  const auto model = Convert(*lex,
                             "\\data\\\n\\1-grams:\n-1\t的\t-0.2\n-3\t股市\t-0.1\n"
                             "-2.5\t故事\n-4\t涨跌\n-3\t龘龘\n\\2-grams:\n-0.5\t股市 涨跌\n"
                             "-0.2\t的 故事\n\\end\\\n");
  ASSERT_NE(model, nullptr);
  const uint32_t gushi = Id(*lex, "股市"), zhangdie = Id(*lex, "涨跌"), story = Id(*lex, "故事");
  const WordNgram::Context after = model->Find(WordNgram::kNoWord, gushi);
  EXPECT_NEAR(model->LogProb(after, zhangdie), -0.5f * kLn10, kStep);
  // 故事 is likelier alone, but not after 股市's context of 涨跌: the teacher's point.
  EXPECT_GT(model->Unigram(story), model->Unigram(gushi));
  EXPECT_GT(model->LogProb(model->Find(WordNgram::kNoWord, Id(*lex, "的")), story),
            model->LogProb(model->Find(WordNgram::kNoWord, Id(*lex, "的")), gushi));
}

// The sentence search mixes the teacher with the bigram (issue 48): the bigram, from technical
// text, says 故事 ("story") for "gushi"; the teacher, general language, says 股市 ("stock market")
// after 中国 and before 涨跌. Mixed in, the teacher's reading wins where its context is; at weight
// 0 (or without it) the search is the bigram's.
TEST(WordNgramTest, TheSentenceSearchMixesTheTeacherIn) {
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(testing::PinyinLexiconBytes({{"zhongguo", "中国", 500},
                                                              {"gushi", "故事", 900},
                                                              {"gushi", "股市", 100},
                                                              {"zhangdie", "涨跌", 50}}),
                                 &lex)
                  .ok());
  WordBigramBuilder bigram_builder(*lex, {});
  bigram_builder.AddText("故事。中国故事。故事涨跌。");
  std::string bytes;
  WordBigramBuilder::Stats stats;
  ASSERT_TRUE(bigram_builder.Finish(&bytes, &stats).ok());
  std::unique_ptr<WordBigram> bigram;
  ASSERT_TRUE(WordBigram::FromBytes(std::move(bytes), *lex, &bigram).ok());
  const auto teacher =
      Convert(*lex,
              "\\data\\\n\\1-grams:\n-1\t中国\t-0.2\n-2\t故事\t-0.2\n-2.2\t股市\t-0.1\n"
              "-3\t涨跌\t-0.1\n\\2-grams:\n-0.3\t中国 股市\t-0.1\n-0.2\t股市 涨跌\n"
              "\\3-grams:\n-0.05\t中国 股市 涨跌\n\\end\\\n");
  const auto best = [&](float weight) {
    PinyinSentenceSearch::Options options;
    options.teacher = teacher.get();
    options.teacher_weight = weight;
    PinyinSentenceSearch search(lex.get(), bigram.get(), options);
    EXPECT_TRUE(search.Search("zhongguogushizhangdie").ok());
    return search.sentences().empty() ? std::string() : std::string(search.sentences()[0].text);
  };
  EXPECT_EQ(best(0), "中国故事涨跌");
  EXPECT_EQ(best(0.8f), "中国股市涨跌");
  // Alone, "gushi" stays the likelier word: the teacher's context decided, not its unigram.
  PinyinSentenceSearch::Options options;
  options.teacher = teacher.get();
  options.teacher_weight = 0.8f;
  PinyinSentenceSearch search(lex.get(), bigram.get(), options);
  ASSERT_TRUE(search.Search("gushi").ok());
  ASSERT_FALSE(search.sentences().empty());
  EXPECT_EQ(search.sentences()[0].text, "故事");
}

TEST(WordNgramTest, MalformedArpaIsRefusedWithItsLine) {
  const auto lex = EnglishLexicon();
  for (const std::string_view bad :
       {"\\data\\\n\\1-grams:\nx\tthe\n", "\\data\\\n\\1-grams:\n0.5\tthe\n",
        "\\data\\\n\\2-grams:\n-1\tthe\n", "\\data\\\n\\4-grams:\n-1\ta b c d\n",
        "\\data\\\n\\1-grams:\n-1\tthe\tnan\n", "\\data\\\n\\bogus\\\n",
        "\\data\\\n\\1-grams:\n-1\tthe\t-0.1\textra\n"}) {
    WordNgramBuilder builder(*lex);
    const Status s = builder.ReadArpa(bad);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("ARPA line"), std::string::npos) << s.ToString();
  }
}

TEST(WordNgramTest, MalformedFilesAreRefused) {
  const auto lex = EnglishLexicon();
  WordNgramBuilder builder(*lex);
  ASSERT_TRUE(builder.ReadArpa(kArpa).ok());
  std::string good;
  builder.Finish(&good);
  std::unique_ptr<WordNgram> model;
  ASSERT_TRUE(WordNgram::FromBytes(good, *lex, &model).ok());

  EXPECT_EQ(WordNgram::FromBytes("KDNGRAM2" + good.substr(8), *lex, &model).code(),
            Status::Code::kCorruption);
  EXPECT_EQ(WordNgram::FromBytes(good.substr(0, good.size() - 4), *lex, &model).code(),
            Status::Code::kCorruption);
  std::string flipped = good;
  flipped[flipped.size() - 1] ^= 1;
  EXPECT_EQ(WordNgram::FromBytes(flipped, *lex, &model).code(), Status::Code::kCorruption);

  // Hostile contents with a valid checksum: a row past the end, an id out of range, a positive
  // log probability.
  const ngram::Header h = model->header();
  const size_t bigram_begin =
      ngram::kHeaderSize + 4 * h.variant_count + 2 * ((2 * h.word_count + 3) / 4 * 4);
  auto sealed = [&](size_t offset, uint32_t value, size_t size) {
    std::string bytes = good;
    std::memcpy(bytes.data() + offset, &value, size);
    lexicon::SealFile(&bytes);
    return bytes;
  };
  EXPECT_EQ(WordNgram::FromBytes(sealed(bigram_begin + 4, 1000, 4), *lex, &model).code(),
            Status::Code::kCorruption);
  EXPECT_EQ(WordNgram::FromBytes(sealed(ngram::kHeaderSize, 1u << 30, 4), *lex, &model).code(),
            Status::Code::kCorruption);
  EXPECT_EQ(
      WordNgram::FromBytes(sealed(ngram::kHeaderSize + 4 * h.variant_count, 5, 2), *lex, &model)
          .code(),
      Status::Code::kCorruption);

  // Built for another lexicon.
  std::string other_bytes;
  ASSERT_TRUE(BuildLexiconFromText("something else entirely", 1, &other_bytes).ok());
  std::unique_ptr<Lexicon> other;
  ASSERT_TRUE(Lexicon::FromBytes(std::move(other_bytes), &other).ok());
  EXPECT_EQ(WordNgram::FromBytes(good, *other, &model).code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace keydecide
