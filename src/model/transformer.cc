#include "model/transformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "model/safetensors.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

// Dot product with eight independent partial sums: the compiler keeps them in SIMD
// registers without reassociating floating point. The tuned kernels live in kernels/.
float Dot(const float* a, const float* b, int n) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) acc[k] += a[i + k] * b[i + k];
  }
  float tail = 0;
  for (; i < n; ++i) tail += a[i] * b[i];
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + tail;
}

float Gelu(float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f)); }

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// Reads a tensor of exactly `shape` as fp32.
Status ReadTensor(const SafetensorsFile& f, const std::string& name,
                  std::initializer_list<int64_t> shape, std::vector<float>* out) {
  const SafetensorsFile::Tensor* t = f.Find(name);
  if (t == nullptr) return Status::InvalidArgument("model file lacks tensor '" + name + "'");
  if (!std::equal(t->shape.begin(), t->shape.end(), shape.begin(), shape.end())) {
    std::string want, got;
    for (int64_t d : shape) want += std::to_string(d) + ",";
    for (int64_t d : t->shape) got += std::to_string(d) + ",";
    return Status::InvalidArgument("tensor '" + name + "' has shape [" + got + "], expected [" +
                                   want + "]");
  }
  const size_t n = static_cast<size_t>(t->elements());
  out->resize(n);
  if (t->dtype == SafetensorsFile::DType::kF32) {
    std::memcpy(out->data(), t->data.data(), n * sizeof(float));
  } else {
    for (size_t i = 0; i < n; ++i) {
      uint16_t h;
      std::memcpy(&h, t->data.data() + 2 * i, 2);
      (*out)[i] = HalfToFloat(h);
    }
  }
  return Status::OK();
}

}  // namespace

KvCache::KvCache(const ModelConfig& c)
    : max_len_(c.max_len),
      d_model_(c.d_model),
      keys_(static_cast<size_t>(c.n_layers) * c.max_len * c.d_model),
      values_(keys_.size()),
      x_(static_cast<size_t>(c.max_len) * c.d_model),
      xn_(x_.size()),
      qkv_(3 * x_.size()),
      att_(x_.size()),
      scores_(c.max_len),
      hidden_(static_cast<size_t>(c.max_len) * c.d_ff) {}

Status Transformer::Open(const std::string& path, std::unique_ptr<Transformer>* out) {
  std::unique_ptr<SafetensorsFile> file;
  KD_RETURN_IF_ERROR(SafetensorsFile::Open(path, &file));
  const Status s = Load(*file, out);
  if (!s.ok()) return Status::InvalidArgument(path + ": " + s.message());
  return s;
}

Status Transformer::Load(const SafetensorsFile& f, std::unique_ptr<Transformer>* out) {
  if (f.Metadata("format") != "keydecide-model") {
    return Status::InvalidArgument("not a keydecide model (metadata 'format')");
  }
  if (f.Metadata("format_version") != "1") {
    return Status::NotSupported("model format version '" + std::string(f.Metadata("format_version")) + "'");
  }
  std::unique_ptr<Transformer> m(new Transformer());
  KD_RETURN_IF_ERROR(ModelConfig::Parse(f.Metadata("config"), &m->config_));
  const ModelConfig& c = m->config_;
  const int64_t d = c.d_model, ff = c.d_ff;

  // Vocabulary: one word per line.
  std::string_view words = f.Metadata("words");
  for (size_t start = 0;;) {
    const size_t nl = words.find('\n', start);
    m->words_.emplace_back(words.substr(start, nl - start));
    if (nl == std::string_view::npos || static_cast<int>(m->words_.size()) > c.n_words()) break;
    start = nl + 1;
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

  KD_RETURN_IF_ERROR(ReadTensor(f, "tok_emb.weight", {c.vocab_size, d}, &m->tok_emb_));
  KD_RETURN_IF_ERROR(ReadTensor(f, "pos_emb.weight", {c.max_len, d}, &m->pos_emb_));
  KD_RETURN_IF_ERROR(ReadTensor(f, "ivl_emb.weight", {ModelConfig::kIntervalBuckets, d}, &m->ivl_emb_));
  KD_RETURN_IF_ERROR(ReadTensor(f, "bs_emb.weight", {2, d}, &m->bs_emb_));
  auto linear = [&](const std::string& name, int64_t out_dim, int64_t in_dim, Linear* l) {
    l->in = static_cast<int>(in_dim);
    l->out = static_cast<int>(out_dim);
    KD_RETURN_IF_ERROR(ReadTensor(f, name + ".weight", {out_dim, in_dim}, &l->w));
    return ReadTensor(f, name + ".bias", {out_dim}, &l->b);
  };
  auto norm = [&](const std::string& name, Norm* n) {
    KD_RETURN_IF_ERROR(ReadTensor(f, name + ".weight", {d}, &n->w));
    return ReadTensor(f, name + ".bias", {d}, &n->b);
  };
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
  KD_RETURN_IF_ERROR(linear("heads.popup", 1, d, &m->popup_));
  KD_RETURN_IF_ERROR(linear("heads.autocorrect", 1, d, &m->autocorrect_));
  KD_RETURN_IF_ERROR(linear("heads.intent", static_cast<int64_t>(c.intent_labels.size()), d,
                            &m->intent_));
  for (const auto& v : {&m->tok_emb_, &m->pos_emb_}) {
    for (float x : *v) {
      if (!std::isfinite(x)) return Status::InvalidArgument("model has non-finite weights");
    }
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
  const float* tok = &tok_emb_[static_cast<size_t>(t.id) * d];
  const float* p = &pos_emb_[static_cast<size_t>(pos) * d];
  const float* ivl = &ivl_emb_[static_cast<size_t>(t.interval) * d];
  const float* bs = &bs_emb_[static_cast<size_t>(t.after_backspace) * d];
  for (int i = 0; i < d; ++i) x[i] = tok[i] + p[i] + ivl[i] + bs[i];
}

void Transformer::LayerNorm(const Norm& n, const float* x, float* y) const {
  const int d = config_.d_model;
  float mean = 0;
  for (int i = 0; i < d; ++i) mean += x[i];
  mean /= static_cast<float>(d);
  float var = 0;
  for (int i = 0; i < d; ++i) var += (x[i] - mean) * (x[i] - mean);
  var /= static_cast<float>(d);
  const float inv = 1.0f / std::sqrt(var + config_.norm_eps);
  for (int i = 0; i < d; ++i) y[i] = (x[i] - mean) * inv * n.w[i] + n.b[i];
}

namespace {

void Apply(const auto& l, const float* x, float* y) {
  for (int o = 0; o < l.out; ++o) y[o] = l.b[o] + Dot(&l.w[static_cast<size_t>(o) * l.in], x, l.in);
}

}  // namespace

// Causal attention of the query at `pos` over cached positions 0..pos, all heads.
void Transformer::Attend(int layer, int pos, const float* q, const KvCache& cache, float* scores,
                         float* out) const {
  const int hd = config_.head_dim();
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  for (int h = 0; h < config_.n_heads; ++h) {
    const float* qh = q + h * hd;
    float max_score = -INFINITY;
    for (int j = 0; j <= pos; ++j) {
      scores[j] = Dot(qh, cache.key(layer, j) + h * hd, hd) * scale;
      max_score = std::max(max_score, scores[j]);
    }
    float sum = 0;
    for (int j = 0; j <= pos; ++j) {
      scores[j] = std::exp(scores[j] - max_score);
      sum += scores[j];
    }
    float* oh = out + h * hd;
    std::fill(oh, oh + hd, 0.0f);
    for (int j = 0; j <= pos; ++j) {
      const float p = scores[j] / sum;
      const float* vh = cache.value(layer, j) + h * hd;
      for (int i = 0; i < hd; ++i) oh[i] += p * vh[i];
    }
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
    LayerNorm(layer.ln1, x, xn);
    Apply(layer.qkv, xn, qkv);
    std::copy(qkv + d, qkv + 2 * d, cache->key(l, pos));
    std::copy(qkv + 2 * d, qkv + 3 * d, cache->value(l, pos));
    Attend(l, pos, qkv, *cache, cache->scores_.data(), att);
    Apply(layer.out, att, xn);
    for (int i = 0; i < d; ++i) x[i] += xn[i];
    LayerNorm(layer.ln2, x, xn);
    Apply(layer.fc1, xn, hidden);
    for (int i = 0; i < config_.d_ff; ++i) hidden[i] = Gelu(hidden[i]);
    Apply(layer.fc2, hidden, xn);
    for (int i = 0; i < d; ++i) x[i] += xn[i];
  }
  LayerNorm(ln_f_, x, y);
  cache->length_ = pos + 1;
}

// Layer by layer over all positions: each projection runs over the whole [n, d] block
// (the shape the batched kernels take), attention is causal within the block.
void Transformer::Encode(std::span<const TokenInput> tokens, KvCache* cache, float* y) const {
  const int d = config_.d_model, ff = config_.d_ff;
  const int n = static_cast<int>(tokens.size());
  float* x = cache->x_.data();       // [n, d]
  float* xn = cache->xn_.data();     // [n, d]
  float* qkv = cache->qkv_.data();   // [n, 3d]
  float* att = cache->att_.data();   // [n, d]
  float* hidden = cache->hidden_.data();  // [n, ff]
  for (int t = 0; t < n; ++t) Embed(tokens[t], t, x + t * d);
  for (int l = 0; l < config_.n_layers; ++l) {
    const Layer& layer = layers_[l];
    for (int t = 0; t < n; ++t) {
      LayerNorm(layer.ln1, x + t * d, xn + t * d);
      Apply(layer.qkv, xn + t * d, qkv + t * 3 * d);
      std::copy(qkv + t * 3 * d + d, qkv + t * 3 * d + 2 * d, cache->key(l, t));
      std::copy(qkv + t * 3 * d + 2 * d, qkv + t * 3 * d + 3 * d, cache->value(l, t));
    }
    for (int t = 0; t < n; ++t) {
      Attend(l, t, qkv + t * 3 * d, *cache, cache->scores_.data(), att + t * d);
      Apply(layer.out, att + t * d, xn + t * d);
      for (int i = 0; i < d; ++i) x[t * d + i] += xn[t * d + i];
    }
    for (int t = 0; t < n; ++t) {
      LayerNorm(layer.ln2, x + t * d, xn + t * d);
      Apply(layer.fc1, xn + t * d, hidden + static_cast<size_t>(t) * ff);
      for (int i = 0; i < ff; ++i) hidden[t * ff + i] = Gelu(hidden[t * ff + i]);
      Apply(layer.fc2, hidden + static_cast<size_t>(t) * ff, xn + t * d);
      for (int i = 0; i < d; ++i) x[t * d + i] += xn[t * d + i];
    }
  }
  for (int t = 0; t < n; ++t) LayerNorm(ln_f_, x + t * d, y + t * d);
  cache->length_ = n;
}

float Transformer::WordLogit(const float* y, int word) const {
  const int d = config_.d_model;
  return Dot(y, &tok_emb_[static_cast<size_t>(ModelConfig::kWordOffset + word) * d], d);
}

void Transformer::WordLogits(const float* y, float* logits) const {
  for (int w = 0; w < n_words(); ++w) logits[w] = WordLogit(y, w);
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
  const int n = intent_.out;
  const float m = *std::max_element(probs, probs + n);
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += probs[i] = std::exp(probs[i] - m);
  for (int i = 0; i < n; ++i) probs[i] /= sum;
}

}  // namespace keydecide
