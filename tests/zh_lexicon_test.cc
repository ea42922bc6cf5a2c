// The pinyin-keyed Chinese lexicon: jieba counts + libime readings -> a *.kdlex file that the
// ordinary Lexicon class loads (fixtures: zh_counts.txt, zh_readings.txt).

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "lexicon/lexicon_tool.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/pinyin/zh_lexicon_source.h"
#include "test_util.h"

namespace keydecide {
namespace {

using testing::ReadFixture;

std::unique_ptr<Lexicon> FixtureZhLexicon(LexiconBuildReport* report) {
  std::string bytes;
  const Status s = BuildZhLexiconFromText(ReadFixture("zh_counts.txt"),
                                          ReadFixture("zh_readings.txt"), 1, &bytes, report);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<Lexicon> lex;
  const Status opened = Lexicon::FromBytes(bytes, &lex);
  EXPECT_TRUE(opened.ok()) << opened.ToString();
  return lex;
}

TEST(ZhLexiconTest, ReadingToKey) {
  std::string key;
  EXPECT_TRUE(PinyinReadingToKey("zhong'guo", &key));
  EXPECT_EQ(key, "zhongguo");
  EXPECT_TRUE(PinyinReadingToKey("l\xC3\xBC'xing", &key));  // lü'xing
  EXPECT_EQ(key, "lvxing");
  EXPECT_TRUE(PinyinReadingToKey("lue'duo", &key));  // alias of lve
  EXPECT_EQ(key, "lveduo");
  EXPECT_TRUE(PinyinReadingToKey("Zhong", &key));
  EXPECT_EQ(key, "zhong");
  EXPECT_FALSE(PinyinReadingToKey("ng", &key));
  EXPECT_FALSE(PinyinReadingToKey("zhong''guo", &key));
  EXPECT_FALSE(PinyinReadingToKey("", &key));
  EXPECT_FALSE(PinyinReadingToKey("zhong1", &key));
}

TEST(ZhLexiconTest, BuildsPinyinKeyedWords) {
  LexiconBuildReport report;
  std::unique_ptr<Lexicon> lex = FixtureZhLexicon(&report);
  ASSERT_NE(lex, nullptr);
  EXPECT_EQ(lex->header().language, "zh");
  const uint32_t zhongguo = lex->Find("zhongguo");
  ASSERT_NE(zhongguo, lexicon::kNoEntry);
  EXPECT_EQ(lex->CommonSpelling(zhongguo), "中国");
  EXPECT_EQ(lex->Count(zhongguo), 5000u);
  ASSERT_EQ(lex->Variants(zhongguo).size(), 1u);
  // ü typed as v, and the lue/nue alias.
  ASSERT_NE(lex->Find("lvxing"), lexicon::kNoEntry);
  const uint32_t lvxing = lex->Find("lvxing");  // 履行 and 旅行
  ASSERT_NE(lvxing, lexicon::kNoEntry);
  bool travel = false;
  for (const lexicon::Variant& v : lex->Variants(lvxing)) travel |= lex->VariantText(v) == "旅行";
  EXPECT_TRUE(travel);
  EXPECT_EQ(lex->CommonSpelling(lex->Find("lvse")), "绿色");
  EXPECT_EQ(lex->CommonSpelling(lex->Find("lveduo")), "略夺");
  EXPECT_EQ(lex->Find("zhong"), lexicon::kNoEntry);  // only whole words are entries

  EXPECT_EQ(report.zh_words, 10u);
  EXPECT_EQ(report.zh_words_added, 9u);
  EXPECT_EQ(report.zh_skipped_no_reading, 1u);     // C语言
  EXPECT_EQ(report.zh_readings_bad_syllable, 1u);  // 嗯 ng
  EXPECT_EQ(report.zh_malformed_lines, 0u);
}

TEST(ZhLexiconTest, HomophonesShareOneKey) {
  std::unique_ptr<Lexicon> lex = FixtureZhLexicon(nullptr);
  ASSERT_NE(lex, nullptr);
  const uint32_t shiyan = lex->Find("shiyan");
  ASSERT_NE(shiyan, lexicon::kNoEntry);
  EXPECT_EQ(lex->Count(shiyan), 1200u);  // the sum of the homophones
  const auto variants = lex->Variants(shiyan);
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(lex->VariantText(variants[0]), "实验");  // most frequent first
  EXPECT_EQ(variants[0].count, 900u);
  EXPECT_EQ(lex->VariantText(variants[1]), "试验");
  EXPECT_EQ(variants[1].count, 300u);
}

TEST(ZhLexiconTest, SeveralReadingsSplitTheCount) {
  std::unique_ptr<Lexicon> lex = FixtureZhLexicon(nullptr);
  ASSERT_NE(lex, nullptr);
  // 行: xing (score 0, weight 1) and hang (score -1, weight 0.1) share 2000.
  ASSERT_NE(lex->Find("xing"), lexicon::kNoEntry);
  ASSERT_NE(lex->Find("hang"), lexicon::kNoEntry);
  EXPECT_EQ(lex->CommonSpelling(lex->Find("xing")), "行");
  EXPECT_EQ(lex->Count(lex->Find("xing")), 1818u);
  EXPECT_EQ(lex->Count(lex->Find("hang")), 182u);
  EXPECT_EQ(lex->Count(lex->Find("yinhang")), 700u);
}

TEST(ZhLexiconTest, MalformedLinesAreReported) {
  const std::string counts = "中国 5000 ns\n实验\n试验 many vn\n\n银行 700 n extra\n";
  const std::string readings = "中国 zhong'guo 0\n实验 shi-yan 0\n试验 shi'yan x\n";
  std::string bytes;
  LexiconBuildReport report;
  const Status s = BuildZhLexiconFromText(counts, readings, 1, &bytes, &report);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("counts:2: expected WORD COUNT [TAG]"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("counts:3: count is not an integer"), std::string::npos);
  EXPECT_NE(s.message().find("counts:5:"), std::string::npos);
  EXPECT_NE(s.message().find("readings:2: reading is not pinyin"), std::string::npos);
  EXPECT_NE(s.message().find("readings:3: score"), std::string::npos);
  EXPECT_EQ(report.zh_malformed_lines, 5u);

  // Allowed malformed lines are skipped and counted; the rest is built.
  LexiconBuilder builder;
  ZhLexiconStats stats;
  ASSERT_TRUE(AddZhLexiconWords(counts, "c", readings, "r", 5, &builder, &stats).ok());
  EXPECT_EQ(stats.malformed_lines, 5u);
  EXPECT_EQ(stats.errors.size(), 5u);
  EXPECT_EQ(stats.words_added, 1u);  // 中国
  LexiconBuilder::Options options;
  options.min_count = 1;
  options.language = "zh";
  ASSERT_TRUE(builder.Finish(options, &bytes).ok());
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(bytes, &lex).ok());
  EXPECT_EQ(lex->CommonSpelling(lex->Find("zhongguo")), "中国");

  // Binary garbage is malformed, never a crash.
  constexpr char kGarbage[] = "\xff\xfe\x00\x01 \xc3 9\n\x80\x80 zh'ong 0\n";
  const std::string garbage(kGarbage, sizeof(kGarbage) - 1);
  EXPECT_FALSE(BuildZhLexiconFromText(garbage, garbage, 1, &bytes).ok());
}

TEST(ZhLexiconTest, BuildFromFilesAndOpen) {
  const std::string out = testing::TempPath("zh.kdlex");
  LexiconBuildOptions options;
  options.language = "zh";
  options.zh_counts_path = std::string(KD_TEST_FIXTURES) + "/zh_counts.txt";
  options.zh_readings_path = std::string(KD_TEST_FIXTURES) + "/zh_readings.txt";
  options.output_path = out;
  options.min_count = 1;
  LexiconBuildReport report;
  const Status s = BuildLexicon(options, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(report.zh_skipped_no_reading, 1u);
  EXPECT_GE(report.variants, 10u);
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::Open(out, &lex).ok());
  EXPECT_EQ(lex->Count(lex->Find("zhongguo")), 5000u);
  std::remove(out.c_str());

  // Missing inputs and mixed options are clear errors.
  options.zh_readings_path.clear();
  EXPECT_EQ(BuildLexicon(options, &report).code(), Status::Code::kInvalidArgument);
  options.language = "en";
  options.inputs.push_back({options.zh_counts_path, 1.0});
  EXPECT_EQ(BuildLexicon(options, &report).code(), Status::Code::kInvalidArgument);
  options.language = "zh";
  options.zh_readings_path = options.zh_counts_path;
  EXPECT_EQ(BuildLexicon(options, &report).code(), Status::Code::kInvalidArgument);
}

// The committed lexicon (scripts/build-lexicon-zh.sh), when present.
// UTF-8 punctuation read as GBK (jieba's dictionary has "銆 6982" for "、") never becomes a
// word: it is left out of both files and counted, and the committed lexicon has none.
TEST(ZhLexiconTest, PunctuationReadAsGbkIsLeftOut) {
  const std::vector<char32_t>& misread = GbkMisreadPunctuation();
  ASSERT_EQ(misread.size(), 3u);  // 銆 (、。...), 锛 (，：...), 鈥 (“”...)
  EXPECT_TRUE(StartsWithGbkMisread("\u9286"));   // 銆
  EXPECT_TRUE(StartsWithGbkMisread("\u951b得儿木"));  // 锛...
  EXPECT_FALSE(StartsWithGbkMisread("\u8def"));  // 路: the GBK reading of "·", a real word
  EXPECT_FALSE(StartsWithGbkMisread("中国"));
  const std::string counts = "銆 6982 zg\n中国 100 ns\n鈥 2416 zg\n";
  const std::string readings = "銆 mo 0\n中国 zhong'guo 0\n鈥 huo 0\n";
  std::string bytes;
  LexiconBuildReport report;
  ASSERT_TRUE(BuildZhLexiconFromText(counts, readings, 1, &bytes, &report).ok());
  EXPECT_EQ(report.zh_skipped_mojibake, 4u);
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(bytes, &lex).ok());
  EXPECT_EQ(lex->Find("mo"), lexicon::kNoEntry);
  EXPECT_NE(lex->Find("zhongguo"), lexicon::kNoEntry);
}

TEST(ZhLexiconTest, CommittedLexicon) {
  const std::string path = std::string(KD_MODELS_DIR) + "/zh/lexicon.kdlex";
  if (!std::ifstream(path)) GTEST_SKIP() << path << " not built";
  std::unique_ptr<Lexicon> lex;
  const Status s = Lexicon::Open(path, &lex);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(lex->header().language, "zh");
  const uint32_t zhongguo = lex->Find("zhongguo");
  ASSERT_NE(zhongguo, lexicon::kNoEntry);
  EXPECT_EQ(lex->CommonSpelling(zhongguo), "中国");
  const uint32_t lvxing = lex->Find("lvxing");  // 履行 and 旅行
  ASSERT_NE(lvxing, lexicon::kNoEntry);
  bool travel = false;
  for (const lexicon::Variant& v : lex->Variants(lvxing)) travel |= lex->VariantText(v) == "旅行";
  EXPECT_TRUE(travel);
  EXPECT_GT(lex->Variants(lex->Find("shiyan")).size(), 1u);  // 实验, 试验, ...
  for (uint32_t v = 0; v < lex->header().variant_count; ++v) {
    ASSERT_FALSE(StartsWithGbkMisread(lex->VariantTextAt(v))) << lex->VariantTextAt(v);
  }
}

}  // namespace
}  // namespace keydecide
