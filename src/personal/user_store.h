// SqliteUserStore: the UserStore (include/keydecide/user_store.h) on one SQLite database.
//
// Schema (version 5, PRAGMA user_version; kMigrations in user_store.cc brings any earlier
// version up, one transaction per step):
//   meta(key TEXT PRIMARY KEY, value INTEGER)            -- 'tick': the learning tick
//   words(language, word, count, picks, weight, last_tick, first_time, last_time,
//         reading)                                       -- reading from version 3
//         PRIMARY KEY (language, word)
//   pairs(language, previous, word, count, weight, last_tick, last_time)
//         PRIMARY KEY (language, previous, word)
//   shortcuts(trigger TEXT PRIMARY KEY, expansion, created)   -- from version 2
//   recent(id, language, word, previous, time)           -- from version 4: the last
//         kMaxRecentWords learned words of each language, in order
//   adapters(language PRIMARY KEY, stamp, trained, blob) -- from version 4; stamp from
//         meta 'adapter_stamp', one more on every save
//   app_words(language, word, app, count, weight, last_tick, last_time)
//         PRIMARY KEY (language, word, app)          -- from version 5: a word's uses per
//         app type (LearnEvent::app), beside its overall row in words
// `weight` is the count decayed by ticks as of `last_tick` (DecayedWeight).
//
// Settings: journal_mode=WAL, synchronous=FULL (see the public header for why), busy
// timeout from the options, secure_delete=ON so that forgotten words are overwritten in the
// file, a WAL checkpoint (TRUNCATE) after Forget/Clear so they leave the log too, and after an
// Import; journal_size_limit 4 MiB so the log never keeps the size of its largest write.
// meta 'forgets' counts the forgets (ForgetStamp); counts saturate at the export's cap.

#ifndef KEYDECIDE_PERSONAL_USER_STORE_H_
#define KEYDECIDE_PERSONAL_USER_STORE_H_

#include <memory>
#include <mutex>
#include <string>

#include "keydecide/user_store.h"
#include "personal/export_format.h"

struct sqlite3;

namespace keydecide::personal {

inline constexpr int kSchemaVersion = 5;

class SqliteUserStore : public UserStore {
 public:
  // See UserStore::Open.
  static Status Open(const UserStoreOptions& options, std::unique_ptr<SqliteUserStore>* out);
  ~SqliteUserStore() override;

  Status Learn(const std::vector<LearnEvent>& batch) override;
  Status List(std::string_view language, std::vector<LearnedWord>* out) override;
  Status ListPairs(std::string_view language, std::vector<LearnedPair>* out) override;
  Status ListMostUsed(std::string_view language, size_t max_words, size_t max_pairs,
                      std::vector<LearnedWord>* words, std::vector<LearnedPair>* pairs) override;
  Status Forget(std::string_view word, int* removed) override;
  Status ForgetRange(int64_t from, int64_t to, int* removed) override;
  Status Clear() override;
  Status SetShortcut(std::string_view trigger, std::string_view expansion) override;
  Status RemoveShortcut(std::string_view trigger, bool* removed) override;
  Status ListShortcuts(std::vector<Shortcut>* out) override;
  Status ListRecent(std::string_view language, size_t max_words,
                    std::vector<RecentWord>* out) override;
  Status SaveAdapter(std::string_view language, std::string_view blob) override;
  Status LoadAdapter(std::string_view language, std::string* blob, int64_t* stamp) override;
  Status AdapterStamp(std::string_view language, int64_t* stamp) override;
  using UserStore::Export;
  using UserStore::Import;
  Status Export(std::string* json, TransferReport* report) override;
  Status Import(std::string_view json, TransferReport* report) override;
  Status ForgetStamp(int64_t* stamp) override;
  bool Changed() override;
  uint64_t tick() override;
  const std::string& path() const override { return path_; }
  const std::string& set_aside_path() const override { return set_aside_path_; }

 private:
  SqliteUserStore(sqlite3* db, std::string path, std::string set_aside_path)
      : db_(db), path_(std::move(path)), set_aside_path_(std::move(set_aside_path)) {}

  // limit: at most that many (the most used); -1 for all.
  Status ListLocked(std::string_view language, std::vector<LearnedWord>* out, int64_t limit = -1);
  Status ListPairsLocked(std::string_view language, std::vector<LearnedPair>* out,
                         int64_t limit = -1);
  Status ListShortcutsLocked(std::vector<Shortcut>* out);
  // How many shortcuts there are, and whether `trigger` is one of them.
  Status CountShortcutsLocked(std::string_view trigger, int64_t* count, bool* exists);
  Status ListAllRecentLocked(std::vector<RecentEntry>* out);  // by language, oldest first
  Status TrimRecentLocked(std::string_view language);
  // Import's shortcuts (as many as the store keeps) and recent text, in its transaction.
  Status ImportShortcutsLocked(const std::vector<Shortcut>& shortcuts, TransferReport* report);
  Status ImportRecentLocked(const std::vector<RecentEntry>& recent);
  Status ReadTick(uint64_t* tick);
  Status Checkpoint();

  std::mutex mu_;  // serialises every call on db_ (one transaction at a time)
  sqlite3* db_;
  const std::string path_;
  const std::string set_aside_path_;
  // Changed(): what it saw last.
  bool seen_changes_ = false;
  int64_t seen_data_version_ = 0;
  int64_t seen_own_ = 0;
};

}  // namespace keydecide::personal

#endif  // KEYDECIDE_PERSONAL_USER_STORE_H_
