// WordBigram and WordBigramBuilder: segmentation into lexicon words, pair counts, the
// interpolated probabilities, the sentence search preferring what the text says, and refusal of
// malformed files (bad magic, truncation, checksum, another lexicon, hostile rows); a teacher's
// expected counts added to the text's. English: a word is a lexicon entry, read as the session
// reads words, and pairs only words that nothing but spaces separates.

#include "lexicon/word_bigram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "lexicon/lexicon.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/lexicon_tool.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "lexicon/word_bigram_builder.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::unique_ptr<Lexicon> FixtureLexicon() {
  std::unique_ptr<Lexicon> lex;
  const Status opened = Lexicon::FromBytes(testing::PinyinLexiconBytes({{"shi", "是", 9000},
                                                                        {"shi", "事", 3000},
                                                                        {"qing", "情", 2000},
                                                                        {"qing", "请", 1000},
                                                                        {"shiqing", "事情", 10},
                                                                        {"hao", "好", 5000},
                                                                        {"de", "的", 20000}}),
                                           &lex);
  EXPECT_TRUE(opened.ok()) << opened.ToString();
  return lex;
}

// Text that says 事 is followed by 情 and 好 by 的.
constexpr std::string_view kText = "事情好的。事情好的，是的！事情";

std::string BuildBytes(const Lexicon& lex, uint32_t min_pair_count = 1) {
  WordBigramBuilder::Options options;
  options.min_pair_count = min_pair_count;
  options.unigram_weight = 0.5f;  // the checks below assume it
  WordBigramBuilder builder(lex, options);
  builder.AddText(kText);
  std::string bytes;
  WordBigramBuilder::Stats stats;
  const Status s = builder.Finish(&bytes, &stats);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return bytes;
}

TEST(WordBigramBuilderTest, SegmentsByUnigramAndCountsPairs) {
  const auto lex = FixtureLexicon();
  WordBigramBuilder builder(*lex, {});
  std::vector<uint32_t> ids;
  builder.Segment("事情好的", &ids);
  // The rare word 事情 (10) loses to 事 + 情: 3000 · 2000 / total² > 10 / total.
  ASSERT_EQ(ids.size(), 4u);
  EXPECT_EQ(ids[0], builder.WordId("事"));
  EXPECT_EQ(ids[1], builder.WordId("情"));
  EXPECT_EQ(ids[2], builder.WordId("好"));
  EXPECT_EQ(ids[3], builder.WordId("的"));
  EXPECT_NE(builder.WordId("事情"), 0u);
  builder.Segment("好龘的", &ids);  // a hanzi the lexicon lacks is marked 0
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[1], 0u);

  builder.AddText(kText);
  EXPECT_EQ(builder.stats().tokens, 12u);  // 事 情 好 的 | 事 情 好 的 | 是 的 | 事 情
  EXPECT_EQ(builder.stats().unknown_chars, 0u);
  builder.AddText("好龘的");
  EXPECT_EQ(builder.stats().unknown_chars, 1u);
}

TEST(WordBigramTest, ProbabilitiesFollowTheText) {
  const auto lex = FixtureLexicon();
  std::unique_ptr<WordBigram> model;
  ASSERT_TRUE(WordBigram::FromBytes(BuildBytes(*lex), *lex, &model).ok());
  WordBigramBuilder ids(*lex, {});
  const uint32_t hao = ids.WordId("好"), de = ids.WordId("的"), shi = ids.WordId("是");
  const float log_p_de = std::log(20000.0f / static_cast<float>(lex->total_count()));
  const float log_p_shi = std::log(9000.0f / static_cast<float>(lex->total_count()));
  // 的 after 好: seen twice of twice; far above its unigram.
  EXPECT_GT(model->LogProb(hao, de, model->Unigram(de, std::exp(log_p_de))),
            log_p_de + 0.4f);  // 0.77 against 0.5
  // 是 after 好: never seen; below its unigram (only the discounted mass is left).
  EXPECT_LT(model->LogProb(hao, shi, model->Unigram(shi, std::exp(log_p_shi))), log_p_shi);
  // A word never seen on the left: the unigram, half the text's (的 is 3 of its 12 words) and
  // half the lexicon's.
  const uint32_t qing_please = ids.WordId("请");
  EXPECT_FLOAT_EQ(model->LogProb(qing_please, de, model->Unigram(de, std::exp(log_p_de))),
                  std::log(0.5f * 3.0f / 12.0f + 0.5f * std::exp(log_p_de)));
  // The followers of 好 are 的, with its count.
  ASSERT_EQ(model->Followers(hao).size(), 1u);
  EXPECT_EQ(model->Followers(hao)[0], de);
  EXPECT_EQ(model->FollowerCounts(hao)[0], 2u);
  EXPECT_EQ(model->PairCount(hao, de), 2u);
  EXPECT_EQ(model->PairCount(hao, shi), 0u);
  // Each spelling maps to its word, and back to its entry.
  for (uint32_t e = 0; e < lex->entry_count(); ++e) {
    for (size_t v = 0; v < lex->Variants(e).size(); ++v) {
      EXPECT_EQ(model->WordOf(lex->VariantIndex(e, v)),
                ids.WordId(lex->VariantText(lex->Variants(e)[v])));
      EXPECT_EQ(lex->EntryOfVariant(lex->VariantIndex(e, v)), e);
    }
  }
  EXPECT_EQ(lex->EntryOfVariant(static_cast<uint32_t>(lex->variant_count())), lexicon::kNoEntry);
}

// A teacher lists only the pairs its model holds; the rest of a word's occurrences went to words
// of its back-off. That mass must stay with the back-off: a word the teacher never listed after
// 好 keeps most of its unigram probability there, instead of the D · n / c sliver that would be
// left if 好's listed pair were all it was ever followed by.
TEST(WordBigramBuilderTest, ATeachersUnlistedFollowersStayWithTheBackOff) {
  const auto lex = FixtureLexicon();
  WordBigramBuilder::Options options;
  WordBigramBuilder builder(*lex, options);
  // 好 occurs 1000 times in the teacher's text, 100 of them before 事.
  ASSERT_TRUE(builder.AddTeacherCounts("<unigram>\t好\t1000\n好\t事\t100\n", 1.0).ok());
  std::string bytes;
  WordBigramBuilder::Stats stats;
  ASSERT_TRUE(builder.Finish(&bytes, &stats).ok());
  std::unique_ptr<WordBigram> model;
  const Status opened = WordBigram::FromBytes(bytes, *lex, &model);
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  const uint32_t hao = builder.WordId("好"), shi = builder.WordId("事"), de = builder.WordId("的");
  EXPECT_EQ(model->FollowerTotal(hao), 1000u);
  const float unigram_de = model->Unigram(de, 0.01f);
  // P(的 | 好) = α(好) · P_1(的), α = 1 − (100 − D) / 1000.
  const float alpha = 1.0f - (100.0f - options.discount) / 1000.0f;
  EXPECT_NEAR(model->LogProb(hao, de, unigram_de), std::log(alpha * unigram_de), 1e-4f);
  // The listed pair keeps its discounted count, plus its share of the back-off.
  const float unigram_shi = model->Unigram(shi, 0.01f);
  EXPECT_NEAR(model->LogProb(hao, shi, unigram_shi),
              std::log((100.0f - options.discount) / 1000.0f + alpha * unigram_shi), 1e-4f);
}

TEST(WordBigramBuilderTest, TeacherCountsAddToTheText) {
  const auto lex = FixtureLexicon();
  WordBigramBuilder::Options options;
  options.unigram_weight = 0.5f;
  WordBigramBuilder builder(*lex, options);
  builder.AddText(kText);
  // The teacher says 好 is followed by 事 (never in the text); at weight 0.4 its count of 是 → 的
  // rounds to 0, and 快 is no word of the lexicon. Its unigram of 好 (1) is below the pairs 好
  // starts (2 + 1): the word's count is raised to cover them.
  const std::string teacher =
      "好\t事\t6\n<s>\t好\t4\n是\t的\t1\n快\t的\t9\n<unigram>\t好\t2\n好\t的\t2\n";
  ASSERT_TRUE(builder.AddTeacherCounts(teacher, 0.4).ok());
  EXPECT_EQ(builder.stats().teacher_lines, 4u);
  EXPECT_EQ(builder.stats().teacher_skipped, 2u);
  std::string bytes;
  WordBigramBuilder::Stats stats;
  ASSERT_TRUE(builder.Finish(&bytes, &stats).ok());
  std::unique_ptr<WordBigram> model;
  const Status opened = WordBigram::FromBytes(bytes, *lex, &model);
  ASSERT_TRUE(opened.ok()) << opened.ToString();  // counts consistent: every check passes
  const uint32_t hao = builder.WordId("好"), shi = builder.WordId("事"), de = builder.WordId("的");
  ASSERT_EQ(model->Followers(hao).size(), 2u);  // 的 (text 2 + teacher 1), 事 (teacher 2)
  EXPECT_EQ(model->Followers(hao)[0] == shi ? model->FollowerCounts(hao)[0]
                                            : model->FollowerCounts(hao)[1],
            2u);
  const float p_lex = 3000.0f / static_cast<float>(lex->total_count());
  const float with_teacher = model->LogProb(hao, shi, model->Unigram(shi, p_lex));
  std::unique_ptr<WordBigram> text_only;
  ASSERT_TRUE(WordBigram::FromBytes(BuildBytes(*lex), *lex, &text_only).ok());
  EXPECT_GT(with_teacher, text_only->LogProb(hao, shi, text_only->Unigram(shi, p_lex)) + 1.0f);

  // With split_teacher_words, a teacher's word the lexicon lacks (好的 and 是事) is read as the
  // words it splits into: the pair goes to its first word and from its last, its own count
  // makes the pair within it.
  {
    WordBigramBuilder::Options split_options = options;
    split_options.split_teacher_words = true;
    WordBigramBuilder split(*lex, split_options);
    ASSERT_TRUE(split.AddTeacherCounts("情\t好的\t5\n是事\t情\t4\n<unigram>\t好的\t3\n", 1.0).ok());
    EXPECT_EQ(split.stats().teacher_lines, 3u);
    std::string split_bytes;
    ASSERT_TRUE(split.Finish(&split_bytes, &stats).ok());
    std::unique_ptr<WordBigram> split_model;
    const Status split_opened = WordBigram::FromBytes(split_bytes, *lex, &split_model);
    ASSERT_TRUE(split_opened.ok()) << split_opened.ToString();
    const uint32_t qing = builder.WordId("情");
    ASSERT_EQ(split_model->Followers(qing).size(), 1u);  // 情 → 好 (of 好的)
    EXPECT_EQ(split_model->Followers(qing)[0], hao);
    EXPECT_EQ(split_model->FollowerCounts(qing)[0], 5u);
    ASSERT_EQ(split_model->Followers(shi).size(), 1u);  // 事 (last of 是事) → 情
    EXPECT_EQ(split_model->FollowerCounts(shi)[0], 4u);
    ASSERT_EQ(split_model->Followers(hao).size(), 1u);  // 好 → 的 within 好的, 3 times
    EXPECT_EQ(split_model->Followers(hao)[0], de);
    EXPECT_EQ(split_model->FollowerCounts(hao)[0], 3u);
    // Without it, the same lines are dropped.
    WordBigramBuilder whole(*lex, options);
    ASSERT_TRUE(whole.AddTeacherCounts("情\t好的\t5\n是事\t情\t4\n<unigram>\t好的\t3\n", 1.0).ok());
    EXPECT_EQ(whole.stats().teacher_lines, 0u);
    EXPECT_EQ(whole.stats().teacher_skipped, 3u);
  }

  // Malformed lines and weights are refused, naming the line.
  WordBigramBuilder other(*lex, options);
  const Status bad = other.AddTeacherCounts("好\t事\t6\n好\t事\n", 1.0);
  EXPECT_EQ(bad.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(bad.message().find("line 2"), std::string::npos) << bad.message();
  EXPECT_FALSE(other.AddTeacherCounts("好\t事\tx6\n", 1.0).ok());
  EXPECT_FALSE(other.AddTeacherCounts("好\t事\t6\n", 0.0).ok());
  EXPECT_FALSE(other.AddTeacherCounts("好\t事\t6\n", std::nan("")).ok());
  // What was added before the malformed line still makes a valid file.
  ASSERT_TRUE(other.Finish(&bytes, &stats).ok());
  EXPECT_TRUE(WordBigram::FromBytes(bytes, *lex, &model).ok());
}

TEST(WordBigramTest, SentenceSearchUsesTheContext) {
  const auto lex = FixtureLexicon();
  std::unique_ptr<WordBigram> model;
  ASSERT_TRUE(WordBigram::FromBytes(BuildBytes(*lex), *lex, &model).ok());
  // "shiqing": the unigram says 是情 (9000 · 2000); the text says 事 is followed by 情.
  PinyinSentenceSearch unigram(lex.get(), nullptr, {});
  ASSERT_TRUE(unigram.Search("shiqing").ok());
  ASSERT_FALSE(unigram.sentences().empty());
  EXPECT_EQ(unigram.sentences()[0].text, "是情");
  PinyinSentenceSearch bigram(lex.get(), model.get(), {});
  ASSERT_TRUE(bigram.Search("shiqing").ok());
  ASSERT_FALSE(bigram.sentences().empty());
  EXPECT_EQ(bigram.sentences()[0].text, "事情");
  // The sentence's words name their spellings.
  const PinyinSentence& best = bigram.sentences()[0];
  ASSERT_EQ(best.words.size(), 2u);
  EXPECT_EQ(lex->VariantText(lex->Variants(best.words[0].entry)[best.words[0].variant]), "事");
  EXPECT_EQ(best.words[1].text, "情");
}

TEST(WordBigramTest, MalformedFilesAreRefused) {
  const auto lex = FixtureLexicon();
  const std::string good = BuildBytes(*lex);
  std::unique_ptr<WordBigram> model;
  ASSERT_TRUE(WordBigram::FromBytes(good, *lex, &model).ok());

  // Refused with `code` and a message that names the problem.
  const auto refused = [&](std::string bytes, Status::Code code, const char* message) {
    std::unique_ptr<WordBigram> m;
    const Status s = WordBigram::FromBytes(std::move(bytes), *lex, &m);
    EXPECT_EQ(s.code(), code) << message << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(message), std::string::npos) << s.ToString();
    EXPECT_EQ(m, nullptr) << message;
  };
  refused("", Status::Code::kCorruption, "bad magic or too short");
  refused(good.substr(0, good.size() - 4), Status::Code::kCorruption, "file size");
  refused(good + "xxxx", Status::Code::kCorruption, "file size");
  std::string bad = good;
  bad[0] = 'X';
  refused(bad, Status::Code::kCorruption, "bad magic");
  bad = good;
  bad[bad.size() - 1] ^= 1;
  refused(bad, Status::Code::kCorruption, "checksum mismatch");

  // A hostile file with a valid checksum: ids out of range, rows out of order, counts that
  // cannot be.
  const auto sealed = [](std::string bytes, size_t offset, uint32_t value) {
    std::memcpy(bytes.data() + offset, &value, sizeof(value));
    lexicon::SealFile(&bytes);
    return bytes;
  };
  bigram::Header h;
  std::memcpy(&h.word_count, good.data() + 24, 4);
  std::memcpy(&h.variant_count, good.data() + 16, 4);
  std::memcpy(&h.pair_count, good.data() + 28, 4);
  // Sections: word_of_variant, left_total, left_distinct, word_total, row_begin, right, counts.
  const size_t row_begin = bigram::kHeaderSize + 4 * (size_t{h.variant_count} + 3 * h.word_count);
  const size_t right = row_begin + 4 * (size_t{h.word_count} + 1);
  const size_t counts = right + 4 * size_t{h.pair_count};
  refused(sealed(good, bigram::kHeaderSize, h.word_count), Status::Code::kCorruption,
          "bad word id of spelling 0");
  refused(sealed(good, bigram::kHeaderSize, 0), Status::Code::kCorruption,
          "bad word id of spelling 0");  // the sentence start
  refused(sealed(good, row_begin + 4 * h.word_count, h.pair_count + 1), Status::Code::kCorruption,
          "rows do not cover the pairs");
  refused(sealed(good, row_begin + 4, h.pair_count + 7), Status::Code::kCorruption,
          "bad row of word 0");
  refused(sealed(good, right, h.word_count + 5), Status::Code::kCorruption,
          "bad follower in the row of word 0");
  refused(sealed(good, counts, 1000000), Status::Code::kCorruption,
          "pair counts above the total of word 0");  // would give P(w | v) above 1
  refused(sealed(good, counts, 0), Status::Code::kCorruption, "zero pair count");
  refused(sealed(good, 32, 0), Status::Code::kCorruption, "bad discount");
  refused(sealed(good, 36, 0x40000000), Status::Code::kCorruption, "bad unigram weight");

  // Built for another lexicon.
  std::unique_ptr<Lexicon> other;
  ASSERT_TRUE(Lexicon::FromBytes(testing::PinyinLexiconBytes({{"shi", "是", 9000}}), &other).ok());
  std::unique_ptr<WordBigram> m;
  EXPECT_EQ(WordBigram::FromBytes(good, *other, &m).code(), Status::Code::kInvalidArgument);
}

std::unique_ptr<Lexicon> EnglishLexicon() {
  std::string bytes;
  EXPECT_TRUE(
      BuildLexiconFromText("the The new york you you you you don't said dogs", 1, &bytes).ok());
  std::unique_ptr<Lexicon> lex;
  EXPECT_TRUE(Lexicon::FromBytes(std::move(bytes), &lex).ok());
  return lex;
}

// The id of `key`'s entry in an English bigram (one word per entry).
uint32_t EnglishId(const Lexicon& lex, const WordBigram& bigram, std::string_view key) {
  const uint32_t entry = lex.Find(key);
  EXPECT_NE(entry, lexicon::kNoEntry) << key;
  return bigram.WordOf(lex.VariantIndex(entry, 0));
}

TEST(WordBigramBuilderTest, EnglishWordsAreEntriesPairedAcrossSpacesOnly) {
  const auto lex = EnglishLexicon();
  WordBigramBuilder builder(*lex, {});
  // "The" and "the" are one word; "don’t" (typographic) is "don't"; "dogs'" is "dogs"; "zebra"
  // is not in the lexicon, so "said" after it follows the sentence start; a comma, a digit or a
  // line end between two words leaves no pair.
  builder.AddText(
      "The new york. the new york\nyou don\u2019t said zebra said new, york dogs' you 9 you");
  EXPECT_EQ(builder.stats().tokens, 15u);
  EXPECT_EQ(builder.stats().unknown_words, 1u);
  std::string bytes;
  WordBigramBuilder::Stats stats;
  ASSERT_TRUE(builder.Finish(&bytes, &stats).ok());
  std::unique_ptr<WordBigram> bigram;
  ASSERT_TRUE(WordBigram::FromBytes(bytes, *lex, &bigram).ok());
  EXPECT_EQ(bigram->word_count(), lex->entry_count() + 1);
  // Every spelling is its entry's word, and the words are numbered in the keys' order.
  std::vector<std::string_view> key_of_word(bigram->word_count());
  for (uint32_t e = 0; e < lex->entry_count(); ++e) {
    const uint32_t w = bigram->WordOf(lex->VariantIndex(e, 0));
    for (size_t v = 1; v < lex->Variants(e).size(); ++v) {
      EXPECT_EQ(bigram->WordOf(lex->VariantIndex(e, v)), w);
    }
    ASSERT_TRUE(w > 0 && w < key_of_word.size());
    EXPECT_TRUE(key_of_word[w].empty()) << "two entries share word " << w;
    key_of_word[w] = lex->Key(e);
  }
  for (size_t w = 2; w < key_of_word.size(); ++w) EXPECT_LT(key_of_word[w - 1], key_of_word[w]);
  const auto id = [&](std::string_view key) { return EnglishId(*lex, *bigram, key); };
  const auto follower_count = [&](uint32_t left, uint32_t right) -> uint32_t {
    const auto followers = bigram->Followers(left);
    for (size_t i = 0; i < followers.size(); ++i) {
      if (followers[i] == right) return bigram->FollowerCounts(left)[i];
    }
    return 0;
  };
  EXPECT_EQ(follower_count(id("the"), id("new")), 2u);
  EXPECT_EQ(follower_count(id("new"), id("york")), 2u);  // not after "new,"
  EXPECT_EQ(follower_count(id("you"), id("don't")), 1u);
  EXPECT_EQ(follower_count(id("don't"), id("said")), 1u);
  EXPECT_EQ(follower_count(id("york"), id("dogs")), 1u);
  EXPECT_EQ(follower_count(id("dogs"), id("you")), 1u);
  EXPECT_EQ(follower_count(id("york"), id("the")), 0u);  // a full stop between
  EXPECT_EQ(follower_count(id("york"), id("you")), 0u);  // a line end between
  EXPECT_EQ(follower_count(id("you"), id("you")), 0u);   // a digit between
  const uint32_t start = WordBigram::kSentenceStart;
  EXPECT_EQ(follower_count(start, id("the")), 2u);   // the text's start, after "york."
  EXPECT_EQ(follower_count(start, id("said")), 1u);  // after the unknown "zebra"
  EXPECT_EQ(follower_count(start, id("york")), 1u);  // after "new,"
  // What the text says after "new" outweighs the word's own frequency.
  const float u_york = bigram->Unigram(id("york"), 0.1f), u_you = bigram->Unigram(id("you"), 0.4f);
  EXPECT_LT(u_york, u_you);
  EXPECT_GT(bigram->LogProb(id("new"), id("york"), u_york),
            bigram->LogProb(id("new"), id("you"), u_you));
}

TEST(WordBigramBuilderTest, TheBuildToolTakesAnEnglishLexicon) {
  const std::string lexicon_path = testing::TempPath("bigram_en.kdlex");
  const std::string text_path = testing::TempPath("bigram_en.txt");
  const std::string out_path = testing::TempPath("bigram_en.kdbg");
  std::string bytes;
  ASSERT_TRUE(BuildLexiconFromText("new york new york you", 1, &bytes).ok());
  testing::WriteFile(lexicon_path, bytes);
  testing::WriteFile(text_path, "new york, new york you");
  WordBigramBuildOptions options;
  options.lexicon_path = lexicon_path;
  options.inputs = {text_path};
  options.output_path = out_path;
  WordBigramBuildReport report;
  const Status s = BuildWordBigram(options, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(report.tokens, 5u);
  EXPECT_EQ(report.unknown_words, 0u);
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::Open(lexicon_path, &lex).ok());
  std::unique_ptr<WordBigram> bigram;
  EXPECT_TRUE(WordBigram::Open(out_path, *lex, &bigram).ok());
  for (const std::string& p : {lexicon_path, text_path, out_path}) std::remove(p.c_str());
}

}  // namespace
}  // namespace keydecide
