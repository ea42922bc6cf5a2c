// IntentNgrams: the line it reads, its logits against the features worked out by the Python fit
// (training/keydecide_train/intent_ngrams.py), the blend, and every way a file is refused.

#include "model/intent_ngrams.h"

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "intent_ngrams_fixture.h"
#include "test_util.h"

namespace keydecide {
namespace {

const std::vector<std::string> kLabels = {"prose", "code", "url", "command"};

std::unique_ptr<IntentNgrams> Load(const testing::IntentNgramsSpec& spec = {},
                                   const std::vector<std::string>& labels = kLabels) {
  std::unique_ptr<IntentNgrams> out;
  const Status s = IntentNgrams::FromBytes(testing::IntentNgramsBytes(spec), labels, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

TEST(IntentLineTest, TheLastLineWithMoreThanSpaces) {
  bool whole = false;
  EXPECT_EQ(IntentLine("x = 1\n  \n$ ls -l", 160, &whole), "$ ls -l");
  EXPECT_TRUE(whole);
  EXPECT_EQ(IntentLine("fn main() {\n\t\n", 160, &whole), "fn main() {");
  EXPECT_EQ(IntentLine("abcdef", 3, &whole), "def");
  EXPECT_FALSE(whole);
  EXPECT_EQ(IntentLine(" \n\n", 160, &whole), "");
  EXPECT_TRUE(whole);
  EXPECT_EQ(IntentLine("", 160, &whole), "");
}

// weight[r] = (r, 1, 1, 1): label 0's logit sums the runs' buckets, the others count the runs,
// each over sqrt(runs). The runs and their buckets' sum are what intent_ngrams.line_buckets
// gives at 256 buckets and order 2 (its test checks the same numbers).
TEST(IntentNgramsTest, LogitsAreTheHashedRunsOfThePythonFit) {
  const auto ngrams = Load();
  ASSERT_NE(ngrams, nullptr);
  EXPECT_EQ(ngrams->buckets(), 256u);
  struct Case {
    const char* text;
    int max_bytes;
    int runs;
    int bucket_sum;
  } cases[] = {{"ab", 160, 7, 998},
               {"x = 1\n  \n$ ls -l", 160, 17, 2468},
               {"x = 1\n  \n$ ls -l", 3, 7, 1016},
               {"abcdef", 3, 7, 706}};
  for (const Case& c : cases) {
    testing::IntentNgramsSpec spec;
    spec.max_bytes = c.max_bytes;
    const auto n = Load(spec);
    std::vector<float> z(4, 0.0f);
    n->AddLogits(c.text, z);
    const float root = std::sqrt(static_cast<float>(c.runs));
    EXPECT_NEAR(z[0], 0.5f + c.bucket_sum / root, 1e-3) << c.text;
    EXPECT_NEAR(z[1], -1.0f + root, 1e-4) << c.text;
    EXPECT_NEAR(z[3], 2.0f + root, 1e-4) << c.text;
  }
}

TEST(IntentNgramsTest, ColumnsFollowTheModelsLabelOrder) {
  testing::IntentNgramsSpec spec;
  spec.labels = {"command", "prose", "code", "url"};  // the file's columns
  spec.bias = {4, 1, 2, 3};
  spec.weight.assign(spec.buckets * 4, 0);
  const auto n = Load(spec);  // the model's order: prose, code, url, command
  std::vector<float> z(4, 0.0f);
  n->AddLogits("anything", z);
  EXPECT_EQ(z, (std::vector<float>{1, 2, 3, 4}));
}

TEST(IntentNgramsTest, BlendIsTheSoftmaxOfLogProbabilitiesPlusLogits) {
  testing::IntentNgramsSpec spec;
  spec.weight.assign(spec.buckets * 4, 0);
  spec.bias = {0, std::log(3.0f), 0, 0};
  const auto n = Load(spec);
  std::vector<float> p = {0.5f, 0.25f, 0.25f, 0.0f};
  n->Blend("text", p);
  // (0.5, 0.75, 0.25, 0) / 1.5
  EXPECT_NEAR(p[0], 1 / 3.0f, 1e-6);
  EXPECT_NEAR(p[1], 0.5f, 1e-6);
  EXPECT_NEAR(p[2], 1 / 6.0f, 1e-6);
  EXPECT_EQ(p[3], 0.0f);
}

TEST(IntentNgramsTest, RefusesWhatIsNotSuchAFile) {
  struct Case {
    const char* why;
    std::string bytes;
    std::vector<std::string> labels = kLabels;
  };
  std::vector<Case> cases;
  cases.push_back({"not safetensors", "not a file at all"});
  {
    std::string b = testing::IntentNgramsBytes();
    b.replace(b.find("keydecide-intent-ngrams"), 9, "keydecidX");
    cases.push_back({"format", b});
  }
  {
    std::string b = testing::IntentNgramsBytes();
    b[b.size() - 5] ^= 1;  // a bias byte: the checksum no longer matches
    cases.push_back({"checksum", b});
  }
  cases.push_back({"other labels", testing::IntentNgramsBytes(), {"prose", "code", "url", "x"}});
  cases.push_back({"fewer labels", testing::IntentNgramsBytes(), {"prose", "code", "url"}});
  {
    testing::IntentNgramsSpec spec;
    spec.labels = {"prose", "code", "url", "url"};
    cases.push_back({"a label twice", testing::IntentNgramsBytes(spec)});
  }
  {
    testing::IntentNgramsSpec spec;
    spec.buckets = 48;
    cases.push_back({"buckets not a power of two", testing::IntentNgramsBytes(spec)});
  }
  for (int order : {0, 9}) {
    testing::IntentNgramsSpec spec;
    spec.max_order = order;
    cases.push_back({"max_order", testing::IntentNgramsBytes(spec)});
  }
  {
    testing::IntentNgramsSpec spec;
    spec.max_bytes = 0;
    cases.push_back({"max_bytes", testing::IntentNgramsBytes(spec)});
  }
  {
    testing::IntentNgramsSpec spec;
    spec.bias = {0, 0, 0, 2e4f};
    cases.push_back({"a bias beyond 1e4", testing::IntentNgramsBytes(spec)});
  }
  {
    testing::IntentNgramsSpec spec;
    spec.bias = {0, 0, 0};
    cases.push_back({"bias shape", testing::IntentNgramsBytes(spec)});
  }
  for (const Case& c : cases) {
    std::unique_ptr<IntentNgrams> out;
    const Status s = IntentNgrams::FromBytes(c.bytes, c.labels, &out);
    EXPECT_FALSE(s.ok()) << c.why;
    EXPECT_EQ(out, nullptr) << c.why;
  }
}

TEST(IntentNgramsTest, OpenNamesTheFile) {
  const std::string path = testing::TempPath("intent_ngrams_test.safetensors");
  std::string bytes = testing::IntentNgramsBytes();
  bytes[bytes.size() - 5] ^= 1;
  std::ofstream(path, std::ios::binary) << bytes;
  std::unique_ptr<IntentNgrams> out;
  const Status s = IntentNgrams::Open(path, kLabels, &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find(path), std::string::npos) << s.ToString();
  std::ofstream(path, std::ios::binary) << testing::IntentNgramsBytes();
  EXPECT_TRUE(IntentNgrams::Open(path, kLabels, &out).ok());
  EXPECT_EQ(IntentNgrams::Open(path + ".absent", kLabels, &out).code(), Status::Code::kNotFound);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace keydecide
