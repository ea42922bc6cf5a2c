// The code/comment rule (code_context.h).

#include "code_context.h"

#include <string>

#include <gtest/gtest.h>

namespace keydecide::ls {
namespace {

// The kind at the '|' of `marked` (removed before scanning).
TextRegion At(std::string_view language, std::string marked) {
  const size_t cursor = marked.find('|');
  marked.erase(cursor, 1);
  return RegionAt(language, marked, cursor);
}

TEST(CodeContextTest, ProseLanguagesAreProseEverywhere) {
  EXPECT_EQ(At("markdown", "int x = 1; // a|").kind, TextKind::kProse);
  EXPECT_EQ(At("plaintext", "x|").kind, TextKind::kProse);
  EXPECT_EQ(At("gitcommit", "fix: the|").kind, TextKind::kProse);
  EXPECT_FALSE(IsProseLanguage("c"));
}

TEST(CodeContextTest, CommentsAndStringsOfC) {
  EXPECT_EQ(At("c", "int main() { ret|").kind, TextKind::kCode);
  const TextRegion line = At("c", "int x; // see you tomo|");
  EXPECT_EQ(line.kind, TextKind::kComment);
  EXPECT_EQ(line.begin, 9u);
  EXPECT_EQ(At("c", "int x; // note\nint y|").kind, TextKind::kCode);
  EXPECT_EQ(At("c", "/* see\n * you to|").kind, TextKind::kComment);
  EXPECT_EQ(At("c", "/* done */ int y|").kind, TextKind::kCode);
  EXPECT_EQ(At("c", "puts(\"hello wor|").kind, TextKind::kString);
  EXPECT_EQ(At("c", "puts(\"say \\\"hi\\\" to|").kind, TextKind::kString);  // escapes
  EXPECT_EQ(At("c", "puts(\"a // b\"); x|").kind, TextKind::kCode);  // no comment in a string
  EXPECT_EQ(At("c", "char c = '\"'; in|").kind, TextKind::kCode);
  EXPECT_EQ(At("c", "puts(\"unclosed\nint y|").kind, TextKind::kCode);
  EXPECT_EQ(At("cpp", "x = y; /* a \"quote */ z|").kind, TextKind::kCode);
}

TEST(CodeContextTest, OtherFamilies) {
  EXPECT_EQ(At("python", "x = 1  # see you|").kind, TextKind::kComment);
  EXPECT_EQ(At("python", "'''doc\nstring wi|").kind, TextKind::kString);
  EXPECT_EQ(At("python", "'''doc''' + x|").kind, TextKind::kCode);
  EXPECT_EQ(At("shellscript", "echo $x # wh|").kind, TextKind::kComment);
  EXPECT_EQ(At("lua", "x = 1 -- see|").kind, TextKind::kComment);
  EXPECT_EQ(At("html", "<p>x</p><!-- a no|").kind, TextKind::kComment);
  EXPECT_EQ(At("lisp", "(foo) ; what|").kind, TextKind::kComment);
  EXPECT_EQ(At("rust", "let x = 1; // wh|").kind, TextKind::kComment);
}

TEST(CodeContextTest, ResumedScansAgreeWithFreshOnes) {
  const std::string text =
      "int a = 1; // one \"two\"\n/* three\n * four */ puts(\"fi\\\"ve /* six\");\n"
      "char c = '\\''; // seven\nx = `multi\nline`; <!-- y";
  for (const std::string_view language : {"c", "javascript", "python", "html"}) {
    RegionScan checkpoint;
    for (size_t offset = 0; offset <= text.size(); ++offset) {
      const TextRegion fresh = RegionAt(language, text, offset);
      const TextRegion resumed = RegionAt(language, text, offset, &checkpoint);
      ASSERT_EQ(resumed.kind, fresh.kind) << language << " at " << offset;
      ASSERT_EQ(resumed.begin, fresh.begin) << language << " at " << offset;
      EXPECT_LE(checkpoint.pos, offset);
    }
    // Back to an earlier offset: the checkpoint lies after it and is not used.
    EXPECT_EQ(RegionAt(language, text, 12, &checkpoint).kind, RegionAt(language, text, 12).kind);
  }
}

}  // namespace
}  // namespace keydecide::ls
