#include "decide/fine_tuner.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>

namespace keydecide {

FineTuner::FineTuner(const Transformer* model, AdapterExampleSource source, std::string base_id,
                     UserStore* store, std::string language, std::string replay_text,
                     const Options& options)
    : model_(model),
      source_(std::move(source)),
      base_id_(std::move(base_id)),
      store_(store),
      language_(std::move(language)),
      replay_text_(std::move(replay_text)),
      options_(options) {
  Reload();  // a store that cannot be read leaves the base model alone
  tick_at_round_ = store_->tick();
  if (options_.every_words > 0) thread_ = std::thread([this] { Run(); });
}

FineTuner::~FineTuner() {
  stopping_.store(true, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(wake_mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const LogitAdapter> FineTuner::adapter() const {
  std::lock_guard<std::mutex> lock(adapter_mu_);
  return adapter_;
}

void FineTuner::Publish(std::shared_ptr<const LogitAdapter> adapter) {
  {
    std::lock_guard<std::mutex> lock(adapter_mu_);
    adapter_ = std::move(adapter);
  }
  version_.fetch_add(1, std::memory_order_acq_rel);
}

Status FineTuner::Reload() {
  std::lock_guard<std::mutex> lock(round_mu_);
  int64_t stamp = 0;
  KD_RETURN_IF_ERROR(store_->AdapterStamp(language_, &stamp));
  if (stamp == stamp_) return Status::OK();
  stamp_ = stamp;
  std::string blob;
  auto adapter = std::make_shared<LogitAdapter>();
  Status s = stamp == 0 ? Status::NotFound("none") : store_->LoadAdapter(language_, &blob, &stamp);
  if (s.ok()) s = LogitAdapter::Parse(blob, adapter.get());
  const ModelConfig& c = model_->config();
  const bool fits = s.ok() && adapter->base_id == base_id_ && adapter->d_model == c.d_model &&
                    adapter->n_words == model_->n_words();
  Publish(fits ? std::move(adapter) : nullptr);
  return s.code() == Status::Code::kNotFound || s.code() == Status::Code::kCorruption
             ? Status::OK()  // none, or one the next round replaces
             : s;
}

Status FineTuner::RunRound(FineTuneReport* report) {
  const auto start = std::chrono::steady_clock::now();
  *report = FineTuneReport();
  std::lock_guard<std::mutex> lock(round_mu_);
  tick_at_round_ = store_->tick();
  std::vector<RecentWord> recent;
  KD_RETURN_IF_ERROR(store_->ListRecent(language_, options_.history_words, &recent));
  report->history_words = recent.size();

  AdapterExampleOptions example_options = options_.examples;
  example_options.cancel = &stopping_;
  std::vector<AdapterExample> person;
  source_.examples(source_.text(recent), example_options, &person);
  recent.clear();
  const size_t wanted =
      static_cast<size_t>(static_cast<double>(person.size()) * options_.replay_share);
  if (replay_.size() < wanted && !replay_exhausted_) {
    replay_.clear();
    AdapterExampleOptions replay_options = example_options;
    replay_options.max_examples = std::min(wanted, options_.examples.max_examples);
    source_.examples(replay_text_, replay_options, &replay_);
    replay_exhausted_ =
        replay_.size() < replay_options.max_examples && !stopping_.load(std::memory_order_relaxed);
  }
  const size_t held = static_cast<size_t>(static_cast<double>(person.size()) * options_.held_share);
  const size_t replayed = std::min(replay_.size(), wanted);
  report->person_examples = person.size();
  report->replay_examples = replayed;
  std::vector<AdapterExample> held_back(std::make_move_iterator(person.end() - held),
                                        std::make_move_iterator(person.end()));
  person.resize(person.size() - held);
  person.insert(person.end(), replay_.begin(), replay_.begin() + replayed);

  const ModelConfig& c = model_->config();
  LogitAdapter adapter = LogitAdapter::Zero(options_.rank, c.d_model, model_->n_words(), base_id_,
                                            options_.train.seed);
  AdapterTrainOptions train_options = options_.train;
  train_options.cancel = &stopping_;
  TrainAdapter(person, held_back, train_options, &adapter, &report->train);
  if (report->train.best_epoch > 0 && !stopping_.load(std::memory_order_relaxed)) {
    KD_RETURN_IF_ERROR(store_->SaveAdapter(language_, adapter.Serialize()));
    KD_RETURN_IF_ERROR(store_->AdapterStamp(language_, &stamp_));
    Publish(std::make_shared<const LogitAdapter>(std::move(adapter)));
    report->saved = true;
  }
  report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::OK();
}

void FineTuner::Run() {
  // The lowest CPU priority for this thread alone (on Linux a thread's nice value is its
  // own): a round must never compete with a keystroke.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
  std::unique_lock<std::mutex> lock(wake_mu_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(options_.check_interval_ms),
                         [this] { return stop_; })) {
    lock.unlock();
    Reload();
    bool due;
    {
      std::lock_guard<std::mutex> round(round_mu_);
      due = store_->tick() >= tick_at_round_ + options_.every_words;
    }
    if (due) {
      FineTuneReport report;
      RunRound(&report);  // a store error is retried at the next check
    }
    lock.lock();
  }
}

}  // namespace keydecide
