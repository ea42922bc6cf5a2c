#include "text/tokenizer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keydecide {
namespace {

std::vector<std::string> Kinds(std::string_view text, std::vector<std::string>* texts) {
  std::vector<Token> tokens;
  Tokenize(text, &tokens);
  std::vector<std::string> kinds;
  for (const Token& t : tokens) {
    kinds.push_back(TokenKindName(t.kind));
    texts->emplace_back(t.text);
    EXPECT_EQ(text.substr(t.offset, t.text.size()), t.text);
  }
  return kinds;
}

TEST(TokenizerTest, WordsWithApostrophesAndHyphens) {
  std::vector<std::string> texts;
  auto kinds = Kinds("Don't stop: a well-known rock'n'roll band -- 'quoted'.", &texts);
  std::vector<std::string> want = {"Don't", "stop", ":", "a", "well-known", "rock'n'roll", "band",
                                   "-", "-", "'", "quoted", "'", "."};
  EXPECT_EQ(texts, want);
  EXPECT_EQ(kinds[0], "word");
  EXPECT_EQ(kinds[2], "punct");
}

TEST(TokenizerTest, Numbers) {
  std::vector<std::string> texts;
  auto kinds = Kinds("pi is 3.14, about 1,000 times 2.", &texts);
  std::vector<std::string> want = {"pi", "is", "3.14", ",", "about", "1,000", "times", "2", "."};
  EXPECT_EQ(texts, want);
  EXPECT_EQ(kinds[2], "number");
  EXPECT_EQ(kinds[5], "number");
}

TEST(TokenizerTest, UrlsAndEmailsStayWhole) {
  std::vector<std::string> texts;
  auto kinds = Kinds(
      "See https://example.org/a?b=c&d=1. Or www.debian.org, mail jane.doe+x@mail.example.com!",
      &texts);
  std::vector<std::string> want = {"See", "https://example.org/a?b=c&d=1", ".", "Or",
                                   "www.debian.org", ",", "mail", "jane.doe+x@mail.example.com",
                                   "!"};
  EXPECT_EQ(texts, want);
  EXPECT_EQ(kinds[1], "url");
  EXPECT_EQ(kinds[4], "url");
  EXPECT_EQ(kinds[7], "email");
}

TEST(TokenizerTest, EmailAtTheEndOfASentence) {
  std::vector<std::string> texts;
  auto kinds = Kinds("write to bob@example.org.", &texts);
  std::vector<std::string> want = {"write", "to", "bob@example.org", "."};
  EXPECT_EQ(texts, want);
  EXPECT_EQ(kinds[2], "email");
}

TEST(TokenizerTest, NotAnEmail) {
  std::vector<std::string> texts;
  Kinds("a@b x@y.z @home", &texts);
  std::vector<std::string> want = {"a", "@", "b", "x", "@", "y", ".", "z", "@", "home"};
  EXPECT_EQ(texts, want);
}

TEST(TokenizerTest, NonAsciiAndInvalidBytes) {
  std::vector<std::string> texts;
  auto kinds = Kinds("caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80 a\xFF" "b", &texts);
  std::vector<std::string> want = {"caf\xC3\xA9", "\xE4\xB8\xAD\xE6\x96\x87", "\xF0\x9F\x98\x80",
                                   "a", "\xFF", "b"};
  EXPECT_EQ(texts, want);
  EXPECT_EQ(kinds[2], "other");
  EXPECT_EQ(kinds[4], "other");
}

TEST(TokenizerTest, EmptyAndSpaces) {
  std::vector<Token> tokens;
  Tokenize("", &tokens);
  Tokenize(" \t\n ", &tokens);
  EXPECT_TRUE(tokens.empty());
}

}  // namespace
}  // namespace keydecide
