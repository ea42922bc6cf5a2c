#include "model/transformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "model/kernels/kernels.h"
#include "model/kernels/targets.h"
#include "model/safetensors.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

using kernels::WeightFormat;

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

// The tensor `name`, which must have exactly `shape`.
Status FindTensor(const SafetensorsFile& f, const std::string& name,
                  const std::vector<int64_t>& shape, const SafetensorsFile::Tensor** out) {
  const SafetensorsFile::Tensor* t = f.Find(name);
  if (t == nullptr) return Status::InvalidArgument("model file lacks tensor '" + name + "'");
  if (t->shape != shape) {
    return Status::InvalidArgument("tensor '" + name + "' has shape " + ShapeString(t->shape) +
                                   ", expected " + ShapeString(shape));
  }
  *out = t;
  return Status::OK();
}

// Reads a float tensor (F32 or F16) of exactly `shape` as fp32, refusing NaN and Inf.
Status ReadTensor(const SafetensorsFile& f, const std::string& name,
                  const std::vector<int64_t>& shape, std::vector<float>* out) {
  const SafetensorsFile::Tensor* t;
  KD_RETURN_IF_ERROR(FindTensor(f, name, shape, &t));
  if (t->dtype != SafetensorsFile::DType::kF32 && t->dtype != SafetensorsFile::DType::kF16) {
    return Status::InvalidArgument("tensor '" + name + "' must be F32 or F16");
  }
  *out = ToFloats(*t);
  for (float x : *out) {
    if (!std::isfinite(x)) return Status::InvalidArgument("tensor '" + name + "' has NaN or Inf");
  }
  return Status::OK();
}

// The lines of a metadata entry (one per vocabulary word), at most n + 1 of them: enough to tell
// that there are too many.
std::vector<std::string_view> MetadataLines(std::string_view text, int n) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; static_cast<int>(lines.size()) <= n;) {
    const size_t nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

// How a weight is stored: a "quantization" metadata entry names it (docs/MODEL.md).
struct StoredFormat {
  WeightFormat format = WeightFormat::kF32;
  int group = 0;
};

Status ParseFormat(std::string_view spec, StoredFormat* out) {
  if (spec == "q8") {
    *out = {WeightFormat::kQ8, 0};
  } else if (spec == "q4g32" || spec == "q4g64") {
    *out = {WeightFormat::kQ4, spec == "q4g32" ? 32 : 64};
  } else if (spec == "f32") {
    *out = {WeightFormat::kF32, 0};
  } else {
    return Status::NotSupported("weight format '" + std::string(spec) + "'");
  }
  return Status::OK();
}

// Reads weight `name` [rows, cols] in its stored format: fp32 copy, or a view of the
// quantized bytes (whose scales must be finite).
Status ReadWeight(const SafetensorsFile& f, const std::string& name, int64_t rows, int64_t cols,
                  const StoredFormat& stored, WeightMatrix* out) {
  if (stored.format == WeightFormat::kF32) {
    std::vector<float> w;
    KD_RETURN_IF_ERROR(ReadTensor(f, name, {rows, cols}, &w));
    *out = WeightMatrix::FromF32(std::move(w), static_cast<int>(rows), static_cast<int>(cols));
    return Status::OK();
  }
  const bool q4 = stored.format == WeightFormat::kQ4;
  if (q4 && (cols % 32 != 0 || cols % stored.group != 0)) {
    return Status::InvalidArgument("tensor '" + name + "': " + std::to_string(cols) +
                                   " columns do not split into 4-bit groups of " +
                                   std::to_string(stored.group));
  }
  if (cols > kernels::kMaxCols) {
    return Status::NotSupported("tensor '" + name + "' is wider than the kernels accept");
  }
  const SafetensorsFile::Tensor* data;
  KD_RETURN_IF_ERROR(FindTensor(f, name, {rows, q4 ? cols / 2 : cols}, &data));
  if (data->dtype != (q4 ? SafetensorsFile::DType::kU8 : SafetensorsFile::DType::kI8)) {
    return Status::InvalidArgument("tensor '" + name + "' must be " + (q4 ? "U8" : "I8"));
  }
  const SafetensorsFile::Tensor* scales;
  const std::string scales_name = name + ".scales";
  KD_RETURN_IF_ERROR(FindTensor(f, scales_name, {rows, q4 ? cols / stored.group : 1}, &scales));
  if (scales->dtype != SafetensorsFile::DType::kF32) {
    return Status::InvalidArgument("tensor '" + scales_name + "' must be F32");
  }
  for (size_t i = 0; i < scales->data.size(); i += 4) {
    float x;
    std::memcpy(&x, scales->data.data() + i, 4);
    if (!std::isfinite(x))
      return Status::InvalidArgument("tensor '" + scales_name + "' has NaN or Inf");
  }
  *out = WeightMatrix::View(stored.format, static_cast<int>(rows), static_cast<int>(cols),
                            stored.group, data->data.data(), scales->data.data());
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

Status Transformer::Load(std::shared_ptr<const SafetensorsFile> file,
                         std::unique_ptr<Transformer>* out) {
  KD_RETURN_IF_ERROR(kernels::ApplyTargetFromEnvironment());
  const SafetensorsFile& f = *file;
  if (f.Metadata("format") != "keydecide-model") {
    return Status::InvalidArgument("not a keydecide model (metadata 'format')");
  }
  if (f.Metadata("format_version") != "1") {
    return Status::NotSupported("model format version '" +
                                std::string(f.Metadata("format_version")) + "'");
  }
  std::unique_ptr<Transformer> m(new Transformer());
  m->file_ = file;
  KD_RETURN_IF_ERROR(ModelConfig::Parse(f.Metadata("config"), &m->config_));
  const ModelConfig& c = m->config_;
  const int64_t d = c.d_model, ff = c.d_ff;

  // Vocabulary: one word per line.
  for (std::string_view w : MetadataLines(f.Metadata("words"), c.n_words())) {
    m->words_.emplace_back(w);
  }
  if (static_cast<int>(m->words_.size()) != c.n_words()) {
    return Status::InvalidArgument("model vocabulary has " + std::to_string(m->words_.size()) +
                                   " words, config says " + std::to_string(c.n_words()));
  }
  for (int i = 0; i < c.n_words(); ++i) {
    KD_RETURN_IF_ERROR(utf8::Validate(m->words_[i]));
    m->word_index_.emplace(m->words_[i], i);  // first occurrence wins
    bool letter = false;
    size_t pos = 0;
    while (pos < m->words_[i].size() && !letter) {
      char32_t cp;
      utf8::Decode(m->words_[i], &pos, &cp);
      letter = IsLetter(cp);
    }
    m->letter_word_.push_back(letter && i > ModelConfig::kEmailWord);
  }

  // Language and readings (a zh model's "pinyin": one line per word, docs/MODEL.md).
  if (const std::string_view lang = f.Metadata("language"); !lang.empty()) {
    if (lang != "en" && lang != "zh") {
      return Status::NotSupported("model language '" + std::string(lang) + "'");
    }
    m->language_ = lang;
  }
  if (const std::string_view pinyin = f.Metadata("pinyin"); m->language_ == "zh") {
    m->readings_ = MetadataLines(pinyin, c.n_words());
    if (static_cast<int>(m->readings_.size()) != c.n_words()) {
      return Status::InvalidArgument("model metadata 'pinyin' has " +
                                     std::to_string(m->readings_.size()) + " lines, expected " +
                                     std::to_string(c.n_words()));
    }
    for (std::string_view r : m->readings_) {
      const bool ok = std::all_of(r.begin(), r.end(),
                                  [](char ch) { return (ch >= 'a' && ch <= 'z') || ch == '\''; });
      if (!ok) return Status::InvalidArgument("model metadata 'pinyin' has a non-pinyin line");
    }
  }

  // Which weights are quantized: {"tensor name": "q8" | "q4g32" | "q4g64" | "f32"}.
  std::map<std::string, StoredFormat, std::less<>> stored;
  if (const std::string_view q = f.Metadata("quantization"); !q.empty()) {
    const nlohmann::json j = nlohmann::json::parse(q, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object())
      return Status::InvalidArgument("metadata 'quantization' is not a JSON object");
    for (const auto& [name, spec] : j.items()) {
      if (!spec.is_string())
        return Status::InvalidArgument("quantization of '" + name + "' is not a string");
      KD_RETURN_IF_ERROR(ParseFormat(spec.get<std::string>(), &stored[name]).Annotated(name));
    }
  }
  std::set<std::string> formats;
  auto weight = [&](const std::string& name, int64_t rows, int64_t cols, WeightMatrix* w) {
    auto it = stored.find(name);
    const StoredFormat format = it == stored.end() ? StoredFormat{} : it->second;
    if (it != stored.end()) stored.erase(it);
    formats.insert(format.format == WeightFormat::kF32  ? std::string("f32")
                   : format.format == WeightFormat::kQ8 ? std::string("q8")
                                                        : "q4g" + std::to_string(format.group));
    return ReadWeight(f, name, rows, cols, format, w);
  };
  auto linear = [&](const std::string& name, int64_t out_dim, int64_t in_dim, Linear* l) {
    KD_RETURN_IF_ERROR(weight(name + ".weight", out_dim, in_dim, &l->w));
    return ReadTensor(f, name + ".bias", {out_dim}, &l->b);
  };
  auto head = [&](const std::string& name, int64_t out_dim, Linear* l) {  // heads stay fp32
    std::vector<float> w;
    KD_RETURN_IF_ERROR(ReadTensor(f, name + ".weight", {out_dim, d}, &w));
    l->w = WeightMatrix::FromF32(std::move(w), static_cast<int>(out_dim), static_cast<int>(d));
    return ReadTensor(f, name + ".bias", {out_dim}, &l->b);
  };
  auto norm = [&](const std::string& name, Norm* n) {
    KD_RETURN_IF_ERROR(ReadTensor(f, name + ".weight", {d}, &n->w));
    return ReadTensor(f, name + ".bias", {d}, &n->b);
  };

  KD_RETURN_IF_ERROR(weight("tok_emb.weight", c.vocab_size, d, &m->tok_emb_));
  m->word_rows_ = kernels::SliceRows(m->tok_emb_.view(), ModelConfig::kWordOffset, c.n_words());
  KD_RETURN_IF_ERROR(ReadTensor(f, "pos_emb.weight", {c.max_len, d}, &m->pos_emb_));
  KD_RETURN_IF_ERROR(
      ReadTensor(f, "ivl_emb.weight", {ModelConfig::kIntervalBuckets, d}, &m->ivl_emb_));
  KD_RETURN_IF_ERROR(ReadTensor(f, "bs_emb.weight", {2, d}, &m->bs_emb_));
  m->layers_.resize(c.n_layers);
  for (int i = 0; i < c.n_layers; ++i) {
    const std::string p = "layers." + std::to_string(i) + ".";
    Layer& l = m->layers_[i];
    KD_RETURN_IF_ERROR(norm(p + "ln1", &l.ln1));
    KD_RETURN_IF_ERROR(linear(p + "attn.qkv", 3 * d, d, &l.qkv));
    KD_RETURN_IF_ERROR(linear(p + "attn.out", d, d, &l.out));
    KD_RETURN_IF_ERROR(norm(p + "ln2", &l.ln2));
    KD_RETURN_IF_ERROR(linear(p + "mlp.fc1", ff, d, &l.fc1));
    KD_RETURN_IF_ERROR(linear(p + "mlp.fc2", d, ff, &l.fc2));
  }
  KD_RETURN_IF_ERROR(norm("ln_f", &m->ln_f_));
  KD_RETURN_IF_ERROR(head("heads.popup", 1, &m->popup_));
  KD_RETURN_IF_ERROR(head("heads.autocorrect", 1, &m->autocorrect_));
  KD_RETURN_IF_ERROR(
      head("heads.intent", static_cast<int64_t>(c.intent_labels.size()), &m->intent_));
  if (!stored.empty()) {  // norms, heads and embeddings other than tok_emb stay fp32
    return Status::InvalidArgument("quantization names '" + stored.begin()->first +
                                   "', which is not a quantizable weight");
  }
  for (const std::string& fmt : formats) {
    if (!m->weight_format_.empty()) m->weight_format_ += '+';
    m->weight_format_ += fmt;
  }
  *out = std::move(m);
  return Status::OK();
}

int Transformer::WordIndex(std::string_view lower) const {
  auto it = word_index_.find(lower);
  return it == word_index_.end() ? ModelConfig::kUnkWord : it->second;
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
