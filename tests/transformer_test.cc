// The fp32 reference model: file validation, incremental steps against block encoding,
// and KV-cache truncation. Parity with PyTorch is in model_parity_test.

#include "model/transformer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "model/safetensors.h"
#include "model/weight_checksum.h"
#include "model/weight_format.h"
#include "model_fixture.h"

namespace keydecide {
namespace {

constexpr float kTolerance = 1e-4f;

std::unique_ptr<Transformer> Load(const std::string& bytes, Status* status = nullptr) {
  std::unique_ptr<SafetensorsFile> file;
  Status s = SafetensorsFile::FromBytes(bytes, &file);
  std::unique_ptr<Transformer> model;
  if (s.ok()) s = Transformer::Load(std::move(file), &model);
  if (status) *status = s;
  return model;
}

std::vector<TokenInput> RandomTokens(int n, int vocab, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<TokenInput> t;
  for (int i = 0; i < n; ++i) {
    t.push_back({static_cast<int32_t>(rng() % vocab), static_cast<uint8_t>(rng() % 8),
                 static_cast<uint8_t>(rng() % 2)});
  }
  return t;
}

TEST(TransformerTest, StepsMatchBlockEncoding) {
  auto model = Load(testing::TinyModelBytes());
  ASSERT_NE(model, nullptr);
  const ModelConfig& c = model->config();
  const auto tokens = RandomTokens(c.max_len, c.vocab_size, 1);
  KvCache a(c), b(c);
  std::vector<float> block(static_cast<size_t>(c.max_len) * c.d_model), y(c.d_model);
  model->Encode(tokens, &a, block.data());
  for (int t = 0; t < c.max_len; ++t) {
    model->Step(tokens[t], &b, y.data());
    for (int i = 0; i < c.d_model; ++i) {
      ASSERT_NEAR(y[i], block[t * c.d_model + i], kTolerance) << "position " << t;
    }
  }
  EXPECT_EQ(b.length(), c.max_len);
}

TEST(TransformerTest, TruncateThenStepEqualsFreshEncoding) {
  auto model = Load(testing::TinyModelBytes());
  ASSERT_NE(model, nullptr);
  const ModelConfig& c = model->config();
  auto tokens = RandomTokens(12, c.vocab_size, 2);
  KvCache cache(c);
  std::vector<float> y(c.d_model), block(static_cast<size_t>(c.max_len) * c.d_model);
  for (const auto& t : tokens) model->Step(t, &cache, y.data());
  // Backspace twice, type two other keys.
  cache.Truncate(10);
  tokens.resize(10);
  for (const auto& t : RandomTokens(2, c.vocab_size, 3)) {
    tokens.push_back(t);
    model->Step(t, &cache, y.data());
  }
  KvCache fresh(c);
  model->Encode(tokens, &fresh, block.data());
  for (int i = 0; i < c.d_model; ++i) ASSERT_NEAR(y[i], block[11 * c.d_model + i], kTolerance);
}

TEST(TransformerTest, ExtendingByBlocksEqualsSteps) {
  auto model = Load(testing::TinyModelBytes());
  ASSERT_NE(model, nullptr);
  const ModelConfig& c = model->config();
  const auto tokens = RandomTokens(c.max_len, c.vocab_size, 4);
  KvCache stepped(c), extended(c);
  std::vector<float> y(c.d_model), z(c.d_model);
  // Blocks of 1, 2, 3, ... tokens against one step per token; the caches must agree too,
  // since later blocks attend to them.
  size_t done = 0;
  for (size_t n = 1; done < tokens.size(); ++n) {
    n = std::min(n, tokens.size() - done);
    for (size_t i = done; i < done + n; ++i) model->Step(tokens[i], &stepped, y.data());
    model->Extend(std::span(tokens).subspan(done, n), &extended, z.data());
    done += n;
    ASSERT_EQ(extended.length(), static_cast<int>(done));
    for (int i = 0; i < c.d_model; ++i) ASSERT_NEAR(z[i], y[i], kTolerance) << "after " << done;
  }
  // All at once: longer than one scratch block (KvCache::kBlockRows), so it goes through
  // in several.
  KvCache whole(c);
  model->Extend(tokens, &whole, z.data());
  ASSERT_EQ(whole.length(), c.max_len);
  for (int i = 0; i < c.d_model; ++i) ASSERT_NEAR(z[i], y[i], kTolerance);
}

TEST(TransformerTest, HeadsAreProbabilities) {
  auto model = Load(testing::TinyModelBytes());
  ASSERT_NE(model, nullptr);
  KvCache cache(model->config());
  std::vector<float> y(model->config().d_model), intent(4), logits(model->n_words());
  model->Step({ModelConfig::kBos, 0, 0}, &cache, y.data());
  const float p = model->Popup(y.data());
  EXPECT_GT(p, 0.0f);
  EXPECT_LT(p, 1.0f);
  model->Intent(y.data(), intent.data());
  EXPECT_NEAR(intent[0] + intent[1] + intent[2] + intent[3], 1.0f, 1e-5f);
  model->WordLogits(y.data(), logits.data());
  EXPECT_FLOAT_EQ(logits[6], model->WordLogit(y.data(), 6));
  EXPECT_EQ(model->vocab().Find("dog"), 8);
  EXPECT_EQ(model->vocab().Find("unicorn"), ModelConfig::kUnkWord);
  EXPECT_TRUE(model->vocab().IsLetterWord(8));
  EXPECT_FALSE(model->vocab().IsLetterWord(4));  // "."
  EXPECT_FALSE(model->vocab().IsLetterWord(0));  // <unk>
}

TEST(TransformerTest, F16WeightsAndHalfConversion) {
  EXPECT_EQ(HalfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xC000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x0001), 5.9604644775390625e-08f);  // smallest subnormal
  EXPECT_EQ(HalfToFloat(0x7BFF), 65504.0f);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7C00)));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7E00)));
}

TEST(TransformerTest, MalformedFilesAreRefused) {
  const std::string good = testing::TinyModelBytes();
  Status s;
  ASSERT_NE(Load(good, &s), nullptr) << s.ToString();
  // Truncated anywhere: never a crash, always an error.
  for (size_t cut = 0; cut < good.size(); cut += 1 + cut / 5) {
    EXPECT_EQ(Load(good.substr(0, cut), &s), nullptr) << "cut " << cut;
    EXPECT_FALSE(s.ok());
  }
  using Edit = void (*)(nlohmann::json*);
  const std::pair<const char*, Edit> edits[] = {
      {"missing tensor", [](nlohmann::json* h) { h->erase("ln_f.bias"); }},
      {"wrong shape", [](nlohmann::json* h) { (*h)["ln_f.bias"]["shape"] = {15}; }},
      {"offsets outside",
       [](nlohmann::json* h) { (*h)["ln_f.bias"]["data_offsets"] = {0, 1u << 30}; }},
      {"bad dtype", [](nlohmann::json* h) { (*h)["ln_f.bias"]["dtype"] = "I64"; }},
      {"not our format", [](nlohmann::json* h) { (*h)["__metadata__"]["format"] = "other"; }},
      {"newer version",
       [](nlohmann::json* h) { (*h)["__metadata__"]["format_version"] = "9"; }},
      {"bad config", [](nlohmann::json* h) { (*h)["__metadata__"]["config"] = "{\"n_layers\": -1}"; }},
      {"config not JSON", [](nlohmann::json* h) { (*h)["__metadata__"]["config"] = "{"; }},
      {"short vocabulary", [](nlohmann::json* h) { (*h)["__metadata__"]["words"] = "<unk>"; }},
      {"long vocabulary",
       [](nlohmann::json* h) {
         (*h)["__metadata__"]["words"] = (*h)["__metadata__"]["words"].get<std::string>() + "\nx";
       }},
  };
  for (const auto& [what, edit] : edits) {
    EXPECT_EQ(Load(testing::TinyModelBytes({}, edit), &s), nullptr) << what;
    EXPECT_FALSE(s.ok()) << what;
  }
  EXPECT_EQ(Load(std::string(8, '\xFF') + "{}", &s), nullptr);  // absurd header length
  EXPECT_EQ(Load(std::string("\x02\0\0\0\0\0\0\0[]", 10), &s), nullptr);  // not an object
  std::unique_ptr<Transformer> m;
  EXPECT_EQ(Transformer::Open("/nonexistent.safetensors", &m).code(), Status::Code::kNotFound);
}

// The tensor data are checked against the file's checksum (model/weight_checksum.h): flipped
// bytes anywhere in them are refused with a clear error, and files from before the checksum
// (no tensor_crc32) still load.
TEST(TransformerTest, DamagedTensorDataAreRefused) {
  const std::string good = testing::TinyModelBytes();
  uint64_t header_len;
  std::memcpy(&header_len, good.data(), 8);
  ASSERT_NE(good.find("\"tensor_crc32\":\""), std::string::npos);
  const size_t data = 8 + header_len;
  Status s;
  for (size_t at = data; at < good.size(); at += (good.size() - data) / 7) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    EXPECT_EQ(Load(bad, &s), nullptr) << "byte " << at;
    EXPECT_EQ(s.code(), Status::Code::kCorruption);
    EXPECT_NE(s.message().find("checksum mismatch"), std::string::npos) << s.message();
  }
  std::string appended = good + "x";  // bytes after the tensors are covered too
  EXPECT_EQ(Load(appended, &s), nullptr);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  // Without the checksum, the same file loads (and so would its damaged copies).
  testing::TinyModelSpec unsealed;
  unsealed.checksum = false;
  EXPECT_NE(Load(testing::TinyModelBytes(unsealed), &s), nullptr) << s.ToString();
  using Edit = void (*)(nlohmann::json*);
  for (const Edit edit : {
           +[](nlohmann::json* h) { (*h)["__metadata__"]["tensor_crc32"] = "1234"; },
           +[](nlohmann::json* h) { (*h)["__metadata__"]["tensor_crc32"] = "ABCDEF01"; },
           +[](nlohmann::json* h) { (*h)["__metadata__"]["tensor_crc32"] = "0x123456"; },
       }) {
    EXPECT_EQ(Load(testing::TinyModelBytes({}, edit), &s), nullptr);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  }
}

TEST(TransformerTest, ChecksumIsZlibCrc32OfTheTensorData) {
  EXPECT_EQ(TensorDataCrc32(""), 0u);
  EXPECT_EQ(TensorDataCrc32("123456789"), 0xCBF43926u);  // the CRC-32 check value
  EXPECT_EQ(TensorDataCrc32("6789", TensorDataCrc32("12345")), 0xCBF43926u);
  EXPECT_EQ(FormatTensorCrc32(0xCBF43926u), "cbf43926");
  EXPECT_EQ(FormatTensorCrc32(0x0000000Au), "0000000a");
  EXPECT_TRUE(VerifyTensorChecksum("cbf43926", "123456789").ok());
  EXPECT_TRUE(VerifyTensorChecksum("", "anything").ok());
  EXPECT_EQ(VerifyTensorChecksum("cbf43927", "123456789").code(), Status::Code::kCorruption);
}

// Finite weights so large that float32 overflows in the forward pass (3e38, near float's
// largest, in an embedding, a norm or a head) are refused at load, not turned into NaN scores.
// (fp16's largest, 65504, everywhere, gives huge but finite scores: it loads.)
TEST(TransformerTest, WeightsThatOverflowAreRefused) {
  using EditValues = void (*)(const std::string&, std::vector<float>*);
  for (const EditValues edit : {
           +[](const std::string& name, std::vector<float>* v) {
             if (name == "tok_emb.weight") std::fill(v->begin(), v->end(), 3e38f);
           },
           +[](const std::string& name, std::vector<float>* v) {
             if (name == "ln_f.weight") std::fill(v->begin(), v->end(), 3e38f);
           },
           +[](const std::string& name, std::vector<float>* v) {
             if (name == "heads.intent.weight") std::fill(v->begin(), v->end(), 3e38f);
           },
           +[](const std::string& name, std::vector<float>* v) {  // after a backspace only
             if (name == "bs_emb.weight") std::fill(v->begin() + v->size() / 2, v->end(), 3e38f);
           },
       }) {
    testing::TinyModelSpec spec;
    spec.edit_values = edit;
    Status s;
    EXPECT_EQ(Load(testing::TinyModelBytes(spec), &s), nullptr);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
    EXPECT_NE(s.message().find("not finite"), std::string::npos) << s.message();
  }
  testing::TinyModelSpec fp16_max;
  fp16_max.edit_values = +[](const std::string&, std::vector<float>* v) {
    std::fill(v->begin(), v->end(), 65504.0f);
  };
  Status s;
  EXPECT_NE(Load(testing::TinyModelBytes(fp16_max), &s), nullptr) << s.ToString();
}

// The shipped models carry the checksum, and the damage of issue 19 (998 random bytes of the
// int8 model changed, which used to load and answer) is refused.
TEST(TransformerTest, ShippedModelsAreSealedAndRefusedWhenDamaged) {
  for (const char* name : {"en/model.safetensors", "en/model.q8.safetensors",
                           "zh/model.safetensors", "zh/model.q8.safetensors"}) {
    const std::string path = std::string(KD_MODELS_DIR) + "/" + name;
    std::unique_ptr<SafetensorsFile> file;
    ASSERT_TRUE(SafetensorsFile::Open(path, &file).ok()) << path;
    EXPECT_EQ(file->Metadata(weight_format::kMetaTensorCrc32).size(), 8u) << path;
    std::string bytes(file->tensor_data());
    std::mt19937 rng(19);
    for (int i = 0; i < 998; ++i) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    EXPECT_EQ(VerifyTensorChecksum(file->Metadata(weight_format::kMetaTensorCrc32), bytes).code(),
              Status::Code::kCorruption)
        << path;
    EXPECT_TRUE(
        VerifyTensorChecksum(file->Metadata(weight_format::kMetaTensorCrc32), file->tensor_data())
            .ok())
        << path;
  }
}

}  // namespace
}  // namespace keydecide
