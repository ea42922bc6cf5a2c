// On-device fine-tuning (issue 20): the adapter's format, its gradients against PyTorch's
// autograd (keydecide_train.make_adapter_fixture; ctest makes the fixture first and points
// KD_ADAPTER_PARITY_DIR at it), training on a fixed tiny corpus, and the FineTuner over a real
// user store: rounds saved, read back, dropped by Forget and refused for another base model.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "decide/adapter_examples.h"
#include "decide/en/english_word.h"
#include "decide/fine_tuner.h"
#include "keydecide/user_store.h"
#include "model/adapter_trainer.h"
#include "model/logit_adapter.h"
#include "model/safetensors.h"
#include "model/transformer.h"
#include "model_fixture.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::unique_ptr<Transformer> TinyModel() {
  std::unique_ptr<SafetensorsFile> file;
  EXPECT_TRUE(SafetensorsFile::FromBytes(testing::TinyModelBytes(), &file).ok());
  std::unique_ptr<Transformer> model;
  EXPECT_TRUE(Transformer::Load(std::move(file), &model).ok());
  return model;
}

// Sentences over the tiny model's words, with a habit the base cannot know: "we will" is
// always followed by "the meeting".
std::string TinyCorpus(int lines) {
  const char* kLines[] = {"we will the meeting", "the dog the cat",   "a cat a dog",
                          "we will the meeting", "the station a dog", "we will the meeting"};
  std::string text;
  for (int i = 0; i < lines; ++i) text.append(kLines[i % 6]).append("\n");
  return text;
}

TEST(LogitAdapterTest, SerializeRoundTripsAndParseRefusesDamage) {
  LogitAdapter a = LogitAdapter::Zero(4, 16, 10, "0123abcd", 3);
  a.u[5] = 0.25f, a.bias[9] = -1.5f;
  const std::string blob = a.Serialize();
  LogitAdapter b;
  ASSERT_TRUE(LogitAdapter::Parse(blob, &b).ok());
  EXPECT_EQ(b.rank, 4);
  EXPECT_EQ(b.base_id, "0123abcd");
  EXPECT_EQ(b.a, a.a);
  EXPECT_EQ(b.u, a.u);
  EXPECT_EQ(b.bias, a.bias);
  EXPECT_EQ(b.Serialize(), blob);
  // Zero's A comes from its seed alone.
  EXPECT_EQ(LogitAdapter::Zero(4, 16, 10, "", 3).a, a.a);
  EXPECT_NE(LogitAdapter::Zero(4, 16, 10, "", 4).a, a.a);

  LogitAdapter untouched = b;
  for (size_t cut : {size_t{0}, size_t{3}, size_t{20}, blob.size() - 1}) {
    EXPECT_EQ(LogitAdapter::Parse(blob.substr(0, cut), &b).code(), Status::Code::kCorruption);
  }
  EXPECT_EQ(LogitAdapter::Parse(blob + "x", &b).code(), Status::Code::kCorruption);
  std::string bad_magic = blob;
  bad_magic[0] = 'X';
  EXPECT_EQ(LogitAdapter::Parse(bad_magic, &b).code(), Status::Code::kCorruption);
  std::string huge_rank = blob;
  huge_rank[4] = '\x7f';
  EXPECT_EQ(LogitAdapter::Parse(huge_rank, &b).code(), Status::Code::kCorruption);
  std::string nan = blob;
  const float q = std::nanf("");
  std::memcpy(nan.data() + nan.size() - 4, &q, 4);
  EXPECT_EQ(LogitAdapter::Parse(nan, &b).code(), Status::Code::kCorruption);
  EXPECT_EQ(b.Serialize(), untouched.Serialize());  // a refused blob leaves *out alone
}

TEST(AdapterParityTest, LossAndGradientsMatchPyTorch) {
  const char* dir = std::getenv("KD_ADAPTER_PARITY_DIR");
  if (dir == nullptr) GTEST_SKIP() << "KD_ADAPTER_PARITY_DIR is not set (ctest sets it)";
  std::ifstream in(std::string(dir) + "/adapter_parity.json");
  std::stringstream s;
  s << in.rdbuf();
  const nlohmann::json f = nlohmann::json::parse(s.str());
  LogitAdapter a;
  a.rank = f["rank"], a.d_model = f["d_model"], a.n_words = f["n_words"];
  a.a = f["a"].get<std::vector<float>>();
  a.u = f["u"].get<std::vector<float>>();
  a.bias = f["bias"].get<std::vector<float>>();
  AdapterGradients g(a);
  std::vector<float> scratch;
  const auto& want = f["expected"];
  ASSERT_EQ(f["examples"].size(), want["loss"].size());
  for (size_t i = 0; i < f["examples"].size(); ++i) {
    const auto& e = f["examples"][i];
    AdapterExample ex{e["y"].get<std::vector<float>>(), e["words"].get<std::vector<int32_t>>(),
                      e["base"].get<std::vector<float>>()};
    EXPECT_NEAR(AdapterLoss(a, ex, &g, &scratch), want["loss"][i].get<double>(), 1e-5) << i;
  }
  // float32 against float64: a few ulps of the largest gradients.
  auto expect_close = [](const std::vector<float>& got, const nlohmann::json& expected,
                         const char* what) {
    ASSERT_EQ(got.size(), expected.size()) << what;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], expected[i].get<double>(), 2e-5) << what << "[" << i << "]";
    }
  };
  expect_close(g.a, want["grad_a"], "grad_a");
  expect_close(g.u, want["grad_u"], "grad_u");
  expect_close(g.bias, want["grad_bias"], "grad_bias");
}

TEST(AdapterTrainingTest, HeldBackLossFallsAndARoundIsReproducible) {
  auto model = TinyModel();
  ASSERT_NE(model, nullptr);
  AdapterExampleOptions eo;
  eo.top_k = 6;
  std::vector<AdapterExample> train, held;
  AddAdapterExamples(*model, &kEnglishComposition, TinyCorpus(60), eo, &train);
  AddAdapterExamples(*model, &kEnglishComposition, TinyCorpus(12), eo, &held);
  ASSERT_GT(train.size(), 200u);
  for (const AdapterExample& e : train) {
    ASSERT_EQ(e.words.size(), 7u);
    ASSERT_TRUE(model->vocab().IsLetterWord(e.words[0]));
  }
  AdapterTrainOptions o;
  o.learning_rate = 1e-2f;
  o.max_epochs = 8;
  auto train_once = [&](AdapterTrainReport* report) {
    LogitAdapter a = LogitAdapter::Zero(4, model->config().d_model, model->n_words(), "x", 1);
    TrainAdapter(train, held, o, &a, report);
    return a.Serialize();
  };
  AdapterTrainReport r1, r2;
  const std::string first = train_once(&r1);
  EXPECT_GT(r1.best_epoch, 0);
  EXPECT_LT(r1.held_loss_after, 0.8f * r1.held_loss_before)
      << r1.held_loss_before << " -> " << r1.held_loss_after;
  EXPECT_EQ(train_once(&r2), first);  // same seed, same bytes
  EXPECT_EQ(r2.held_loss_after, r1.held_loss_after);

  // Cancelled (an engine closing): no examples, no epoch, the start kept.
  const std::atomic<bool> cancel{true};
  std::vector<AdapterExample> none;
  eo.cancel = &cancel;
  AddAdapterExamples(*model, &kEnglishComposition, TinyCorpus(60), eo, &none);
  EXPECT_TRUE(none.empty());
  o.cancel = &cancel;
  AdapterTrainReport r3;
  LogitAdapter start = LogitAdapter::Zero(4, model->config().d_model, model->n_words(), "x", 1);
  LogitAdapter a = start;
  TrainAdapter(train, held, o, &a, &r3);
  EXPECT_EQ(r3.epochs, 0);
  EXPECT_EQ(r3.best_epoch, 0);
  EXPECT_EQ(a.Serialize(), start.Serialize());
}

// A token without a leading letter ("(the", "42", ",") is typed into the context but is no
// target; "dog)," is the word "dog".
TEST(AdapterExamplesTest, OnlyWordsOfTheVocabularyAreTargets) {
  auto model = TinyModel();
  ASSERT_NE(model, nullptr);
  AdapterExampleOptions eo;
  eo.top_k = 3;
  std::vector<AdapterExample> out;
  AddAdapterExamples(*model, &kEnglishComposition, "(the dog), 42 , zebra cat\n'a ..", eo, &out);
  std::vector<std::string> targets;
  for (const AdapterExample& e : out) targets.emplace_back(model->vocab().Word(e.words[0]));
  // "dog" and "cat" twice each (their start and first letter); "zebra" is not in the vocabulary.
  EXPECT_EQ(targets, (std::vector<std::string>{"dog", "dog", "cat", "cat"}));
}

class FineTunerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = testing::TempPath("fine_tuner") + "/user.db";
    std::system(("rm -rf '" + testing::TempPath("fine_tuner") + "'").c_str());
    UserStoreOptions options;
    options.path = path_;
    ASSERT_TRUE(UserStore::Open(options, &store_).ok());
    model_ = TinyModel();
    std::vector<LearnEvent> events;
    const std::string text = TinyCorpus(120);
    std::string previous;
    for (size_t pos = 0; pos < text.size();) {
      const size_t end = text.find_first_of(" \n", pos);
      const std::string word = text.substr(pos, end - pos);
      events.push_back({"en", word, previous, false, 0, ""});
      previous = text[end] == '\n' ? "" : word;
      pos = end + 1;
    }
    ASSERT_TRUE(store_->Learn(events).ok());
  }
  FineTuner::Options Options() const {
    FineTuner::Options o;
    o.rank = 4;
    o.examples.top_k = 6;
    o.train.learning_rate = 1e-2f;
    return o;
  }
  AdapterExampleSource Typed() const {
    return TypedAdapterExamples(model_.get(), &kEnglishComposition);
  }
  std::string path_;
  std::unique_ptr<UserStore> store_;
  std::unique_ptr<Transformer> model_;
};

TEST_F(FineTunerTest, ARoundIsSavedServedAndForgotten) {
  FineTuner tuner(model_.get(), Typed(), "base-1", store_.get(), "en", TinyCorpus(6), Options());
  EXPECT_EQ(tuner.adapter(), nullptr);
  FineTuneReport r;
  ASSERT_TRUE(tuner.RunRound(&r).ok());
  EXPECT_EQ(r.history_words, 480u);
  EXPECT_GT(r.replay_examples, 0u);
  ASSERT_TRUE(r.saved) << r.train.held_loss_before << " -> " << r.train.held_loss_after;
  ASSERT_NE(tuner.adapter(), nullptr);
  EXPECT_EQ(tuner.adapter()->base_id, "base-1");
  int64_t stamp = 0;
  ASSERT_TRUE(store_->AdapterStamp("en", &stamp).ok());
  EXPECT_GT(stamp, 0);

  // A new tuner (a restart) reads it back; one for another base model does not use it.
  FineTuner again(model_.get(), Typed(), "base-1", store_.get(), "en", "", Options());
  ASSERT_NE(again.adapter(), nullptr);
  EXPECT_EQ(again.adapter()->Serialize(), tuner.adapter()->Serialize());
  FineTuner other(model_.get(), Typed(), "base-2", store_.get(), "en", "", Options());
  EXPECT_EQ(other.adapter(), nullptr);

  // Forgetting a word of the text drops the adapter trained on it, and the word.
  int removed = 0;
  ASSERT_TRUE(store_->Forget("meeting", &removed).ok());
  ASSERT_TRUE(store_->AdapterStamp("en", &stamp).ok());
  EXPECT_EQ(stamp, 0);
  std::vector<RecentWord> recent;
  ASSERT_TRUE(store_->ListRecent("en", 100000, &recent).ok());
  EXPECT_EQ(recent.size(), 420u);  // 60 lines of "we will the meeting" lose "meeting"
  for (const RecentWord& w : recent) {
    EXPECT_NE(w.word, "meeting");
    EXPECT_NE(w.previous, "meeting");
  }
  FineTuner after(model_.get(), Typed(), "base-1", store_.get(), "en", "", Options());
  EXPECT_EQ(after.adapter(), nullptr);
}

// "w<i>" (not NumberedWord(i): GCC 12's -Wrestrict misfires on that).
std::string NumberedWord(size_t i) {
  std::string w = "w";
  w += std::to_string(i);
  return w;
}

// Background rounds (the tuner's own thread) publish while readers poll, as sessions do; run
// under ThreadSanitizer by test.sh.
TEST_F(FineTunerTest, ABackgroundRoundPublishesWhileSessionsRead) {
  FineTuner::Options o = Options();
  o.every_words = 1;
  o.check_interval_ms = 5;
  FineTuner tuner(model_.get(), Typed(), "base-1", store_.get(), "en", "", o);
  ASSERT_TRUE(store_->Learn({{"en", "dog", "the", false, 0, ""}}).ok());
  std::shared_ptr<const LogitAdapter> seen;
  for (int i = 0; i < 3000 && seen == nullptr; ++i) {
    if (tuner.version() > 0) seen = tuner.adapter();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ(seen->base_id, "base-1");
}

TEST(FineTuneStoreTest, RecentWordsKeepTheirOrderAndTheLastOnes) {
  const std::string dir = testing::TempPath("recent_words");
  std::system(("rm -rf '" + dir + "'").c_str());
  UserStoreOptions options;
  options.path = dir + "/user.db";
  std::unique_ptr<UserStore> store;
  ASSERT_TRUE(UserStore::Open(options, &store).ok());
  std::vector<LearnEvent> events;
  const size_t n = UserStore::kMaxRecentWords + 5;
  for (size_t i = 0; i < n; ++i) {
    events.push_back({"en", NumberedWord(i), i % 3 == 0 ? "" : "p", false, 0, ""});
  }
  ASSERT_TRUE(store->Learn(events).ok());
  ASSERT_TRUE(store->Learn({{"zh", "你好", "", false, 0, ""}}).ok());
  std::vector<RecentWord> recent;
  ASSERT_TRUE(store->ListRecent("en", 3, &recent).ok());
  ASSERT_EQ(recent.size(), 3u);
  EXPECT_EQ(recent[0].word, NumberedWord(n - 3));
  EXPECT_EQ(recent[2].word, NumberedWord(n - 1));
  ASSERT_TRUE(store->ListRecent("en", 1u << 30, &recent).ok());
  EXPECT_EQ(recent.size(), UserStore::kMaxRecentWords);
  EXPECT_EQ(recent.front().word, "w5");
  EXPECT_EQ(RecentText({{"a", "", 0}, {"b", "a", 0}, {"c", "", 0}}), "a b\nc");
  ASSERT_TRUE(store->SaveAdapter("en", "blob").ok());
  ASSERT_TRUE(store->Clear().ok());
  ASSERT_TRUE(store->ListRecent("zh", 10, &recent).ok());
  EXPECT_TRUE(recent.empty());
  int64_t stamp = 1;
  ASSERT_TRUE(store->AdapterStamp("en", &stamp).ok());
  EXPECT_EQ(stamp, 0);
}

}  // namespace
}  // namespace keydecide
