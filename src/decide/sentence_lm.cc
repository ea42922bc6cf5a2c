#include "decide/sentence_lm.h"

#include <algorithm>
#include <cmath>

namespace keydecide {

SentenceLm::Slot::Slot(const ModelConfig& config)
    : cache(config),
      hidden(static_cast<size_t>(config.max_len) * config.d_model),
      log_z(config.max_len),
      log_p(config.max_len) {
  tokens.reserve(config.max_len);
}

SentenceLm::SentenceLm(const Transformer* model, int app, const Options& options)
    : model_(model), app_(app), norm_words_(std::clamp(options.norm_words, 1, model->n_words())) {
  const ModelConfig& c = model->config();
  slots_.reserve(std::max<size_t>(options.slots, 2));
  for (size_t i = 0; i < std::max<size_t>(options.slots, 2); ++i) slots_.emplace_back(c);
  context_.reserve(c.max_len);
  seq_.reserve(c.max_len);
  logits_.resize(norm_words_);
}

void SentenceLm::SetContext(std::span<const int32_t> words) {
  const size_t keep = std::min<size_t>(words.size(), model_->config().max_len - 2);
  context_.assign(words.end() - keep, words.end());
}

void SentenceLm::SetAdapter(const LogitAdapter* adapter, float weight) {
  if (adapter == adapter_ && weight == adapter_weight_) return;
  adapter_ = adapter;
  adapter_weight_ = weight;
  for (Slot& slot : slots_) {
    slot.tokens.clear();
    slot.cache.Clear();
    if (adapter != nullptr) {
      slot.z.resize(static_cast<size_t>(model_->config().max_len) * adapter->rank);
    }
  }
}

float SentenceLm::LogNormaliser(const float* y) {
  model_->WordLogits(y, norm_words_, logits_.data());
  const float top = *std::max_element(logits_.begin(), logits_.end());
  float sum = 0;
  for (float l : logits_) sum += std::exp(l - top);
  return top + std::log(sum);
}

namespace {

bool SameToken(const TokenInput& a, const TokenInput& b) {
  return a.id == b.id && a.interval == b.interval && a.after_backspace == b.after_backspace;
}

}  // namespace

void SentenceLm::StartSequence(size_t more) {
  const size_t room = model_->config().max_len - 2;
  const size_t context = std::min(context_.size(), room - std::min(more, room));
  seq_.clear();
  seq_.push_back({ModelConfig::kBos, 0, 0});
  seq_.push_back({ModelConfig::kFirstApp + app_, 0, 0});
  for (size_t i = context_.size() - context; i < context_.size(); ++i) {
    seq_.push_back({ModelConfig::kWordOffset + context_[i], 0, 0});
  }
}

SentenceLm::Slot* SentenceLm::Place() {
  Slot* best = nullptr;
  size_t best_common = 0;
  for (Slot& slot : slots_) {
    const size_t n = std::min(slot.tokens.size(), seq_.size());
    const size_t common =
        std::mismatch(slot.tokens.begin(), slot.tokens.begin() + n, seq_.begin(), SameToken).first -
        slot.tokens.begin();
    if (best == nullptr || common > best_common ||
        (common == best_common && slot.used > best->used)) {
      best = &slot;
      best_common = common;
    }
  }
  Slot* slot = best;
  // Unless seq_ extends the best slot (in place) or that slot holds all of seq_ already, the
  // least recently used other slot forks it: takes the shared prefix.
  if (best_common < best->tokens.size() && best_common < seq_.size()) {
    slot = nullptr;
    for (Slot& s : slots_) {
      if (&s != best && (slot == nullptr || s.used < slot->used)) slot = &s;
    }
    const size_t d = model_->config().d_model;
    slot->cache.CopyPrefix(best->cache, static_cast<int>(best_common));
    slot->tokens.assign(best->tokens.begin(), best->tokens.begin() + best_common);
    std::copy_n(best->hidden.begin(), best_common * d, slot->hidden.begin());
    std::copy_n(best->log_z.begin(), best_common, slot->log_z.begin());
    std::copy_n(best->log_p.begin(), best_common, slot->log_p.begin());
    if (adapter_ != nullptr) {
      std::copy_n(best->z.begin(), best_common * adapter_->rank, slot->z.begin());
    }
  }
  const size_t have = std::min(slot->tokens.size(), seq_.size());
  if (have < seq_.size()) {
    const std::span<const TokenInput> fresh = std::span(seq_).subspan(have);
    const size_t d = model_->config().d_model;
    model_->ExtendAll(fresh, &slot->cache, &slot->hidden[have * d]);
    steps_ += static_cast<int>(fresh.size());
    const size_t rank = adapter_ != nullptr ? adapter_->rank : 0;
    for (size_t p = have; p < seq_.size(); ++p) {
      const int32_t id = seq_[p].id;
      const bool word = id >= ModelConfig::kWordOffset;
      // Only [APP] and words predict a word (the sentences never hold [SEP] or keys).
      float* z = rank > 0 ? &slot->z[p * rank] : nullptr;
      if ((word || p == 1) && z != nullptr) adapter_->Project(&slot->hidden[p * d], z);
      slot->log_z[p] = word || p == 1 ? LogNormaliser(&slot->hidden[p * d]) : std::nanf("");
      if (word) {
        const int w = id - ModelConfig::kWordOffset;
        slot->log_p[p] = model_->WordLogit(&slot->hidden[(p - 1) * d], w) +
                         (rank > 0 ? AdapterDelta(&slot->z[(p - 1) * rank], w) : 0.0f) -
                         slot->log_z[p - 1];
      } else {
        slot->log_p[p] = 0.0f;
      }
      slot->tokens.push_back(seq_[p]);
    }
  }
  slot->used = ++clock_;
  return slot;
}

float SentenceLm::Score(std::span<const int32_t> words) {
  const size_t n = std::min<size_t>(words.size(), model_->config().max_len - 2);
  if (n == 0) return 0;
  StartSequence(n);
  const size_t first = seq_.size();
  for (size_t i = 0; i < n; ++i) seq_.push_back({ModelConfig::kWordOffset + words[i], 0, 0});
  const Slot* slot = Place();
  float sum = 0;
  for (size_t p = first; p < first + n; ++p) sum += slot->log_p[p];
  return sum;
}

void SentenceLm::NextWords(std::span<const int32_t> words, std::span<float> log_p) {
  StartSequence(1);
  const Slot* slot = Place();
  // The last position is [APP] or a context word: both have their normaliser.
  const size_t last = seq_.size() - 1;
  const float* hidden = &slot->hidden[last * model_->config().d_model];
  const float* z = adapter_ != nullptr ? &slot->z[last * adapter_->rank] : nullptr;
  for (size_t i = 0; i < words.size(); ++i) {
    log_p[i] = model_->WordLogit(hidden, words[i]) + (z ? AdapterDelta(z, words[i]) : 0.0f) -
               slot->log_z[last];
  }
}

const float* SentenceLm::Keystrokes(std::span<const TokenInput> keys) {
  keys = keys.first(std::min<size_t>(keys.size(), model_->config().max_len - 3));
  StartSequence(keys.size() + 1);
  seq_.push_back({ModelConfig::kSep, 0, 0});
  seq_.insert(seq_.end(), keys.begin(), keys.end());
  const Slot* slot = Place();
  return &slot->hidden[(seq_.size() - 1) * model_->config().d_model];
}

}  // namespace keydecide
