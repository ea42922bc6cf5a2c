#include "model/adapter_trainer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "model/transformer.h"

namespace keydecide {

namespace {

// Adam over one parameter vector (moments m, v), the gradient averaged over `n` examples.
struct AdamState {
  std::vector<float> m, v;
  explicit AdamState(size_t n) : m(n), v(n) {}
};

constexpr float kBeta1 = 0.9f, kBeta2 = 0.999f, kEps = 1e-8f;

void AdamStep(std::vector<float>* w, std::vector<float>* g, AdamState* s, float lr, float decay,
              float scale, int step) {
  const float c1 = 1.0f - std::pow(kBeta1, static_cast<float>(step));
  const float c2 = 1.0f - std::pow(kBeta2, static_cast<float>(step));
  for (size_t i = 0; i < w->size(); ++i) {
    const float gi = (*g)[i] * scale + decay * (*w)[i];
    s->m[i] = kBeta1 * s->m[i] + (1 - kBeta1) * gi;
    s->v[i] = kBeta2 * s->v[i] + (1 - kBeta2) * gi * gi;
    (*w)[i] -= lr * (s->m[i] / c1) / (std::sqrt(s->v[i] / c2) + kEps);
    (*g)[i] = 0;
  }
}

float MeanLoss(const LogitAdapter& adapter, std::span<const AdapterExample> examples,
               std::vector<float>* scratch) {
  if (examples.empty()) return 0;
  double sum = 0;
  for (const AdapterExample& e : examples) sum += AdapterLoss(adapter, e, nullptr, scratch);
  return static_cast<float>(sum / examples.size());
}

}  // namespace

AdapterExample MakeAdapterExample(const Transformer& model, const float* y, int target, int top_k,
                                  std::vector<float>* scratch_logits) {
  const int n = model.n_words();
  scratch_logits->resize(n);
  model.WordLogits(y, scratch_logits->data());
  const std::vector<float>& logits = *scratch_logits;
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  const int k = std::min(top_k + 1, n);  // one more: the target may be among them
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t a, int32_t b) {
    return logits[a] != logits[b] ? logits[a] > logits[b] : a < b;
  });
  AdapterExample e;
  e.y.assign(y, y + model.config().d_model);
  e.words.push_back(target);
  for (int i = 0; i < k && static_cast<int>(e.words.size()) <= top_k; ++i) {
    if (order[i] != target) e.words.push_back(order[i]);
  }
  for (int32_t w : e.words) e.base.push_back(logits[w]);
  return e;
}

float AdapterLoss(const LogitAdapter& adapter, const AdapterExample& example, AdapterGradients* g,
                  std::vector<float>* scratch) {
  const int rank = adapter.rank;
  const size_t n = example.words.size();
  scratch->resize(rank + n);
  float* z = scratch->data();
  float* p = z + rank;
  adapter.Project(example.y.data(), z);
  float top = -INFINITY;
  for (size_t i = 0; i < n; ++i) {
    p[i] = example.base[i] + adapter.Delta(z, example.words[i]);
    top = std::max(top, p[i]);
  }
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += std::exp(static_cast<double>(p[i] - top));
  const float log_z = top + static_cast<float>(std::log(sum));
  const float loss = log_z - p[0];
  if (g == nullptr) return loss;
  // d loss / d logit_i = softmax_i - [i == 0]; then through bias, U and A.
  std::vector<float> dz(rank, 0.0f);
  for (size_t i = 0; i < n; ++i) {
    const float gi = std::exp(p[i] - log_z) - (i == 0 ? 1.0f : 0.0f);
    const size_t w = static_cast<size_t>(example.words[i]);
    g->bias[w] += gi;
    const float* uw = &adapter.u[w * rank];
    float* guw = &g->u[w * rank];
    for (int r = 0; r < rank; ++r) {
      guw[r] += gi * z[r];
      dz[r] += gi * uw[r];
    }
  }
  const int d = adapter.d_model;
  for (int r = 0; r < rank; ++r) {
    float* ga = &g->a[static_cast<size_t>(r) * d];
    for (int i = 0; i < d; ++i) ga[i] += dz[r] * example.y[i];
  }
  return loss;
}

void TrainAdapter(std::span<const AdapterExample> train, std::span<const AdapterExample> held,
                  const AdapterTrainOptions& options, LogitAdapter* adapter,
                  AdapterTrainReport* report) {
  *report = AdapterTrainReport();
  report->train_examples = train.size();
  report->held_examples = held.size();
  std::vector<float> scratch;
  float best = MeanLoss(*adapter, held, &scratch);
  report->held_loss_before = report->held_loss_after = best;
  if (train.empty()) return;
  LogitAdapter best_adapter = *adapter;
  AdapterGradients g(*adapter);
  AdamState sa(adapter->a.size()), su(adapter->u.size()), sb(adapter->bias.size());
  std::vector<size_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(options.seed);
  int step = 0;
  for (int epoch = 1; epoch <= options.max_epochs; ++epoch) {
    // Fisher-Yates with our own index draw: std::shuffle's use of the engine is not fixed by
    // the standard, and a round must be reproducible from its seed.
    for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
    auto cancelled = [&] {
      return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed);
    };
    for (size_t start = 0; start < order.size() && !cancelled(); start += options.batch) {
      const size_t end = std::min(order.size(), start + options.batch);
      for (size_t i = start; i < end; ++i) AdapterLoss(*adapter, train[order[i]], &g, &scratch);
      const float scale = 1.0f / static_cast<float>(end - start);
      ++step;
      AdamStep(&adapter->a, &g.a, &sa, options.learning_rate, 0.0f, scale, step);
      AdamStep(&adapter->u, &g.u, &su, options.learning_rate, options.weight_decay, scale, step);
      AdamStep(&adapter->bias, &g.bias, &sb, options.learning_rate, options.weight_decay, scale,
               step);
    }
    if (cancelled()) break;  // a part-trained epoch is not kept
    report->epochs = epoch;
    if (held.empty()) {
      best_adapter = *adapter;
      report->best_epoch = epoch;
      continue;
    }
    const float loss = MeanLoss(*adapter, held, &scratch);
    if (loss >= best) break;
    best = loss;
    best_adapter = *adapter;
    report->best_epoch = epoch;
  }
  *adapter = std::move(best_adapter);
  report->held_loss_after = held.empty() ? 0 : best;
}

}  // namespace keydecide
