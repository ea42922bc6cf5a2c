// UserStore: everything keydecide learned about the person, in one SQLite database that the
// person can list, erase, export and import.
//
//   std::unique_ptr<keydecide::UserStore> store;
//   Status s = keydecide::UserStore::Open(keydecide::UserStoreOptions(), &store);
//   std::vector<keydecide::LearnedWord> words;
//   s = store->List("en", &words);
//
// Durability: WAL with synchronous=FULL. A Learn/Forget/Clear/Import that returned OK is on
// disk: neither a killed process (kill -9) nor a power loss loses it. (NORMAL would lose the
// last commits on power loss; learning writes are batched off the keystroke path, so the
// fsync per batch costs nothing the person feels.) Every change is one transaction: it
// happens whole or not at all.
//
// Damage: Open runs PRAGMA quick_check. A file that is not a database or fails the check is
// renamed "<path>.corrupt-<UTC time>" (with its -wal and -shm files), never deleted, and a
// fresh store starts (set_aside_path() says where the old one went). A store that is locked
// for longer than the busy timeout, read-only, or on a full disk gives IOError; the engine
// then types without personalisation.
//
// Privacy: no learned text reaches a log or a Status message.
//
// Thread-safety: a UserStore may be used by several threads (its calls are serialised).
// Several processes of the same account may open the same file (SQLite's locking; a writer
// waits up to busy_timeout_ms for another).

#ifndef KEYDECIDE_USER_STORE_H_
#define KEYDECIDE_USER_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/export.h"
#include "keydecide/status.h"

namespace keydecide {

struct UserStoreOptions {
  // The database file. Empty: $XDG_DATA_HOME/keydecide/user.db, else
  // ~/.local/share/keydecide/user.db. A missing folder is made with mode 0700; the file is
  // made with mode 0600.
  std::string path;

  // How long a write waits for another process holding the lock, in milliseconds.
  int busy_timeout_ms = 2000;

  // Open to read only (list, export): nothing is created, migrated, set aside or written, so
  // that a store on a read-only mount, a 0400 file or in a read-only folder can still be read.
  // Every call that would write returns IOError. The store must exist, at this build's schema.
  bool read_only = false;
};

// What an Import or Export did with entries it could not take as they were.
struct TransferReport {
  static constexpr size_t kMaxNotes = 20;
  size_t entries = 0;  // entries imported, or exported
  size_t skipped = 0;  // entries left out: not valid (import), damaged in the store (export)
  size_t clamped = 0;  // entries whose counts, weights or times were brought into range
  // The first kMaxNotes entries left out, by position and field ("words[3]: 'count' missing or
  // invalid"), never their text.
  std::vector<std::string> notes;
  void Skip(std::string note) {
    ++skipped;
    if (notes.size() < kMaxNotes) notes.push_back(std::move(note));
  }
};

// One finished word the person kept, as the session saw it.
struct LearnEvent {
  std::string language;   // "en", "zh"
  std::string word;       // as typed (valid UTF-8, no white space, 1..64 bytes)
  std::string previous;   // the word before it in the same sentence, or ""
  bool picked = false;    // accepted from the candidates rather than typed out (Chinese:
                          // chosen over the first candidate)
  int64_t unix_time = 0;  // seconds since the epoch; 0: now
  // How the word is typed, where the language needs it: Chinese, the word's full pinyin as
  // syllables joined by apostrophes ("zhang'wei'ming"; a-z and ', at most 128 bytes). "" for
  // English. A word keeps the last non-empty reading it was learned with.
  std::string reading;
  // The AppType (keydecide/options.h) of the session it was written in, as its int value:
  // the word is also counted for that app type. -1 (or any value outside 0..kAppTypes-1):
  // counted overall only.
  int app = -1;
};

// How often a word was written in one app type (a part of its overall count).
struct AppCount {
  int app = 0;             // AppType's int value, 0..UserStore::kAppTypes-1
  uint32_t count = 0;      // <= the word's count
  double weight = 0;       // count with time decay, as of last_tick
  uint64_t last_tick = 0;  // the store's learning tick at the last use in this app type
};

struct LearnedWord {
  std::string language;
  std::string word;
  uint32_t count = 0;      // times typed or picked
  uint32_t picks = 0;      // ... of which picked from the candidates
  double weight = 0;       // count with time decay (see kDecayTicks), as of the last use
  uint64_t last_tick = 0;  // the store's learning tick at the last use
  int64_t first_time = 0;  // unix seconds of the first and the last use
  int64_t last_time = 0;
  std::string reading;         // LearnEvent::reading ("" when none)
  std::vector<AppCount> apps;  // the app types it was written in, by app (none: not known)
};

// One word of the recent text (UserStore::ListRecent), oldest first.
struct RecentWord {
  std::string word;
  std::string previous;  // LearnEvent::previous: "" where a sentence started
  int64_t unix_time = 0;
};

struct LearnedPair {
  std::string language;
  std::string previous;
  std::string word;
  uint32_t count = 0;
  double weight = 0;
  uint64_t last_tick = 0;
  int64_t last_time = 0;
};

// A text expansion the person defined (docs/PERSONAL.md, "Shortcuts"): typing `trigger` as a
// word offers `expansion` first, and the decision says whether to expand it at the word's end.
struct Shortcut {
  std::string trigger;    // lower-cased; 1..32 bytes: letters, and apostrophes after one
  std::string expansion;  // 1..1024 bytes of UTF-8; new lines and tabs, but no other controls
  int64_t created = 0;    // unix seconds
};

class KD_API UserStore {
 public:
  // Each learned word advances the store's tick by one; a count loses 1/e of its weight over
  // this many later words (about two months of typing for a heavy user), as librime's user
  // dictionary decays by ticks rather than by wall-clock time.
  static constexpr double kDecayTicks = 20000;
  // The export format's version (docs/PERSONAL.md); Import refuses any other.
  static constexpr int kExportVersion = 1;
  // The largest export Import reads (256 MiB; a person's store is far smaller).
  static constexpr size_t kMaxExportBytes = size_t{256} << 20;
  // AppType's values (keydecide/options.h) are 0..kAppTypes-1.
  static constexpr int kAppTypes = 5;
  // The most shortcuts a store holds (at most 1,024 bytes of expansion each: 10 MiB in all); a
  // new trigger past it is refused, an existing one may change.
  static constexpr size_t kMaxShortcuts = 10000;

  // Opens or creates the store. On success stores it in *out; a damaged file was set aside
  // (set_aside_path()). On failure (IOError: unwritable folder, read-only or locked file,
  // full disk; NotSupported: a schema newer than this build) leaves *out untouched and the
  // file as it was.
  static Status Open(const UserStoreOptions& options, std::unique_ptr<UserStore>* out);

  // $XDG_DATA_HOME/keydecide/user.db or ~/.local/share/keydecide/user.db; "" without HOME.
  static std::string DefaultPath();

  virtual ~UserStore() = default;

  // Adds the events in one transaction: each word's count (and picks) and decayed weight,
  // and (previous, word) pairs. Events that are not valid (empty, too long, white space,
  // invalid UTF-8) are skipped. On failure nothing of the batch is stored.
  virtual Status Learn(const std::vector<LearnEvent>& batch) = 0;

  // Fills *out with the learned words of `language` ("" for all), most used first, each with
  // its counts per app type.
  virtual Status List(std::string_view language, std::vector<LearnedWord>* out) = 0;
  virtual Status ListPairs(std::string_view language, std::vector<LearnedPair>* out) = 0;
  // The `max_words` most used words of `language` and its `max_pairs` most used pairs, as List
  // and ListPairs give them, read together: what an engine ranks with, bounded however much
  // was learned (the rest stays in the store, for export and for when it is used again).
  virtual Status ListMostUsed(std::string_view language, size_t max_words, size_t max_pairs,
                              std::vector<LearnedWord>* words, std::vector<LearnedPair>* pairs) = 0;

  // The recent text: every learned word is also kept in order, the last kMaxRecentWords of
  // each language, for on-device fine-tuning (docs/PERSONAL.md, "Fine-tuning").
  static constexpr size_t kMaxRecentWords = 20000;
  // The last `max_words` recent words of `language`, oldest first.
  virtual Status ListRecent(std::string_view language, size_t max_words,
                            std::vector<RecentWord>* out) = 0;
  // A fine-tuned adapter of `language` (an opaque blob; model/logit_adapter.h), replacing the
  // one before. Every save gets a new, larger stamp. Forget, ForgetRange and Clear drop the
  // adapters whenever the recent text they were trained on loses a word.
  virtual Status SaveAdapter(std::string_view language, std::string_view blob) = 0;
  // NotFound when there is none.
  virtual Status LoadAdapter(std::string_view language, std::string* blob, int64_t* stamp) = 0;
  // The stamp of the adapter of `language`, 0 when there is none (a cheap check for change).
  virtual Status AdapterStamp(std::string_view language, int64_t* stamp) = 0;

  // Forgets `word` in every language: the word and every pair it is part of. *removed (when
  // not null) gets the number of rows deleted.
  virtual Status Forget(std::string_view word, int* removed) = 0;
  // Forgets every word and pair last used in [from, to) (unix seconds).
  virtual Status ForgetRange(int64_t from, int64_t to, int* removed) = 0;
  // Forgets everything: learned words, pairs, shortcuts, the recent text and the adapters.
  virtual Status Clear() = 0;

  // Adds a shortcut, or gives its trigger (any case: it is stored lower-cased) a new
  // expansion. InvalidArgument, naming the field, for a trigger or expansion outside the
  // limits of struct Shortcut, or for a new trigger when the store holds kMaxShortcuts.
  virtual Status SetShortcut(std::string_view trigger, std::string_view expansion) = 0;
  // Removes the shortcut of `trigger` (any case); *removed (when not null) says whether one was.
  virtual Status RemoveShortcut(std::string_view trigger, bool* removed) = 0;
  // Fills *out with every shortcut, by trigger.
  virtual Status ListShortcuts(std::vector<Shortcut>* out) = 0;

  // The whole store as JSON (docs/PERSONAL.md: format "keydecide-user-store", version). A
  // damaged row (a word that is not valid UTF-8, written by another program or a damaged page)
  // is left out, and counted in *report when not null: the export is always one that imports.
  virtual Status Export(std::string* json, TransferReport* report) = 0;
  Status Export(std::string* json) { return Export(json, nullptr); }
  // Adds an export's words and pairs to the store (counts add up, saturating at the format's
  // cap), its shortcuts (an imported trigger's expansion replaces the store's; new ones past
  // kMaxShortcuts are left out) and its recent text (after the store's own; the last
  // kMaxRecentWords of each language stay), in one transaction, then checkpoints the log.
  // Entries that are not valid are left out and counted in *report (when not null), by
  // position, never their text; counts past the cap are brought to it. InvalidArgument,
  // changing nothing, for a file that is not an export of version kExportVersion as a whole
  // (not JSON, not this format, too large, too deep, too many entries), NotSupported for
  // another version.
  virtual Status Import(std::string_view json, TransferReport* report) = 0;
  Status Import(std::string_view json) { return Import(json, nullptr); }

  // The current learning tick (see kDecayTicks).
  virtual uint64_t tick() = 0;
  // The database file, and where a damaged one was moved at Open ("" if none). A -wal file
  // that did not belong to the database beside it (a user.db restored from a backup next to
  // the log of the store it replaced) is moved instead of the store: set_aside_path() then
  // names the log's new place ("<path>-wal.stale-<UTC time>").
  virtual const std::string& path() const = 0;
  virtual const std::string& set_aside_path() const = 0;

  // Counts every Forget, ForgetRange and Clear ever made on the file, by any process (0 for a
  // store that never forgot anything). An engine that sees it change drops what its sessions
  // typed before and have not yet stored (docs/PERSONAL.md, "Seeing and erasing it").
  virtual Status ForgetStamp(int64_t* stamp) = 0;
  // Whether the file changed since the last call through another connection (another
  // process, another handle), or through this one (a write of any kind). Cheap: no read of the
  // data (SQLite's data_version); the first call says true.
  virtual bool Changed() = 0;
};

// A weight decayed from `last_tick` to `now` (see UserStore::kDecayTicks).
KD_API double DecayedWeight(double weight, uint64_t last_tick, uint64_t now);

}  // namespace keydecide

#endif  // KEYDECIDE_USER_STORE_H_
