#include "personal/user_store.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>

#include "keydecide/options.h"
#include "personal/export_format.h"
#include "text/letter_case.h"

namespace keydecide {

namespace {

// What to do about a store this user cannot write.
constexpr const char* kReadOnlyAdvice =
    ": give this user write access to the store's file and folder, or use a store elsewhere;"
    " listing and exporting work read-only";

using personal::IsLanguageTag;
using personal::IsReading;
using personal::IsStorableWord;

// A Status for an SQLite result code and the system's errno behind it (sqlite3_system_errno;
// 0 when not known). Messages name the operation, SQLite's generic text for the code
// (sqlite3_errstr) and what the person can do, never the statement's data.
Status SqliteStatus(int rc, std::string_view what, int sys_errno = 0) {
  const std::string msg = std::string(what) + ": " + sqlite3_errstr(rc);
  if (sys_errno == ENOSPC || sys_errno == EDQUOT || (rc & 0xFF) == SQLITE_FULL) {
    return Status::IOError(msg +
                           " (disk full: free some space on the disk that holds the store,"
                           " then try again)");
  }
  if (sys_errno == EROFS || sys_errno == EACCES || sys_errno == EPERM) {
    return Status::IOError(msg + " (read-only: " + std::strerror(sys_errno) + kReadOnlyAdvice +
                           ")");
  }
  switch (rc & 0xFF) {
    case SQLITE_OK:
    case SQLITE_DONE:
    case SQLITE_ROW:
      return Status::OK();
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(msg);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::IOError(msg + " (locked by another process)");
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
      return Status::IOError(msg + " (read-only" + std::string(kReadOnlyAdvice) + ")");
    default:
      return Status::IOError(msg);
  }
}

// The same for a connection's last error.
Status DbStatus(sqlite3* db, int rc, std::string_view what) {
  return SqliteStatus(rc, what, db != nullptr ? sqlite3_system_errno(db) : 0);
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
      return DbStatus(db_, kd_rc_, what);                                     \
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
  sqlite3* const db_ = db;  // for KD_SQL
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
  if (fd < 0) {
    const int err = errno;
    std::string msg = path + ": cannot open for writing: " + std::strerror(err);
    if (err == EACCES || err == EROFS || err == EPERM)
      msg += std::string(" (read-only") + kReadOnlyAdvice + ")";
    if (err == ENOSPC || err == EDQUOT)
      msg += " (disk full: free some space on its disk, then try again)";
    return Status::IOError(msg);
  }
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

// kd_fold(text): the text lower-cased as the lexicon keys words (AppendLowerUtf8: utf8proc's
// case mapping), so that forgetting "any case" takes Überzeugung for überzeugung.
void FoldFunction(sqlite3_context* ctx, int, sqlite3_value** v) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v[0]));
  if (p == nullptr) {
    sqlite3_result_null(ctx);
    return;
  }
  std::string folded;
  AppendLowerUtf8(std::string_view(p, sqlite3_value_bytes(v[0])), &folded);
  sqlite3_result_text(ctx, folded.data(), static_cast<int>(folded.size()), SQLITE_TRANSIENT);
}

// A path as an SQLite URI's path (file:...): '%', '?' and '#' escaped.
std::string UriPath(const std::string& path) {
  std::string out;
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '%';
      out += kHex[static_cast<unsigned char>(c) >> 4];
      out += kHex[c & 15];
    } else {
      out += c;
    }
  }
  return out;
}

// Opens and configures the database; Corruption when the file is damaged.
//
// read_only: opened with SQLITE_OPEN_READONLY, nothing migrated or written. A WAL database
// read-only still needs its -shm; where none exists and none can be made (a read-only folder
// or mount), and no -wal holds anything to replay, it is opened immutable (no locks, no -shm):
// nothing can write there anyway.
//
// A connection whose open fails is closed without the checkpoint SQLite makes on close: the
// log beside a file that fails its check may not be the file's (a restored backup), and must
// not be written into it.
Status OpenDatabase(const std::string& path, int busy_timeout_ms, bool read_only, sqlite3** out) {
  sqlite3* db = nullptr;
  auto fail = [&](Status s) {
    // close_v2: a statement still open in the caller's scope is finalised just after, and the
    // connection goes with it (sqlite3_close would refuse and leak it).
    sqlite3_close_v2(db);
    db = nullptr;
    return s;
  };
  auto open = [&](const std::string& name, int flags) {
    const int rc = sqlite3_open_v2(name.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) return fail(DbStatus(db, rc, "opening the user store"));
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    sqlite3_busy_timeout(db, busy_timeout_ms);
    sqlite3_extended_result_codes(db, 1);
    return Status::OK();
  };
  if (read_only) {
    KD_RETURN_IF_ERROR(open(path, SQLITE_OPEN_READONLY));
    const int probe = Exec(db, "SELECT count(*) FROM sqlite_master");
    if (probe != SQLITE_OK) {
      struct stat st;
      const bool log = stat((path + "-wal").c_str(), &st) == 0 && st.st_size > 0;
      const int code = probe & 0xFF;
      if (log || (code != SQLITE_CANTOPEN && code != SQLITE_READONLY && code != SQLITE_IOERR)) {
        return fail(DbStatus(db, probe, "opening the user store to read"));
      }
      fail(Status::OK());
      KD_RETURN_IF_ERROR(
          open("file:" + UriPath(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI));
    }
  } else {
    KD_RETURN_IF_ERROR(open(path, SQLITE_OPEN_READWRITE));
    Stmt wal(db, "PRAGMA journal_mode=WAL");
    const int step = wal.Step();
    if (step != SQLITE_ROW) return fail(DbStatus(db, step, "opening the user store"));
    if (wal.Text(0) != "wal") return fail(Status::IOError("the user store cannot use WAL"));
  }
  // journal_size_limit: the log is cut back to 4 MiB whenever a checkpoint empties it, so it
  // does not keep the size of the largest write (an import) for as long as an engine runs.
  int step = Exec(db, read_only ? "PRAGMA secure_delete=ON"
                                : "PRAGMA synchronous=FULL; PRAGMA secure_delete=ON;"
                                  " PRAGMA journal_size_limit=4194304");
  if (step != SQLITE_OK) return fail(DbStatus(db, step, "configuring the user store"));
  {
    Stmt check(db, "PRAGMA quick_check");
    step = check.Step();
    if (step != SQLITE_ROW) return fail(DbStatus(db, step, "checking the user store"));
    if (check.Text(0) != "ok") return fail(Status::Corruption("the user store fails quick_check"));
  }
  sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);  // checked: it is ours
  step = sqlite3_create_function(db, "kd_decay", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                 DecayFunction, nullptr, nullptr);
  if (step == SQLITE_OK) {
    step = sqlite3_create_function(db, "kd_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                   FoldFunction, nullptr, nullptr);
  }
  if (step != SQLITE_OK) return fail(DbStatus(db, step, "configuring the user store"));
  if (read_only) {
    Stmt version(db, "PRAGMA user_version");
    step = version.Step();
    if (step != SQLITE_ROW) return fail(DbStatus(db, step, "reading the schema version"));
    if (version.Int(0) != personal::kSchemaVersion) {
      return fail(
          Status::NotSupported("the user store's schema version " + std::to_string(version.Int(0)) +
                               " is not this build's " + std::to_string(personal::kSchemaVersion) +
                               ": open it once where it can be written, to bring it up to date"));
    }
  } else {
    Status s = Migrate(db);
    if (!s.ok()) return fail(s);
  }
  *out = db;
  return Status::OK();
}

// A -wal beside a database that fails its check with it: moved to "<path>-wal.stale-<UTC
// time>" (never deleted; the -shm, an index of it, is removed) so that the file can be opened
// without it. false when there is no log.
bool SetLogAside(const std::string& path, std::string* moved_to) {
  const std::string log = path + "-wal";
  struct stat st;
  if (stat(log.c_str(), &st) != 0 || st.st_size == 0) return false;
  std::string target = log + ".stale-" + UtcStamp();
  for (int n = 1; access(target.c_str(), F_OK) == 0; ++n) {
    target = log + ".stale-" + UtcStamp() + "-" + std::to_string(n);
  }
  if (rename(log.c_str(), target.c_str()) != 0) return false;
  std::remove((path + "-shm").c_str());
  *moved_to = target;
  return true;
}

int64_t Now() { return static_cast<int64_t>(std::time(nullptr)); }

// Counts saturate at the export format's cap, so that every store exports as an export that
// imports (a count learned past it was refused on import: issue 51).
constexpr int64_t kCountCap = personal::kMaxCount;

// Every forget bumps meta 'forgets' (ForgetStamp), so that running engines drop what their
// sessions typed before it and have not stored yet.
constexpr const char* kBumpForgets =
    "INSERT INTO meta VALUES('forgets', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1";

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
  sqlite3* db = nullptr;
  if (options.read_only) {  // nothing made, narrowed, set aside or migrated
    if (access(path.c_str(), F_OK) != 0) {
      return Status::NotFound(path + ": no user store there (" + std::strerror(errno) + ")");
    }
    const Status s = OpenDatabase(path, options.busy_timeout_ms, /*read_only=*/true, &db);
    if (!s.ok()) return s.Annotated(path);
    out->reset(new SqliteUserStore(db, path, ""));
    return Status::OK();
  }
  const size_t slash = path.find_last_of('/');
  if (slash != std::string::npos) KD_RETURN_IF_ERROR(MakeDirs(path.substr(0, slash)));
  KD_RETURN_IF_ERROR(PrepareFile(path));
  std::string set_aside;
  Status s = OpenDatabase(path, options.busy_timeout_ms, /*read_only=*/false, &db);
  // A log that does not belong to the file beside it (a user.db restored from a backup next
  // to the -wal of the store it replaced) breaks the check; the file alone may be sound.
  if (s.code() == Status::Code::kCorruption && SetLogAside(path, &set_aside)) {
    s = OpenDatabase(path, options.busy_timeout_ms, /*read_only=*/false, &db);
  }
  if (s.code() == Status::Code::kCorruption) {
    KD_RETURN_IF_ERROR(SetAside(path, &set_aside));
    KD_RETURN_IF_ERROR(PrepareFile(path));
    s = OpenDatabase(path, options.busy_timeout_ms, /*read_only=*/false, &db);
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
            "ON CONFLICT(language, word) DO UPDATE SET count = min(count + 1, ?7),"
            " picks = min(picks + excluded.picks, min(count + 1, ?7)),"
            " weight = min(kd_decay(weight, last_tick, ?4) + 1, min(count + 1, ?7)),"
            " last_tick = ?4, last_time = max(last_time, ?5),"
            " reading = CASE WHEN ?6 = '' THEN reading ELSE ?6 END");
  Stmt pair(db_,
            "INSERT INTO pairs VALUES(?1, ?2, ?3, 1, 1.0, ?4, ?5) "
            "ON CONFLICT(language, previous, word) DO UPDATE SET count = min(count + 1, ?6),"
            " weight = min(kd_decay(weight, last_tick, ?4) + 1, min(count + 1, ?6)),"
            " last_tick = ?4, last_time = max(last_time, ?5)");
  Stmt app(db_,
           "INSERT INTO app_words VALUES(?1, ?2, ?3, 1, 1.0, ?4, ?5) "
           "ON CONFLICT(language, word, app) DO UPDATE SET count = min(count + 1, ?6),"
           " weight = min(kd_decay(weight, last_tick, ?4) + 1, min(count + 1, ?6)),"
           " last_tick = ?4, last_time = max(last_time, ?5)");
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
               .Bind(7, kCountCap)
               .Run(),
           "learning");
    if (e.app >= 0 && e.app < kAppTypes) {
      KD_SQL(app.Bind(1, e.language)
                 .Bind(2, e.word)
                 .Bind(3, int64_t{e.app})
                 .Bind(4, t64)
                 .Bind(5, time)
                 .Bind(6, kCountCap)
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
               .Bind(6, kCountCap)
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

Status SqliteUserStore::ListLocked(std::string_view language, std::vector<LearnedWord>* out,
                                   int64_t limit) {
  out->clear();
  // A word's row once per app type it was used in (once with NULLs for none), its rows
  // together, apps in order. The limit applies to the words (LIMIT -1: none), before the join.
  Stmt s(db_,
         "SELECT w.language, w.word, w.count, w.picks, w.weight, w.last_tick, w.first_time,"
         " w.last_time, w.reading, a.app, a.count, a.weight, a.last_tick"
         " FROM (SELECT * FROM words WHERE ?1 = '' OR language = ?1"
         "       ORDER BY count DESC, language, word LIMIT ?2) w"
         " LEFT JOIN app_words a ON a.language = w.language AND a.word = w.word"
         " ORDER BY w.count DESC, w.language, w.word, a.app");
  s.Bind(1, language);
  s.Bind(2, limit);
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

Status SqliteUserStore::ListPairsLocked(std::string_view language, std::vector<LearnedPair>* out,
                                        int64_t limit) {
  out->clear();
  Stmt s(db_,
         "SELECT language, previous, word, count, weight, last_tick, last_time"
         " FROM pairs WHERE ?1 = '' OR language = ?1"
         " ORDER BY count DESC, language, previous, word LIMIT ?2");
  s.Bind(1, language);
  s.Bind(2, limit);
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

Status SqliteUserStore::ListMostUsed(std::string_view language, size_t max_words, size_t max_pairs,
                                     std::vector<LearnedWord>* words,
                                     std::vector<LearnedPair>* pairs) {
  // SQLite's LIMIT is signed; anything past int64's range is no limit at all.
  const auto limit = [](size_t n) {
    return n > static_cast<size_t>(std::numeric_limits<int64_t>::max()) ? int64_t{-1}
                                                                        : static_cast<int64_t>(n);
  };
  std::lock_guard<std::mutex> lock(mu_);
  KD_RETURN_IF_ERROR(ListLocked(language, words, limit(max_words)));
  return ListPairsLocked(language, pairs, limit(max_pairs));
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
  // Any case, as the lexicon folds it (kd_fold): a scan of the tables, as a forget is rare.
  std::string key;
  AppendLowerUtf8(word, &key);
  Stmt words(db_, "DELETE FROM words WHERE kd_fold(word) = ?1");
  Stmt pairs(db_, "DELETE FROM pairs WHERE kd_fold(word) = ?1 OR kd_fold(previous) = ?1");
  KD_SQL(words.Bind(1, key).Run(), "forgetting");
  int n = sqlite3_changes(db_);
  KD_SQL(pairs.Bind(1, key).Run(), "forgetting");
  n += sqlite3_changes(db_);
  Stmt apps(db_, "DELETE FROM app_words WHERE kd_fold(word) = ?1");
  KD_SQL(apps.Bind(1, key).Run(), "forgetting");
  // The word leaves the recent text, and the adapters trained while it was there.
  Stmt recent(db_, "DELETE FROM recent WHERE kd_fold(word) = ?1 OR kd_fold(previous) = ?1");
  KD_SQL(recent.Bind(1, key).Run(), "forgetting");
  if (sqlite3_changes(db_) > 0) KD_SQL(Exec(db_, "DELETE FROM adapters"), "forgetting");
  KD_SQL(Exec(db_, kBumpForgets), "forgetting");
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
  KD_SQL(Exec(db_, kBumpForgets), "forgetting");
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
  KD_SQL(Exec(db_, kBumpForgets), "clearing");
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
  Transaction t(db_);
  KD_SQL(t.begin_rc(), "adding a shortcut");
  int64_t count = 0;
  bool exists = false;
  KD_RETURN_IF_ERROR(CountShortcutsLocked(key, &count, &exists));
  if (!exists && count >= static_cast<int64_t>(kMaxShortcuts)) {
    return Status::InvalidArgument(
        "the store holds 10,000 shortcuts, the most it keeps:"
        " remove some before adding another");
  }
  Stmt s(db_,
         "INSERT INTO shortcuts VALUES(?1, ?2, ?3) "
         "ON CONFLICT(trigger) DO UPDATE SET expansion = excluded.expansion");
  KD_SQL(s.Bind(1, key).Bind(2, expansion).Bind(3, Now()).Run(), "adding a shortcut");
  KD_SQL(t.Commit(), "adding a shortcut");
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

Status SqliteUserStore::CountShortcutsLocked(std::string_view trigger, int64_t* count,
                                             bool* exists) {
  Stmt n(db_, "SELECT count(*), coalesce(sum(trigger = ?1), 0) FROM shortcuts");
  const int rc = n.Bind(1, trigger).Step();
  if (rc != SQLITE_ROW) return DbStatus(db_, rc, "counting shortcuts");
  *count = n.Int(0);
  *exists = n.Int(1) > 0;
  return Status::OK();
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

namespace {

constexpr int64_t kLatestTime = 253402300799;  // 9999-12-31: the export format's last time

// What a store row must be to be exported: what the export format accepts (another program, a
// damaged page or an older build may have written anything). False: the row is left out; a
// value out of range that can be brought into it is, and *clamped says so.
bool SoundWord(LearnedWord* w, bool* clamped) {
  if (!IsLanguageTag(w->language) || !IsStorableWord(w->word) || !IsReading(w->reading) ||
      w->count == 0) {
    return false;
  }
  const LearnedWord before = *w;
  w->count = std::min<uint32_t>(w->count, personal::kMaxCount);
  w->picks = std::min(w->picks, w->count);
  if (!std::isfinite(w->weight) || w->weight < 0) w->weight = 0;
  w->weight = std::min<double>(w->weight, w->count);
  w->last_time = std::clamp<int64_t>(w->last_time, 0, kLatestTime);
  w->first_time = std::clamp<int64_t>(w->first_time, 0, w->last_time);
  std::erase_if(w->apps, [](const AppCount& a) { return a.count == 0; });
  for (AppCount& a : w->apps) {
    a.count = std::min(a.count, w->count);
    if (!std::isfinite(a.weight) || a.weight < 0) a.weight = 0;
    a.weight = std::min<double>(a.weight, a.count);
  }
  *clamped = w->count != before.count || w->picks != before.picks || w->weight != before.weight ||
             w->first_time != before.first_time || w->last_time != before.last_time ||
             w->apps.size() != before.apps.size();
  return true;
}

bool SoundPair(LearnedPair* p, bool* clamped) {
  if (!IsLanguageTag(p->language) || !IsStorableWord(p->previous) || !IsStorableWord(p->word) ||
      p->count == 0) {
    return false;
  }
  const LearnedPair before = *p;
  p->count = std::min<uint32_t>(p->count, personal::kMaxCount);
  if (!std::isfinite(p->weight) || p->weight < 0) p->weight = 0;
  p->weight = std::min<double>(p->weight, p->count);
  p->last_time = std::clamp<int64_t>(p->last_time, 0, kLatestTime);
  *clamped =
      p->count != before.count || p->weight != before.weight || p->last_time != before.last_time;
  return true;
}

// Leaves out of *items what `sound` refuses, counting it in *report.
template <typename T, typename Sound>
void KeepSound(const char* section, std::vector<T>* items, Sound sound, TransferReport* report) {
  size_t kept = 0;
  for (size_t i = 0; i < items->size(); ++i) {
    bool clamped = false;
    if (!sound(&(*items)[i], &clamped)) {
      report->Skip(std::string(section) + ": a damaged row left out");
      continue;
    }
    report->clamped += clamped;
    if (kept != i) (*items)[kept] = std::move((*items)[i]);
    ++kept;
  }
  items->resize(kept);
  report->entries += kept;
}

}  // namespace

Status SqliteUserStore::Export(std::string* json, TransferReport* report) {
  TransferReport ignored;
  if (report == nullptr) report = &ignored;
  *report = TransferReport();
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
  KeepSound("words", &contents.words, SoundWord, report);
  KeepSound("pairs", &contents.pairs, SoundPair, report);
  KeepSound(
      "shortcuts", &contents.shortcuts,
      [](Shortcut* sc, bool* clamped) {
        *clamped = sc->created < 0 || sc->created > kLatestTime;
        sc->created = std::clamp<int64_t>(sc->created, 0, kLatestTime);
        return IsShortcutTrigger(sc->trigger) && IsShortcutExpansion(sc->expansion);
      },
      report);
  KeepSound(
      "recent", &contents.recent,
      [](RecentEntry* r, bool* clamped) {
        *clamped = r->word.unix_time < 0 || r->word.unix_time > kLatestTime;
        r->word.unix_time = std::clamp<int64_t>(r->word.unix_time, 0, kLatestTime);
        return IsLanguageTag(r->language) && IsStorableWord(r->word.word) &&
               (r->word.previous.empty() || IsStorableWord(r->word.previous));
      },
      report);
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

Status SqliteUserStore::ImportShortcutsLocked(const std::vector<Shortcut>& shortcuts,
                                              TransferReport* report) {
  Stmt shortcut(db_,
                "INSERT INTO shortcuts VALUES(?1, ?2, ?3) "
                "ON CONFLICT(trigger) DO UPDATE SET expansion = excluded.expansion");
  for (const Shortcut& sc : shortcuts) {
    int64_t count = 0;
    bool exists = false;
    KD_RETURN_IF_ERROR(CountShortcutsLocked(sc.trigger, &count, &exists));
    if (!exists && count >= static_cast<int64_t>(kMaxShortcuts)) {  // the store is full
      --report->entries;
      report->Skip("shortcuts: past the 10,000 a store keeps");
      continue;
    }
    KD_SQL(shortcut.Bind(1, sc.trigger).Bind(2, sc.expansion).Bind(3, sc.created).Run(),
           "importing");
  }
  return Status::OK();
}

Status SqliteUserStore::ImportRecentLocked(const std::vector<RecentEntry>& recent) {
  // The recent text follows the store's own (an import does not know where it fits in), and
  // only the last kMaxRecentWords of each language stay.
  Stmt insert(db_, kInsertRecent);
  for (const RecentEntry& r : recent) {
    KD_SQL(insert.Bind(1, r.language)
               .Bind(2, r.word.word)
               .Bind(3, r.word.previous)
               .Bind(4, r.word.unix_time)
               .Run(),
           "importing");
  }
  std::string trimmed;
  for (const RecentEntry& r : recent) {
    if (r.language == trimmed) continue;
    KD_RETURN_IF_ERROR(TrimRecentLocked(r.language));
    trimmed = r.language;
  }
  return Status::OK();
}

Status SqliteUserStore::Import(std::string_view json, TransferReport* report) {
  TransferReport ignored;
  if (report == nullptr) report = &ignored;
  ExportContents in;
  KD_RETURN_IF_ERROR(ParseExport(json, &in, report));
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
            " weight = min(kd_decay(weight, last_tick, ?6) + ?5, min(count + ?3, 1000000000)),"
            " last_tick = ?6,"
            " first_time = min(first_time, ?7), last_time = max(last_time, ?8),"
            " reading = CASE WHEN ?9 = '' THEN reading ELSE ?9 END");
  Stmt pair(db_,
            "INSERT INTO pairs VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) "
            "ON CONFLICT(language, previous, word) DO UPDATE SET"
            " count = min(count + ?4, 1000000000),"
            " weight = min(kd_decay(weight, last_tick, ?6) + ?5, min(count + ?4, 1000000000)),"
            " last_tick = ?6,"
            " last_time = max(last_time, ?7)");
  Stmt app(db_,
           "INSERT INTO app_words VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) "
           "ON CONFLICT(language, word, app) DO UPDATE SET count = min(count + ?4, 1000000000),"
           " weight = min(kd_decay(weight, last_tick, ?6) + ?5, min(count + ?4, 1000000000)),"
           " last_tick = ?6,"
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
  KD_RETURN_IF_ERROR(ImportShortcutsLocked(in.shortcuts, report));
  KD_RETURN_IF_ERROR(ImportRecentLocked(in.recent));
  KD_SQL(t.Commit(), "importing");
  // An import can be large: its frames leave the log now rather than stay while an engine
  // runs (the log kept an import's 47 MB, issue 51). A reader that holds the log open may keep
  // it from being truncated; the data is in the file either way.
  Checkpoint();
  return Status::OK();
}

Status SqliteUserStore::ForgetStamp(int64_t* stamp) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "SELECT value FROM meta WHERE key = 'forgets'");
  const int rc = s.Step();
  KD_SQL(rc, "reading");
  *stamp = rc == SQLITE_ROW ? s.Int(0) : 0;
  return Status::OK();
}

bool SqliteUserStore::Changed() {
  std::lock_guard<std::mutex> lock(mu_);
  // PRAGMA data_version moves with every commit of another connection (it looks at the log's
  // index, no data is read); total_changes with every row this one wrote.
  int64_t data_version = -1;
  {
    Stmt s(db_, "PRAGMA data_version");
    if (s.Step() == SQLITE_ROW) data_version = s.Int(0);
  }
  const int64_t own = sqlite3_total_changes64(db_);
  const bool changed = !seen_changes_ || data_version != seen_data_version_ || own != seen_own_;
  seen_changes_ = true;
  seen_data_version_ = data_version;
  seen_own_ = own;
  return changed;
}

}  // namespace personal

}  // namespace keydecide
