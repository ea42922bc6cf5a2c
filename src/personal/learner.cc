#include "personal/learner.h"

#include <chrono>

namespace keydecide {

Learner::Learner(std::unique_ptr<UserStore> store, std::string language, int flush_interval_ms,
                 UserWords::Tagger tagger, SnapshotLimits limits)
    : store_(std::move(store)),
      language_(std::move(language)),
      flush_interval_ms_(flush_interval_ms),
      tagger_(std::move(tagger)),
      limits_(limits),
      words_(std::make_shared<const UserWords>()) {
  {
    std::lock_guard<std::mutex> lock(flush_mu_);
    if (!store_->ForgetStamp(&forget_stamp_).ok()) forget_stamp_ = 0;
    const Status s = Refresh();
    std::lock_guard<std::mutex> status_lock(status_mu_);
    status_ = s;
  }
  thread_ = std::thread([this] { Run(); });
}

Learner::~Learner() {
  {
    std::lock_guard<std::mutex> lock(wake_mu_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
  Flush();
}

bool Learner::Offer(std::string_view word, std::string_view previous, bool picked,
                    std::string_view reading, int app, uint64_t epoch) {
  if (word.empty() || word.size() > kMaxWordBytes || reading.size() > kMaxReadingBytes) {
    return false;
  }
  if (previous.size() > kMaxWordBytes) previous = {};
  std::unique_lock<std::mutex> lock(queue_mu_, std::try_to_lock);
  if (!lock.owns_lock() || queued_ == kQueueCapacity) return false;
  if (epoch != kAnyEpoch && epoch != forget_epoch_.load(std::memory_order_relaxed)) return false;
  Slot& slot = queue_[queued_++];
  slot.word_length = static_cast<uint8_t>(word.size());
  slot.previous_length = static_cast<uint8_t>(previous.size());
  slot.reading_length = static_cast<uint8_t>(reading.size());
  slot.picked = picked;
  slot.app = static_cast<int8_t>(app >= 0 && app < UserStore::kAppTypes ? app : -1);
  // string_view::copy, not memcpy: an empty view may have a null data(), which memcpy must
  // not be given even for zero bytes.
  word.copy(slot.word, word.size());
  previous.copy(slot.previous, previous.size());
  reading.copy(slot.reading, reading.size());
  return true;
}

void Learner::Run() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(wake_mu_);
      if (flush_interval_ms_ <= 0) {
        wake_.wait(lock, [this] { return stop_; });
      } else {
        wake_.wait_for(lock, std::chrono::milliseconds(flush_interval_ms_),
                       [this] { return stop_; });
      }
      if (stop_) return;
    }
    std::lock_guard<std::mutex> lock(flush_mu_);
    FlushLocked(false);
  }
}

Status Learner::Flush() {
  std::lock_guard<std::mutex> lock(flush_mu_);
  return FlushLocked(true);
}

void Learner::DropIfForgotten() {
  int64_t stamp = 0;
  if (!store_->ForgetStamp(&stamp).ok() || stamp == forget_stamp_) return;
  forget_stamp_ = stamp;
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    queued_ = 0;
    forget_epoch_.fetch_add(1, std::memory_order_release);
  }
  pending_.clear();
}

Status Learner::FlushLocked(bool refresh) {
  // A change to the file since the last look: another process's words, or a forget, whose
  // words must not come back from the queue.
  const bool changed = store_->Changed();
  if (changed) DropIfForgotten();
  refresh = refresh || changed;
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    for (size_t i = 0; i < queued_; ++i) {
      const Slot& s = queue_[i];
      pending_.push_back({language_, std::string(s.word, s.word_length),
                          std::string(s.previous, s.previous_length), s.picked, 0,
                          std::string(s.reading, s.reading_length), s.app});
    }
    queued_ = 0;
  }
  Status s;
  if (!pending_.empty()) {
    s = store_->Learn(pending_);
    if (s.ok()) {
      pending_.clear();
      refresh = true;
    } else if (pending_.size() > kMaxPending) {
      pending_.erase(pending_.begin(), pending_.end() - kMaxPending);  // the oldest go
    }
    std::lock_guard<std::mutex> lock(status_mu_);
    status_ = s;
  }
  if (refresh) {
    const Status r = Refresh();
    if (s.ok()) s = r;
  }
  return s;
}

Status Learner::Refresh() {
  store_->Changed();  // what changes from here on is seen by the next flush
  std::vector<LearnedWord> words;
  std::vector<LearnedPair> pairs;
  const uint64_t tick = store_->tick();
  KD_RETURN_IF_ERROR(store_->ListMostUsed(language_, limits_.words, limits_.pairs, &words, &pairs));
  std::vector<Shortcut> shortcuts;
  KD_RETURN_IF_ERROR(store_->ListShortcuts(&shortcuts));
  auto snapshot = std::make_shared<const UserWords>(
      UserWords::Build(words, pairs, tick, std::move(shortcuts), tagger_));
  {
    std::lock_guard<std::mutex> lock(words_mu_);
    words_.swap(snapshot);
  }
  version_.fetch_add(1, std::memory_order_release);  // the old snapshot is freed below, unlocked
  return Status::OK();
}

std::shared_ptr<const UserWords> Learner::words() const {
  std::lock_guard<std::mutex> lock(words_mu_);
  return words_;
}

Status Learner::status() const {
  std::lock_guard<std::mutex> lock(status_mu_);
  return status_;
}

}  // namespace keydecide
