// The pinyin syllable table: its size and order, the lookups, and the initial/final split.

#include "lexicon/pinyin/pinyin_syllables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace keydecide::pinyin {
namespace {

TEST(PinyinSyllablesTest, TableIsSortedUniqueAndStandardSized) {
  const auto syllables = Syllables();
  EXPECT_TRUE(std::is_sorted(syllables.begin(), syllables.end()));
  EXPECT_EQ(std::adjacent_find(syllables.begin(), syllables.end()), syllables.end());
  // The standard table has about 410 syllables; this one leaves out m n ng hm hng ê and a few
  // one-character oddities.
  EXPECT_GE(syllables.size(), 395u);
  EXPECT_LE(syllables.size(), 415u);
  for (std::string_view s : syllables) {
    EXPECT_LE(s.size(), kMaxSyllableLength) << s;
    for (char c : s) EXPECT_TRUE(c >= 'a' && c <= 'z') << s;
  }
}

TEST(PinyinSyllablesTest, IsSyllable) {
  for (std::string_view s : {"a", "er", "xian", "xi", "an", "zhuang", "lv", "lve", "nv", "nve",
                             "jue", "yue", "ju", "lo", "zhei", "shei", "wu", "yong"}) {
    EXPECT_TRUE(IsSyllable(s)) << s;
  }
  for (std::string_view s : {"", "z", "zh", "zho", "lue", "nue", "jv", "xiong1", "b", "v", "ng",
                             "zhuangg", "ii", "biang"}) {
    EXPECT_FALSE(IsSyllable(s)) << s;
  }
}

TEST(PinyinSyllablesTest, Aliases) {
  EXPECT_EQ(CanonicalSyllable("lue"), "lve");
  EXPECT_EQ(CanonicalSyllable("nue"), "nve");
  EXPECT_EQ(CanonicalSyllable("xian"), "xian");
  EXPECT_EQ(CanonicalSyllable("zh"), "");
  // Canonical views point into the table, not into the argument.
  const std::string typed = "zhong";
  const std::string_view canonical = CanonicalSyllable(typed);
  EXPECT_NE(canonical.data(), typed.data());
  EXPECT_TRUE(std::find(Syllables().begin(), Syllables().end(), canonical) != Syllables().end());
}

TEST(PinyinSyllablesTest, Prefixes) {
  for (std::string_view s : {"z", "zh", "zho", "zhon", "zhong", "xia", "xian", "l", "lv", "lu"}) {
    EXPECT_TRUE(IsSyllablePrefix(s)) << s;
  }
  for (std::string_view s : {"", "v", "i", "u", "zhv", "zhongg", "xq", "bx"}) {
    EXPECT_FALSE(IsSyllablePrefix(s)) << s;
  }
  EXPECT_TRUE(HasLongerSyllable("xia"));
  EXPECT_TRUE(HasLongerSyllable("zh"));
  EXPECT_TRUE(HasLongerSyllable("zho"));
  EXPECT_TRUE(HasLongerSyllable("lv"));
  EXPECT_FALSE(HasLongerSyllable("zhuang"));
  EXPECT_FALSE(HasLongerSyllable("er"));
  EXPECT_FALSE(HasLongerSyllable("xiong"));
  EXPECT_FALSE(HasLongerSyllable(""));
  const std::string typed = "zho";
  EXPECT_EQ(StaticPrefix(typed), "zho");
  EXPECT_NE(StaticPrefix(typed).data(), typed.data());
}

TEST(PinyinSyllablesTest, Initials) {
  const std::set<std::string_view> expected = {"b",  "p", "m", "f", "d", "t", "n",  "l",
                                               "g",  "k", "h", "j", "q", "x", "zh", "ch",
                                               "sh", "r", "z", "c", "s", "y", "w"};
  EXPECT_EQ(std::set<std::string_view>(Initials().begin(), Initials().end()), expected);
  EXPECT_EQ(Initials().size(), expected.size());
  EXPECT_TRUE(IsInitial("zh"));
  EXPECT_TRUE(IsInitial("w"));
  EXPECT_FALSE(IsInitial("a"));
  EXPECT_FALSE(IsInitial("v"));
  EXPECT_FALSE(IsInitial(""));
  EXPECT_EQ(StaticInitial("sh"), "sh");
  EXPECT_EQ(StaticInitial("sx"), "");
}

TEST(PinyinSyllablesTest, SplitInitial) {
  struct Case {
    std::string_view syllable, initial, final_part;
  };
  for (const Case& c :
       {Case{"zhuang", "zh", "uang"}, Case{"chi", "ch", "i"}, Case{"shei", "sh", "ei"},
        Case{"zi", "z", "i"}, Case{"xian", "x", "ian"}, Case{"yan", "y", "an"},
        Case{"wu", "w", "u"}, Case{"lve", "l", "ve"}, Case{"ang", "", "ang"}, Case{"er", "", "er"},
        Case{"o", "", "o"}, Case{"ei", "", "ei"}}) {
    const SyllableParts parts = SplitInitial(c.syllable);
    EXPECT_EQ(parts.initial, c.initial) << c.syllable;
    EXPECT_EQ(parts.final_part, c.final_part) << c.syllable;
  }
}

// Every syllable splits into a listed initial (or none) and a listed final, every listed final
// occurs, and every initial starts some syllable.
TEST(PinyinSyllablesTest, SplitsCoverInitialsAndFinals) {
  const std::set<std::string_view> finals(Finals().begin(), Finals().end());
  EXPECT_EQ(finals.size(), Finals().size());
  std::set<std::string_view> seen_finals, seen_initials;
  for (std::string_view s : Syllables()) {
    const SyllableParts parts = SplitInitial(s);
    EXPECT_EQ(std::string(parts.initial) + std::string(parts.final_part), s);
    if (!parts.initial.empty()) {
      EXPECT_TRUE(IsInitial(parts.initial)) << s;
      seen_initials.insert(parts.initial);
    }
    EXPECT_TRUE(finals.count(parts.final_part)) << s << " final " << parts.final_part;
    seen_finals.insert(parts.final_part);
  }
  EXPECT_EQ(seen_finals, finals);
  EXPECT_EQ(seen_initials.size(), Initials().size());
}

TEST(PinyinSyllablesTest, SplitSyllablesReadsAKeyAsOneSyllablePerHanzi) {
  std::string out;
  ASSERT_TRUE(SplitSyllables("zhongguo", 2, &out));
  EXPECT_EQ(out, "zhong'guo");
  ASSERT_TRUE(SplitSyllables("xian", 2, &out));
  EXPECT_EQ(out, "xi'an");
  ASSERT_TRUE(SplitSyllables("xian", 1, &out));
  EXPECT_EQ(out, "xian");
  EXPECT_FALSE(SplitSyllables("zhongguo", 1, &out));
  EXPECT_FALSE(SplitSyllables("zwm", 3, &out));
  EXPECT_FALSE(SplitSyllables("", 1, &out));
  EXPECT_FALSE(SplitSyllables("a", 0, &out));
}

}  // namespace
}  // namespace keydecide::pinyin
