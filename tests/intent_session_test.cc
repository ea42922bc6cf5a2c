// The intent n-grams in the English engine: the bundled pack's file loads (only for the pack's
// own model), a broken one or one for other labels is refused at Open, and their logits join the
// full model's intent head (not the small model's).

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "intent_ngrams_fixture.h"
#include "keydecide/engine.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::unique_ptr<Engine> OpenShipped(const std::string& ngrams_path = "",
                                    const std::string& model_path = "") {
  EngineOptions options;
  options.intent_ngrams_path = ngrams_path;
  options.model_path = model_path;
  return testing::OpenBundled(options);
}

Decision DecideAfter(Engine& engine, const std::string& context, Tier tier = Tier::kFullModel) {
  auto session = engine.NewSession({});
  session->SetTier(tier);
  EXPECT_TRUE(session->SetContext(context).ok());
  Decision d;
  EXPECT_TRUE(session->Decide(3, &d).ok());
  return d;
}

TEST(IntentSessionTest, TheBundledPackLoadsItsNGramsForItsOwnModelOnly) {
  auto engine = OpenShipped();
  ASSERT_NE(engine, nullptr);
  EXPECT_NE(engine->info().intent_ngrams_path.find("en/intent_ngrams.safetensors"),
            std::string::npos);
  auto head_only = OpenShipped("none");
  ASSERT_NE(head_only, nullptr);
  EXPECT_TRUE(head_only->info().intent_ngrams_path.empty());
  auto other = OpenShipped("", std::string(KD_MODELS_DIR) + "/en/model.safetensors");
  ASSERT_NE(other, nullptr);
  EXPECT_TRUE(other->info().intent_ngrams_path.empty());
}

TEST(IntentSessionTest, TheNGramsJoinTheFullModelsHead) {
  auto engine = OpenShipped();
  auto head_only = OpenShipped("none");
  ASSERT_NE(engine, nullptr);
  ASSERT_NE(head_only, nullptr);
  for (const char* line : {"$ sudo apt-get install --no-install-recommends ",
                           "I will see you at the station tomorrow morning "}) {
    const Decision with = DecideAfter(*engine, line);
    const Decision without = DecideAfter(*head_only, line);
    ASSERT_EQ(with.intent.probabilities.size(), without.intent.probabilities.size());
    EXPECT_NE(with.intent.probabilities, without.intent.probabilities) << line;
    EXPECT_NEAR(
        std::accumulate(with.intent.probabilities.begin(), with.intent.probabilities.end(), 0.0f),
        1.0f, 1e-4)
        << line;
    EXPECT_EQ(with.intent.label, line[0] == '$' ? "command" : "prose") << line;
    // The small model's head is read alone: the blend was chosen against the full model's.
    const Decision small = DecideAfter(*engine, line, Tier::kSmallModel);
    const Decision small_alone = DecideAfter(*head_only, line, Tier::kSmallModel);
    EXPECT_EQ(small.intent.probabilities, small_alone.intent.probabilities) << line;
  }
}

// A chat message is a short line, and among whole training lines only addresses were short:
// "OK. " read as a URL (0.90) until the n-grams learned from prefixes of the lines too
// (docs/history/BENCHMARKS-to-2026-12-07.md, "Short lines"). Addresses typed so far must stay
// addresses.
TEST(IntentSessionTest, ShortChatLinesAreProseAndAddressesStayAddresses) {
  auto engine = OpenShipped();
  ASSERT_NE(engine, nullptr);
  for (const char* line : {"OK. ", "Yes. ", "No. ", "Hi", "Hello. ", "Fine. "}) {
    EXPECT_EQ(DecideAfter(*engine, line).intent.label, "prose") << line;
  }
  for (const char* line : {"www.goo", "https://ex", "john@exa"}) {
    EXPECT_EQ(DecideAfter(*engine, line).intent.label, "url") << line;
  }
}

TEST(IntentSessionTest, ABrokenFileOrOtherLabelsAreRefusedAtOpen) {
  const std::string path = testing::TempPath("intent_session_test.safetensors");
  testing::IntentNgramsSpec other_labels;
  other_labels.labels = {"prose", "code", "url", "search"};
  std::string damaged = testing::IntentNgramsBytes();
  damaged[damaged.size() - 3] ^= 1;
  for (const auto& [bytes, why] : {std::pair{testing::IntentNgramsBytes(other_labels), "labels"},
                                   std::pair{damaged, "checksum"}}) {
    testing::WriteFile(path, bytes);
    EngineOptions options;
    options.model_dir = KD_MODELS_DIR;
    options.intent_ngrams_path = path;
    std::unique_ptr<Engine> engine;
    const Status s = Engine::Open(options, &engine);
    EXPECT_FALSE(s.ok()) << why;
    EXPECT_NE(s.ToString().find(path), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find(why), std::string::npos) << s.ToString();
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace keydecide
