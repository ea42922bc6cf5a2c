// keydecide quantize: quantized files load, stay close to the float model, are valid
// safetensors, and every malformed variant is refused with a clear error.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <nlohmann/json.hpp>

#include "model/quantize.h"
#include "model/safetensors.h"
#include "model/transformer.h"
#include "model/weight_checksum.h"
#include "model/weight_format.h"
#include "model_fixture.h"
#include "test_util.h"

namespace keydecide {
namespace {

testing::TinyModelSpec Spec() {
  testing::TinyModelSpec spec;
  spec.d_model = 64, spec.d_ff = 128, spec.n_heads = 4, spec.max_len = 24;
  return spec;
}

Status LoadBytes(const std::string& bytes, std::unique_ptr<Transformer>* model) {
  std::unique_ptr<SafetensorsFile> file;
  KD_RETURN_IF_ERROR(SafetensorsFile::FromBytes(bytes, &file));
  return Transformer::Load(std::move(file), model);
}

// Hidden states of a fixed token sequence, step by step.
std::vector<float> Hidden(const Transformer& m) {
  KvCache cache(m.config());
  std::vector<float> y(m.config().d_model), all;
  std::mt19937 rng(3);
  for (int t = 0; t < m.config().max_len; ++t) {
    const TokenInput token{static_cast<int32_t>(rng() % m.config().vocab_size), 4, 0};
    m.Step(token, &cache, y.data());
    all.insert(all.end(), y.begin(), y.end());
  }
  return all;
}

double RelativeDistance(const std::vector<float>& a, const std::vector<float>& b) {
  double d = 0, n = 0;
  for (size_t i = 0; i < a.size(); ++i) d += (a[i] - b[i]) * (a[i] - b[i]), n += a[i] * a[i];
  return std::sqrt(d / n);
}

TEST(QuantizeTest, QuantizedModelsLoadAndStayCloseToTheFloatModel) {
  const std::string float_bytes = testing::TinyModelBytes(Spec());
  std::unique_ptr<Transformer> reference;
  ASSERT_TRUE(LoadBytes(float_bytes, &reference).ok());
  const auto want = Hidden(*reference);
  struct Case {
    int bits, group;
    const char* format;
    double max_distance;  // relative distance of the final hidden states
  };
  for (const Case& c :
       {Case{8, 64, "q8", 0.03}, Case{4, 32, "q4g32+q8", 0.25}, Case{4, 64, "q4g64+q8", 0.25}}) {
    QuantizeOptions o;
    o.bits = c.bits, o.group = c.group, o.promote_flagged = false;
    std::unique_ptr<Transformer> q;
    const Status s = LoadBytes(testing::QuantizedModelBytes(float_bytes, o), &q);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(q->weight_format(), c.format);
    const double distance = RelativeDistance(want, Hidden(*q));
    EXPECT_LT(distance, c.max_distance) << c.format;
    EXPECT_GT(distance, 0.0) << c.format;  // it really is quantized
  }
}

TEST(QuantizeTest, OutputIsContiguousSafetensorsWithTheQuantizationMetadata) {
  QuantizeOptions o;
  const std::string bytes = testing::QuantizedModelBytes(testing::TinyModelBytes(Spec()), o);
  uint64_t header_len;
  std::memcpy(&header_len, bytes.data(), 8);
  EXPECT_EQ((8 + header_len) % 64, 0u);  // data starts aligned
  const auto header = nlohmann::json::parse(bytes.substr(8, header_len));
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const auto& [name, t] : header.items()) {
    if (name != "__metadata__") ranges.push_back({t["data_offsets"][0], t["data_offsets"][1]});
  }
  std::sort(ranges.begin(), ranges.end());
  uint64_t end = 0;
  for (const auto& [b, e] : ranges) {  // no holes: other readers refuse them
    EXPECT_EQ(b, end);
    end = e;
  }
  EXPECT_EQ(end, bytes.size() - 8 - header_len);
  const auto q = nlohmann::json::parse(header["__metadata__"]["quantization"].get<std::string>());
  EXPECT_EQ(q["tok_emb.weight"], "q8");
  EXPECT_EQ(q["layers.0.mlp.fc2.weight"], "q8");
  EXPECT_FALSE(q.contains("heads.popup.weight"));  // heads stay fp32
  EXPECT_FALSE(q.contains("ln_f.weight"));
}

TEST(QuantizeTest, KeepAndPromotionAreReported) {
  const std::string in = testing::TempPath("keep_in.safetensors");
  const std::string out = testing::TempPath("keep_out.safetensors");
  testing::WriteFile(in, testing::TinyModelBytes(Spec()));
  QuantizeOptions o;
  o.keep = {"layers.1.attn.out.weight"};
  QuantizeReport r;
  ASSERT_TRUE(QuantizeModel(in, out, o, &r).ok());
  for (const auto& w : r.weights) {
    if (w.name == "layers.1.attn.out.weight") {
      EXPECT_EQ(w.format, "f32");
    } else {
      EXPECT_EQ(w.format, "q8") << w.name;
      EXPECT_GT(w.relative_error, 0.0);
      EXPECT_LT(w.relative_error, o.max_error_q8) << w.name;
    }
  }
  EXPECT_LT(r.output_bytes, r.input_bytes);
  // An error limit nobody meets: every weight is flagged and stored in fp32 instead.
  o.keep.clear();
  o.max_error_q8 = 1e-9;
  ASSERT_TRUE(QuantizeModel(in, out, o, &r).ok());
  for (const auto& w : r.weights) {
    EXPECT_EQ(w.format, "f32") << w.name;
    EXPECT_FALSE(w.flag.empty()) << w.name;
  }
  std::unique_ptr<Transformer> m;
  EXPECT_TRUE(Transformer::Open(out, &m).ok());
  EXPECT_EQ(m->weight_format(), "f32");
  // Refusals: bad options, an already quantized input.
  o = QuantizeOptions();
  o.bits = 3;
  EXPECT_EQ(QuantizeModel(in, out, o, &r).code(), Status::Code::kInvalidArgument);
  o.bits = 4, o.group = 48;
  EXPECT_EQ(QuantizeModel(in, out, o, &r).code(), Status::Code::kInvalidArgument);
  o = QuantizeOptions();
  ASSERT_TRUE(QuantizeModel(in, out, o, &r).ok());
  const Status again = QuantizeModel(out, in + ".2", o, &r);
  EXPECT_EQ(again.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(again.message().find("already quantized"), std::string::npos);
  std::remove(in.c_str());
  std::remove(out.c_str());
}

// Rewrites a quantized file's header with `edit` and expects Load to refuse it.
void ExpectRefused(const std::string& quantized, void (*edit)(nlohmann::json*),
                   const std::string& why) {
  uint64_t header_len;
  std::memcpy(&header_len, quantized.data(), 8);
  auto header = nlohmann::json::parse(quantized.substr(8, header_len));
  edit(&header);
  std::string h = header.dump();
  const uint64_t len = h.size();
  std::string bytes(8, '\0');
  std::memcpy(bytes.data(), &len, 8);
  bytes += h + quantized.substr(8 + header_len);
  std::unique_ptr<Transformer> m;
  const Status s = LoadBytes(bytes, &m);
  EXPECT_FALSE(s.ok()) << why;
  EXPECT_EQ(m, nullptr) << why;
}

nlohmann::json Quantization(const nlohmann::json& header) {
  return nlohmann::json::parse(header["__metadata__"]["quantization"].get<std::string>());
}
void SetQuantization(nlohmann::json* header, const nlohmann::json& q) {
  (*header)["__metadata__"]["quantization"] = q.dump();
}

TEST(QuantizeTest, MalformedQuantizedFilesAreRefused) {
  QuantizeOptions o;
  o.bits = 4, o.group = 32, o.promote_flagged = false;
  const std::string q4 = testing::QuantizedModelBytes(testing::TinyModelBytes(Spec()), o);
  ExpectRefused(
      q4, [](nlohmann::json* h) { h->erase("layers.0.attn.qkv.weight.scales"); }, "missing scales");
  ExpectRefused(
      q4, [](nlohmann::json* h) { (*h)["layers.0.attn.qkv.weight"]["dtype"] = "I8"; },
      "4-bit data must be U8");
  ExpectRefused(
      q4, [](nlohmann::json* h) { (*h)["tok_emb.weight"]["dtype"] = "U8"; },
      "8-bit data must be I8");
  ExpectRefused(
      q4, [](nlohmann::json* h) { (*h)["__metadata__"]["quantization"] = "{not json"; },
      "quantization metadata not JSON");
  ExpectRefused(
      q4,
      [](nlohmann::json* h) {
        auto q = Quantization(*h);
        q["layers.0.mlp.fc1.weight"] = "q3";
        SetQuantization(h, q);
      },
      "unknown format");
  ExpectRefused(
      q4,
      [](nlohmann::json* h) {
        auto q = Quantization(*h);
        q["ln_f.weight"] = "q8";
        SetQuantization(h, q);
      },
      "a norm cannot be quantized");
  ExpectRefused(
      q4,
      [](nlohmann::json* h) {
        auto q = Quantization(*h);
        q["layers.0.mlp.fc1.weight"] = "q4g64";  // stored with 32-column groups
        SetQuantization(h, q);
      },
      "group size disagrees with the scales' shape");
  ExpectRefused(
      q4,
      [](nlohmann::json* h) {
        auto q = Quantization(*h);
        q.erase("layers.1.mlp.fc2.weight");  // then it must be a float tensor, and is not
        SetQuantization(h, q);
      },
      "quantized data without its metadata entry");
}

TEST(QuantizeTest, NonFiniteScalesAreRefused) {
  QuantizeOptions o;
  std::string q8 = testing::QuantizedModelBytes(testing::TinyModelBytes(Spec()), o);
  uint64_t header_len;
  std::memcpy(&header_len, q8.data(), 8);
  const auto header = nlohmann::json::parse(q8.substr(8, header_len));
  const uint64_t at = header["layers.0.mlp.fc1.weight.scales"]["data_offsets"][0];
  const float nan = NAN;
  std::memcpy(q8.data() + 8 + header_len + at, &nan, 4);
  testing::ResealTensorCrc32(&q8);  // past the checksum, to the check of the scales
  std::unique_ptr<Transformer> m;
  const Status s = LoadBytes(q8, &m);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("NaN"), std::string::npos) << s.message();
}

// Quantize writes the checksum of what it wrote (whatever the input had), and refuses an
// input whose tensor data fail theirs.
TEST(QuantizeTest, OutputIsSealedAndDamagedInputIsRefused) {
  const std::string q8 = testing::QuantizedModelBytes(testing::TinyModelBytes(Spec()), {});
  std::unique_ptr<SafetensorsFile> file;
  ASSERT_TRUE(SafetensorsFile::FromBytes(q8, &file).ok());
  EXPECT_EQ(file->Metadata(weight_format::kMetaTensorCrc32),
            FormatTensorCrc32(TensorDataCrc32(file->tensor_data())));
  std::string damaged = testing::TinyModelBytes(Spec());
  damaged[damaged.size() - 3] ^= 0x40;
  const std::string in = testing::TempPath("damaged.safetensors");
  const std::string out = testing::TempPath("damaged_q8.safetensors");
  testing::WriteFile(in, damaged);
  QuantizeReport report;
  const Status s = QuantizeModel(in, out, QuantizeOptions(), &report);
  EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  EXPECT_NE(s.message().find(in), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("checksum mismatch"), std::string::npos) << s.ToString();
  std::remove(in.c_str());
}

}  // namespace
}  // namespace keydecide
