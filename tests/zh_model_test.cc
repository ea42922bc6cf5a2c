// The zh model in C++: its metadata (language, readings) checked at load, ExtendAll and
// KvCache::CopyPrefix against plain encoding, ZhContext's reading of committed text, SentenceLm
// against a from-scratch computation while it reuses and forks its slots, and the zh engine with a
// model: ranking, the weight, refused files.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "decide/sentence_lm.h"
#include "decide/zh/zh_adapter_examples.h"
#include "decide/zh/zh_context.h"
#include "keydecide/engine.h"
#include "keydecide/user_store.h"
#include "lexicon/lexicon.h"
#include "model/logit_adapter.h"
#include "model/safetensors.h"
#include "model/transformer.h"
#include "model_fixture.h"
#include "test_util.h"

namespace keydecide {
namespace {

testing::TinyModelSpec ZhSpec() {
  testing::TinyModelSpec spec;
  spec.language = "zh";
  spec.words = {"<unk>", "<num>", "<url>", "<email>", "，", "hello", "中国",
                "中",    "国",    "人",    "你好",    "你", "好",    "中国人"};
  spec.readings = {"",      "",    "",    "",       "",   "",    "zhong'guo",
                   "zhong", "guo", "ren", "ni'hao", "ni", "hao", "zhong'guo'ren"};
  spec.intent_labels = {"prose", "latin"};
  spec.max_len = 32;  // a zh engine needs 27: 24 keys, [BOS] [APP] [SEP]
  return spec;
}

std::string ZhLexiconBytes() {
  return testing::PinyinLexiconBytes({{"zhongguo", "中国", 5000},
                                      {"zhong", "中", 8000},
                                      {"guo", "国", 3000},
                                      {"guo", "过", 6000},
                                      {"ren", "人", 9000},
                                      {"nihao", "你好", 4000},
                                      {"ni", "你", 7000},
                                      {"hao", "好", 6000}});
}

std::unique_ptr<Transformer> LoadModel(const std::string& bytes, Status* status = nullptr) {
  std::unique_ptr<SafetensorsFile> file;
  Status s = SafetensorsFile::FromBytes(bytes, &file);
  std::unique_ptr<Transformer> model;
  if (s.ok()) s = Transformer::Load(std::move(file), &model);
  if (status != nullptr) *status = s;
  return model;
}

std::unique_ptr<Lexicon> ZhLexicon() {
  std::unique_ptr<Lexicon> lexicon;
  EXPECT_TRUE(Lexicon::FromBytes(ZhLexiconBytes(), &lexicon).ok());
  return lexicon;
}

TEST(ZhModelTest, LoadsLanguageAndReadings) {
  const auto model = LoadModel(testing::TinyModelBytes(ZhSpec()));
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->language(), "zh");
  EXPECT_EQ(model->vocab().Reading(model->vocab().Find("中国")), "zhong'guo");
  EXPECT_EQ(model->vocab().Reading(model->vocab().Find("hello")), "");
  const auto english = LoadModel(testing::TinyModelBytes());
  ASSERT_NE(english, nullptr);
  EXPECT_EQ(english->language(), "en");
  EXPECT_EQ(english->vocab().Reading(6), "");
}

TEST(ZhModelTest, RefusesBadMetadata) {
  Status s;
  testing::TinyModelSpec spec = ZhSpec();
  spec.readings.pop_back();  // one line short
  EXPECT_EQ(LoadModel(testing::TinyModelBytes(spec), &s), nullptr);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("pinyin"), std::string::npos) << s.ToString();

  spec = ZhSpec();
  spec.readings[6] = "zhong guo";  // not toneless pinyin
  EXPECT_EQ(LoadModel(testing::TinyModelBytes(spec), &s), nullptr);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();

  // The file says its language; a pack refuses one that is not its own (ZhEngine, WordEngine),
  // the model layer only one that is not a language tag.
  spec = ZhSpec();
  spec.language = "x x";
  EXPECT_EQ(LoadModel(testing::TinyModelBytes(spec), &s), nullptr);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  spec = ZhSpec();
  spec.language = "xx";
  const auto other = LoadModel(testing::TinyModelBytes(spec), &s);
  ASSERT_NE(other, nullptr) << s.ToString();
  EXPECT_EQ(other->language(), "xx");
}

TEST(ZhModelTest, ExtendAllAndForkedCachesMatchOneEncode) {
  const auto model = LoadModel(testing::TinyModelBytes(ZhSpec()));
  ASSERT_NE(model, nullptr);
  const int d = model->config().d_model;
  std::vector<TokenInput> tokens;
  for (int id : {1, 3, 42, 43, 44, 45, 46, 47, 48}) tokens.push_back({id, 0, 0});
  KvCache reference(model->config());
  std::vector<float> want(tokens.size() * d), got(tokens.size() * d);
  model->Encode(tokens, &reference, want.data());

  KvCache a(model->config()), b(model->config());
  model->ExtendAll(std::span(tokens).first(4), &a, got.data());
  b.CopyPrefix(a, 3);  // fork after three tokens, then the rest in one block
  EXPECT_EQ(b.length(), 3);
  model->ExtendAll(std::span(tokens).subspan(3), &b, got.data() + 3 * d);
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-4f) << i;
  for (int l = 0; l < model->config().n_layers; ++l) {
    for (int p = 0; p < 3; ++p) EXPECT_EQ(b.key(l, p)[0], a.key(l, p)[0]);
  }
}

TEST(ZhContextTest, SplitsHanRunsIntoTheMostProbableWords) {
  const auto model = LoadModel(testing::TinyModelBytes(ZhSpec()));
  const auto lexicon = ZhLexicon();
  ASSERT_NE(model, nullptr);
  const ZhContext context(model.get(), lexicon.get());
  ZhContext::Scratch scratch;
  std::vector<int32_t> words;
  // 你好 beats 你+好 and 中国 beats 中+国 by the lexicon's counts; 中国人 has no reading in the
  // lexicon (no count), so it is not a piece; 我 is in no vocabulary word: <unk>.
  context.Tokenize("你好中国人，hello 42我", &scratch, &words);
  std::vector<std::string> got;
  for (int32_t w : words) got.emplace_back(model->vocab().Word(w));
  EXPECT_EQ(got, (std::vector<std::string>{"你好", "中国", "人", "，", "hello", "<num>", "<unk>"}));
  EXPECT_TRUE(std::isnan(context.WordLogProb(model->vocab().Find("中国人"))));
  EXPECT_NEAR(context.in_vocabulary_count(), 5000 + 8000 + 3000 + 9000 + 4000 + 7000 + 6000, 1);

  words.clear();
  context.Tokenize("\xff\xfe 中", &scratch, &words);  // broken UTF-8 is read, never skipped over
  ASSERT_FALSE(words.empty());
  EXPECT_EQ(model->vocab().Word(words.back()), "中");
}

// log P of words after context, from one plain encode and a log-softmax over the first n words.
float ReferenceScore(const Transformer& model, const std::vector<int32_t>& context,
                     const std::vector<int32_t>& words, int norm_words,
                     const LogitAdapter* adapter = nullptr, float weight = 0) {
  std::vector<TokenInput> tokens = {{ModelConfig::kBos, 0, 0}, {ModelConfig::kFirstApp, 0, 0}};
  for (int32_t w : context) tokens.push_back({ModelConfig::kWordOffset + w, 0, 0});
  const size_t first = tokens.size();
  for (int32_t w : words) tokens.push_back({ModelConfig::kWordOffset + w, 0, 0});
  const int d = model.config().d_model;
  KvCache cache(model.config());
  std::vector<float> y(tokens.size() * d), logits(norm_words);
  model.Encode(tokens, &cache, y.data());
  double sum = 0;
  for (size_t p = first; p < tokens.size(); ++p) {
    const float* h = &y[(p - 1) * d];
    // With an adapter, the word's logit gains weight × (bias[w] + U[w] . A h), written out.
    auto delta = [&](int w) {
      if (adapter == nullptr) return 0.0;
      double s = adapter->bias[w];
      for (int r = 0; r < adapter->rank; ++r) {
        double z = 0;
        for (int i = 0; i < d; ++i) z += adapter->a[r * d + i] * h[i];
        s += adapter->u[w * adapter->rank + r] * z;
      }
      return weight * s;
    };
    model.WordLogits(h, norm_words, logits.data());
    double z = 0;
    for (int w = 0; w < norm_words; ++w) z += std::exp(logits[w]);  // the base's normaliser
    const int target = tokens[p].id - ModelConfig::kWordOffset;
    sum += model.WordLogit(h, target) + delta(target) - std::log(z);
  }
  return static_cast<float>(sum);
}

// Few slots, so that the tests make the LM fork and evict; a normaliser ReferenceScore matches.
SentenceLm::Options ThreeSlotsOfEightWords() {
  SentenceLm::Options options;
  options.slots = 3;
  options.norm_words = 8;
  return options;
}

TEST(SentenceLmTest, MatchesAPlainEncodeWhileReusingAndForkingSlots) {
  const auto model = LoadModel(testing::TinyModelBytes(ZhSpec()));
  ASSERT_NE(model, nullptr);
  SentenceLm lm(model.get(), 0, ThreeSlotsOfEightWords());
  const std::vector<int32_t> context = {10, 7};
  lm.SetContext(context);

  const std::vector<int32_t> a = {6, 9}, ab = {6, 9, 8};
  EXPECT_NEAR(lm.Score(a), ReferenceScore(*model, context, a, 8), 1e-3f);
  const int after_a = lm.steps();
  EXPECT_EQ(after_a, 6);  // [BOS] [APP], two context words, two words
  EXPECT_NEAR(lm.Score(a), ReferenceScore(*model, context, a, 8), 1e-3f);
  EXPECT_EQ(lm.steps(), after_a);  // cached
  EXPECT_NEAR(lm.Score(ab), ReferenceScore(*model, context, ab, 8), 1e-3f);
  EXPECT_EQ(lm.steps(), after_a + 1);  // one new word
  const std::vector<int32_t> fork = {6, 12, 13};
  EXPECT_NEAR(lm.Score(fork), ReferenceScore(*model, context, fork, 8), 1e-3f);
  EXPECT_EQ(lm.steps(), after_a + 1 + 2);  // forked after 6: two new words

  // Many sentences in a random order, more than the slots hold.
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    std::vector<int32_t> words(1 + rng() % 5);
    for (int32_t& w : words) w = 4 + static_cast<int32_t>(rng() % 10);
    ASSERT_NEAR(lm.Score(words), ReferenceScore(*model, context, words, 8), 1e-3f) << i;
  }
  // A new context; a sentence longer than the window keeps the newest context words that fit
  // and scores the first max_len - 2 words.
  lm.SetContext(std::vector<int32_t>(40, 5));  // keeps the newest 30
  const std::vector<int32_t> shorter = {6, 7, 8};
  EXPECT_NEAR(lm.Score(shorter), ReferenceScore(*model, std::vector<int32_t>(27, 5), shorter, 8),
              1e-3f);
  const std::vector<int32_t> long_sentence(40, 9);
  EXPECT_NEAR(lm.Score(long_sentence), ReferenceScore(*model, {}, std::vector<int32_t>(30, 9), 8),
              1e-3f);
  // Keystrokes past the window are not read (the engine passes at most 24).
  const std::vector<TokenInput> keys(40, TokenInput{ModelConfig::kFirstChar, 4, 0});
  EXPECT_NE(lm.Keystrokes(keys), nullptr);
  EXPECT_EQ(lm.Score({}), 0.0f);
}

// NextWords is log P of each word as a one-word sentence after the context, and costs no model
// step once the context is encoded.
TEST(SentenceLmTest, NextWordsAreOneWordSentences) {
  const auto model = LoadModel(testing::TinyModelBytes(ZhSpec()));
  ASSERT_NE(model, nullptr);
  SentenceLm::Options options;
  options.norm_words = 8;
  SentenceLm lm(model.get(), 0, options);
  for (const std::vector<int32_t>& context :
       {std::vector<int32_t>{}, std::vector<int32_t>{10, 7}, std::vector<int32_t>(40, 5)}) {
    lm.SetContext(context);
    const std::vector<int32_t> words = {6, 9, 12, 0, 13};
    std::vector<float> log_p(words.size());
    lm.NextWords(words, log_p);
    const int steps = lm.steps();
    lm.NextWords(words, log_p);
    EXPECT_EQ(lm.steps(), steps);  // the context's slot is reused
    // The window keeps the newest context words that leave room for one more.
    const std::vector<int32_t> kept(context.end() - std::min<size_t>(context.size(), 29),
                                    context.end());
    for (size_t i = 0; i < words.size(); ++i) {
      EXPECT_NEAR(log_p[i], ReferenceScore(*model, kept, {words[i]}, 8), 1e-3f) << i;
    }
  }
}

// An adapter whose every weight is drawn from a seed (LogitAdapter::Zero leaves U and bias 0).
LogitAdapter RandomAdapter(const Transformer& model, uint64_t seed) {
  LogitAdapter adapter =
      LogitAdapter::Zero(2, model.config().d_model, model.n_words(), "tiny", seed);
  std::mt19937 rng(static_cast<uint32_t>(seed));
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (float& v : adapter.u) v = normal(rng);
  for (float& v : adapter.bias) v = normal(rng);
  return adapter;
}

// With an adapter, each word's logit gains weight × Delta (the normaliser stays the base's);
// setting one drops the slots read without it, and taking it away restores the plain scores.
TEST(SentenceLmTest, AnAdapterCorrectsTheWordsLogits) {
  const auto model = LoadModel(testing::TinyModelBytes(ZhSpec()));
  ASSERT_NE(model, nullptr);
  SentenceLm lm(model.get(), 0, ThreeSlotsOfEightWords());
  const std::vector<int32_t> context = {10, 7}, a = {6, 9}, ab = {6, 9, 8}, fork = {6, 12, 13};
  lm.SetContext(context);
  const float plain = lm.Score(ab);
  const LogitAdapter adapter = RandomAdapter(*model, 5);
  lm.SetAdapter(&adapter, 0.5f);
  const float adapted = lm.Score(ab);
  EXPECT_NEAR(adapted, ReferenceScore(*model, context, ab, 8, &adapter, 0.5f), 1e-3f);
  EXPECT_GT(std::abs(adapted - plain), 1e-2f);  // not the slot read without it
  // Reused and forked slots carry the projections along.
  EXPECT_NEAR(lm.Score(a), ReferenceScore(*model, context, a, 8, &adapter, 0.5f), 1e-3f);
  EXPECT_NEAR(lm.Score(fork), ReferenceScore(*model, context, fork, 8, &adapter, 0.5f), 1e-3f);
  std::vector<float> log_p(2);
  lm.NextWords(std::vector<int32_t>{6, 12}, log_p);
  EXPECT_NEAR(log_p[1], ReferenceScore(*model, context, {12}, 8, &adapter, 0.5f), 1e-3f);
  lm.SetAdapter(nullptr, 0.5f);
  EXPECT_NEAR(lm.Score(ab), plain, 1e-5f);
}

// The Chinese examples: the hidden state before each Chinese word of a line (after [BOS] [APP]
// and the line's words before it) with the word as target; <unk> and words that are no Chinese
// word are context only, and each line starts afresh.
TEST(ZhAdapterExamplesTest, OneExamplePerChineseWordAtTheStateBeforeIt) {
  const auto model = LoadModel(testing::TinyModelBytes(ZhSpec()));
  const auto lexicon = ZhLexicon();
  ASSERT_NE(model, nullptr);
  const ZhContext context(model.get(), lexicon.get());
  AdapterExampleOptions options;
  options.top_k = 4;
  std::vector<AdapterExample> out;
  AddZhAdapterExamples(*model, context, "你好中国，hello人\n我中", options, &out);
  const auto id = [&](const char* w) { return static_cast<int32_t>(model->vocab().Find(w)); };
  // Line 1 reads 你好 中国 ， hello 人; line 2 <unk> 中.
  ASSERT_EQ(out.size(), 4u);
  const std::vector<int32_t> targets = {id("你好"), id("中国"), id("人"), id("中")};
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].words[0], targets[i]) << i;
    EXPECT_EQ(out[i].words.size(), 5u);  // the target and the base's top 4 others
  }
  // The state before 人: [BOS] [APP] 你好 中国 ， hello, encoded from scratch.
  std::vector<TokenInput> tokens = {{ModelConfig::kBos, 0, 0}, {ModelConfig::kFirstApp, 0, 0}};
  for (const char* w : {"你好", "中国", "，", "hello"}) {
    tokens.push_back({ModelConfig::kWordOffset + id(w), 0, 0});
  }
  const int d = model->config().d_model;
  KvCache cache(model->config());
  std::vector<float> y(tokens.size() * d);
  model->Encode(tokens, &cache, y.data());
  for (int i = 0; i < d; ++i) ASSERT_NEAR(out[2].y[i], y[(tokens.size() - 1) * d + i], 1e-4f);
  // Line 2 starts afresh: the state before 中 follows [BOS] [APP] <unk>.
  tokens.resize(2);
  tokens.push_back({ModelConfig::kWordOffset + ModelConfig::kUnkWord, 0, 0});
  model->Encode(tokens, &cache, y.data());
  for (int i = 0; i < d; ++i) ASSERT_NEAR(out[3].y[i], y[2 * d + i], 1e-4f);

  // Beside the base's top words, each example keeps its target's homophones: 忠 for 中.
  testing::TinyModelSpec spec = ZhSpec();
  spec.words.push_back("忠");
  spec.readings.push_back("zhong");
  const auto with_homophone = LoadModel(testing::TinyModelBytes(spec));
  ASSERT_NE(with_homophone, nullptr);
  const ZhContext homophone_context(with_homophone.get(), lexicon.get());
  std::vector<AdapterExample> zhong;
  options.top_k = 1;
  AddZhAdapterExamples(*with_homophone, homophone_context, "中", options, &zhong);
  ASSERT_EQ(zhong.size(), 1u);
  const int32_t zhong_id = with_homophone->vocab().Find("忠");
  EXPECT_NE(std::find(zhong[0].words.begin(), zhong[0].words.end(), zhong_id),
            zhong[0].words.end());
  EXPECT_EQ(zhong[0].base.size(), zhong[0].words.size());
  options.top_k = 4;

  // A line longer than the window is read in windows; every Chinese word is a target once.
  out.clear();
  std::string long_line;
  for (int i = 0; i < 50; ++i) long_line += "你好";
  AddZhAdapterExamples(*model, context, long_line, options, &out);
  EXPECT_EQ(out.size(), 50u);
  options.max_examples = 7;
  out.clear();
  AddZhAdapterExamples(*model, context, long_line, options, &out);
  EXPECT_EQ(out.size(), 7u);
}

// The recent words as text: a sentence picked after its own words is not repeated; a word
// that starts a sentence starts a line, even when the text ends with it.
TEST(ZhAdapterExamplesTest, RecentTextSkipsThePickedSentenceOnly) {
  const std::vector<RecentWord> words = {
      {"你好", "", 0},   {"中国", "你好", 0}, {"人", "中国", 0},
      {"中国人", "", 0},  // the sentence 中国人 picked over another: its two words precede it
      {"好", "人", 0},   {"好", "", 0},  // a new sentence that happens to match the last word
      {"你", "", 0},
  };
  EXPECT_EQ(RecentZhText(words), "你好中国人好\n好\n你");
}

struct ZhFiles {
  explicit ZhFiles(std::vector<float> intent_bias = {}, const std::string& name = "zh_model")
      : lexicon(testing::TempPath(name + ".kdlex")),
        model(testing::TempPath(name + ".safetensors")),
        english_model(testing::TempPath(name + "_en.safetensors")) {
    testing::TinyModelSpec spec = ZhSpec();
    spec.intent_bias = std::move(intent_bias);
    testing::WriteFile(lexicon, ZhLexiconBytes());
    testing::WriteFile(model, testing::TinyModelBytes(spec));
    testing::WriteFile(english_model, testing::TinyModelBytes());
  }
  ~ZhFiles() {
    for (const std::string& p : {lexicon, model, english_model}) std::remove(p.c_str());
  }
  Status Open(const std::string& model_path, float weight, std::unique_ptr<Engine>* engine,
              const std::string& language = "zh") const {
    EngineOptions o;
    o.model_dir = KD_MODELS_DIR;
    o.language = language;
    o.lexicon_path = language == "zh" ? lexicon : "";
    o.model_path = model_path;
    o.pinyin.model_weight = weight;
    return Engine::Open(o, engine);
  }
  std::string lexicon, model, english_model;
};

std::vector<Candidate> Sentences(const Engine& engine, std::string_view keys) {
  auto session = engine.NewSession(SessionOptions());
  EXPECT_TRUE(session->Type(keys).ok());
  Decision d;
  EXPECT_TRUE(session->Decide(10, &d).ok());
  std::vector<Candidate> out;
  for (const Candidate& c : d.candidates) {
    if (c.kind == CandidateKind::kSentence) out.push_back(c);
  }
  return out;
}

TEST(PinyinModelEngineTest, RanksSentencesWithTheModel) {
  const ZhFiles files;
  std::unique_ptr<Engine> plain, weighted, zero;
  ASSERT_TRUE(files.Open("none", 0.5f, &plain).ok());
  const Status s = files.Open(files.model, 2.0f, &weighted);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(files.Open(files.model, 0.0f, &zero).ok());
  EXPECT_EQ(plain->info().scorer, "lexicon");
  EXPECT_EQ(weighted->info().scorer, "lexicon+model");
  EXPECT_EQ(weighted->info().model_path, files.model);

  const auto base = Sentences(*plain, "nihaozhongguoren");
  const auto ranked = Sentences(*weighted, "nihaozhongguoren");
  ASSERT_GE(base.size(), 1u);
  ASSERT_EQ(ranked.size(), base.size());
  EXPECT_GE(ranked[0].score, ranked.back().score);
  // The model moved the scores (a random model gives every sentence some log P < 0).
  EXPECT_LT(ranked[0].score, base[0].score);
  // Weight 0: the bigram's (here the lexicon's) order and scores.
  const auto same = Sentences(*zero, "nihaozhongguoren");
  ASSERT_EQ(same.size(), base.size());
  for (size_t i = 0; i < base.size(); ++i) {
    EXPECT_EQ(same[i].text, base[i].text);
    EXPECT_EQ(same[i].score, base[i].score);
  }
}

// A fine-tuned adapter in the person's store reaches the sentences: a sentence's score gains
// pinyin.model_weight × pinyin.fine_tune_weight × the adapter's delta for its words (here a bias
// alone, so exactly that); an adapter for another base, or fine-tuning off, changes nothing.
TEST(PinyinModelEngineTest, TheStoresAdapterCorrectsTheSentences) {
  const ZhFiles files;
  const auto model = LoadModel(testing::TinyModelBytes(ZhSpec()));
  ASSERT_NE(model, nullptr);
  const std::string store_path = testing::TempPath("zh_adapter") + "/user.db";
  std::system(("rm -rf '" + testing::TempPath("zh_adapter") + "'").c_str());
  const int32_t zhongguo = model->vocab().Find("中国");
  for (const std::string& base : {std::string("another base"), model->weights_id()}) {
    {
      UserStoreOptions store_options;
      store_options.path = store_path;
      std::unique_ptr<UserStore> store;
      ASSERT_TRUE(UserStore::Open(store_options, &store).ok());
      LogitAdapter adapter =
          LogitAdapter::Zero(2, model->config().d_model, model->n_words(), base, 1);
      adapter.bias[zhongguo] = 4.0f;
      ASSERT_TRUE(store->SaveAdapter("zh", adapter.Serialize()).ok());
    }
    auto open = [&](bool fine_tune, std::unique_ptr<Engine>* engine) {
      EngineOptions o;
      o.model_dir = KD_MODELS_DIR;
      o.language = "zh";
      o.lexicon_path = files.lexicon;
      o.model_path = files.model;
      o.pinyin.model_weight = 2.0f;
      o.pinyin.fine_tune_weight = 0.5f;
      o.personal = true;
      o.learn = false;
      o.user_store_path = store_path;
      o.fine_tune = fine_tune;
      o.fine_tune_every_words = 0;
      const Status s = Engine::Open(o, engine);
      ASSERT_TRUE(s.ok()) << s.ToString();
    };
    std::unique_ptr<Engine> plain, tuned;
    open(false, &plain);
    open(true, &tuned);
    const auto score_of = [](const std::vector<Candidate>& sentences, std::string_view text) {
      for (const Candidate& c : sentences) {
        if (c.text == text) return c.score;
      }
      return std::nanf("");
    };
    const auto before = Sentences(*plain, "zhongguoren");
    const auto after = Sentences(*tuned, "zhongguoren");
    const float want = base == model->weights_id() ? 2.0f * 0.5f * 4.0f : 0.0f;
    EXPECT_NEAR(score_of(after, "中国人") - score_of(before, "中国人"), want, 1e-3f) << base;
    EXPECT_NEAR(score_of(after, "中过人") - score_of(before, "中过人"), 0.0f, 1e-3f);  // no 中国
    EXPECT_EQ(plain->FineTune(nullptr).code(), Status::Code::kNotSupported);
  }
}

// The words for the composition are ranked again with the model's logits, within the search's
// groups (whole composition first); weight 0 keeps the search's order and scores.
TEST(PinyinModelEngineTest, RanksWordsWithTheModelWithinTheirGroups) {
  const ZhFiles files;
  std::unique_ptr<Engine> plain, ranked;
  ASSERT_TRUE(files.Open(files.model, 0.0f, &plain).ok());
  ASSERT_TRUE(files.Open(files.model, 0.7f, &ranked).ok());
  const auto words = [](const Engine& engine, std::string_view keys) {
    auto session = engine.NewSession(SessionOptions());
    EXPECT_TRUE(session->Type(keys).ok());
    Decision d;
    EXPECT_TRUE(session->Decide(10, &d).ok());
    std::vector<Candidate> out;
    for (const Candidate& c : d.candidates) {  // not the letters as typed (the latin intent)
      if (c.kind == CandidateKind::kCompletion && c.text != keys) out.push_back(c);
    }
    return out;
  };
  const auto index = [](const std::vector<Candidate>& list, std::string_view text) {
    return std::find_if(list.begin(), list.end(),
                        [&](const Candidate& c) { return c.text == text; }) -
           list.begin();
  };
  // "guo": 过 (6,000) and 国 (3,000), both for every letter: one group, by score. 国 is a model
  // word, 过 is not (<unk>, shared out by its count).
  const std::vector<Candidate> base = words(*plain, "guo"), with = words(*ranked, "guo");
  ASSERT_EQ(base.size(), 2u);
  ASSERT_EQ(with.size(), 2u);
  EXPECT_EQ(base[0].text, "过");
  EXPECT_GE(with[0].score, with[1].score);
  for (const Candidate& c : with) {
    const Candidate& before = base[index(base, c.text)];
    EXPECT_NE(c.score, before.score) << c.text;  // the model's share
  }
  // "nih": 你好 (the whole composition) stays before 你 (its first two letters) whatever their
  // scores.
  for (const Engine* engine : {plain.get(), ranked.get()}) {
    const std::vector<Candidate> nih = words(*engine, "nih");
    ASSERT_LT(index(nih, "你好"), static_cast<long>(nih.size()));
    ASSERT_LT(index(nih, "你"), static_cast<long>(nih.size()));
    EXPECT_LT(index(nih, "你好"), index(nih, "你"));
  }
}

// The ranking is for the committed text too: the same letters after another commit are ranked
// again, as a fresh session with that text ranks them.
TEST(PinyinModelEngineTest, SameLettersAfterACommitAreRankedForTheNewContext) {
  const ZhFiles files;
  std::unique_ptr<Engine> engine;
  ASSERT_TRUE(files.Open(files.model, 2.0f, &engine).ok());
  auto session = engine->NewSession(SessionOptions());
  Decision d, fresh_d;
  ASSERT_TRUE(session->Type("nihaozhongguo").ok());
  ASSERT_TRUE(session->Decide(5, &d).ok());
  ASSERT_TRUE(session->Accept("你好中国").ok());
  ASSERT_TRUE(session->Decide(5, &d).ok());
  ASSERT_TRUE(session->Type("nihaozhongguo").ok());
  ASSERT_TRUE(session->Decide(5, &d).ok());
  auto fresh = engine->NewSession(SessionOptions());
  ASSERT_TRUE(fresh->SetContext("你好中国").ok());
  ASSERT_TRUE(fresh->Type("nihaozhongguo").ok());
  ASSERT_TRUE(fresh->Decide(5, &fresh_d).ok());
  ASSERT_EQ(d.candidates.size(), fresh_d.candidates.size());
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    EXPECT_EQ(d.candidates[i].text, fresh_d.candidates[i].text) << i;
    EXPECT_NEAR(d.candidates[i].score, fresh_d.candidates[i].score, 1e-3f) << i;
  }
}

TEST(PinyinModelEngineTest, RefusesAModelForAnotherLanguageAndBadWeights) {
  const ZhFiles files;
  std::unique_ptr<Engine> engine;
  {  // a window too short for a composition's keystrokes
    testing::TinyModelSpec spec = ZhSpec();
    spec.max_len = 26;
    const std::string short_model = testing::TempPath("zh_model_short.safetensors");
    testing::WriteFile(short_model, testing::TinyModelBytes(spec));
    const Status s = files.Open(short_model, 0.5f, &engine);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
    EXPECT_NE(s.message().find("max_len"), std::string::npos) << s.ToString();
    std::remove(short_model.c_str());
  }
  Status s = files.Open(files.english_model, 0.5f, &engine);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("'en'"), std::string::npos) << s.ToString();
  s = files.Open(files.model, 0.5f, &engine, "en");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("'zh'"), std::string::npos) << s.ToString();
  EXPECT_EQ(files.Open(files.model, -1.0f, &engine).code(), Status::Code::kInvalidArgument);
  {
    EngineOptions o;
    o.model_dir = KD_MODELS_DIR;
    o.language = "zh";
    o.lexicon_path = files.lexicon;
    o.model_path = files.model;
    o.pinyin.fine_tune_weight = std::nanf("");
    EXPECT_EQ(Engine::Open(o, &engine).code(), Status::Code::kInvalidArgument);
  }
  EXPECT_EQ(files.Open(files.model, std::nanf(""), &engine).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(files.Open("/nonexistent.safetensors", 0.5f, &engine).code(), Status::Code::kNotFound);
  EXPECT_EQ(engine, nullptr);
}

Decision DecideAfter(const Engine& engine, std::string_view keys) {
  auto session = engine.NewSession(SessionOptions());
  EXPECT_TRUE(session->Type(keys).ok());
  Decision d;
  EXPECT_TRUE(session->Decide(5, &d).ok());
  return d;
}

TEST(PinyinModelEngineTest, LatinIntentOffersTheLettersAsTyped) {
  // Intent biases far apart: the head says latin (or prose) whatever the hidden state.
  const ZhFiles latin({-40.0f, 40.0f}, "zh_latin"), prose({40.0f, -40.0f}, "zh_prose");
  std::unique_ptr<Engine> latin_engine, prose_engine;
  ASSERT_TRUE(latin.Open(latin.model, 0.5f, &latin_engine).ok());
  ASSERT_TRUE(prose.Open(prose.model, 0.5f, &prose_engine).ok());
  EXPECT_EQ(latin_engine->info().intent_labels, (std::vector<std::string>{"prose", "latin"}));

  Decision d = DecideAfter(*latin_engine, "python");
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "python");
  EXPECT_TRUE(d.has_model);
  EXPECT_EQ(d.intent.label, "latin");
  ASSERT_EQ(d.intent.probabilities.size(), 2u);
  EXPECT_GT(d.intent.probabilities[1], 0.99f);
  EXPECT_EQ(d.tier, Tier::kFullModel);
  // Pinyin letters too, when the model says latin; one letter is never offered as latin.
  EXPECT_EQ(DecideAfter(*latin_engine, "nihao").candidates[0].text, "nihao");
  EXPECT_NE(DecideAfter(*latin_engine, "n").candidates[0].text, "n");

  d = DecideAfter(*prose_engine, "nihao");
  ASSERT_FALSE(d.candidates.empty());
  EXPECT_EQ(d.candidates[0].text, "你好");
  EXPECT_EQ(d.intent.label, "prose");
  EXPECT_TRUE(d.has_model);
  // The latency governor's lower rungs run no model.
  auto session = latin_engine->NewSession(SessionOptions());
  ASSERT_TRUE(session->Type("python").ok());
  session->SetTier(Tier::kNoVocabProposals);
  ASSERT_TRUE(session->Decide(5, &d).ok());
  EXPECT_EQ(d.tier, Tier::kNoVocabProposals);
  EXPECT_EQ(d.candidates[0].text, "python");
  session->SetTier(Tier::kSmallModel);
  ASSERT_TRUE(session->Decide(5, &d).ok());
  EXPECT_EQ(d.tier, Tier::kLexiconOnly);
  EXPECT_FALSE(d.has_model);
  EXPECT_TRUE(d.candidates.empty() || d.candidates[0].text != "python");

  // With nothing composed the model is not run.
  d = DecideAfter(*prose_engine, "");
  EXPECT_FALSE(d.has_model);
  EXPECT_TRUE(d.intent.label.empty());
}

// The shipped zh engine (lexicon, bigram and model) under random edits: letters, apostrophes,
// punctuation, hanzi and broken UTF-8 typed, backspaces, commits of what is offered and of
// anything, new contexts. Nothing may crash (the ASan/UBSan run of test.sh checks memory), and
// every decision keeps the session's contracts.
TEST(PinyinModelEngineTest, ShippedEngineSurvivesRandomEditing) {
  EngineOptions o;
  o.model_dir = KD_MODELS_DIR;
  o.language = "zh";
  std::unique_ptr<Engine> engine;
  const Status s = Engine::Open(o, &engine);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(engine->info().scorer, "lexicon+bigram+teacher+model");
  auto session = engine->NewSession(SessionOptions());
  std::mt19937 rng(11);
  const std::vector<std::string> pieces = {
      "a",  "e", "n",  "g",    "h",  "z", "i", "o",      "u", "'",    "，",
      "。", " ", "\n", "中国", "的", "x", "q", "python", "1", "\xff", "\xe4\xb8"};
  Decision d;
  for (int step = 0; step < 3000; ++step) {
    const unsigned r = rng() % 100;
    if (r < 70) {
      const std::string& p = pieces[rng() % pieces.size()];
      const Status typed = session->Type(p);
      const bool valid_utf8 = p != "\xff" && p != "\xe4\xb8";
      EXPECT_EQ(typed.ok(), valid_utf8) << p;
    } else if (r < 82) {
      ASSERT_TRUE(session->Backspace().ok());
    } else if (r < 92 && !d.candidates.empty()) {
      ASSERT_TRUE(session->Accept(d.candidates[rng() % d.candidates.size()].text).ok());
    } else if (r < 96) {
      ASSERT_TRUE(session->Accept("随便").ok());
    } else {
      std::string context;
      for (int i = rng() % 40; i > 0; --i) {
        const std::string& p = pieces[rng() % (pieces.size() - 2)];  // valid UTF-8 only
        context += p;
      }
      ASSERT_TRUE(session->SetContext(context).ok());
    }
    ASSERT_TRUE(session->Decide(1 + static_cast<int>(rng() % 10), &d).ok());
    const std::string_view composition = session->composition();
    EXPECT_EQ(d.composition, composition);
    std::string letters;  // the preedit is the composition with apostrophes added
    for (char c : d.preedit) {
      if (c != '\'') letters += c;
    }
    std::string bare;
    for (char c : composition) {
      if (c != '\'') bare += c;
    }
    EXPECT_EQ(letters, bare);
    EXPECT_EQ(d.has_model, !composition.empty() && composition.size() <= 24);
    if (d.has_model) {
      ASSERT_EQ(d.intent.probabilities.size(), 2u);
      EXPECT_NEAR(d.intent.probabilities[0] + d.intent.probabilities[1], 1.0f, 1e-4f);
    }
    for (const Candidate& c : d.candidates) EXPECT_FALSE(c.text.empty());
  }
}

// Positions the load-time probe does not reach overflow float32: a long committed context
// pushes the keystrokes and the sentences there, and the decision is then the bigram's, at the
// lexicon tier, with finite scores; a short one is still served by the model.
TEST(PinyinModelEngineTest, AModelThatOverflowsFallsToTheLexiconTier) {
  testing::TinyModelSpec spec = ZhSpec();
  spec.max_len = 48;
  spec.edit_values = +[](const std::string& name, std::vector<float>* v) {
    if (name == "pos_emb.weight") std::fill(v->begin() + 32 * 16, v->end(), 3e38f);
  };
  const ZhFiles files;
  const std::string path = testing::TempPath("zh_model_overflow.safetensors");
  testing::WriteFile(path, testing::TinyModelBytes(spec));
  std::unique_ptr<Engine> engine;
  const Status s = files.Open(path, 2.0f, &engine);
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (const bool long_context : {false, true}) {
    auto session = engine->NewSession(SessionOptions());
    std::string context;
    for (int i = 0; long_context && i < 30; ++i) context += "你好中国人";
    ASSERT_TRUE(session->SetContext(context).ok());
    ASSERT_TRUE(session->Type("nihaozhongguo").ok());
    Decision d;
    ASSERT_TRUE(session->Decide(10, &d).ok());
    ASSERT_FALSE(d.candidates.empty());
    for (const Candidate& c : d.candidates) EXPECT_TRUE(std::isfinite(c.score)) << c.text;
    EXPECT_TRUE(std::isfinite(d.popup.probability));
    for (const float p : d.intent.probabilities) EXPECT_TRUE(std::isfinite(p));
    EXPECT_EQ(d.has_model, !long_context);
    EXPECT_EQ(d.tier == Tier::kLexiconOnly, long_context);
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace keydecide
