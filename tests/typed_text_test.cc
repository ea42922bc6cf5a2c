// TypedText under both packs' composition rules: what extends a composition, deletion,
// replacement, trimming, and the key metadata each character carries.

#include "decide/typed_text.h"

#include <gtest/gtest.h>

#include <string>

#include "decide/en/english_word.h"
#include "decide/zh/zh_state.h"

namespace keydecide {
namespace {

void TypeAll(TypedText* t, std::string_view s, std::optional<int64_t> t_ms = std::nullopt) {
  ASSERT_TRUE(
      ForEachChar(s, [&](std::string_view ch, char32_t cp) { t->Append(ch, cp, t_ms); }).ok());
}

TEST(TypedTextTest, EnglishWordsAndApostrophes) {
  TypedText t(&kEnglishComposition);
  TypeAll(&t, "see you tomo");
  EXPECT_EQ(t.composition(), "tomo");
  TypeAll(&t, " don'");
  EXPECT_EQ(t.composition(), "don'");
  TypeAll(&t, "'");  // a second apostrophe ends the word
  EXPECT_EQ(t.composition(), "");
  const TypedText::Typed typed = t.Append("x", 'x', std::nullopt);
  EXPECT_TRUE(typed.extended);
  EXPECT_EQ(typed.ended_end, typed.ended_start);  // it started a word, ended none
  const TypedText::Typed space = t.Append(" ", ' ', std::nullopt);
  EXPECT_FALSE(space.extended);
  EXPECT_EQ(t.text().substr(space.ended_start, space.ended_end - space.ended_start), "x");
}

TEST(TypedTextTest, EnglishBackspaceReopensTheWord) {
  TypedText t(&kEnglishComposition);
  TypeAll(&t, "hello ");
  bool committed = false;
  ASSERT_TRUE(t.Backspace(&committed));
  EXPECT_TRUE(committed);
  EXPECT_EQ(t.composition(), "hello");
  TypedText empty(&kEnglishComposition);
  EXPECT_FALSE(empty.Backspace(&committed));
}

TEST(TypedTextTest, PinyinKeepsCommittedTextClosed) {
  TypedText t(&kPinyinComposition);
  TypeAll(&t, "ni'hao");
  EXPECT_EQ(t.composition(), "ni'hao");
  t.ReplaceComposition(3, "你");  // "ni'" consumed
  EXPECT_EQ(t.text(), "你hao");
  EXPECT_EQ(t.composition(), "hao");
  t.ReplaceComposition(3, "好");
  EXPECT_EQ(t.composition(), "");
  bool committed = false;
  ASSERT_TRUE(t.Backspace(&committed));
  EXPECT_TRUE(committed);
  EXPECT_EQ(t.text(), "你");
  EXPECT_EQ(t.composition(), "");  // hanzi are not letters to reopen
  TypeAll(&t, "'");                // an apostrophe does not start a composition
  EXPECT_EQ(t.composition(), "");
}

TEST(TypedTextTest, PinyinCommitsAnOverlongCompositionAsTyped) {
  TypedText t(&kPinyinComposition);
  const std::string letters(kPinyinComposition.max_bytes, 'a');
  TypeAll(&t, letters);
  EXPECT_EQ(t.composition().size(), letters.size());
  const TypedText::Typed typed = t.Append("b", 'b', std::nullopt);
  EXPECT_TRUE(typed.extended);
  EXPECT_EQ(typed.ended_end - typed.ended_start, letters.size());
  EXPECT_EQ(t.composition(), "b");
}

TEST(TypedTextTest, TrimKeepsTheLimitAndAShortComposition) {
  for (const CompositionRule* rule : {&kEnglishComposition, &kPinyinComposition}) {
    TypedText t(rule);
    for (int i = 0; i < 2000; ++i) {
      TypeAll(&t, "ab ");
      t.TrimToLimit();
    }
    TypeAll(&t, "xyz");
    t.TrimToLimit();
    EXPECT_LE(t.text().size(), kMaxTextBytes);
    EXPECT_EQ(t.composition(), "xyz");
    EXPECT_TRUE(t.text().ends_with("ab xyz"));
  }
}

TEST(TypedTextTest, KeyTimesBecomeIntervals) {
  TypedText t(&kEnglishComposition);
  t.Append("a", 'a', 1000);  // the first key has no interval: nothing came before
  t.Append("b", 'b', 1180);
  t.Append("c", 'c', std::nullopt);
  t.Append("d", 'd', 1500);  // after an untimed key: unknown
  t.Append("e", 'e', 1400);  // a clock that went back counts as 0 ms
  EXPECT_FALSE(t.meta(0).timed());
  EXPECT_EQ(t.meta(1).interval_ms, 180);
  EXPECT_FALSE(t.meta(2).timed());
  EXPECT_FALSE(t.meta(3).timed());
  EXPECT_EQ(t.meta(4).interval_ms, 0);
  t.Append("f", 'f', 1400 + 10 * 60 * 1000);  // ten minutes: capped
  EXPECT_EQ(t.meta(5).interval_ms, KeyMeta::kMaxIntervalMs);
}

TEST(TypedTextTest, BackspaceFlagsTheNextKeyOnly) {
  TypedText t(&kEnglishComposition);
  TypeAll(&t, "thw");
  bool committed;
  ASSERT_TRUE(t.Backspace(&committed));
  EXPECT_FALSE(committed);
  TypeAll(&t, "er");
  EXPECT_EQ(t.text(), "ther");
  EXPECT_FALSE(t.meta(1).after_backspace);
  EXPECT_TRUE(t.meta(2).after_backspace);
  EXPECT_FALSE(t.meta(3).after_backspace);
  t.Assign("fresh");  // context from the host: no key metadata
  EXPECT_FALSE(t.meta(0).after_backspace);
  EXPECT_FALSE(t.meta(0).timed());
}

TEST(TypedTextTest, MultiByteCharactersCarryTheirMetaAtTheFirstByte) {
  TypedText t(&kEnglishComposition);
  t.Append("a", 'a', 100);
  t.Append("é", U'é', 250);
  EXPECT_EQ(t.composition(), "aé");
  EXPECT_EQ(t.meta(1).interval_ms, 150);
  bool committed;
  ASSERT_TRUE(t.Backspace(&committed));
  EXPECT_EQ(t.text(), "a");
}

}  // namespace
}  // namespace keydecide
