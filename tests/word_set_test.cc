// WordSet: every word added is found, few others are (the Bloom filter's false positives, at
// the shipped settings), the build is deterministic, and malformed files are refused.

#include "lexicon/word_set.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/byte_fields.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/lexicon_tool.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::vector<std::string> Words(size_t n, const std::string& prefix) {
  std::vector<std::string> words;
  for (size_t i = 0; i < n; ++i) words.push_back(prefix + std::to_string(i * 7919 % 100003));
  return words;
}

std::string Build(const std::vector<std::string>& words, uint32_t bits = 10, uint32_t k = 7) {
  const std::vector<std::string_view> views(words.begin(), words.end());
  std::string bytes;
  EXPECT_TRUE(WordSet::Build(views, bits, k, &bytes).ok());
  return bytes;
}

TEST(WordSetTest, FindsEveryWordAndFewOthers) {
  const std::vector<std::string> words = Words(20000, "w");
  std::unique_ptr<WordSet> set;
  ASSERT_TRUE(WordSet::FromBytes(Build(words), &set).ok());
  EXPECT_EQ(set->words(), words.size());
  for (const std::string& w : words) ASSERT_TRUE(set->MayContain(w)) << w;
  int false_positives = 0;
  for (const std::string& w : Words(20000, "x")) false_positives += set->MayContain(w);
  EXPECT_LT(false_positives, 20000 * 0.02);  // about 1% at 10 bits and 7 hashes
  EXPECT_GT(false_positives, 0);             // a filter, not a list: the rate is not zero
  EXPECT_EQ(Build(words), Build(words));     // deterministic
}

TEST(WordSetTest, TheBuildToolLowerCasesAndSkipsBlankLines) {
  const std::string list = testing::TempPath("words.txt");
  const std::string out = testing::TempPath("words.kdws");
  testing::WriteFile(list, "Zebra\nasthmatic\r\n\nabbey's\nZebra\n");
  uint64_t n = 0;
  ASSERT_TRUE(BuildWordSet({list}, out, &n).ok());
  EXPECT_EQ(n, 3u);
  std::unique_ptr<WordSet> set;
  ASSERT_TRUE(WordSet::Open(out, &set).ok());
  for (const char* w : {"zebra", "asthmatic", "abbey's"}) EXPECT_TRUE(set->MayContain(w)) << w;
  EXPECT_EQ(BuildWordSet({"/nonexistent/words.txt"}, out, &n).code(), Status::Code::kNotFound);
  EXPECT_EQ(BuildWordSet({}, out, &n).code(), Status::Code::kInvalidArgument);
  std::remove(list.c_str());
  std::remove(out.c_str());
}

TEST(WordSetTest, MalformedFilesAreRefused) {
  const std::string good = Build(Words(100, "w"));
  const auto refused = [](std::string bytes, Status::Code code, const char* message) {
    std::unique_ptr<WordSet> set;
    const Status s = WordSet::FromBytes(std::move(bytes), &set);
    EXPECT_EQ(s.code(), code) << message << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(message), std::string::npos) << s.ToString();
    EXPECT_EQ(set, nullptr);
  };
  refused("", Status::Code::kCorruption, "bad magic or too short");
  refused(good.substr(0, 63), Status::Code::kCorruption, "bad magic or too short");
  std::string bad = good;
  bad[0] = 'X';
  refused(bad, Status::Code::kCorruption, "bad magic");
  bad = good;
  bad.back() ^= 1;
  refused(bad, Status::Code::kCorruption, "checksum mismatch");
  bad = good + std::string(8, '\0');
  lexicon::SealFile(&bad);
  refused(bad, Status::Code::kCorruption, "does not hold the header's bit count");
  bad = good;
  PutField<uint64_t>(&bad, 24, 0);  // no bits
  lexicon::SealFile(&bad);
  refused(bad, Status::Code::kCorruption, "does not hold the header's bit count");
  bad = good;
  PutField<uint32_t>(&bad, 16, 0);  // no hashes
  lexicon::SealFile(&bad);
  refused(bad, Status::Code::kCorruption, "bad hash count");
  bad = good;
  PutField<uint32_t>(&bad, 8, 2);
  lexicon::SealFile(&bad);
  refused(bad, Status::Code::kNotSupported, "version 2");
  std::string bytes;
  const std::vector<std::string_view> none;
  EXPECT_EQ(WordSet::Build(none, 0, 7, &bytes).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(WordSet::Build(none, 10, 17, &bytes).code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace keydecide
