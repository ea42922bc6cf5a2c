#include "model/transformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "model/kernels/kernels.h"
#include "model/kernels/targets.h"
#include "model/safetensors.h"
#include "model/weight_checksum.h"
#include "model/weight_format.h"
#include "model/weight_reader.h"

namespace keydecide {

namespace {

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

Status CheckFormat(const SafetensorsFile& f) {
  namespace wf = weight_format;
  if (f.Metadata(wf::kMetaFormat) != wf::kFormatName) {
    return Status::InvalidArgument("not a keydecide model (metadata 'format')");
  }
  if (const std::string_view v = f.Metadata(wf::kMetaFormatVersion); v != wf::kFormatVersion) {
    return Status::NotSupported("model format version '" + std::string(v) + "'");
  }
  return Status::OK();
}

}  // namespace

KvCache::KvCache(const ModelConfig& c)
    : max_len_(c.max_len),
      d_model_(c.d_model),
      keys_(static_cast<size_t>(c.n_layers) * c.max_len * c.d_model),
      values_(keys_.size()),
      block_rows_(std::min(c.max_len, kBlockRows)),
      x_(static_cast<size_t>(block_rows_) * c.d_model),
      xn_(x_.size()),
      qkv_(3 * x_.size()),
      att_(x_.size()),
      scores_(c.max_len),
      hidden_(static_cast<size_t>(block_rows_) * c.d_ff) {}

void KvCache::CopyPrefix(const KvCache& from, int n) {
  const size_t rows = static_cast<size_t>(n) * d_model_;
  for (size_t l = 0; l * max_len_ * d_model_ < keys_.size(); ++l) {
    const size_t at = l * max_len_ * d_model_;
    std::copy_n(from.keys_.begin() + at, rows, keys_.begin() + at);
    std::copy_n(from.values_.begin() + at, rows, values_.begin() + at);
  }
  length_ = n;
}

Status Transformer::Open(const std::string& path, std::unique_ptr<Transformer>* out) {
  std::unique_ptr<SafetensorsFile> file;
  KD_RETURN_IF_ERROR(SafetensorsFile::Open(path, &file));
  return Load(std::move(file), out).Annotated(path);
}

std::string Transformer::weights_id() const {
  const std::string_view crc = file_->Metadata(weight_format::kMetaTensorCrc32);
  if (!crc.empty()) return std::string(crc);
  return weight_format_ + ":" + std::to_string(file_->tensor_data().size());
}

Status Transformer::Load(std::shared_ptr<const SafetensorsFile> file,
                         std::unique_ptr<Transformer>* out) {
  KD_RETURN_IF_ERROR(kernels::ApplyTargetFromEnvironment());
  const SafetensorsFile& f = *file;
  KD_RETURN_IF_ERROR(CheckFormat(f));
  KD_RETURN_IF_ERROR(
      VerifyTensorChecksum(f.Metadata(weight_format::kMetaTensorCrc32), f.tensor_data()));
  std::unique_ptr<Transformer> m(new Transformer());
  m->file_ = file;
  KD_RETURN_IF_ERROR(ModelConfig::Parse(f.Metadata(weight_format::kMetaConfig), &m->config_));
  KD_RETURN_IF_ERROR(m->vocab_.Load(f, m->config_.n_words()));
  WeightReader reader(&f);
  KD_RETURN_IF_ERROR(reader.Init());
  KD_RETURN_IF_ERROR(m->LoadEmbeddings(&reader));
  KD_RETURN_IF_ERROR(m->LoadLayers(&reader));
  KD_RETURN_IF_ERROR(m->LoadHeads(reader));
  KD_RETURN_IF_ERROR(reader.CheckAllQuantizedRead());
  m->weight_format_ = reader.FormatsRead();
  KD_RETURN_IF_ERROR(m->CheckFiniteOutputs());
  *out = std::move(m);
  return Status::OK();
}

// Finite weights can still overflow float32 in the forward pass (a head of 3e38s, a layer
// whose LayerNorm variance is infinite). A probe of four tokens (<bos>, an app, two letters,
// one after a backspace) must give finite hidden states, heads and first word logits. It is
// short because it runs at every load (0.1 ms int8, 0.5 ms fp32 for the English model);
// inputs that overflow only elsewhere (another letter's row, a later position, a word
// token) are caught per decision: the sessions fall to the lexicon tier.
Status Transformer::CheckFiniteOutputs() const {
  std::vector<TokenInput> probe = {{ModelConfig::kBos},
                                   {ModelConfig::kFirstApp},
                                   {ModelConfig::kFirstChar + 't' - 'a', 3, 0},
                                   {ModelConfig::kFirstChar + 'e' - 'a', 5, 1}};
  probe.resize(std::min<size_t>(probe.size(), config_.max_len));
  const size_t d = config_.d_model;
  KvCache cache(config_);
  std::vector<float> y(probe.size() * d);
  Encode(probe, &cache, y.data());
  std::vector<float> heads(config_.intent_labels.size() + 2 + kProbedWords);
  const float* last = y.data() + (probe.size() - 1) * d;
  heads[0] = Popup(last);
  heads[1] = Autocorrect(last);
  Intent(last, heads.data() + 2);
  const int words = std::min(kProbedWords, n_words());
  WordLogits(last, words, heads.data() + 2 + config_.intent_labels.size());
  heads.resize(2 + config_.intent_labels.size() + words);
  const auto finite = [](float x) { return std::isfinite(x); };
  if (!std::all_of(y.begin(), y.end(), finite) ||
      !std::all_of(heads.begin(), heads.end(), finite)) {
    return Status::Corruption(
        "the model's outputs are not finite (weights so large that float32 overflows)");
  }
  return Status::OK();
}

Status Transformer::LoadEmbeddings(WeightReader* reader) {
  namespace wf = weight_format;
  const int64_t d = config_.d_model;
  KD_RETURN_IF_ERROR(reader->Matrix(std::string(wf::kTokEmb), config_.vocab_size, d, &tok_emb_));
  word_rows_ = kernels::SliceRows(tok_emb_.view(), ModelConfig::kWordOffset, config_.n_words());
  KD_RETURN_IF_ERROR(reader->Floats(std::string(wf::kPosEmb), {config_.max_len, d}, &pos_emb_));
  KD_RETURN_IF_ERROR(
      reader->Floats(std::string(wf::kIvlEmb), {ModelConfig::kIntervalBuckets, d}, &ivl_emb_));
  return reader->Floats(std::string(wf::kBsEmb), {2, d}, &bs_emb_);
}

Status Transformer::LoadLayers(WeightReader* reader) {
  namespace wf = weight_format;
  const int64_t d = config_.d_model, ff = config_.d_ff;
  auto linear = [&](const std::string& name, int64_t out_dim, int64_t in_dim, Linear* l) {
    KD_RETURN_IF_ERROR(reader->Matrix(name + std::string(wf::kWeight), out_dim, in_dim, &l->w));
    return reader->Floats(name + std::string(wf::kBias), {out_dim}, &l->b);
  };
  layers_.resize(config_.n_layers);
  for (int i = 0; i < config_.n_layers; ++i) {
    const std::string p = std::string(wf::kLayerPrefix) + std::to_string(i) + ".";
    Layer& l = layers_[i];
    KD_RETURN_IF_ERROR(ReadNorm(*reader, p + std::string(wf::kLn1), &l.ln1));
    KD_RETURN_IF_ERROR(linear(p + std::string(wf::kQkv), 3 * d, d, &l.qkv));
    KD_RETURN_IF_ERROR(linear(p + std::string(wf::kAttnOut), d, d, &l.out));
    KD_RETURN_IF_ERROR(ReadNorm(*reader, p + std::string(wf::kLn2), &l.ln2));
    KD_RETURN_IF_ERROR(linear(p + std::string(wf::kFc1), ff, d, &l.fc1));
    KD_RETURN_IF_ERROR(linear(p + std::string(wf::kFc2), d, ff, &l.fc2));
  }
  return Status::OK();
}

// The final norm and the decision heads, which stay fp32.
Status Transformer::LoadHeads(const WeightReader& reader) {
  namespace wf = weight_format;
  const int64_t d = config_.d_model;
  auto head = [&](std::string_view name, int64_t out_dim, Linear* l) {
    KD_RETURN_IF_ERROR(
        reader.FloatMatrix(std::string(name) + std::string(wf::kWeight), out_dim, d, &l->w));
    return reader.Floats(std::string(name) + std::string(wf::kBias), {out_dim}, &l->b);
  };
  KD_RETURN_IF_ERROR(ReadNorm(reader, std::string(wf::kLnF), &ln_f_));
  KD_RETURN_IF_ERROR(head(wf::kPopupHead, 1, &popup_));
  KD_RETURN_IF_ERROR(head(wf::kAutocorrectHead, 1, &autocorrect_));
  return head(wf::kIntentHead, static_cast<int64_t>(config_.intent_labels.size()), &intent_);
}

Status Transformer::ReadNorm(const WeightReader& reader, const std::string& name, Norm* n) const {
  const int64_t d = config_.d_model;
  KD_RETURN_IF_ERROR(reader.Floats(name + std::string(weight_format::kWeight), {d}, &n->w));
  return reader.Floats(name + std::string(weight_format::kBias), {d}, &n->b);
}

void Transformer::Embed(const TokenInput& t, int pos, float* x) const {
  const int d = config_.d_model;
  kernels::DequantizeRow(tok_emb_.view(), t.id, x);
  kernels::AddTo(&pos_emb_[static_cast<size_t>(pos) * d], d, x);
  kernels::AddTo(&ivl_emb_[static_cast<size_t>(t.interval) * d], d, x);
  kernels::AddTo(&bs_emb_[static_cast<size_t>(t.after_backspace) * d], d, x);
}

void Transformer::ApplyNorm(const Norm& n, const float* x, float* y) const {
  kernels::LayerNorm(x, n.w.data(), n.b.data(), config_.d_model, config_.norm_eps, y);
}

void Transformer::Apply(const Linear& l, const float* x, float* y) const {
  kernels::MatVec(l.w.view(), x, l.b.data(), y);
}

// Causal attention of the query at `pos` over cached positions 0..pos, all heads.
void Transformer::Attend(int layer, int pos, const float* q, const KvCache& cache, float* scores,
                         float* out) const {
  const int hd = config_.head_dim();
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  for (int h = 0; h < config_.n_heads; ++h) {
    kernels::AttendHead(q + h * hd, cache.key(layer, 0) + h * hd, cache.value(layer, 0) + h * hd,
                        config_.d_model, pos + 1, hd, scale, scores, out + h * hd);
  }
}

void Transformer::Step(const TokenInput& token, KvCache* cache, float* y) const {
  const int d = config_.d_model;
  const int pos = cache->length_;
  float* x = cache->x_.data();
  float* xn = cache->xn_.data();
  float* qkv = cache->qkv_.data();
  float* att = cache->att_.data();
  float* hidden = cache->hidden_.data();
  Embed(token, pos, x);
  for (int l = 0; l < config_.n_layers; ++l) {
    const Layer& layer = layers_[l];
    ApplyNorm(layer.ln1, x, xn);
    Apply(layer.qkv, xn, qkv);
    std::copy(qkv + d, qkv + 2 * d, cache->key(l, pos));
    std::copy(qkv + 2 * d, qkv + 3 * d, cache->value(l, pos));
    Attend(l, pos, qkv, *cache, cache->scores_.data(), att);
    Apply(layer.out, att, xn);
    kernels::AddTo(xn, d, x);
    ApplyNorm(layer.ln2, x, xn);
    Apply(layer.fc1, xn, hidden);
    kernels::Gelu(config_.d_ff, hidden);
    Apply(layer.fc2, hidden, xn);
    kernels::AddTo(xn, d, x);
  }
  ApplyNorm(ln_f_, x, y);
  cache->length_ = pos + 1;
}

// Layer by layer over the n new positions base..base+n-1: each projection is one matrix
// product over the [n, d] block; attention is causal over the cache and within the block.
// Leaves the last layer's output (before the final norm) in cache->x_ [n, d].
// REQUIRES: n <= cache->block_rows_.
void Transformer::Forward(std::span<const TokenInput> tokens, KvCache* cache) const {
  const int d = config_.d_model, ff = config_.d_ff;
  const int n = static_cast<int>(tokens.size());
  const int base = cache->length_;
  float* x = cache->x_.data();            // [n, d]
  float* xn = cache->xn_.data();          // [n, d]
  float* qkv = cache->qkv_.data();        // [n, 3d]
  float* att = cache->att_.data();        // [n, d]
  float* hidden = cache->hidden_.data();  // [n, ff]
  for (int t = 0; t < n; ++t) Embed(tokens[t], base + t, x + t * d);
  for (int l = 0; l < config_.n_layers; ++l) {
    const Layer& layer = layers_[l];
    for (int t = 0; t < n; ++t) ApplyNorm(layer.ln1, x + t * d, xn + t * d);
    kernels::MatMul(layer.qkv.w.view(), xn, n, layer.qkv.b.data(), qkv);
    for (int t = 0; t < n; ++t) {
      std::copy(qkv + t * 3 * d + d, qkv + t * 3 * d + 2 * d, cache->key(l, base + t));
      std::copy(qkv + t * 3 * d + 2 * d, qkv + t * 3 * d + 3 * d, cache->value(l, base + t));
    }
    for (int t = 0; t < n; ++t) {
      Attend(l, base + t, qkv + t * 3 * d, *cache, cache->scores_.data(), att + t * d);
    }
    kernels::MatMul(layer.out.w.view(), att, n, layer.out.b.data(), xn);
    kernels::AddTo(xn, n * d, x);
    for (int t = 0; t < n; ++t) ApplyNorm(layer.ln2, x + t * d, xn + t * d);
    kernels::MatMul(layer.fc1.w.view(), xn, n, layer.fc1.b.data(), hidden);
    kernels::Gelu(n * ff, hidden);
    kernels::MatMul(layer.fc2.w.view(), hidden, n, layer.fc2.b.data(), xn);
    kernels::AddTo(xn, n * d, x);
  }
  cache->length_ = base + n;
}

// Longer runs go block by block: a block's attention reads the keys and values that the
// blocks before it left in the cache, so the result is the same as one big block.
void Transformer::Encode(std::span<const TokenInput> tokens, KvCache* cache, float* y) const {
  cache->Clear();
  ExtendAll(tokens, cache, y);
}

void Transformer::ExtendAll(std::span<const TokenInput> tokens, KvCache* cache, float* y) const {
  const size_t d = config_.d_model, rows = cache->block_rows_;
  for (size_t start = 0; start < tokens.size(); start += rows) {
    const size_t n = std::min(rows, tokens.size() - start);
    Forward(tokens.subspan(start, n), cache);
    for (size_t t = 0; t < n; ++t) ApplyNorm(ln_f_, &cache->x_[t * d], y + (start + t) * d);
  }
}

void Transformer::Extend(std::span<const TokenInput> tokens, KvCache* cache, float* y) const {
  const size_t rows = cache->block_rows_;
  size_t n = 0;
  for (size_t start = 0; start < tokens.size(); start += rows) {
    n = std::min(rows, tokens.size() - start);
    Forward(tokens.subspan(start, n), cache);
  }
  ApplyNorm(ln_f_, &cache->x_[(n - 1) * config_.d_model], y);
}

float Transformer::WordLogit(const float* y, int word) const {
  float logit;
  const int32_t row = word;
  kernels::RowDots(word_rows_, std::span(&row, 1), y, &logit);
  return logit;
}

void Transformer::WordLogits(const float* y, std::span<const int32_t> words, float* out) const {
  kernels::RowDots(word_rows_, words, y, out);
}

void Transformer::WordLogits(const float* y, float* logits) const {
  kernels::MatVec(word_rows_, y, nullptr, logits);
}

void Transformer::WordLogits(const float* y, int n, float* logits) const {
  kernels::MatVec(kernels::SliceRows(word_rows_, 0, n), y, nullptr, logits);
}

float Transformer::Popup(const float* y) const {
  float z;
  Apply(popup_, y, &z);
  return Sigmoid(z);
}

float Transformer::Autocorrect(const float* y) const {
  float z;
  Apply(autocorrect_, y, &z);
  return Sigmoid(z);
}

void Transformer::Intent(const float* y, float* probs) const {
  Apply(intent_, y, probs);
  kernels::Softmax(intent_.w.rows(), probs);
}

}  // namespace keydecide
