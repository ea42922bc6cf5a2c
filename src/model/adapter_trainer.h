// Training a LogitAdapter (model/logit_adapter.h) on examples of the base model's hidden
// states: cross-entropy of the adapted logits over a restricted softmax, Adam, early stop on
// a held-back set. Deterministic for a seed (no threads, a fixed shuffle).
//
// Why a restricted softmax: an example keeps the base's top_k words beside its target, with
// their base logits, so an epoch costs top_k * rank per example instead of the full
// vocabulary's logits (the base is frozen: those logits never change). The words outside it
// carry almost none of the probability (the base ranks them below top_k).

#ifndef KEYDECIDE_MODEL_ADAPTER_TRAINER_H_
#define KEYDECIDE_MODEL_ADAPTER_TRAINER_H_

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "model/logit_adapter.h"

namespace keydecide {

class Transformer;

struct AdapterExample {
  std::vector<float> y;        // the base's final-norm hidden state [d_model]
  std::vector<int32_t> words;  // words[0] is the target, then the base's top words
  std::vector<float> base;     // their base logits
};

// An example at hidden state y for `target`: the target and the base's top_k other words.
AdapterExample MakeAdapterExample(const Transformer& model, const float* y, int target, int top_k,
                                  std::vector<float>* scratch_logits);

// Gradients of the loss, accumulated (+=) over examples; each vector as the adapter's.
struct AdapterGradients {
  std::vector<float> a, u, bias;
  explicit AdapterGradients(const LogitAdapter& adapter)
      : a(adapter.a.size()), u(adapter.u.size()), bias(adapter.bias.size()) {}
};

// The example's loss, -log softmax(base + delta)[0] over its words, and (g not null) its
// gradients added to *g. `scratch` holds rank + words.size() floats.
float AdapterLoss(const LogitAdapter& adapter, const AdapterExample& example, AdapterGradients* g,
                  std::vector<float>* scratch);

struct AdapterTrainOptions {
  float learning_rate = 1e-3f;  // chosen on the tuning split (docs/PERSONAL.md)
  float weight_decay = 0.1f;    // L2 on U and bias, toward the base (chosen likewise)
  int batch = 64;
  int max_epochs = 6;
  uint64_t seed = 1;
  // Stops early (between two batches) once it reads true, keeping the best epoch so far;
  // may be null.
  const std::atomic<bool>* cancel = nullptr;
};

struct AdapterTrainReport {
  size_t train_examples = 0, held_examples = 0;
  int epochs = 0;      // epochs run
  int best_epoch = 0;  // 0: no epoch improved on the base; the adapter is left zero
  float held_loss_before = 0, held_loss_after = 0;  // mean per example
};

// Trains *adapter (its initial weights are the start) on `train`, keeping the weights of
// the epoch with the lowest mean loss on `held` (the start's when none is lower); stops at
// max_epochs or after an epoch that did not improve. `held` may be empty: then every epoch
// runs and the last is kept.
void TrainAdapter(std::span<const AdapterExample> train, std::span<const AdapterExample> held,
                  const AdapterTrainOptions& options, LogitAdapter* adapter,
                  AdapterTrainReport* report);

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_ADAPTER_TRAINER_H_
