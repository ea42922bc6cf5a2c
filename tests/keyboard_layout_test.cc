#include "text/keyboard_layout.h"

#include <gtest/gtest.h>

namespace keydecide {
namespace {

TEST(KeyboardLayoutTest, BundledLayoutsLoad) {
  for (const char* name : {"qwerty", "azerty", "dvorak"}) {
    KeyboardLayout layout;
    const Status s =
        KeyboardLayout::Load(std::string(KD_MODELS_DIR) + "/layouts/" + name + ".txt", &layout);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(layout.name(), name);
    for (char c = 'a'; c <= 'z'; ++c) {
      KeyboardLayout::Point p;
      EXPECT_TRUE(layout.Find(static_cast<char32_t>(c), &p)) << name << " lacks " << c;
    }
  }
}

TEST(KeyboardLayoutTest, QwertyGeometry) {
  KeyboardLayout layout;
  ASSERT_TRUE(KeyboardLayout::Load(std::string(KD_MODELS_DIR) + "/layouts/qwerty.txt", &layout).ok());
  EXPECT_FLOAT_EQ(layout.Distance(U'q', U'w'), 1.0f);
  EXPECT_LT(layout.Distance(U'a', U'q'), 1.5f);  // diagonal neighbours
  EXPECT_LT(layout.Distance(U's', U'x'), 1.5f);
  EXPECT_GT(layout.Distance(U'q', U'p'), 8.0f);
  EXPECT_FLOAT_EQ(layout.Distance(U'Q', U'w'), 1.0f);  // case-insensitive
  EXPECT_LT(layout.Distance(U'q', U'\u00E9'), 0.0f);   // not on the layout
}

TEST(KeyboardLayoutTest, AByteOrderMarkIsIgnored) {
  KeyboardLayout layout;
  const Status s = KeyboardLayout::Parse("\xEF\xBB\xBFname = bom\nrow 0 q w e\n", &layout);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(layout.name(), "bom");
  EXPECT_FLOAT_EQ(layout.Distance(U'q', U'w'), 1.0f);
}

TEST(KeyboardLayoutTest, MalformedFilesAreRefused) {
  KeyboardLayout layout;
  EXPECT_FALSE(KeyboardLayout::Parse("", &layout).ok());
  EXPECT_FALSE(KeyboardLayout::Parse("# only a comment\n", &layout).ok());
  EXPECT_FALSE(KeyboardLayout::Parse("row x a b\n", &layout).ok());
  EXPECT_FALSE(KeyboardLayout::Parse("row 0 a b a\n", &layout).ok());
  EXPECT_FALSE(KeyboardLayout::Parse("row 0 ab\n", &layout).ok());
  EXPECT_FALSE(KeyboardLayout::Parse("column 0 a\n", &layout).ok());
  EXPECT_FALSE(KeyboardLayout::Parse("row 0 a\xFF\n", &layout).ok());
  const Status s = KeyboardLayout::Parse("name = t\nrow 0 a\nrow 0 b c b\n", &layout);
  EXPECT_NE(s.message().find("line 3"), std::string::npos) << s.message();
  EXPECT_EQ(KeyboardLayout::Load("/nonexistent/x.txt", &layout).code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace keydecide
