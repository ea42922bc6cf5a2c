// PinyinCandidateSearch: hanzi words for typed pinyin on a small pinyin-keyed fixture lexicon
// (whole input, prefix words, abbreviations, the unfinished last syllable, xian / xi'an,
// homophone order, refused input, no allocation per call) and on models/zh/lexicon.kdlex when
// it is there.

#include "lexicon/pinyin/pinyin_candidates.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "allocation_hook.h"
#include "lexicon/lexicon.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::unique_ptr<Lexicon> FixtureLexicon() {
  std::unique_ptr<Lexicon> lex;
  const Status opened =
      Lexicon::FromBytes(testing::PinyinLexiconBytes({{"zhongguo", "中国", 5000},
                                                      {"zhongguoren", "中国人", 2000},
                                                      {"zhongguogongchandang", "中国共产党", 300},
                                                      {"gongchan", "共产", 500},
                                                      {"zhong", "中", 8000},
                                                      {"zhong", "种", 3000},
                                                      {"zhong", "重", 2000},
                                                      {"guo", "过", 6000},
                                                      {"guo", "国", 3000},
                                                      {"ren", "人", 9000},
                                                      {"xian", "先", 4000},
                                                      {"xian", "现", 3000},
                                                      {"xian", "西安", 1000},
                                                      {"xi", "西", 2000},
                                                      {"an", "安", 1500},
                                                      {"shiyan", "实验", 900},
                                                      {"shiyan", "试验", 300}}),
                         &lex);
  EXPECT_TRUE(opened.ok()) << opened.ToString();
  return lex;
}

class PinyinCandidatesTest : public ::testing::Test {
 protected:
  PinyinCandidatesTest() : lex_(FixtureLexicon()), search_(lex_.get(), {}) {}

  std::vector<PinyinCandidate> Search(std::string_view typed) {
    const Status s = search_.Search(typed);
    EXPECT_TRUE(s.ok()) << typed << ": " << s.ToString();
    return {search_.candidates().begin(), search_.candidates().end()};
  }

  // Index of `word` consuming `consumed` bytes, or -1.
  static int Find(const std::vector<PinyinCandidate>& c, std::string_view word, size_t consumed) {
    for (size_t i = 0; i < c.size(); ++i) {
      if (c[i].text == word && c[i].consumed == consumed) return static_cast<int>(i);
    }
    return -1;
  }

  std::unique_ptr<Lexicon> lex_;
  PinyinCandidateSearch search_;
};

TEST_F(PinyinCandidatesTest, WholeWordFirst) {
  const auto c = Search("zhongguo");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].text, "中国");
  EXPECT_TRUE(c[0].full);
  EXPECT_EQ(c[0].consumed, 8);
  // Then the words that start it: 中 for the first syllable.
  const int zhong = Find(c, "中", 5);
  ASSERT_GE(zhong, 0);
  EXPECT_FALSE(c[zhong].full);
}

TEST_F(PinyinCandidatesTest, FullWordsThenPrefixWords) {
  const auto c = Search("zhongguoren");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].text, "中国人");
  EXPECT_TRUE(c[0].full);
  const int zhongguo = Find(c, "中国", 8);
  ASSERT_GE(zhongguo, 0);
  EXPECT_FALSE(c[zhongguo].full);
  const int zhong = Find(c, "中", 5);
  ASSERT_GE(zhong, 0);
  EXPECT_LT(zhongguo, zhong);  // longer prefixes first
  bool seen_prefix = false;
  for (const PinyinCandidate& x : c) {
    if (!x.full) seen_prefix = true;
    EXPECT_FALSE(seen_prefix && x.full) << x.text;  // every full word before every prefix word
    if (x.full) {
      EXPECT_EQ(x.consumed, 11);
    }
  }
  // Each word once.
  for (size_t i = 0; i < c.size(); ++i) {
    for (size_t j = i + 1; j < c.size(); ++j) EXPECT_NE(c[i].text, c[j].text);
  }
}

TEST_F(PinyinCandidatesTest, EachWordOnceForTheMostLetters) {
  // 中国 stands for "zhongguo" (8 letters) and, read as zhong g*, for "zhongg" (6).
  const auto c = Search("zhongguozhongg");
  int found = 0;
  for (const PinyinCandidate& x : c) {
    if (x.text != "中国") continue;
    ++found;
    EXPECT_EQ(x.consumed, 8);
  }
  EXPECT_EQ(found, 1);
}

TEST_F(PinyinCandidatesTest, Abbreviations) {
  auto c = Search("zg");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].text, "中国");
  EXPECT_TRUE(c[0].full);
  EXPECT_EQ(c[0].consumed, 2);

  c = Search("zhgg");
  const int zhongguo = Find(c, "中国", 3);  // zh g: the start of 中国共产...
  ASSERT_GE(zhongguo, 0);
  EXPECT_FALSE(c[zhongguo].full);

  c = Search("zgr");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].text, "中国人");
}

TEST_F(PinyinCandidatesTest, UnfinishedLastSyllable) {
  auto c = Search("zhongg");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].text, "中国");
  EXPECT_TRUE(c[0].full);
  EXPECT_EQ(c[0].consumed, 6);

  c = Search("zhongguor");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].text, "中国人");
}

TEST_F(PinyinCandidatesTest, XianAndXiApostropheAn) {
  auto c = Search("xian");
  const int xian = Find(c, "先", 4);
  const int xi_an = Find(c, "西安", 4);
  ASSERT_GE(xian, 0);
  ASSERT_GE(xi_an, 0);
  EXPECT_TRUE(c[xian].full);
  EXPECT_TRUE(c[xi_an].full);
  EXPECT_EQ(c[0].text, "先");  // the one-syllable reading costs nothing more and is more frequent

  c = Search("xi'an");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].text, "西安");
  EXPECT_EQ(c[0].consumed, 5);
  for (const PinyinCandidate& x : c) {
    if (x.full) {
      EXPECT_EQ(x.text, "西安");
    }
    EXPECT_NE(x.text, "先");
  }
  EXPECT_GE(Find(c, "西", 2), 0);
}

TEST_F(PinyinCandidatesTest, HomophonesByCount) {
  const auto c = Search("zhong");
  const int a = Find(c, "中", 5);
  const int b = Find(c, "种", 5);
  const int d = Find(c, "重", 5);
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  ASSERT_GE(d, 0);
  EXPECT_EQ(a, 0);
  EXPECT_LT(a, b);
  EXPECT_LT(b, d);

  const auto s = Search("shiyan");
  ASSERT_GE(s.size(), 2u);
  EXPECT_EQ(s[0].text, "实验");
  EXPECT_EQ(s[1].text, "试验");
  EXPECT_GT(s[0].score, s[1].score);
}

TEST_F(PinyinCandidatesTest, RefusesGarbage) {
  for (const std::string_view bad : {"ZHONG", "zh1", "zhong guo", "中国", "zh-g"}) {
    EXPECT_EQ(search_.Search(bad).code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_TRUE(search_.candidates().empty()) << bad;
  }
  EXPECT_EQ(search_.Search(std::string(65, 'a')).code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(search_.Search("").ok());
  EXPECT_TRUE(search_.candidates().empty());
  EXPECT_TRUE(search_.Search("vvvv").ok());  // letters, but no reading
  EXPECT_TRUE(search_.candidates().empty());
}

TEST_F(PinyinCandidatesTest, CapsAndNoAllocation) {
  PinyinCandidateSearch::Options options;
  options.max_candidates = 2;
  PinyinCandidateSearch capped(lex_.get(), options);
  ASSERT_TRUE(capped.Search("zhongguoren").ok());
  EXPECT_EQ(capped.candidates().size(), 2u);

  options = {};
  options.max_trie_visits = 3;
  PinyinCandidateSearch tiny(lex_.get(), options);
  ASSERT_TRUE(tiny.Search("zhongguoren").ok());
  EXPECT_TRUE(tiny.truncated());
  EXPECT_LE(tiny.trie_visits(), 4u);

  ASSERT_TRUE(search_.Search("zhongguoren").ok());  // warm up
  const long before = testing::Allocations();
  for (const char* typed : {"zhongguoren", "zg", "zhgg", "xian", "xi'an", "zhongg", "shiyan"}) {
    ASSERT_TRUE(search_.Search(typed).ok());
  }
  EXPECT_EQ(testing::Allocations(), before);
}

TEST(PinyinCandidatesRealLexiconTest, CommonWords) {
  const std::string path = std::string(KD_MODELS_DIR) + "/zh/lexicon.kdlex";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not present";
  std::unique_ptr<Lexicon> lex;
  const Status opened = Lexicon::Open(path, &lex);
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  PinyinCandidateSearch search(lex.get(), {});

  ASSERT_TRUE(search.Search("nihao").ok());
  const auto nihao = search.candidates();
  bool found = false;
  for (size_t i = 0; i < nihao.size() && i < 3; ++i) found |= nihao[i].text == "你好";
  EXPECT_TRUE(found) << (nihao.empty() ? "" : std::string(nihao[0].text));

  ASSERT_TRUE(search.Search("beijing").ok());
  ASSERT_FALSE(search.candidates().empty());
  EXPECT_EQ(search.candidates()[0].text, "北京");

  ASSERT_TRUE(search.Search("zhongguo").ok());
  ASSERT_FALSE(search.candidates().empty());
  EXPECT_EQ(search.candidates()[0].text, "中国");
  EXPECT_FALSE(search.truncated());
}

}  // namespace
}  // namespace keydecide
