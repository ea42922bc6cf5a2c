#include "decide/open_learner.h"

#include <algorithm>
#include <cstdio>

#include "base/mapped_file.h"
#include "keydecide/user_store.h"
#include "text/utf8.h"

namespace keydecide {

void OpenLearner(const EngineOptions& options, const std::string& language,
                 UserWords::Tagger tagger, std::unique_ptr<Learner>* out, std::string* info) {
  if (!options.personal) return;
  UserStoreOptions store_options;
  store_options.path = options.user_store_path;
  std::unique_ptr<UserStore> store;
  const Status s = UserStore::Open(store_options, &store);
  if (!s.ok()) {
    // Bad configuration is logged and typing goes on (the message names the file, never a word).
    *info = "unavailable: " + s.ToString();
    std::fprintf(stderr, "keydecide: typing without personalisation: %s\n", s.ToString().c_str());
    return;
  }
  if (!store->set_aside_path().empty()) {
    std::fprintf(stderr, "keydecide: the user store was damaged; kept as %s, starting afresh\n",
                 store->set_aside_path().c_str());
  }
  const std::string path = store->path();
  *out = std::make_unique<Learner>(std::move(store), language, options.learn_flush_ms,
                                   std::move(tagger));
  *info = (options.learn ? "on: " : "on, not learning: ") + path;
}

namespace {

// The general text fine-tuning replays: <pack>/replay.txt, "" when it is missing or over
// ReadFileToString's limit (a round then replays nothing).
std::string ReadReplayText(const std::string& pack_dir) {
  std::string text;
  if (pack_dir.empty() || !ReadFileToString(pack_dir + "/replay.txt", &text).ok()) return "";
  return utf8::Repair(text);
}

}  // namespace

void OpenFineTuner(const EngineOptions& options, const std::string& language,
                   const Transformer* model, AdapterExampleSource source, Learner* learner,
                   const std::string& pack_dir, std::unique_ptr<FineTuner>* out) {
  if (!options.fine_tune || learner == nullptr || model == nullptr) return;
  FineTuner::Options o;
  o.every_words =
      options.learn ? static_cast<uint64_t>(std::max(0, options.fine_tune_every_words)) : 0;
  *out = std::make_unique<FineTuner>(model, std::move(source), model->weights_id(),
                                     learner->store(), language, ReadReplayText(pack_dir), o);
}

Status FineTuneNow(Learner* learner, FineTuner* tuner, std::string* summary) {
  if (tuner == nullptr) {
    return Status::NotSupported("fine-tuning is off (EngineOptions::fine_tune, a model, a store)");
  }
  KD_RETURN_IF_ERROR(learner->Flush());
  FineTuneReport r;
  KD_RETURN_IF_ERROR(tuner->RunRound(&r));
  if (summary != nullptr) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "%zu recent words, %zu examples of theirs (%zu held back), %zu replayed; "
                  "%d epochs, held-back loss %.4f -> %.4f; %s; %.1f s",
                  r.history_words, r.person_examples, r.train.held_examples, r.replay_examples,
                  r.train.epochs, r.train.held_loss_before, r.train.held_loss_after,
                  r.saved ? "adapter saved" : "no improvement, nothing saved", r.seconds);
    *summary = buf;
  }
  return Status::OK();
}

}  // namespace keydecide
