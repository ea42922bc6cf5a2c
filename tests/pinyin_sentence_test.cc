// PinyinSentenceSearch: whole-sentence conversion on a small pinyin-keyed fixture lexicon (the
// unigram beats a longer split only when the counts say so, words across apostrophes,
// abbreviations and an unfinished last syllable, distinct k-best sentences, word spans,
// syllable breaks, refused input, caps, no allocation per call) and on models/zh/lexicon.kdlex.

#include "lexicon/pinyin/pinyin_sentence.h"

#include <gtest/gtest.h>

#include <cmath>
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
  const Status opened = Lexicon::FromBytes(testing::PinyinLexiconBytes({{"women", "我们", 6000},
                                                                        {"wo", "我", 9000},
                                                                        {"wo", "握", 100},
                                                                        {"men", "们", 500},
                                                                        {"men", "门", 700},
                                                                        {"de", "的", 20000},
                                                                        {"de", "得", 3000},
                                                                        {"zhongguo", "中国", 5000},
                                                                        {"zhong", "中", 8000},
                                                                        {"zhong", "种", 3000},
                                                                        {"guo", "过", 6000},
                                                                        {"guo", "国", 3000},
                                                                        {"xian", "先", 4000},
                                                                        {"xian", "西安", 1000},
                                                                        {"xi", "西", 2000},
                                                                        {"an", "安", 1500}}),
                                           &lex);
  EXPECT_TRUE(opened.ok()) << opened.ToString();
  return lex;
}

class PinyinSentenceTest : public ::testing::Test {
 protected:
  PinyinSentenceTest() : lex_(FixtureLexicon()), search_(lex_.get(), nullptr, {}) {}

  std::vector<std::string> Sentences(std::string_view typed) {
    const Status s = search_.Search(typed);
    EXPECT_TRUE(s.ok()) << typed << ": " << s.ToString();
    std::vector<std::string> out;
    for (const PinyinSentence& sentence : search_.sentences()) out.emplace_back(sentence.text);
    return out;
  }

  std::unique_ptr<Lexicon> lex_;
  PinyinSentenceSearch search_;
};

TEST_F(PinyinSentenceTest, BestSentenceIsTheLikeliestWords) {
  const auto s = Sentences("womendezhongguo");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s[0], "我们的中国");
  // 我们 (one word) beats 我+们 and 我+门: a second word costs log(total).
  const PinyinSentence& best = search_.sentences()[0];
  ASSERT_EQ(best.words.size(), 3u);
  EXPECT_EQ(best.words[0].text, "我们");
  EXPECT_EQ(best.words[0].begin, 0);
  EXPECT_EQ(best.words[0].end, 5);
  EXPECT_EQ(best.words[1].text, "的");
  EXPECT_EQ(best.words[2].text, "中国");
  EXPECT_EQ(best.words[2].end, 15);
  // Scores are best first and texts distinct.
  for (size_t i = 1; i < s.size(); ++i) {
    EXPECT_GE(search_.sentences()[i - 1].score, search_.sentences()[i].score);
    for (size_t j = 0; j < i; ++j) EXPECT_NE(s[i], s[j]);
  }
}

TEST_F(PinyinSentenceTest, ALatticeBuiltElsewhereGivesTheSameSentences) {
  for (const std::string_view typed : {"womendezhongguo", "wmdzg", "xi'an", "xian"}) {
    const std::vector<std::string> own = Sentences(typed);
    PinyinLattice lattice(PinyinLattice::Options{});  // with paths, as the word search builds it
    ASSERT_TRUE(lattice.Build(typed).ok());
    search_.Search(lattice, typed, 0);
    std::vector<std::string> shared;
    for (const PinyinSentence& sentence : search_.sentences()) shared.emplace_back(sentence.text);
    EXPECT_EQ(shared, own) << typed;
  }
}

TEST_F(PinyinSentenceTest, KBestSentencesAndApostrophes) {
  // "xian": 先 (one word, most frequent) before 西安; "xi'an" can only be two syllables.
  auto s = Sentences("xian");
  ASSERT_GE(s.size(), 2u);
  EXPECT_EQ(s[0], "先");
  EXPECT_NE(std::find(s.begin(), s.end(), "西安"), s.end());
  s = Sentences("xi'an");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s[0], "西安");
  EXPECT_EQ(std::find(s.begin(), s.end(), "先"), s.end());
  const PinyinSentence& best = search_.sentences()[0];
  ASSERT_EQ(best.words.size(), 1u);
  EXPECT_EQ(best.words[0].end, 5);  // the word covers the apostrophe
}

TEST_F(PinyinSentenceTest, AbbreviationsAndUnfinishedSyllable) {
  auto s = Sentences("wmdzg");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s[0], "我们的中国");
  s = Sentences("womendezhongg");  // the last syllable not finished
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s[0], "我们的中国");
}

TEST_F(PinyinSentenceTest, InitialsBesideFullSyllablesOnlyWhenAskedFor) {
  PinyinSentenceSearch::Options options;
  options.initials_beside_full_syllables = true;
  PinyinSentenceSearch everywhere(lex_.get(), nullptr, options);
  for (const std::string_view typed : {"womendezhongguo", "wmdzg", "womendezhongg"}) {
    ASSERT_TRUE(everywhere.Search(typed).ok());
    ASSERT_FALSE(everywhere.sentences().empty()) << typed;
    EXPECT_EQ(everywhere.sentences()[0].text, "我们的中国") << typed;
  }
  // "wmen": no full syllable starts at w, so it is read as an abbreviation either way.
  ASSERT_TRUE(everywhere.Search("women").ok());
  ASSERT_FALSE(everywhere.sentences().empty());
  EXPECT_EQ(everywhere.sentences()[0].text, "我们");
  EXPECT_EQ(Sentences("wmen")[0], "我们");
}

TEST_F(PinyinSentenceTest, SyllableBreaksOfTheBestReading) {
  std::string breaks;
  ASSERT_TRUE(search_.Search("womendezhongguo").ok());
  search_.SyllableBreaks("womendezhongguo", &breaks);
  EXPECT_EQ(breaks, "wo'men'de'zhong'guo");
  ASSERT_TRUE(search_.Search("xi'an").ok());
  search_.SyllableBreaks("xi'an", &breaks);
  EXPECT_EQ(breaks, "xi'an");  // the typed apostrophe stays single
  ASSERT_TRUE(search_.Search("vvv").ok());
  search_.SyllableBreaks("vvv", &breaks);
  EXPECT_EQ(breaks, "vvv");  // no reading: as typed
}

TEST_F(PinyinSentenceTest, RefusedAndEmptyInput) {
  for (const std::string_view bad : {"WOMEN", "wo men", "我们", "wo1"}) {
    EXPECT_EQ(search_.Search(bad).code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_TRUE(search_.sentences().empty()) << bad;
  }
  EXPECT_EQ(search_.Search(std::string(65, 'a')).code(), Status::Code::kInvalidArgument);
  for (const std::string_view none : {"", "'''", "vvvv", "womenv"}) {
    EXPECT_TRUE(search_.Search(none).ok()) << none;
    EXPECT_TRUE(search_.sentences().empty()) << none;
  }
}

TEST_F(PinyinSentenceTest, CapsAndNoAllocation) {
  PinyinSentenceSearch::Options options;
  options.beam_width = 1;
  PinyinSentenceSearch narrow(lex_.get(), nullptr, options);
  ASSERT_TRUE(narrow.Search("womendezhongguo").ok());
  ASSERT_EQ(narrow.sentences().size(), 1u);
  EXPECT_EQ(narrow.sentences()[0].text, "我们的中国");

  options = {};
  options.max_trie_visits = 5;
  PinyinSentenceSearch tiny(lex_.get(), nullptr, options);
  ASSERT_TRUE(tiny.Search("womendezhongguo").ok());
  EXPECT_TRUE(tiny.truncated());

  // The longest input, every letter an abbreviation: bounded, no allocation.
  const std::string longest(PinyinLattice::kMaxTyped, 'w');
  ASSERT_TRUE(search_.Search(longest).ok());
  const long before = testing::Allocations();
  for (const std::string_view typed :
       {std::string_view("womendezhongguo"), std::string_view("wmdzg"), std::string_view("xi'an"),
        std::string_view(longest)}) {
    ASSERT_TRUE(search_.Search(typed).ok());
  }
  EXPECT_EQ(testing::Allocations(), before);
}

// A bonus that adds nothing to lexicon words and offers one word the lexicon lacks, 希蒙 for
// "ximen", as ZhSession's offers a name the person built.
class ExtraWordBonus : public WordBonus {
 public:
  explicit ExtraWordBonus(float log_p) : log_p_(log_p) {}
  float Word(uint32_t) const override { return 0; }
  float Pair(uint32_t, uint32_t) const override { return 0; }
  float max_word() const override { return 0; }
  float max_pair() const override { return 0; }
  size_t ExtraWords(std::string_view rest, std::span<ExtraWord> out) const override {
    ++calls;
    if (!rest.starts_with("ximen") || out.empty()) return 0;
    out[0] = {7, 5, 0b10010, log_p_};  // syllables xi'men
    return 1;
  }
  std::string_view ExtraText(uint32_t id) const override { return id == 7 ? "希蒙" : ""; }
  mutable int calls = 0;

 private:
  float log_p_;
};

TEST_F(PinyinSentenceTest, ABonusOffersWordsBeyondTheLexicon) {
  EXPECT_NE(Sentences("womendeximen")[0], "我们的希蒙");  // it has no 希 or 蒙
  ExtraWordBonus likely(std::log(0.01f));
  search_.set_bonus(&likely);
  ASSERT_EQ(Sentences("womendeximen")[0], "我们的希蒙");
  EXPECT_GT(likely.calls, 0);
  const PinyinSentence& best = search_.sentences()[0];
  ASSERT_EQ(best.words.size(), 3u);
  const PinyinSentenceWord& extra = best.words[2];
  EXPECT_EQ(extra.text, "希蒙");
  EXPECT_EQ(extra.entry, lexicon::kNoEntry);
  EXPECT_EQ(extra.extra, 7u);
  EXPECT_EQ(extra.begin, 7);
  EXPECT_EQ(extra.end, 12);
  EXPECT_EQ(best.words[0].extra, PinyinSentenceWord::kNoExtra);
  std::string breaks;
  search_.SyllableBreaks("womendeximen", &breaks);
  EXPECT_EQ(breaks, "wo'men'de'xi'men");
  // In the middle of a sentence too, and the words after it still come from the lexicon.
  EXPECT_EQ(Sentences("ximendezhongguo")[0], "希蒙的中国");
  // An unlikely word does not beat the lexicon's.
  ExtraWordBonus unlikely(std::log(1e-12f));
  search_.set_bonus(&unlikely);
  EXPECT_NE(Sentences("womendeximen")[0], "我们的希蒙");
  search_.set_bonus(nullptr);
}

TEST(PinyinSentenceRealLexiconTest, CommonSentences) {
  const std::string path = std::string(KD_MODELS_DIR) + "/zh/lexicon.kdlex";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not present";
  std::unique_ptr<Lexicon> lex;
  const Status opened = Lexicon::Open(path, &lex);
  ASSERT_TRUE(opened.ok()) << opened.ToString();
  PinyinSentenceSearch search(lex.get(), nullptr, {});
  for (const auto& [typed, hanzi] : std::vector<std::pair<std::string, std::string>>{
           {"nihao", "你好"}, {"zhongguo", "中国"}, {"womendezhongguo", "我们的中国"}}) {
    ASSERT_TRUE(search.Search(typed).ok());
    ASSERT_FALSE(search.sentences().empty()) << typed;
    EXPECT_EQ(search.sentences()[0].text, hanzi) << typed;
    EXPECT_FALSE(search.truncated()) << typed;
  }
}

}  // namespace
}  // namespace keydecide
