// Learner: takes the words sessions finished and kept, off the keystroke path, into the user
// store, and serves the sessions a fresh UserWords snapshot to rank with.
//
// A session calls Offer on the keystroke that ends a word: it copies the word into a fixed
// queue under a try-lock, so it never allocates, blocks or makes a system call. A background
// thread writes the queue to the store every flush interval (one transaction per batch:
// UserStore::Learn) and then rebuilds the snapshot. It rebuilds it otherwise only when the
// file changed (UserStore::Changed: another process learned, forgot, imported), so an idle
// engine costs nothing however large the store. A batch the store refuses (locked, disk full)
// is kept and retried, up to kMaxPending events; the last error is status().
//
// Forgetting (issue 51): when the store's ForgetStamp moves (a forget, by any process), what
// was typed before it and not yet stored is dropped (the queue, the pending batch), and
// forget_epoch() moves: a session drops the word it holds back (and its caches of the text)
// when the epoch it took it under is no longer the learner's, and Offer refuses a word
// offered under an old epoch. At most a flush interval of words typed just after a forget
// is lost with them; nothing forgotten comes back.
//
// Thread-safety: Offer, Flush, words and status may be called from any thread.

#ifndef KEYDECIDE_PERSONAL_LEARNER_H_
#define KEYDECIDE_PERSONAL_LEARNER_H_

#include <array>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "keydecide/user_store.h"
#include "personal/user_words.h"

namespace keydecide {

// What a Learner's snapshot holds at most: the most used words and pairs of the store. A store
// grows with all a person ever typed (every new pair of words is a row); the engine's memory
// must not (issue 51's soak grew 13.6 MB every 10 minutes while 20 clients learned). The
// snapshot's build is bounded too; the store's read still visits every row to find the most
// used (SQLite keeps only the top rows while it sorts, but reads them all).
struct SnapshotLimits {
  size_t words = 50000;
  size_t pairs = 100000;
};

class Learner {
 public:
  static constexpr size_t kQueueCapacity = 512;    // words between two flushes
  static constexpr size_t kMaxWordBytes = 64;      // longer words are not learned
  static constexpr size_t kMaxReadingBytes = 128;  // nor words with longer readings
  static constexpr size_t kMaxPending = 4096;      // events kept while the store refuses them
  // Offer's epoch when the caller does not track forgets.
  static constexpr uint64_t kAnyEpoch = ~uint64_t{0};

  // Reads the store's words of `language` into the first snapshot and starts the thread, which
  // flushes every flush_interval_ms (<= 0: never; only Flush writes).
  // `tagger` (may be null) tags each snapshot's words (UserWords::Build), on that thread.
  // REQUIRES: store is not null; what tagger reads outlives the learner.
  Learner(std::unique_ptr<UserStore> store, std::string language, int flush_interval_ms = 500,
          UserWords::Tagger tagger = nullptr, SnapshotLimits limits = {});
  // Stops the thread after a last flush.
  ~Learner();

  Learner(const Learner&) = delete;
  Learner& operator=(const Learner&) = delete;

  // Queues a finished word (and the word before it in the sentence, or "") for the store.
  // `picked`: accepted from the candidates (LearnEvent::picked); `reading`: LearnEvent::reading;
  // `app`: LearnEvent::app. Returns false when it was not queued: too long, the queue full, or
  // the queue being emptied this very moment.
  // `epoch`: the forget_epoch() the word was typed under; a word of an older epoch is refused
  // (a forget came since).
  bool Offer(std::string_view word, std::string_view previous, bool picked,
             std::string_view reading = {}, int app = -1, uint64_t epoch = kAnyEpoch);

  // Moves each time a forget made on the store is noticed (an atomic load: no lock).
  uint64_t forget_epoch() const { return forget_epoch_.load(std::memory_order_acquire); }

  // Writes the queue to the store now and rebuilds the snapshot; the store's status.
  Status Flush();

  // The current snapshot; never null. Takes a mutex the background thread holds only to
  // swap a pointer, so a caller on the keystroke path asks only when version() moved.
  std::shared_ptr<const UserWords> words() const;
  // Bumped each time a new snapshot is published (an atomic load: no lock).
  uint64_t version() const { return version_.load(std::memory_order_acquire); }

  // The last store error, OK when the last write succeeded.
  Status status() const;
  const std::string& language() const { return language_; }
  // The store it writes to (thread-safe: its calls are serialised).
  UserStore* store() const { return store_.get(); }

 private:
  struct Slot {
    uint8_t word_length;
    uint8_t previous_length;
    uint8_t reading_length;
    bool picked;
    int8_t app;  // LearnEvent::app
    char word[kMaxWordBytes];
    char previous[kMaxWordBytes];
    char reading[kMaxReadingBytes];
  };

  void Run();
  Status FlushLocked(bool refresh);  // REQUIRES: flush_mu_ held
  Status Refresh();                  // REQUIRES: flush_mu_ held
  void DropIfForgotten();            // REQUIRES: flush_mu_ held

  const std::unique_ptr<UserStore> store_;
  const std::string language_;
  const int flush_interval_ms_;
  const UserWords::Tagger tagger_;
  const SnapshotLimits limits_;

  std::mutex queue_mu_;  // Offer try-locks it; the flush holds it only to copy the slots
  std::array<Slot, kQueueCapacity> queue_{};
  size_t queued_ = 0;

  std::mutex flush_mu_;                    // one flush at a time
  std::vector<LearnEvent> pending_;        // taken from the queue, not yet stored
  int64_t forget_stamp_ = 0;               // the store's ForgetStamp as last seen
  std::atomic<uint64_t> forget_epoch_{0};  // moved under queue_mu_

  mutable std::mutex status_mu_;
  Status status_;

  // Not std::atomic<std::shared_ptr>: libstdc++ 12's load() releases its lock with a relaxed
  // store, so its read of the pointer is not ordered before the next store (ThreadSanitizer
  // reports the race; on Arm it is real).
  mutable std::mutex words_mu_;
  std::shared_ptr<const UserWords> words_;  // guarded by words_mu_
  std::atomic<uint64_t> version_{1};

  std::mutex wake_mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;  // last: starts once everything above is ready
};

}  // namespace keydecide

#endif  // KEYDECIDE_PERSONAL_LEARNER_H_
