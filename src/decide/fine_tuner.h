// FineTuner: trains the person's LogitAdapter (model/logit_adapter.h) from their recent text in
// the user store, off the keystroke path, and serves it to sessions (docs/PERSONAL.md,
// "Fine-tuning").
//
// A round reads the last history_words recent words, makes them examples with the language's
// AdapterExampleSource (decide/adapter_examples.h), holds back the latest held_share of those
// examples, mixes in replay_share as many examples of the general replay text shipped with the
// model, trains from a zero adapter (model/adapter_trainer.h) and saves the result to the store
// when the held-back loss improved. The store's adapter is read at start and whenever its stamp
// changes (a Forget drops it; another process may train one); one for another base model is
// ignored and replaced by the next round.
//
// Thread-safety: every method may be called from any thread; rounds run one at a time.

#ifndef KEYDECIDE_DECIDE_FINE_TUNER_H_
#define KEYDECIDE_DECIDE_FINE_TUNER_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "decide/adapter_examples.h"
#include "keydecide/user_store.h"
#include "model/adapter_trainer.h"
#include "model/logit_adapter.h"
#include "model/transformer.h"

namespace keydecide {

struct FineTuneReport {
  size_t history_words = 0;
  size_t person_examples = 0, replay_examples = 0;
  AdapterTrainReport train;
  double seconds = 0;
  bool saved = false;  // the held-back loss improved and the adapter was stored
};

class FineTuner {
 public:
  struct Options {
    int rank = 8;
    size_t history_words = 10000;
    double held_share = 0.1;
    double replay_share = 0.5;
    AdapterExampleOptions examples;
    AdapterTrainOptions train;
    // A background round starts once this many words were learned since the last one; 0:
    // no background rounds (RunRound only).
    uint64_t every_words = 0;
    int check_interval_ms = 10000;
  };

  // `source`: how the language's text becomes examples (TypedAdapterExamples for English,
  // ZhAdapterExamples). REQUIRES: model, what source points to and store outlive this object;
  // the store is thread-safe.
  FineTuner(const Transformer* model, AdapterExampleSource source, std::string base_id,
            UserStore* store, std::string language, std::string replay_text,
            const Options& options);
  // Stops the background thread; a round in progress stops at its next word or batch and
  // saves nothing.
  ~FineTuner();

  FineTuner(const FineTuner&) = delete;
  FineTuner& operator=(const FineTuner&) = delete;

  // One round now, on the caller's thread.
  Status RunRound(FineTuneReport* report);

  // The adapter in use (null: none); as Learner::words, fetched only when version() moved.
  std::shared_ptr<const LogitAdapter> adapter() const;
  uint64_t version() const { return version_.load(std::memory_order_acquire); }

 private:
  void Run();
  // Reads the store's adapter when its stamp moved; publishes it (or none).
  Status Reload();
  void Publish(std::shared_ptr<const LogitAdapter> adapter);

  const Transformer* model_;
  const AdapterExampleSource source_;
  const std::string base_id_;
  UserStore* store_;
  const std::string language_;
  const std::string replay_text_;
  const Options options_;

  std::mutex round_mu_;  // one round (or reload) at a time
  int64_t stamp_ = -1;   // of the adapter published; guarded by round_mu_
  uint64_t tick_at_round_ = 0;
  // The replay text's first examples, made as far as a round needs them (always the same
  // ones: the text is typed from its start).
  std::vector<AdapterExample> replay_;
  bool replay_exhausted_ = false;  // the whole text is in replay_

  mutable std::mutex adapter_mu_;
  std::shared_ptr<const LogitAdapter> adapter_;
  std::atomic<uint64_t> version_{0};

  std::mutex wake_mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::atomic<bool> stopping_{false};  // what a round in progress polls
  std::thread thread_;                 // last; only when options.every_words > 0
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_FINE_TUNER_H_
