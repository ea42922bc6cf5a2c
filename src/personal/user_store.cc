#include "personal/user_store.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "keydecide/options.h"
#include "personal/export_format.h"
#include "text/letter_case.h"

namespace keydecide {

namespace {

using personal::IsLanguageTag;
using personal::IsReading;
using personal::IsStorableWord;

// A Status for an SQLite result code. Messages name the operation and SQLite's generic text
// for the code (sqlite3_errstr), never the statement's data.
Status SqliteStatus(int rc, std::string_view what) {
  const std::string msg = std::string(what) + ": " + sqlite3_errstr(rc);
  switch (rc & 0xFF) {
    case SQLITE_OK:
    case SQLITE_DONE:
    case SQLITE_ROW:
      return Status::OK();
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(msg);
    case SQLITE_FULL:
      return Status::IOError(msg + " (disk full)");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::IOError(msg + " (locked by another process)");
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
      return Status::IOError(msg + " (not writable)");
    default:
      return Status::IOError(msg);
  }
}

// One prepared statement, finalised on scope exit.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr); }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  int prepare_rc() const { return rc_; }
  Stmt& Bind(int i, std::string_view s) {
    sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& Bind(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Stmt& BindBlob(int i, std::string_view bytes) {
    sqlite3_bind_blob64(stmt_, i, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& Bind(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error.
  int Step() { return rc_ != SQLITE_OK ? rc_ : sqlite3_step(stmt_); }
  // Runs to completion, ready for new bindings.
  int Run() {
    int rc = Step();
    while (rc == SQLITE_ROW) rc = sqlite3_step(stmt_);
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  std::string Text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return p ? std::string(p, sqlite3_column_bytes(stmt_, col)) : std::string();
  }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool Null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  double Real(int col) const { return sqlite3_column_double(stmt_, col); }
  std::string Blob(int col) const {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
    return p ? std::string(p, sqlite3_column_bytes(stmt_, col)) : std::string();
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  int rc_;
};

int Exec(sqlite3* db, const char* sql) { return sqlite3_exec(db, sql, nullptr, nullptr, nullptr); }

// A transaction rolled back unless committed.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) { rc_ = Exec(db, "BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (rc_ == SQLITE_OK && !done_) Exec(db_, "ROLLBACK");
  }
  int begin_rc() const { return rc_; }
  int Commit() {
    const int rc = Exec(db_, "COMMIT");
    if (rc == SQLITE_OK) done_ = true;
    return rc;
  }

 private:
  sqlite3* db_;
  int rc_;
  bool done_ = false;
};

#define KD_SQL(expr, what)                                                    \
  do {                                                                        \
    const int kd_rc_ = (expr);                                                \
    if (kd_rc_ != SQLITE_OK && kd_rc_ != SQLITE_DONE && kd_rc_ != SQLITE_ROW) \
      return SqliteStatus(kd_rc_, what);                                      \
  } while (0)

// One word of the recent text, as learning and an import append it (TrimRecentLocked keeps the
// last kMaxRecentWords).
constexpr const char* kInsertRecent =
    "INSERT INTO recent(language, word, previous, time) VALUES(?1, ?2, ?3, ?4)";

// Schema steps: kMigrations[v] takes a store from version v to v + 1. Add a step, never edit
// one: a person's file may be at any earlier version. A step written over several literals is
// in parentheses, so that clang (-Wstring-concatenation) sees one element meant.
constexpr const char* kMigrations[] = {
    // 0 -> 1: the first schema.
    ("CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
     "INSERT INTO meta VALUES('tick', 0);"
     "CREATE TABLE words(language TEXT NOT NULL, word TEXT NOT NULL,"
     " count INTEGER NOT NULL, picks INTEGER NOT NULL, weight REAL NOT NULL,"
     " last_tick INTEGER NOT NULL, first_time INTEGER NOT NULL, last_time INTEGER NOT NULL,"
     " PRIMARY KEY(language, word)) WITHOUT ROWID;"
     "CREATE TABLE pairs(language TEXT NOT NULL, previous TEXT NOT NULL, word TEXT NOT NULL,"
     " count INTEGER NOT NULL, weight REAL NOT NULL, last_tick INTEGER NOT NULL,"
     " last_time INTEGER NOT NULL, PRIMARY KEY(language, previous, word)) WITHOUT ROWID;"
     "CREATE INDEX words_last_time ON words(last_time);"
     "CREATE INDEX pairs_last_time ON pairs(last_time);"),
    // 1 -> 2: the person's shortcuts.
    ("CREATE TABLE shortcuts(trigger TEXT PRIMARY KEY, expansion TEXT NOT NULL,"
     " created INTEGER NOT NULL) WITHOUT ROWID;"),
    // 2 -> 3: how a word is typed (Chinese: its pinyin), '' where not known.
    "ALTER TABLE words ADD COLUMN reading TEXT NOT NULL DEFAULT '';",
    // 3 -> 4: the person's recent words in order (what fine-tuning reads) and the adapters
    // trained on them.
    ("CREATE TABLE recent(id INTEGER PRIMARY KEY AUTOINCREMENT, language TEXT NOT NULL,"
     " word TEXT NOT NULL, previous TEXT NOT NULL, time INTEGER NOT NULL);"
     "CREATE INDEX recent_language ON recent(language, id);"
     "CREATE TABLE adapters(language TEXT PRIMARY KEY, stamp INTEGER NOT NULL,"
     " trained INTEGER NOT NULL, blob BLOB NOT NULL) WITHOUT ROWID;"
     "INSERT INTO meta VALUES('adapter_stamp', 0);"),
    // 4 -> 5: a word's uses per app type (earlier words have none: they were not told apart).
    ("CREATE TABLE app_words(language TEXT NOT NULL, word TEXT NOT NULL, app INTEGER NOT NULL,"
     " count INTEGER NOT NULL, weight REAL NOT NULL, last_tick INTEGER NOT NULL,"
     " last_time INTEGER NOT NULL, PRIMARY KEY(language, word, app)) WITHOUT ROWID;"
     "CREATE INDEX app_words_last_time ON app_words(last_time);"),
};
static_assert(std::size(kMigrations) == personal::kSchemaVersion);

Status Migrate(sqlite3* db) {
  int64_t version;
  {
    Stmt s(db, "PRAGMA user_version");
    KD_SQL(s.Step(), "reading the schema version");
    version = s.Int(0);
  }
  if (version > personal::kSchemaVersion) {
    return Status::NotSupported("user store schema version " + std::to_string(version) +
                                " is newer than this build's " +
                                std::to_string(personal::kSchemaVersion));
  }
  for (; version < personal::kSchemaVersion; ++version) {
    Transaction t(db);
    KD_SQL(t.begin_rc(), "migrating the user store");
    // Another process may have migrated it while we waited for the lock.
    Stmt s(db, "PRAGMA user_version");
    KD_SQL(s.Step(), "reading the schema version");
    if (s.Int(0) > version) continue;
    KD_SQL(Exec(db, kMigrations[version]), "migrating the user store");
    const std::string set = "PRAGMA user_version = " + std::to_string(version + 1);
    KD_SQL(Exec(db, set.c_str()), "migrating the user store");
    KD_SQL(t.Commit(), "migrating the user store");
  }
  return Status::OK();
}

// kd_decay(weight, last_tick, now): DecayedWeight in SQL.
void DecayFunction(sqlite3_context* ctx, int, sqlite3_value** v) {
  sqlite3_result_double(ctx, DecayedWeight(sqlite3_value_double(v[0]),
                                           static_cast<uint64_t>(sqlite3_value_int64(v[1])),
                                           static_cast<uint64_t>(sqlite3_value_int64(v[2]))));
}

// Makes each missing folder of `dir` with mode 0700.
Status MakeDirs(const std::string& dir) {
  if (dir.empty()) return Status::OK();
  struct stat st;
  if (stat(dir.c_str(), &st) == 0) {
    return S_ISDIR(st.st_mode) ? Status::OK() : Status::IOError(dir + ": not a folder");
  }
  const size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0) KD_RETURN_IF_ERROR(MakeDirs(dir.substr(0, slash)));
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::IOError(dir + ": cannot make the folder: " + std::strerror(errno));
  }
  return Status::OK();
}

// Creates the file with mode 0600 (so SQLite's -wal and -shm files get that mode too) and
// narrows a wider mode. IOError when it cannot be opened for writing.
Status PrepareFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Status::IOError(path + ": cannot open for writing: " + std::strerror(errno));
  struct stat st;
  Status s;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    s = Status::IOError(path + ": not a regular file");
  } else if ((st.st_mode & 077) != 0 && fchmod(fd, 0600) != 0) {
    s = Status::IOError(path + ": cannot make it private (0600): " + std::strerror(errno));
  }
  close(fd);
  return s;
}

std::string UtcStamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm;
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

// Renames a damaged store (and its -wal, -shm) to "<path>.corrupt-<UTC time>[-n]".
Status SetAside(const std::string& path, std::string* moved_to) {
  std::string target = path + ".corrupt-" + UtcStamp();
  for (int n = 1; access(target.c_str(), F_OK) == 0; ++n) {
    target = path + ".corrupt-" + UtcStamp() + "-" + std::to_string(n);
  }
  for (const char* suffix : {"-wal", "-shm"}) {
    const std::string from = path + suffix;
    if (access(from.c_str(), F_OK) == 0 && rename(from.c_str(), (target + suffix).c_str()) != 0) {
      return Status::IOError(path +
                             ": cannot set the damaged store aside: " + std::strerror(errno));
    }
  }
  if (rename(path.c_str(), target.c_str()) != 0) {
    return Status::IOError(path + ": cannot set the damaged store aside: " + std::strerror(errno));
  }
  *moved_to = target;
  return Status::OK();
}

// Opens and configures the database; Corruption when the file is damaged.
Status OpenDatabase(const std::string& path, int busy_timeout_ms, sqlite3** out) {
  sqlite3* db = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  // close_v2: a statement still open in the caller's scope is finalised just after, and the
  // connection goes with it (sqlite3_close would refuse and leak it).
  auto fail = [&](Status s) {
    sqlite3_close_v2(db);
    return s;
  };
  if (rc != SQLITE_OK) return fail(SqliteStatus(rc, "opening the user store"));
  sqlite3_busy_timeout(db, busy_timeout_ms);
  sqlite3_extended_result_codes(db, 1);
  {
    Stmt wal(db, "PRAGMA journal_mode=WAL");
    const int step = wal.Step();
    if (step != SQLITE_ROW) return fail(SqliteStatus(step, "opening the user store"));
    if (wal.Text(0) != "wal") return fail(Status::IOError("the user store cannot use WAL"));
  }
  int step = Exec(db, "PRAGMA synchronous=FULL; PRAGMA secure_delete=ON");
  if (step != SQLITE_OK) return fail(SqliteStatus(step, "configuring the user store"));
  {
    Stmt check(db, "PRAGMA quick_check");
    step = check.Step();
    if (step != SQLITE_ROW) return fail(SqliteStatus(step, "checking the user store"));
    if (check.Text(0) != "ok") return fail(Status::Corruption("the user store fails quick_check"));
  }
  step = sqlite3_create_function(db, "kd_decay", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                 DecayFunction, nullptr, nullptr);
  if (step != SQLITE_OK) return fail(SqliteStatus(step, "configuring the user store"));
  Status s = Migrate(db);
  if (!s.ok()) return fail(s);
  *out = db;
  return Status::OK();
}

int64_t Now() { return static_cast<int64_t>(std::time(nullptr)); }

}  // namespace

double DecayedWeight(double weight, uint64_t last_tick, uint64_t now) {
  if (now <= last_tick) return weight;
  return weight * std::exp(-static_cast<double>(now - last_tick) / UserStore::kDecayTicks);
}

std::string UserStore::DefaultPath() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/keydecide/user.db";
  const char* home = std::getenv("HOME");
  if (home == nullptr || home[0] != '/') return "";
  return std::string(home) + "/.local/share/keydecide/user.db";
}

Status UserStore::Open(const UserStoreOptions& options, std::unique_ptr<UserStore>* out) {
  std::unique_ptr<personal::SqliteUserStore> store;
  KD_RETURN_IF_ERROR(personal::SqliteUserStore::Open(options, &store));
  *out = std::move(store);
  return Status::OK();
}

namespace personal {

Status SqliteUserStore::Open(const UserStoreOptions& options,
                             std::unique_ptr<SqliteUserStore>* out) {
  const std::string path = options.path.empty() ? UserStore::DefaultPath() : options.path;
  if (path.empty()) return Status::InvalidArgument("no user store path (HOME is not set)");
  const size_t slash = path.find_last_of('/');
  if (slash != std::string::npos) KD_RETURN_IF_ERROR(MakeDirs(path.substr(0, slash)));
  KD_RETURN_IF_ERROR(PrepareFile(path));
  sqlite3* db = nullptr;
  std::string set_aside;
  Status s = OpenDatabase(path, options.busy_timeout_ms, &db);
  if (s.code() == Status::Code::kCorruption) {
    KD_RETURN_IF_ERROR(SetAside(path, &set_aside));
    KD_RETURN_IF_ERROR(PrepareFile(path));
    s = OpenDatabase(path, options.busy_timeout_ms, &db);
  }
  if (!s.ok()) return s.Annotated(path);
  out->reset(new SqliteUserStore(db, path, set_aside));
  return Status::OK();
}

SqliteUserStore::~SqliteUserStore() { sqlite3_close_v2(db_); }

Status SqliteUserStore::ReadTick(uint64_t* tick) {
  Stmt s(db_, "SELECT value FROM meta WHERE key = 'tick'");
  const int rc = s.Step();
  if (rc != SQLITE_ROW) return SqliteStatus(rc == SQLITE_DONE ? SQLITE_CORRUPT : rc, "reading");
  *tick = static_cast<uint64_t>(s.Int(0));
  return Status::OK();
}

uint64_t SqliteUserStore::tick() {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t t = 0;
  return ReadTick(&t).ok() ? t : 0;
}

Status SqliteUserStore::Learn(const std::vector<LearnEvent>& batch) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction t(db_);
  KD_SQL(t.begin_rc(), "learning");
  uint64_t tick;
  KD_RETURN_IF_ERROR(ReadTick(&tick));
  Stmt word(db_,
            "INSERT INTO words VALUES(?1, ?2, 1, ?3, 1.0, ?4, ?5, ?5, ?6) "
            "ON CONFLICT(language, word) DO UPDATE SET count = count + 1,"
            " picks = picks + excluded.picks, weight = kd_decay(weight, last_tick, ?4) + 1,"
            " last_tick = ?4, last_time = max(last_time, ?5),"
            " reading = CASE WHEN ?6 = '' THEN reading ELSE ?6 END");
  Stmt pair(db_,
            "INSERT INTO pairs VALUES(?1, ?2, ?3, 1, 1.0, ?4, ?5) "
            "ON CONFLICT(language, previous, word) DO UPDATE SET count = count + 1,"
            " weight = kd_decay(weight, last_tick, ?4) + 1, last_tick = ?4,"
            " last_time = max(last_time, ?5)");
  Stmt app(db_,
           "INSERT INTO app_words VALUES(?1, ?2, ?3, 1, 1.0, ?4, ?5) "
           "ON CONFLICT(language, word, app) DO UPDATE SET count = count + 1,"
           " weight = kd_decay(weight, last_tick, ?4) + 1, last_tick = ?4,"
           " last_time = max(last_time, ?5)");
  Stmt recent(db_, kInsertRecent);
  KD_SQL(word.prepare_rc(), "learning");
  KD_SQL(app.prepare_rc(), "learning");
  KD_SQL(pair.prepare_rc(), "learning");
  KD_SQL(recent.prepare_rc(), "learning");
  const int64_t now = Now();
  for (const LearnEvent& e : batch) {
    if (!IsLanguageTag(e.language) || !IsStorableWord(e.word) || !IsReading(e.reading)) continue;
    ++tick;
    const int64_t time = e.unix_time > 0 ? e.unix_time : now;
    const auto t64 = static_cast<int64_t>(tick);
    KD_SQL(word.Bind(1, e.language)
               .Bind(2, e.word)
               .Bind(3, int64_t{e.picked})
               .Bind(4, t64)
               .Bind(5, time)
               .Bind(6, e.reading)
               .Run(),
           "learning");
    if (e.app >= 0 && e.app < kAppTypes) {
      KD_SQL(app.Bind(1, e.language)
                 .Bind(2, e.word)
                 .Bind(3, int64_t{e.app})
                 .Bind(4, t64)
                 .Bind(5, time)
                 .Run(),
             "learning");
    }
    const bool has_previous = IsStorableWord(e.previous);
    KD_SQL(recent.Bind(1, e.language)
               .Bind(2, e.word)
               .Bind(3, has_previous ? std::string_view(e.previous) : std::string_view(""))
               .Bind(4, time)
               .Run(),
           "learning");
    if (!has_previous) continue;
    KD_SQL(pair.Bind(1, e.language)
               .Bind(2, e.previous)
               .Bind(3, e.word)
               .Bind(4, t64)
               .Bind(5, time)
               .Run(),
           "learning");
  }
  Stmt set_tick(db_, "UPDATE meta SET value = ?1 WHERE key = 'tick'");
  KD_SQL(set_tick.Bind(1, static_cast<int64_t>(tick)).Run(), "learning");
  std::string trimmed;
  for (const LearnEvent& e : batch) {
    if (e.language == trimmed || !IsLanguageTag(e.language)) continue;
    KD_RETURN_IF_ERROR(TrimRecentLocked(e.language));
    trimmed = e.language;
  }
  KD_SQL(t.Commit(), "learning");
  return Status::OK();
}

Status SqliteUserStore::ListLocked(std::string_view language, std::vector<LearnedWord>* out) {
  out->clear();
  // A word's row once per app type it was used in (once with NULLs for none), its rows
  // together, apps in order.
  Stmt s(db_,
         "SELECT w.language, w.word, w.count, w.picks, w.weight, w.last_tick, w.first_time,"
         " w.last_time, w.reading, a.app, a.count, a.weight, a.last_tick"
         " FROM words w LEFT JOIN app_words a ON a.language = w.language AND a.word = w.word"
         " WHERE ?1 = '' OR w.language = ?1 ORDER BY w.count DESC, w.language, w.word, a.app");
  s.Bind(1, language);
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) {
    std::string lang = s.Text(0), word = s.Text(1);
    if (out->empty() || out->back().language != lang || out->back().word != word) {
      out->push_back({std::move(lang),
                      std::move(word),
                      static_cast<uint32_t>(s.Int(2)),
                      static_cast<uint32_t>(s.Int(3)),
                      s.Real(4),
                      static_cast<uint64_t>(s.Int(5)),
                      s.Int(6),
                      s.Int(7),
                      s.Text(8),
                      {}});
    }
    const int64_t app = s.Null(9) ? -1 : s.Int(9);
    if (app < 0 || app >= kAppTypes) continue;  // none, or not written by us
    out->back().apps.push_back({static_cast<int>(app), static_cast<uint32_t>(s.Int(10)), s.Real(11),
                                static_cast<uint64_t>(s.Int(12))});
  }
  KD_SQL(rc, "listing");
  return Status::OK();
}

Status SqliteUserStore::ListPairsLocked(std::string_view language, std::vector<LearnedPair>* out) {
  out->clear();
  Stmt s(db_,
         "SELECT language, previous, word, count, weight, last_tick, last_time"
         " FROM pairs WHERE ?1 = '' OR language = ?1"
         " ORDER BY count DESC, language, previous, word");
  s.Bind(1, language);
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) {
    out->push_back({s.Text(0), s.Text(1), s.Text(2), static_cast<uint32_t>(s.Int(3)), s.Real(4),
                    static_cast<uint64_t>(s.Int(5)), s.Int(6)});
  }
  KD_SQL(rc, "listing");
  return Status::OK();
}

Status SqliteUserStore::List(std::string_view language, std::vector<LearnedWord>* out) {
  std::lock_guard<std::mutex> lock(mu_);
  return ListLocked(language, out);
}

Status SqliteUserStore::ListPairs(std::string_view language, std::vector<LearnedPair>* out) {
  std::lock_guard<std::mutex> lock(mu_);
  return ListPairsLocked(language, out);
}

// Moves the log's frames into the file and empties the log, so that what was just deleted
// does not linger in user.db-wal.
Status SqliteUserStore::Checkpoint() {
  KD_SQL(sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr),
         "checkpointing");
  return Status::OK();
}

Status SqliteUserStore::Forget(std::string_view word, int* removed) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction t(db_);
  KD_SQL(t.begin_rc(), "forgetting");
  Stmt words(db_, "DELETE FROM words WHERE word = ?1 COLLATE NOCASE");
  Stmt pairs(db_,
             "DELETE FROM pairs WHERE word = ?1 COLLATE NOCASE OR previous = ?1 COLLATE NOCASE");
  KD_SQL(words.Bind(1, word).Run(), "forgetting");
  int n = sqlite3_changes(db_);
  KD_SQL(pairs.Bind(1, word).Run(), "forgetting");
  n += sqlite3_changes(db_);
  Stmt apps(db_, "DELETE FROM app_words WHERE word = ?1 COLLATE NOCASE");
  KD_SQL(apps.Bind(1, word).Run(), "forgetting");
  // The word leaves the recent text, and the adapters trained while it was there.
  Stmt recent(db_,
              "DELETE FROM recent WHERE word = ?1 COLLATE NOCASE OR previous = ?1 COLLATE NOCASE");
  KD_SQL(recent.Bind(1, word).Run(), "forgetting");
  if (sqlite3_changes(db_) > 0) KD_SQL(Exec(db_, "DELETE FROM adapters"), "forgetting");
  KD_SQL(t.Commit(), "forgetting");
  if (removed != nullptr) *removed = n;
  return Checkpoint();
}

Status SqliteUserStore::ForgetRange(int64_t from, int64_t to, int* removed) {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction t(db_);
  KD_SQL(t.begin_rc(), "forgetting");
  Stmt words(db_, "DELETE FROM words WHERE last_time >= ?1 AND last_time < ?2");
  Stmt pairs(db_, "DELETE FROM pairs WHERE last_time >= ?1 AND last_time < ?2");
  KD_SQL(words.Bind(1, from).Bind(2, to).Run(), "forgetting");
  int n = sqlite3_changes(db_);
  KD_SQL(pairs.Bind(1, from).Bind(2, to).Run(), "forgetting");
  n += sqlite3_changes(db_);
  // A word's uses per app type go with it, and those last made in the range.
  Stmt apps(db_,
            "DELETE FROM app_words WHERE (last_time >= ?1 AND last_time < ?2) OR NOT EXISTS"
            " (SELECT 1 FROM words w WHERE w.language = app_words.language"
            " AND w.word = app_words.word)");
  KD_SQL(apps.Bind(1, from).Bind(2, to).Run(), "forgetting");
  Stmt recent(db_, "DELETE FROM recent WHERE time >= ?1 AND time < ?2");
  KD_SQL(recent.Bind(1, from).Bind(2, to).Run(), "forgetting");
  if (sqlite3_changes(db_) > 0) KD_SQL(Exec(db_, "DELETE FROM adapters"), "forgetting");
  KD_SQL(t.Commit(), "forgetting");
  if (removed != nullptr) *removed = n;
  return Checkpoint();
}

Status SqliteUserStore::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  Transaction t(db_);
  KD_SQL(t.begin_rc(), "clearing");
  KD_SQL(Exec(db_,
              "DELETE FROM words; DELETE FROM pairs; DELETE FROM shortcuts;"
              " DELETE FROM recent; DELETE FROM adapters; DELETE FROM app_words"),
         "clearing");
  KD_SQL(t.Commit(), "clearing");
  return Checkpoint();
}

Status SqliteUserStore::ListRecent(std::string_view language, size_t max_words,
                                   std::vector<RecentWord>* out) {
  std::lock_guard<std::mutex> lock(mu_);
  out->clear();
  Stmt s(db_,
         "SELECT word, previous, time FROM (SELECT id, word, previous, time FROM recent"
         " WHERE language = ?1 ORDER BY id DESC LIMIT ?2) ORDER BY id");
  s.Bind(1, language).Bind(2, static_cast<int64_t>(std::min<size_t>(max_words, INT32_MAX)));
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) out->push_back({s.Text(0), s.Text(1), s.Int(2)});
  KD_SQL(rc, "listing the recent words");
  return Status::OK();
}

Status SqliteUserStore::SaveAdapter(std::string_view language, std::string_view blob) {
  if (!IsLanguageTag(language)) return Status::InvalidArgument("not a language tag");
  std::lock_guard<std::mutex> lock(mu_);
  Transaction t(db_);
  KD_SQL(t.begin_rc(), "saving the adapter");
  KD_SQL(Exec(db_, "UPDATE meta SET value = value + 1 WHERE key = 'adapter_stamp'"),
         "saving the adapter");
  Stmt save(db_,
            "INSERT OR REPLACE INTO adapters VALUES(?1,"
            " (SELECT value FROM meta WHERE key = 'adapter_stamp'), ?2, ?3)");
  KD_SQL(save.prepare_rc(), "saving the adapter");
  save.Bind(1, language).Bind(2, Now()).BindBlob(3, blob);
  KD_SQL(save.Step(), "saving the adapter");
  KD_SQL(t.Commit(), "saving the adapter");
  return Status::OK();
}

Status SqliteUserStore::AdapterStamp(std::string_view language, int64_t* stamp) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "SELECT stamp FROM adapters WHERE language = ?1");
  s.Bind(1, language);
  const int rc = s.Step();
  KD_SQL(rc, "reading the adapter");
  *stamp = rc == SQLITE_ROW ? s.Int(0) : 0;
  return Status::OK();
}

Status SqliteUserStore::LoadAdapter(std::string_view language, std::string* blob, int64_t* stamp) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "SELECT stamp, blob FROM adapters WHERE language = ?1");
  s.Bind(1, language);
  const int rc = s.Step();
  KD_SQL(rc, "reading the adapter");
  if (rc != SQLITE_ROW) return Status::NotFound("no adapter for this language");
  *stamp = s.Int(0);
  *blob = s.Blob(1);
  return Status::OK();
}

namespace {

// A trigger as sessions match it: lower-cased, the typographic apostrophe read as '\''.
std::string TriggerKey(std::string_view trigger) {
  std::string lower, key;
  AppendLowerUtf8(trigger, &lower);
  constexpr std::string_view kRightQuote = "\u2019";
  for (size_t i = 0; i < lower.size();) {
    const bool quote = std::string_view(lower).substr(i, kRightQuote.size()) == kRightQuote;
    key.push_back(quote ? '\'' : lower[i]);
    i += quote ? kRightQuote.size() : 1;
  }
  return key;
}

}  // namespace

Status SqliteUserStore::SetShortcut(std::string_view trigger, std::string_view expansion) {
  const std::string key = TriggerKey(trigger);
  if (!IsShortcutTrigger(key)) {
    return Status::InvalidArgument(
        "a shortcut's trigger must be a word of 1..32 bytes: letters, and apostrophes after one");
  }
  if (!IsShortcutExpansion(expansion)) {
    return Status::InvalidArgument(
        "a shortcut's expansion must be 1..1024 bytes of text (new lines and tabs allowed)");
  }
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         "INSERT INTO shortcuts VALUES(?1, ?2, ?3) "
         "ON CONFLICT(trigger) DO UPDATE SET expansion = excluded.expansion");
  KD_SQL(s.Bind(1, key).Bind(2, expansion).Bind(3, Now()).Run(), "adding a shortcut");
  return Checkpoint();  // a replaced expansion (an address, say) does not linger in the log
}

Status SqliteUserStore::RemoveShortcut(std::string_view trigger, bool* removed) {
  const std::string key = TriggerKey(trigger);
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "DELETE FROM shortcuts WHERE trigger = ?1");
  KD_SQL(s.Bind(1, key).Run(), "removing a shortcut");
  if (removed != nullptr) *removed = sqlite3_changes(db_) > 0;
  return Checkpoint();
}

Status SqliteUserStore::ListShortcutsLocked(std::vector<Shortcut>* out) {
  out->clear();
  Stmt s(db_, "SELECT trigger, expansion, created FROM shortcuts ORDER BY trigger");
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) out->push_back({s.Text(0), s.Text(1), s.Int(2)});
  KD_SQL(rc, "listing shortcuts");
  return Status::OK();
}

Status SqliteUserStore::ListShortcuts(std::vector<Shortcut>* out) {
  std::lock_guard<std::mutex> lock(mu_);
  return ListShortcutsLocked(out);
}

Status SqliteUserStore::Export(std::string* json) {
  std::lock_guard<std::mutex> lock(mu_);
  // One read transaction, so that everything is of the same moment.
  KD_SQL(Exec(db_, "BEGIN"), "exporting");
  ExportContents contents;
  uint64_t tick = 0;
  Status s = ReadTick(&tick);
  if (s.ok()) s = ListLocked("", &contents.words);
  if (s.ok()) s = ListPairsLocked("", &contents.pairs);
  if (s.ok()) s = ListShortcutsLocked(&contents.shortcuts);
  if (s.ok()) s = ListAllRecentLocked(&contents.recent);
  Exec(db_, "COMMIT");
  KD_RETURN_IF_ERROR(s);
  for (LearnedWord& w : contents.words) {
    w.weight = DecayedWeight(w.weight, w.last_tick, tick);
    for (AppCount& a : w.apps) a.weight = DecayedWeight(a.weight, a.last_tick, tick);
  }
  for (LearnedPair& p : contents.pairs) p.weight = DecayedWeight(p.weight, p.last_tick, tick);
  *json = WriteExport(contents, Now());
  return Status::OK();
}

// Only the last kMaxRecentWords of each language are kept.
Status SqliteUserStore::TrimRecentLocked(std::string_view language) {
  Stmt trim(db_,
            "DELETE FROM recent WHERE language = ?1 AND id <= (SELECT id FROM recent"
            " WHERE language = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)");
  KD_SQL(trim.Bind(1, language).Bind(2, static_cast<int64_t>(kMaxRecentWords)).Run(),
         "trimming the recent words");
  return Status::OK();
}

Status SqliteUserStore::ListAllRecentLocked(std::vector<RecentEntry>* out) {
  out->clear();
  Stmt s(db_, "SELECT language, word, previous, time FROM recent ORDER BY language, id");
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) {
    out->push_back({s.Text(0), {s.Text(1), s.Text(2), s.Int(3)}});
  }
  KD_SQL(rc, "listing the recent words");
  return Status::OK();
}

Status SqliteUserStore::Import(std::string_view json) {
  ExportContents in;
  KD_RETURN_IF_ERROR(ParseExport(json, &in));
  const std::vector<LearnedWord>& words = in.words;
  const std::vector<LearnedPair>& pairs = in.pairs;
  std::lock_guard<std::mutex> lock(mu_);
  Transaction t(db_);
  KD_SQL(t.begin_rc(), "importing");
  uint64_t tick;
  KD_RETURN_IF_ERROR(ReadTick(&tick));
  const auto t64 = static_cast<int64_t>(tick);
  // Imported weights count as of now; counts add up, capped where the format caps them.
  Stmt word(db_,
            "INSERT INTO words VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
            "ON CONFLICT(language, word) DO UPDATE SET count = min(count + ?3, 1000000000),"
            " picks = min(picks + ?4, min(count + ?3, 1000000000)),"
            " weight = kd_decay(weight, last_tick, ?6) + ?5, last_tick = ?6,"
            " first_time = min(first_time, ?7), last_time = max(last_time, ?8),"
            " reading = CASE WHEN ?9 = '' THEN reading ELSE ?9 END");
  Stmt pair(db_,
            "INSERT INTO pairs VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) "
            "ON CONFLICT(language, previous, word) DO UPDATE SET"
            " count = min(count + ?4, 1000000000),"
            " weight = kd_decay(weight, last_tick, ?6) + ?5, last_tick = ?6,"
            " last_time = max(last_time, ?7)");
  Stmt app(db_,
           "INSERT INTO app_words VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) "
           "ON CONFLICT(language, word, app) DO UPDATE SET count = min(count + ?4, 1000000000),"
           " weight = kd_decay(weight, last_tick, ?6) + ?5, last_tick = ?6,"
           " last_time = max(last_time, ?7)");
  for (const LearnedWord& w : words) {
    for (const AppCount& a : w.apps) {
      KD_SQL(app.Bind(1, w.language)
                 .Bind(2, w.word)
                 .Bind(3, int64_t{a.app})
                 .Bind(4, int64_t{a.count})
                 .Bind(5, a.weight)
                 .Bind(6, t64)
                 .Bind(7, w.last_time)
                 .Run(),
             "importing");
    }
    KD_SQL(word.Bind(1, w.language)
               .Bind(2, w.word)
               .Bind(3, int64_t{w.count})
               .Bind(4, int64_t{w.picks})
               .Bind(5, w.weight)
               .Bind(6, t64)
               .Bind(7, w.first_time)
               .Bind(8, w.last_time)
               .Bind(9, w.reading)
               .Run(),
           "importing");
  }
  for (const LearnedPair& p : pairs) {
    KD_SQL(pair.Bind(1, p.language)
               .Bind(2, p.previous)
               .Bind(3, p.word)
               .Bind(4, int64_t{p.count})
               .Bind(5, p.weight)
               .Bind(6, t64)
               .Bind(7, p.last_time)
               .Run(),
           "importing");
  }
  Stmt shortcut(db_,
                "INSERT INTO shortcuts VALUES(?1, ?2, ?3) "
                "ON CONFLICT(trigger) DO UPDATE SET expansion = excluded.expansion");
  for (const Shortcut& sc : in.shortcuts) {
    KD_SQL(shortcut.Bind(1, sc.trigger).Bind(2, sc.expansion).Bind(3, sc.created).Run(),
           "importing");
  }
  // The recent text follows the store's own (an import does not know where it fits in), and
  // only the last kMaxRecentWords of each language stay.
  Stmt recent(db_, kInsertRecent);
  for (const RecentEntry& r : in.recent) {
    KD_SQL(recent.Bind(1, r.language)
               .Bind(2, r.word.word)
               .Bind(3, r.word.previous)
               .Bind(4, r.word.unix_time)
               .Run(),
           "importing");
  }
  std::string trimmed;
  for (const RecentEntry& r : in.recent) {
    if (r.language == trimmed) continue;
    KD_RETURN_IF_ERROR(TrimRecentLocked(r.language));
    trimmed = r.language;
  }
  KD_SQL(t.Commit(), "importing");
  return Status::OK();
}

}  // namespace personal

}  // namespace keydecide
