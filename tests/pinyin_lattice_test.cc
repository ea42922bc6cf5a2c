// PinyinLattice: edges and best paths for typed pinyin, apostrophes, abbreviations, each fuzzy
// pair, the unfinished last syllable, rejected input, and the property that every path covers the
// typed letters exactly once, in order.

#include "lexicon/pinyin/pinyin_lattice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "allocation_hook.h"
#include "lexicon/pinyin/pinyin_syllables.h"
#include "text/keyboard_layout.h"

namespace keydecide {
namespace {

using Kind = PinyinEdgeKind;

PinyinLattice::Options OptionsWith(uint8_t fuzzy, size_t max_paths = 16) {
  PinyinLattice::Options options;
  options.fuzzy = fuzzy;
  options.max_paths = max_paths;
  return options;
}

// A path as its pieces' texts joined by spaces, initials-only pieces marked with '*' and
// prefixes at the end with '~' ("z* g~").
std::string PathString(const PinyinLattice& lattice, size_t i) {
  std::string out;
  for (uint16_t e : lattice.path(i)) {
    const PinyinEdge& edge = lattice.edges()[e];
    if (!out.empty()) out += ' ';
    out += edge.text;
    if (edge.kind == Kind::kInitialOnly) out += '*';
    if (edge.kind == Kind::kPrefixAtEnd) out += '~';
  }
  return out;
}

std::vector<std::string> Paths(const PinyinLattice& lattice) {
  std::vector<std::string> out;
  for (size_t i = 0; i < lattice.num_paths(); ++i) out.push_back(PathString(lattice, i));
  return out;
}

std::vector<std::string> PathsOf(std::string_view typed, uint8_t fuzzy = 0, size_t max_paths = 16) {
  PinyinLattice lattice(OptionsWith(fuzzy, max_paths));
  EXPECT_TRUE(lattice.Build(typed).ok()) << typed;
  return Paths(lattice);
}

bool Contains(const std::vector<std::string>& paths, std::string_view path) {
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}

// The edge [begin, end) of `kind` reading `text`, or nullptr.
const PinyinEdge* FindEdge(const PinyinLattice& lattice, size_t begin, size_t end, Kind kind,
                           std::string_view text) {
  for (const PinyinEdge& edge : lattice.EdgesFrom(begin)) {
    if (edge.end == end && edge.kind == kind && edge.text == text) return &edge;
  }
  return nullptr;
}

TEST(PinyinLatticeTest, XianReadsAsOneOrTwoSyllables) {
  const auto paths = PathsOf("xian");
  ASSERT_GE(paths.size(), 2u);
  EXPECT_EQ(paths[0], "xian");
  EXPECT_EQ(paths[1], "xi an");
}

TEST(PinyinLatticeTest, FanganHasBothSegmentations) {
  const auto paths = PathsOf("fangan");
  ASSERT_GE(paths.size(), 2u);
  EXPECT_EQ(paths[0], "fang an");  // equal cost and length: the longer first syllable first
  EXPECT_EQ(paths[1], "fan gan");
}

TEST(PinyinLatticeTest, ApostropheForcesBoundary) {
  PinyinLattice lattice(OptionsWith(0));
  ASSERT_TRUE(lattice.Build("xi'an").ok());
  ASSERT_GT(lattice.num_paths(), 0u);
  EXPECT_EQ(PathString(lattice, 0), "xi an");
  EXPECT_TRUE(Contains(Paths(lattice), "xi a n~"));  // "n" may still become na, ne ...
  for (const PinyinEdge& edge : lattice.edges()) {
    EXPECT_FALSE(edge.begin < 2 && edge.end > 2) << edge.text;  // nothing spans the apostrophe
  }
  EXPECT_TRUE(lattice.EdgesFrom(2).empty());
  // Doubled, leading and trailing apostrophes are separators too.
  EXPECT_EQ(PathsOf("'xi''an'")[0], "xi an");
  EXPECT_FALSE(Contains(PathsOf("'xi''an'"), "xi an~"));  // closed by the apostrophe
  EXPECT_EQ(PathsOf("fang'an")[0], "fang an");
  EXPECT_FALSE(Contains(PathsOf("fang'an"), "fan gan"));
  EXPECT_EQ(PathsOf("fan'gan")[0], "fan gan");
}

TEST(PinyinLatticeTest, TrailingApostropheClosesTheLastSyllable) {
  // "zh" at the very end is an unfinished syllable; before an apostrophe it is an initial.
  EXPECT_EQ(PathsOf("zh"), (std::vector<std::string>{"zh~", "z* h~"}));
  EXPECT_EQ(PathsOf("zh'"), (std::vector<std::string>{"zh*", "z* h*"}));
}

TEST(PinyinLatticeTest, WholeWords) {
  EXPECT_EQ(PathsOf("zhongguo")[0], "zhong guo");
  EXPECT_EQ(PathsOf("womenzou")[0], "wo men zou");
  EXPECT_TRUE(Contains(PathsOf("womenzou"), "wo men zou"));
}

TEST(PinyinLatticeTest, Abbreviations) {
  // zg: z as an initial, g still being typed.
  const auto zg = PathsOf("zg");
  ASSERT_FALSE(zg.empty());
  EXPECT_EQ(zg[0], "z* g~");
  // zhgg: zh and g abbreviated, the last g unfinished.
  const auto zhgg = PathsOf("zhgg");
  ASSERT_FALSE(zhgg.empty());
  EXPECT_EQ(zhgg[0], "zh* g* g~");
  EXPECT_TRUE(Contains(zhgg, "z* h* g* g~"));
  // Mixed: a full syllable then an abbreviation.
  EXPECT_EQ(PathsOf("zhongg")[0], "zhong g~");
  EXPECT_TRUE(Contains(PathsOf("zgr"), "z* g* r~"));
  EXPECT_TRUE(Contains(PathsOf("zhongguor"), "zhong guo r~"));
  // Initials cost more than full syllables.
  PinyinLattice lattice(OptionsWith(0));
  ASSERT_TRUE(lattice.Build("zgr").ok());
  const PinyinEdge* z = FindEdge(lattice, 0, 1, Kind::kInitialOnly, "z");
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->cost, lattice.options().initial_only_cost);
}

TEST(PinyinLatticeTest, UnfinishedLastSyllable) {
  PinyinLattice lattice(OptionsWith(0));
  ASSERT_TRUE(lattice.Build("zho").ok());
  EXPECT_EQ(PathString(lattice, 0), "zho~");
  const PinyinEdge* zho = FindEdge(lattice, 0, 3, Kind::kPrefixAtEnd, "zho");
  ASSERT_NE(zho, nullptr);
  EXPECT_EQ(zho->cost, lattice.options().prefix_at_end_cost);
  EXPECT_TRUE(Contains(Paths(lattice), "zh* o"));

  // "xia" is a syllable and the start of xian/xiang/xiao: both readings.
  ASSERT_TRUE(lattice.Build("xia").ok());
  EXPECT_NE(FindEdge(lattice, 0, 3, Kind::kFull, "xia"), nullptr);
  EXPECT_NE(FindEdge(lattice, 0, 3, Kind::kPrefixAtEnd, "xia"), nullptr);
  EXPECT_EQ(PathString(lattice, 0), "xia");
  // A finished syllable that nothing extends is not a prefix.
  ASSERT_TRUE(lattice.Build("zhuang").ok());
  EXPECT_EQ(FindEdge(lattice, 0, 6, Kind::kPrefixAtEnd, "zhuang"), nullptr);
  // Unfinished only at the very end: "zho" mid-input is not read.
  ASSERT_TRUE(lattice.Build("zhoa").ok());
  EXPECT_EQ(FindEdge(lattice, 0, 3, Kind::kPrefixAtEnd, "zho"), nullptr);
}

TEST(PinyinLatticeTest, AliasesReadAsTheCanonicalSyllable) {
  PinyinLattice lattice(OptionsWith(0));
  ASSERT_TRUE(lattice.Build("lue").ok());
  const PinyinEdge* lve = FindEdge(lattice, 0, 3, Kind::kFull, "lve");
  ASSERT_NE(lve, nullptr);
  EXPECT_TRUE(lve->alias);
  EXPECT_EQ(lve->cost, 0.0f);
  EXPECT_EQ(PathString(lattice, 0), "lve");
  ASSERT_TRUE(lattice.Build("lve").ok());
  EXPECT_FALSE(FindEdge(lattice, 0, 3, Kind::kFull, "lve")->alias);
}

// Each fuzzy pair: off, the other reading is absent; on, it is present both ways, carries its
// bit and the penalty, and no other pair's readings appear.
TEST(PinyinLatticeTest, EachFuzzyPairSwitches) {
  struct Case {
    uint8_t bit;
    const char* typed;
    const char* matched;
  };
  const Case cases[] = {
      {kFuzzyZZh, "zong", "zhong"},   {kFuzzyZZh, "zhi", "zi"},       {kFuzzyCCh, "ci", "chi"},
      {kFuzzyCCh, "chuan", "cuan"},   {kFuzzySSh, "si", "shi"},       {kFuzzySSh, "shan", "san"},
      {kFuzzyNL, "nan", "lan"},       {kFuzzyNL, "lv", "nv"},         {kFuzzyAnAng, "fan", "fang"},
      {kFuzzyAnAng, "xiang", "xian"}, {kFuzzyEnEng, "chen", "cheng"}, {kFuzzyEnEng, "feng", "fen"},
      {kFuzzyInIng, "xin", "xing"},   {kFuzzyInIng, "ying", "yin"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.typed);
    const size_t n = std::string_view(c.typed).size();
    PinyinLattice off(OptionsWith(static_cast<uint8_t>(kFuzzyAll & ~c.bit)));
    ASSERT_TRUE(off.Build(c.typed).ok());
    EXPECT_EQ(FindEdge(off, 0, n, Kind::kFull, c.matched), nullptr);

    PinyinLattice on(OptionsWith(c.bit));
    ASSERT_TRUE(on.Build(c.typed).ok());
    const PinyinEdge* edge = FindEdge(on, 0, n, Kind::kFull, c.matched);
    ASSERT_NE(edge, nullptr);
    EXPECT_EQ(edge->fuzzy, c.bit);
    EXPECT_EQ(edge->cost, on.options().fuzzy_cost);
    for (const PinyinEdge& e : on.edges()) EXPECT_EQ(e.fuzzy & ~c.bit, 0) << e.text;
    // The exact reading stays first.
    EXPECT_EQ(PathString(on, 0), PathsOf(c.typed)[0]);
  }
}

TEST(PinyinLatticeTest, FuzzyPairsCombineOnInitialAndFinal) {
  PinyinLattice lattice(OptionsWith(kFuzzyZZh | kFuzzyAnAng));
  ASSERT_TRUE(lattice.Build("zan").ok());
  const PinyinEdge* zhang = FindEdge(lattice, 0, 3, Kind::kFull, "zhang");
  ASSERT_NE(zhang, nullptr);
  EXPECT_EQ(zhang->fuzzy, kFuzzyZZh | kFuzzyAnAng);
  EXPECT_EQ(zhang->cost, 2 * lattice.options().fuzzy_cost);
  EXPECT_NE(FindEdge(lattice, 0, 3, Kind::kFull, "zhan"), nullptr);
  EXPECT_NE(FindEdge(lattice, 0, 3, Kind::kFull, "zang"), nullptr);
}

TEST(PinyinLatticeTest, FuzzyInitialsOnPrefixesAndAbbreviations) {
  PinyinLattice lattice(OptionsWith(kFuzzyZZh | kFuzzyNL));
  // The unfinished "zo" may be heading for zhong/zhou.
  ASSERT_TRUE(lattice.Build("zo").ok());
  const PinyinEdge* zho = FindEdge(lattice, 0, 2, Kind::kPrefixAtEnd, "zho");
  ASSERT_NE(zho, nullptr);
  EXPECT_EQ(zho->fuzzy, kFuzzyZZh);
  // "z" already covers zh as an abbreviation; "zh" may mean z.
  ASSERT_TRUE(lattice.Build("zg'").ok());
  EXPECT_EQ(FindEdge(lattice, 0, 1, Kind::kInitialOnly, "zh"), nullptr);
  ASSERT_TRUE(lattice.Build("zhg'").ok());
  EXPECT_NE(FindEdge(lattice, 0, 2, Kind::kInitialOnly, "z"), nullptr);
  ASSERT_TRUE(lattice.Build("ng'").ok());
  EXPECT_NE(FindEdge(lattice, 0, 1, Kind::kInitialOnly, "l"), nullptr);
  // Final pairs do not apply to unfinished syllables.
  PinyinLattice finals(OptionsWith(kFuzzyAnAng));
  ASSERT_TRUE(finals.Build("zhan").ok());
  for (const PinyinEdge& e : finals.edges()) {
    if (e.kind != Kind::kFull) {
      EXPECT_EQ(e.fuzzy, 0) << e.text;
    }
  }
}

TEST(PinyinLatticeTest, RejectsBadInput) {
  PinyinLattice lattice(OptionsWith(0));
  ASSERT_TRUE(lattice.Build("xian").ok());
  for (std::string_view bad : {"Xian", "xi an", "xi-an", "zhong1", "n\xc3\xbc"}) {
    const Status status = lattice.Build(bad);
    EXPECT_EQ(status.code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_TRUE(lattice.edges().empty());
    EXPECT_EQ(lattice.num_paths(), 0u);
  }
  const std::string longest(PinyinLattice::kMaxTyped, 'a');
  EXPECT_TRUE(lattice.Build(longest).ok());
  EXPECT_GT(lattice.num_paths(), 0u);
  const Status too_long = lattice.Build(longest + "a");
  EXPECT_EQ(too_long.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(too_long.message().find("64"), std::string::npos);
}

TEST(PinyinLatticeTest, EmptyAndUnreadableInput) {
  PinyinLattice lattice(OptionsWith(0));
  for (std::string_view typed : {"", "'", "'''"}) {
    ASSERT_TRUE(lattice.Build(typed).ok());
    EXPECT_TRUE(lattice.edges().empty());
    EXPECT_EQ(lattice.num_paths(), 0u);
  }
  ASSERT_TRUE(lattice.Build("iv").ok());  // no syllable starts with i or v
  EXPECT_EQ(lattice.num_paths(), 0u);
}

TEST(PinyinLatticeTest, MaxPathsAndRanking) {
  PinyinLattice one(OptionsWith(0, 1));
  ASSERT_TRUE(one.Build("xian").ok());
  EXPECT_EQ(Paths(one), std::vector<std::string>{"xian"});
  PinyinLattice none(OptionsWith(0, 0));
  ASSERT_TRUE(none.Build("xian").ok());
  EXPECT_EQ(none.num_paths(), 0u);
  PinyinLattice many(OptionsWith(kFuzzyAll, 1000));
  EXPECT_EQ(many.options().max_paths, PinyinLattice::kMaxPaths);
  ASSERT_TRUE(many.Build("zhongguorenmin").ok());
  EXPECT_EQ(many.num_paths(), PinyinLattice::kMaxPaths);
  EXPECT_EQ(PathString(many, 0), "zhong guo ren min");
  for (size_t i = 1; i < many.num_paths(); ++i) {
    EXPECT_LE(many.path_cost(i - 1), many.path_cost(i));
    if (many.path_cost(i - 1) == many.path_cost(i)) {
      EXPECT_LE(many.path(i - 1).size(), many.path(i).size());
    }
  }
}

TEST(PinyinLatticeTest, BuildDoesNotAllocate) {
  // Inputs with many readings per position: every fuzzy pair on, the most paths kept.
  const std::string inputs[] = {
      "xian",
      "zhongguorenmin",
      std::string(PinyinLattice::kMaxTyped, 'a'),
      "zhuangchuangshuangzhuangchuangshuangzhuangchuangshuangzhuangchu",
      "zhangzhengzhingcangcengcingsangsengsinglanglenglingnanneng'ning",
      "zhshchzhshchzhshchzhshchzhshchzhshchzhshchzhshchzhshchzhshchzhs",
      "xianxianxianxianxianxianxianxianxianxianxianxianxianxianxianxian",
  };
  PinyinLattice lattice(OptionsWith(kFuzzyAll, PinyinLattice::kMaxPaths));
  ASSERT_TRUE(pinyin::IsSyllable("a"));  // the sorted table is built on first use
  const long before = testing::Allocations();
  for (const std::string& typed : inputs) {
    ASSERT_TRUE(lattice.Build(typed).ok()) << typed;
    EXPECT_GT(lattice.num_paths(), 0u) << typed;
  }
  EXPECT_EQ(testing::Allocations() - before, 0);
}

// Every path covers the letters in order, each once, without apostrophes; its cost is the sum
// of its edges'; paths are distinct; edges read what their kind promises.
void CheckProperties(const PinyinLattice& lattice, std::string_view typed) {
  std::string letters;
  for (char c : typed) {
    if (c != '\'') letters += c;
  }
  std::vector<std::vector<uint16_t>> seen;
  for (size_t i = 0; i < lattice.num_paths(); ++i) {
    std::string covered;
    float cost = 0;
    size_t pos = 0;
    for (uint16_t e : lattice.path(i)) {
      const PinyinEdge& edge = lattice.edges()[e];
      while (pos < typed.size() && typed[pos] == '\'') ++pos;
      EXPECT_EQ(edge.begin, pos) << typed;
      covered += typed.substr(edge.begin, edge.end - edge.begin);
      cost += edge.cost;
      pos = edge.end;
    }
    EXPECT_EQ(covered, letters) << typed << ": " << PathString(lattice, i);
    EXPECT_FLOAT_EQ(cost, lattice.path_cost(i));
    const auto p = lattice.path(i);
    seen.emplace_back(p.begin(), p.end());
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << typed;
  for (const PinyinEdge& edge : lattice.edges()) {
    const std::string_view span = typed.substr(edge.begin, edge.end - edge.begin);
    EXPECT_EQ(span.find('\''), std::string_view::npos);
    switch (edge.kind) {
      case Kind::kFull:
        EXPECT_TRUE(pinyin::IsSyllable(edge.text)) << edge.text;
        if (edge.fuzzy == 0 && !edge.alias) {
          EXPECT_EQ(edge.text, span);
        }
        break;
      case Kind::kPrefixAtEnd:
        EXPECT_EQ(edge.end, typed.size());
        EXPECT_TRUE(pinyin::HasLongerSyllable(edge.text)) << edge.text;
        if (edge.fuzzy == 0) {
          EXPECT_EQ(edge.text, span);
        }
        break;
      case Kind::kInitialOnly:
        EXPECT_TRUE(pinyin::IsInitial(edge.text)) << edge.text;
        if (edge.fuzzy == 0) {
          EXPECT_EQ(edge.text, span);
        }
        break;
    }
  }
}

TEST(PinyinLatticeTest, PathsReconstructTheInput) {
  for (uint8_t fuzzy : {uint8_t{0}, uint8_t{kFuzzyAll}}) {
    PinyinLattice lattice(OptionsWith(fuzzy, PinyinLattice::kMaxPaths));
    for (std::string_view typed :
         {"xian", "xi'an", "fangan", "zhongguo", "zg", "zhgg", "womenzou", "zho", "lue'nve",
          "chuangqianmingyueguang", "'a''b'", "shishishishishishi"}) {
      ASSERT_TRUE(lattice.Build(typed).ok()) << typed;
      EXPECT_GT(lattice.num_paths(), 0u) << typed;
      CheckProperties(lattice, typed);
    }
    // Random strings of syllables, initials and apostrophes, up to the length cap.
    std::mt19937 rng(6);
    const auto syllables = pinyin::Syllables();
    const auto initials = pinyin::Initials();
    for (int trial = 0; trial < 300; ++trial) {
      std::string typed;
      while (true) {
        std::string piece;
        const unsigned r = rng() % 10;
        if (r < 6) {
          piece = syllables[rng() % syllables.size()];
        } else if (r < 9) {
          piece = initials[rng() % initials.size()];
        } else {
          piece.assign(1, '\'');
        }
        if (typed.size() + piece.size() > PinyinLattice::kMaxTyped) break;
        typed += piece;
        if (rng() % 12 == 0) break;
      }
      ASSERT_TRUE(lattice.Build(typed).ok()) << typed;
      const bool has_letters = typed.find_first_not_of('\'') != std::string::npos;
      EXPECT_EQ(lattice.num_paths() > 0, has_letters) << typed;
      CheckProperties(lattice, typed);
    }
  }
}

// Typing errors: options with the given typo bits (and fuzzy pairs).
PinyinLattice::Options TypoOptions(uint8_t typos, uint8_t fuzzy = 0,
                                   size_t max_paths = PinyinLattice::kMaxPaths) {
  PinyinLattice::Options options = OptionsWith(fuzzy, max_paths);
  options.typos = typos;
  return options;
}

// The typo edge [begin, end) reading `text`, or nullptr.
const PinyinEdge* FindTypoEdge(const PinyinLattice& lattice, size_t begin, size_t end,
                               std::string_view text) {
  for (const PinyinEdge& edge : lattice.EdgesFrom(begin)) {
    if (edge.end == end && edge.typo != 0 && edge.text == text) return &edge;
  }
  return nullptr;
}

bool PathHasTypo(const PinyinLattice& lattice, size_t i) {
  for (uint16_t e : lattice.path(i)) {
    if (lattice.edges()[e].typo != 0) return true;
  }
  return false;
}

TEST(PinyinLatticeTypoTest, SwappedAdjacentLetters) {
  PinyinLattice lattice(TypoOptions(kTypoSwap));
  struct Case {
    const char* typed;
    const char* matched;
  };
  for (const Case& c :
       {Case{"xign", "xing"}, Case{"huna", "huan"}, Case{"zhnog", "zhong"}, Case{"sih", "shi"}}) {
    SCOPED_TRACE(c.typed);
    ASSERT_TRUE(lattice.Build(c.typed).ok());
    const size_t n = std::string_view(c.typed).size();
    const PinyinEdge* edge = FindTypoEdge(lattice, 0, n, c.matched);
    ASSERT_NE(edge, nullptr);
    EXPECT_EQ(edge->kind, Kind::kFull);
    EXPECT_EQ(edge->typo, kTypoSwap);
    EXPECT_EQ(edge->fuzzy, 0);
    EXPECT_EQ(edge->cost, lattice.options().typo_cost);
    EXPECT_TRUE(Contains(Paths(lattice), c.matched));
    // Neighbour substitutions are off.
    for (const PinyinEdge& e : lattice.edges()) EXPECT_NE(e.typo, kTypoNeighbour) << e.text;
  }
  // Inside a syllable only, within an apostrophe-delimited segment: "xi'gn" never reads xing.
  ASSERT_TRUE(lattice.Build("xi'gn").ok());
  for (const PinyinEdge& e : lattice.edges()) EXPECT_NE(e.text, "xing");
}

TEST(PinyinLatticeTypoTest, NeighbourKeySubstitution) {
  PinyinLattice qwerty(TypoOptions(kTypoNeighbour));
  ASSERT_TRUE(qwerty.Build("xinf").ok());  // f is next to g
  const PinyinEdge* xing = FindTypoEdge(qwerty, 0, 4, "xing");
  ASSERT_NE(xing, nullptr);
  EXPECT_EQ(xing->typo, kTypoNeighbour);
  EXPECT_EQ(xing->kind, Kind::kFull);
  EXPECT_EQ(xing->cost, qwerty.options().typo_cost);
  EXPECT_TRUE(Contains(Paths(qwerty), "xing"));
  ASSERT_TRUE(qwerty.Build("xind").ok());  // d is two keys from g: no slip
  EXPECT_EQ(FindTypoEdge(qwerty, 0, 4, "xing"), nullptr);
  ASSERT_TRUE(qwerty.Build("zhomg").ok());  // m is next to n
  EXPECT_NE(FindTypoEdge(qwerty, 0, 5, "zhong"), nullptr);
  // Swaps are off.
  ASSERT_TRUE(qwerty.Build("xign").ok());
  EXPECT_EQ(FindTypoEdge(qwerty, 0, 4, "xing"), nullptr);

  // With a layout passed in, its geometry decides: here d is next to g, f is far.
  KeyboardLayout layout;
  ASSERT_TRUE(
      KeyboardLayout::Parse("name = test\nrow 0 g d\nrow 0 x i n\nrow 0 f\n", &layout).ok());
  PinyinLattice::Options options = TypoOptions(kTypoNeighbour);
  options.layout = &layout;
  PinyinLattice custom(options);
  EXPECT_EQ(custom.options().layout, nullptr);  // not kept
  ASSERT_TRUE(custom.Build("xind").ok());
  EXPECT_NE(FindTypoEdge(custom, 0, 4, "xing"), nullptr);
  ASSERT_TRUE(custom.Build("xinf").ok());
  EXPECT_EQ(FindTypoEdge(custom, 0, 4, "xing"), nullptr);
}

TEST(PinyinLatticeTypoTest, OffByDefault) {
  EXPECT_EQ(PinyinLattice::Options().typos, 0);
  for (std::string_view typed : {"xign", "huna", "xinf", "zhongguorenmin"}) {
    SCOPED_TRACE(typed);
    PinyinLattice plain(OptionsWith(kFuzzyAll));
    ASSERT_TRUE(plain.Build(typed).ok());
    for (const PinyinEdge& e : plain.edges()) EXPECT_EQ(e.typo, 0) << e.text;
    // Switched on, the lattice only gains edges: the same paths are there, and more.
    PinyinLattice typos(TypoOptions(kTypoAll, kFuzzyAll, 16));
    ASSERT_TRUE(typos.Build(typed).ok());
    EXPECT_GT(typos.edges().size(), plain.edges().size());
    EXPECT_EQ(PathString(typos, 0), PathString(plain, 0));
    EXPECT_FALSE(PathHasTypo(typos, 0));
  }
  EXPECT_EQ(PathsOf("xign"), (std::vector<std::string>{"xi g* n~"}));
}

TEST(PinyinLatticeTypoTest, CorrectReadingBeatsTypoReading) {
  PinyinLattice lattice(TypoOptions(kTypoAll, kFuzzyAll));
  EXPECT_GT(lattice.options().typo_cost, lattice.options().fuzzy_cost);
  // "xing" typed right: read as typed first, no typo edge reads xing over it.
  ASSERT_TRUE(lattice.Build("xing").ok());
  EXPECT_EQ(PathString(lattice, 0), "xing");
  EXPECT_EQ(lattice.path_cost(0), 0.0f);
  EXPECT_EQ(FindTypoEdge(lattice, 0, 4, "xing"), nullptr);
  // "ding" may be a slip for dong (o next to i), ranked below the correct reading.
  ASSERT_TRUE(lattice.Build("ding").ok());
  EXPECT_EQ(PathString(lattice, 0), "ding");
  const PinyinEdge* dong = FindTypoEdge(lattice, 0, 4, "dong");
  ASSERT_NE(dong, nullptr);
  EXPECT_GT(dong->cost, FindEdge(lattice, 0, 4, Kind::kFull, "ding")->cost);
  // "xinf": the correct reading (xin, then f being typed) beats the typo reading xing.
  ASSERT_TRUE(lattice.Build("xinf").ok());
  EXPECT_FALSE(PathHasTypo(lattice, 0));
  bool found = false;
  for (size_t i = 0; i < lattice.num_paths(); ++i) {
    if (PathString(lattice, i) != "xing") continue;
    found = true;
    EXPECT_TRUE(PathHasTypo(lattice, i));
    EXPECT_FLOAT_EQ(lattice.path_cost(i), lattice.options().typo_cost);
    EXPECT_LT(lattice.path_cost(0), lattice.path_cost(i));
  }
  EXPECT_TRUE(found);
  // Whole sentences typed right never have a typo on their best path.
  for (std::string_view typed : {"zhongguorenmin", "chuangqianmingyueguang", "womenzou"}) {
    ASSERT_TRUE(lattice.Build(typed).ok());
    EXPECT_FALSE(PathHasTypo(lattice, 0)) << typed;
  }
}

// Every typo edge: a full syllable over 2-6 typed letters that are one swap or one substitution
// away from it, never what the letters already read as; paths cover the letters exactly once.
void CheckTypoProperties(const PinyinLattice& lattice, std::string_view typed) {
  std::string letters;
  for (char c : typed) {
    if (c != '\'') letters += c;
  }
  for (size_t i = 0; i < lattice.num_paths(); ++i) {
    std::string covered;
    float cost = 0;
    size_t pos = 0;
    for (uint16_t e : lattice.path(i)) {
      const PinyinEdge& edge = lattice.edges()[e];
      while (pos < typed.size() && typed[pos] == '\'') ++pos;
      EXPECT_EQ(edge.begin, pos) << typed;
      covered += typed.substr(edge.begin, edge.end - edge.begin);  // a typo edge too
      cost += edge.cost;
      pos = edge.end;
    }
    EXPECT_EQ(covered, letters) << typed << ": " << PathString(lattice, i);
    EXPECT_FLOAT_EQ(cost, lattice.path_cost(i));
  }
  const auto& edges = lattice.edges();
  for (size_t i = 0; i < edges.size(); ++i) {
    const PinyinEdge& edge = edges[i];
    if (edge.typo == 0) continue;
    const std::string_view span = typed.substr(edge.begin, edge.end - edge.begin);
    SCOPED_TRACE(std::string(span) + " → " + std::string(edge.text));
    EXPECT_EQ(edge.kind, Kind::kFull);
    EXPECT_TRUE(edge.typo == kTypoSwap || edge.typo == kTypoNeighbour);
    EXPECT_EQ(edge.fuzzy, 0);
    EXPECT_EQ(edge.cost, lattice.options().typo_cost);
    EXPECT_TRUE(pinyin::IsSyllable(edge.text));
    EXPECT_GE(span.size(), 2u);
    EXPECT_EQ(span.find('\''), std::string_view::npos);
    EXPECT_NE(edge.text, span);
    EXPECT_NE(pinyin::CanonicalSyllable(span), edge.text);
    // No other full edge over the same letters reads the same syllable.
    for (size_t j = 0; j < edges.size(); ++j) {
      if (j == i) continue;
      EXPECT_FALSE(edges[j].begin == edge.begin && edges[j].end == edge.end &&
                   edges[j].kind == Kind::kFull && edges[j].text == edge.text);
    }
    if (!edge.alias) {
      ASSERT_EQ(edge.text.size(), span.size());
      std::vector<size_t> diff;
      for (size_t k = 0; k < span.size(); ++k) {
        if (span[k] != edge.text[k]) diff.push_back(k);
      }
      if (edge.typo == kTypoNeighbour) {
        EXPECT_EQ(diff.size(), 1u);
      } else {
        ASSERT_EQ(diff.size(), 2u);
        EXPECT_EQ(diff[1], diff[0] + 1);
        EXPECT_EQ(span[diff[0]], edge.text[diff[1]]);
        EXPECT_EQ(span[diff[1]], edge.text[diff[0]]);
      }
    }
  }
}

TEST(PinyinLatticeTypoTest, PathsCoverTheTypedLettersAndTyposAreReal) {
  for (uint8_t fuzzy : {uint8_t{0}, uint8_t{kFuzzyAll}}) {
    PinyinLattice lattice(TypoOptions(kTypoAll, fuzzy));
    size_t typo_edges = 0;
    for (std::string_view typed : {"xign", "huna", "xinf", "zhnog'gou", "wmoenzou", "xi'an",
                                   "chuangqianmingyueguang", "lue'nve", "shishishishishishi"}) {
      ASSERT_TRUE(lattice.Build(typed).ok()) << typed;
      EXPECT_GT(lattice.num_paths(), 0u) << typed;
      CheckTypoProperties(lattice, typed);
      for (const PinyinEdge& e : lattice.edges()) typo_edges += e.typo != 0;
    }
    EXPECT_GT(typo_edges, 0u);
    // Random syllables with one random swap or substitution here and there.
    std::mt19937 rng(61);
    const auto syllables = pinyin::Syllables();
    for (int trial = 0; trial < 200; ++trial) {
      std::string typed;
      while (true) {
        std::string piece(syllables[rng() % syllables.size()]);
        if (piece.size() >= 2 && rng() % 3 == 0) {
          const size_t k = rng() % (piece.size() - 1);
          if (rng() % 2) {
            std::swap(piece[k], piece[k + 1]);
          } else {
            piece[k] = static_cast<char>('a' + rng() % 26);
          }
        }
        if (rng() % 8 == 0) piece += '\'';
        if (typed.size() + piece.size() > PinyinLattice::kMaxTyped) break;
        typed += piece;
        if (rng() % 10 == 0) break;
      }
      ASSERT_TRUE(lattice.Build(typed).ok()) << typed;
      CheckTypoProperties(lattice, typed);
    }
  }
}

TEST(PinyinLatticeTypoTest, BuildDoesNotAllocateWithTypos) {
  const std::string inputs[] = {
      "xign",
      std::string(PinyinLattice::kMaxTyped, 'a'),
      "zhuangchuangshuangzhuangchuangshuangzhuangchuangshuangzhuangchu",
      "zhangzhengzhingcangcengcingsangsengsinglanglenglingnanneng'ning",
      "xianxianxianxianxianxianxianxianxianxianxianxianxianxianxianxian",
      "xignhunaxinfzhnogxignhunaxinfzhnogxignhunaxinfzhnogxignhunaxinf",
  };
  KeyboardLayout layout;
  ASSERT_TRUE(KeyboardLayout::Parse("row 0 q w e r t y u i o p\nrow 0.25 a s d f g h j k l\n"
                                    "row 0.75 z x c v b n m\n",
                                    &layout)
                  .ok());
  const KeyboardLayout* const layouts[] = {nullptr, &layout};
  for (const KeyboardLayout* l : layouts) {
    PinyinLattice::Options options = TypoOptions(kTypoAll, kFuzzyAll);
    options.layout = l;
    options.neighbour_distance = 3.0f;  // many neighbours: the most edges
    PinyinLattice lattice(options);
    ASSERT_TRUE(pinyin::IsSyllable("a"));
    const long before = testing::Allocations();
    for (const std::string& typed : inputs) {
      ASSERT_TRUE(lattice.Build(typed).ok()) << typed;
      EXPECT_GT(lattice.num_paths(), 0u) << typed;
    }
    EXPECT_EQ(testing::Allocations() - before, 0);
  }
}

}  // namespace
}  // namespace keydecide
