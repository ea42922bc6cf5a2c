#include "text/utf8.h"

#include <gtest/gtest.h>

namespace keydecide {
namespace {

TEST(Utf8Test, DecodesEveryLength) {
  const std::string s = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80";  // a é 中 😀
  size_t pos = 0;
  char32_t cp;
  ASSERT_TRUE(utf8::Decode(s, &pos, &cp));
  EXPECT_EQ(cp, U'a');
  ASSERT_TRUE(utf8::Decode(s, &pos, &cp));
  EXPECT_EQ(cp, U'\u00E9');
  ASSERT_TRUE(utf8::Decode(s, &pos, &cp));
  EXPECT_EQ(cp, U'\u4E2D');
  ASSERT_TRUE(utf8::Decode(s, &pos, &cp));
  EXPECT_EQ(cp, U'\U0001F600');
  EXPECT_EQ(pos, s.size());
  EXPECT_EQ(utf8::Length(s), 4u);
}

TEST(Utf8Test, RejectsInvalidSequences) {
  const char* bad[] = {
      "\x80",              // stray continuation byte
      "\xC0\x80",          // overlong NUL
      "\xE0\x80\x80",      // overlong 3-byte
      "\xF0\x80\x80\x80",  // overlong 4-byte
      "\xED\xA0\x80",      // UTF-16 surrogate
      "\xF4\x90\x80\x80",  // above U+10FFFF
      "\xE2\x82",          // truncated
      "\xF8\x88\x80\x80",  // 5-byte form
      "\xFF",
      "\xC3\x28",          // lead byte followed by ASCII
  };
  for (const char* b : bad) {
    const std::string s(b);
    EXPECT_FALSE(utf8::Validate(s).ok()) << "accepted " << ::testing::PrintToString(s);
    size_t pos = 0;
    char32_t cp;
    EXPECT_FALSE(utf8::Decode(s, &pos, &cp));
    EXPECT_EQ(pos, 1u);  // always moves forward by one byte
    EXPECT_EQ(cp, utf8::kReplacement);
  }
}

TEST(Utf8Test, AcceptsBoundaryValues) {
  for (const char* ok : {"\x7F", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF",
                         "\xEE\x80\x80", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
    EXPECT_TRUE(utf8::Validate(ok).ok()) << ::testing::PrintToString(std::string(ok));
  }
}

TEST(Utf8Test, ValidateNamesTheOffset) {
  const Status s = utf8::Validate("abc\xFF");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("byte 3"), std::string::npos) << s.message();
}

TEST(Utf8Test, RepairReplacesEachInvalidByte) {
  EXPECT_EQ(utf8::Repair("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(utf8::Repair("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(utf8::Repair("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_TRUE(utf8::Validate(utf8::Repair("\xC0\x80\xED\xA0\x80z")).ok());
}

TEST(Utf8Test, AppendEncodesAndReplacesInvalidCodePoints) {
  std::string out;
  utf8::Append(U'\u00E9', &out);
  utf8::Append(0xD800, &out);
  utf8::Append(0x110000, &out);
  EXPECT_EQ(out, "\xC3\xA9\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(Utf8Test, LastCharStart) {
  EXPECT_EQ(utf8::LastCharStart(""), 0u);
  EXPECT_EQ(utf8::LastCharStart("ab"), 1u);
  EXPECT_EQ(utf8::LastCharStart("a\xE4\xB8\xAD"), 1u);
}

}  // namespace
}  // namespace keydecide
