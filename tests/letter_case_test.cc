#include "text/letter_case.h"

#include <gtest/gtest.h>

namespace keydecide {
namespace {

TEST(LetterCaseTest, LowerAndUpperAcrossScripts) {
  EXPECT_EQ(ToLower(U'A'), U'a');
  EXPECT_EQ(ToLower(U'\u00C9'), U'\u00E9');  // É
  EXPECT_EQ(ToLower(U'\u00D7'), U'\u00D7');  // × is not a letter
  EXPECT_EQ(ToLower(U'\u0100'), U'\u0101');  // Ā, even/odd pairs
  EXPECT_EQ(ToLower(U'\u0141'), U'\u0142');  // Ł, odd/even pairs
  EXPECT_EQ(ToLower(U'\u03A3'), U'\u03C3');  // Σ
  EXPECT_EQ(ToLower(U'\u0414'), U'\u0434');  // Д
  EXPECT_EQ(ToLower(U'\u0401'), U'\u0451');  // Ё
  EXPECT_EQ(ToUpper(U'z'), U'Z');
  EXPECT_EQ(ToUpper(U'\u00E9'), U'\u00C9');
  EXPECT_EQ(ToUpper(U'\u0142'), U'\u0141');
  EXPECT_EQ(ToUpper(U'\u0451'), U'\u0401');
  EXPECT_EQ(ToUpper(U'\u4E2D'), U'\u4E2D');  // no case
  EXPECT_EQ(ToLower(U'\u0178'), U'\u00FF');  // Ÿ pairs with Latin-1 ÿ
  EXPECT_EQ(ToUpper(U'\u00FF'), U'\u0178');
  EXPECT_EQ(ToUpper(U'\u017F'), U'S');       // long s: Unicode's simple mapping
  EXPECT_EQ(ToLower(U'\u01C4'), U'\u01C6');  // Ǆ: Latin Extended-B has case too
  EXPECT_EQ(ToLower(U'\u0531'), U'\u0561');  // Armenian
  EXPECT_EQ(ToLower(U'\u1F08'), U'\u1F00');  // accented Greek capital
  EXPECT_EQ(ToLower(U'\u017D'), U'\u017E');  // Ž
}

// A composed and a decomposed "é" are one key; the marks belong to their letter.
TEST(LetterCaseTest, LowerCaseIsNfc) {
  EXPECT_EQ(ToLowerUtf8("Caf\u00C9"), "caf\u00E9");
  EXPECT_EQ(ToLowerUtf8("CafE\u0301"), "caf\u00E9");  // E + combining acute -> é
  EXPECT_EQ(ToLowerUtf8("a\u0323\u0307"), ToLowerUtf8("a\u0307\u0323"));  // canonical order
  EXPECT_TRUE(IsLetter(U'\u0301'));
  EXPECT_EQ(ToLowerUtf8("ABC\xff"), "abc\xff");  // invalid bytes copied, the rest lowered
  const std::string long_word(300, 'A');
  EXPECT_EQ(ToLowerUtf8(long_word + "\u00C9"), std::string(300, 'a') + "\u00E9");
}

// İ (U+0130) lowers to i, which composes with a mark after it: the result is still NFC, and
// lower-casing it again changes nothing (found by fuzz/text_fuzzer.cc: "İ\u0301" gave
// "i\u0301", which lowered again to "í").
TEST(LetterCaseTest, LowerCaseIsNfcAfterALetterThatLowersToAnotherBase) {
  EXPECT_EQ(ToLowerUtf8("\u0130\u0301"), "\u00ED");
  EXPECT_EQ(ToLowerUtf8("\u0130stanbul"), "istanbul");
  EXPECT_EQ(ToLowerUtf8("I\u0307"), "i");  // NFC: İ, then as above
  for (const char* s : {"\u0130\u0301", "CAF\u0130\u0301 \u0130\u0323\u0301", "\u212A\u0301"}) {
    const std::string lower = ToLowerUtf8(s);
    EXPECT_EQ(ToLowerUtf8(lower), lower) << s;
  }
}

TEST(LetterCaseTest, Classes) {
  EXPECT_TRUE(IsLetter(U'q'));
  EXPECT_TRUE(IsLetter(U'\u00F1'));
  EXPECT_TRUE(IsLetter(U'\u4E2D'));
  EXPECT_FALSE(IsLetter(U'3'));
  EXPECT_FALSE(IsLetter(U'\''));
  EXPECT_FALSE(IsLetter(U'\u00F7'));
  EXPECT_TRUE(IsDigit(U'7'));
  EXPECT_TRUE(IsSpace(U'\u00A0'));
  EXPECT_FALSE(IsSpace(U'x'));
}

TEST(LetterCaseTest, Utf8Helpers) {
  EXPECT_EQ(ToLowerUtf8("Hello \xC3\x89T\xC3\x89"), "hello \xC3\xA9t\xC3\xA9");
  EXPECT_EQ(ToLowerUtf8("A\xFF"
                        "B"),
            "a\xFF"
            "b");  // invalid bytes pass through
  EXPECT_EQ(CapitalizeUtf8("\xC3\xA9lan"), "\xC3\x89lan");
  EXPECT_EQ(CapitalizeUtf8(""), "");
  std::string upper;
  AppendUpperUtf8("caf\xC3\xA9 42\xFF", &upper);
  EXPECT_EQ(upper, "CAF\xC3\x89 42\xFF");  // invalid bytes pass through
  EXPECT_TRUE(StartsUpper("'Tis"));
  EXPECT_FALSE(StartsUpper("iPhone"));
  EXPECT_FALSE(StartsUpper("123"));
}

}  // namespace
}  // namespace keydecide
