// The user store (src/personal/user_store.h): round trips, forgetting, export/import, files set
// aside or refused, and the crash test: kill -9 at random points during 1,000 learning writes
// loses no word whose commit returned and leaves a store that passes integrity_check.

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "keydecide/options.h"
#include "keydecide/user_store.h"
#include "personal/export_format.h"
#include "test_util.h"

namespace keydecide {
namespace {

// Removes a store and everything SQLite or a set-aside left beside it.
void RemoveStore(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
}

std::string ReadAll(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return "";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

// PRAGMA integrity_check through a connection of its own.
std::string IntegrityCheck(const std::string& path) {
  sqlite3* db = nullptr;
  std::string result = "cannot open";
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW) {
      result = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    }
    sqlite3_finalize(s);
  }
  sqlite3_close(db);
  return result;
}

// Runs `sql` on the file through a connection of its own, as an older keydecide or another
// program would write it.
void RawExec(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  const int opened = sqlite3_open(path.c_str(), &db);
  EXPECT_EQ(opened, SQLITE_OK) << path;
  if (opened == SQLITE_OK) {
    EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sql;
  }
  sqlite3_close(db);
}

class UserStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempPath(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::system(("rm -rf '" + dir_ + "'").c_str());
    path_ = dir_ + "/keydecide/user.db";
  }
  void TearDown() override {
    std::system(("chmod -R u+w '" + dir_ + "' 2>/dev/null; rm -rf '" + dir_ + "'").c_str());
  }

  std::unique_ptr<UserStore> OpenOrFail(const std::string& path) {
    std::unique_ptr<UserStore> store;
    UserStoreOptions options;
    options.path = path;
    const Status s = UserStore::Open(options, &store);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return store;
  }

  std::string dir_, path_;
};

LearnEvent Event(std::string word, std::string previous = "", bool picked = false,
                 int64_t time = 0) {
  return {"en", std::move(word), std::move(previous), picked, time, ""};
}

TEST_F(UserStoreTest, LearnsAndListsWithCountsPicksTimesAndPairs) {
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store
                  ->Learn({Event("Darcy", "Mr", false, 1000), Event("Darcy", "Mr", true, 2000),
                           Event("Bingley", "", false, 1500)})
                  .ok());
  ASSERT_TRUE(store->Learn({{"zh", "你好", "", true, 3000, ""}}).ok());
  EXPECT_EQ(store->tick(), 4u);

  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("en", &words).ok());
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0].word, "Darcy");
  EXPECT_EQ(words[0].count, 2u);
  EXPECT_EQ(words[0].picks, 1u);
  EXPECT_EQ(words[0].first_time, 1000);
  EXPECT_EQ(words[0].last_time, 2000);
  // 1 decayed over one tick, plus 1.
  EXPECT_NEAR(words[0].weight, 1 + std::exp(-1 / UserStore::kDecayTicks), 1e-9);
  EXPECT_EQ(words[1].word, "Bingley");
  ASSERT_TRUE(store->List("", &words).ok());
  EXPECT_EQ(words.size(), 3u);

  std::vector<LearnedPair> pairs;
  ASSERT_TRUE(store->ListPairs("en", &pairs).ok());
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].previous, "Mr");
  EXPECT_EQ(pairs[0].word, "Darcy");
  EXPECT_EQ(pairs[0].count, 2u);

  // Reopened, it is all still there.
  store.reset();
  store = OpenOrFail(path_);
  ASSERT_TRUE(store->List("", &words).ok());
  EXPECT_EQ(words.size(), 3u);
  EXPECT_TRUE(store->set_aside_path().empty());
}

// What an engine's snapshot reads (Learner, SnapshotLimits): the most used words, each with
// all its app rows (the limit counts words, not rows of the join), and the most used pairs.
TEST_F(UserStoreTest, ListsTheMostUsedWordsWithTheirAppsAndTheMostUsedPairs) {
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store);
  std::vector<LearnEvent> batch;
  for (int i = 0; i < 3; ++i) {
    batch.push_back({"en", "alpha", "the", false, 1000, "", /*app=*/i % 2});
  }
  for (int i = 0; i < 2; ++i) batch.push_back(Event("beta", "the", false, 1000));
  batch.push_back(Event("gamma", "a", false, 1000));
  ASSERT_TRUE(store->Learn(batch).ok());

  std::vector<LearnedWord> words;
  std::vector<LearnedPair> pairs;
  ASSERT_TRUE(store->ListMostUsed("en", 2, 1, &words, &pairs).ok());
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0].word, "alpha");
  EXPECT_EQ(words[0].apps.size(), 2u);  // both apps of the most used word
  EXPECT_EQ(words[1].word, "beta");
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].word, "alpha");
  EXPECT_EQ(pairs[0].count, 3u);

  ASSERT_TRUE(store->ListMostUsed("en", 0, 0, &words, &pairs).ok());
  EXPECT_TRUE(words.empty());
  EXPECT_TRUE(pairs.empty());
  ASSERT_TRUE(store->ListMostUsed("en", SIZE_MAX, SIZE_MAX, &words, &pairs).ok());
  EXPECT_EQ(words.size(), 3u);
  EXPECT_EQ(pairs.size(), 3u);
  ASSERT_TRUE(store->ListMostUsed("zh", SIZE_MAX, SIZE_MAX, &words, &pairs).ok());
  EXPECT_TRUE(words.empty());
}

TEST_F(UserStoreTest, SkipsWordsItMustNotStore) {
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store
                  ->Learn({Event(""),
                           Event("two words"),
                           Event(std::string(65, 'a')),
                           Event("bad\xff"),
                           Event("tab\t"),
                           {"EN", "upper", "", false, 0, ""},
                           Event("kept")})
                  .ok());
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].word, "kept");
}

TEST_F(UserStoreTest, FolderIsPrivateAndFileIs0600) {
  auto store = OpenOrFail(path_);
  struct stat st;
  ASSERT_EQ(stat((dir_ + "/keydecide").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_TRUE(store->Learn({Event("x")}).ok());
  ASSERT_EQ(stat((path_ + "-wal").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u);
}

TEST_F(UserStoreTest, DefaultPathFollowsXdgDataHome) {
  const char* old = std::getenv("XDG_DATA_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_DATA_HOME", dir_.c_str(), 1);
  EXPECT_EQ(UserStore::DefaultPath(), path_);
  std::unique_ptr<UserStore> store;
  ASSERT_TRUE(UserStore::Open(UserStoreOptions(), &store).ok());
  EXPECT_EQ(store->path(), path_);
  unsetenv("XDG_DATA_HOME");
  const char* home = std::getenv("HOME");
  if (home != nullptr) {
    EXPECT_EQ(UserStore::DefaultPath(), std::string(home) + "/.local/share/keydecide/user.db");
  }
  if (old) setenv("XDG_DATA_HOME", saved.c_str(), 1);
}

TEST_F(UserStoreTest, ForgetsAWordItsPairsARangeAndEverything) {
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store
                  ->Learn({Event("alpha", "", false, 100), Event("beta", "alpha", false, 200),
                           Event("gamma", "beta", false, 300), Event("delta", "", false, 400)})
                  .ok());
  int removed = 0;
  ASSERT_TRUE(store->Forget("ALPHA", &removed).ok());  // any case
  EXPECT_EQ(removed, 2);                               // the word and (alpha, beta)
  std::vector<LearnedWord> words;
  std::vector<LearnedPair> pairs;
  ASSERT_TRUE(store->List("", &words).ok());
  ASSERT_TRUE(store->ListPairs("", &pairs).ok());
  EXPECT_EQ(words.size(), 3u);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].word, "gamma");

  ASSERT_TRUE(store->ForgetRange(250, 400, &removed).ok());  // gamma and (beta, gamma)
  EXPECT_EQ(removed, 2);
  ASSERT_TRUE(store->List("", &words).ok());
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0].word, "beta");
  EXPECT_EQ(words[1].word, "delta");

  ASSERT_TRUE(store->Clear().ok());
  ASSERT_TRUE(store->List("", &words).ok());
  ASSERT_TRUE(store->ListPairs("", &pairs).ok());
  EXPECT_TRUE(words.empty());
  EXPECT_TRUE(pairs.empty());
  // Forgotten text is overwritten (secure_delete) and checkpointed out of the log.
  store.reset();
  const std::string bytes = ReadAll(path_) + ReadAll(path_ + "-wal");
  EXPECT_EQ(bytes.find("delta"), std::string::npos);
  EXPECT_EQ(bytes.find("beta"), std::string::npos);
}

TEST_F(UserStoreTest, ExportImportRoundTripAndCountsAddUp) {
  auto a = OpenOrFail(path_);
  ASSERT_TRUE(a->Learn({Event("Darcy", "Mr", true, 1000),
                        Event("Darcy", "Mr", false, 2000),
                        {"zh", "你好", "", true, 3000, ""}})
                  .ok());
  std::string json;
  ASSERT_TRUE(a->Export(&json).ok());
  EXPECT_NE(json.find("\"keydecide-user-store\""), std::string::npos);

  auto b = OpenOrFail(dir_ + "/other.db");
  ASSERT_TRUE(b->Import(json).ok());
  std::vector<LearnedWord> wa, wb;
  ASSERT_TRUE(a->List("", &wa).ok());
  ASSERT_TRUE(b->List("", &wb).ok());
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t i = 0; i < wa.size(); ++i) {
    EXPECT_EQ(wa[i].language, wb[i].language);
    EXPECT_EQ(wa[i].word, wb[i].word);
    EXPECT_EQ(wa[i].count, wb[i].count);
    EXPECT_EQ(wa[i].picks, wb[i].picks);
    EXPECT_EQ(wa[i].first_time, wb[i].first_time);
    EXPECT_EQ(wa[i].last_time, wb[i].last_time);
  }
  std::vector<LearnedPair> pb;
  ASSERT_TRUE(b->ListPairs("", &pb).ok());
  ASSERT_EQ(pb.size(), 1u);
  EXPECT_EQ(pb[0].count, 2u);

  ASSERT_TRUE(b->Import(json).ok());
  ASSERT_TRUE(b->List("en", &wb).ok());
  EXPECT_EQ(wb[0].count, 4u);
  EXPECT_EQ(wb[0].picks, 2u);
}

// The recent text (what fine-tuning reads) travels with an export: a store restored from one
// can train the adapter again (docs/PERSONAL.md, "Export format").
TEST_F(UserStoreTest, TheRecentTextIsExportedAndImportedAfterTheStoresOwn) {
  auto a = OpenOrFail(path_);
  ASSERT_TRUE(a->Learn({Event("Mr", "", false, 1000),
                        Event("Darcy", "Mr", false, 1001),
                        {"zh", "你好", "", false, 1002, ""}})
                  .ok());
  std::string json;
  ASSERT_TRUE(a->Export(&json).ok());
  auto b = OpenOrFail(dir_ + "/other.db");
  ASSERT_TRUE(b->Learn({Event("own", "", false, 500)}).ok());
  ASSERT_TRUE(b->Import(json).ok());
  std::vector<RecentWord> en, zh;
  ASSERT_TRUE(b->ListRecent("en", 100, &en).ok());
  ASSERT_TRUE(b->ListRecent("zh", 100, &zh).ok());
  ASSERT_EQ(en.size(), 3u);
  EXPECT_EQ(en[0].word, "own");
  EXPECT_EQ(en[1].word, "Mr");
  EXPECT_EQ(en[1].previous, "");
  EXPECT_EQ(en[2].word, "Darcy");
  EXPECT_EQ(en[2].previous, "Mr");
  EXPECT_EQ(en[2].unix_time, 1001);
  ASSERT_EQ(zh.size(), 1u);
  EXPECT_EQ(zh[0].word, "你好");

  // An import keeps only the last kMaxRecentWords of a language, as learning does.
  std::string many =
      R"({"format":"keydecide-user-store","version":1,"words":[],"pairs":[],"recent":[)";
  const size_t n = UserStore::kMaxRecentWords + 5;
  for (size_t i = 0; i < n; ++i) {
    many += std::string(i == 0 ? "" : ",") + R"({"language":"en","word":"w)" + std::to_string(i) +
            R"(","previous":"","time":7})";
  }
  many += "]}";
  ASSERT_TRUE(b->Import(many).ok());
  ASSERT_TRUE(b->ListRecent("en", 1u << 30, &en).ok());
  ASSERT_EQ(en.size(), UserStore::kMaxRecentWords);
  EXPECT_EQ(en.back().word, "w" + std::to_string(n - 1));
  EXPECT_EQ(en.front().word, "w5");

  // A bad recent entry is left out, by position; a section that is not an array refuses the
  // whole file.
  const std::vector<std::string> bad = {
      R"({"language":"en","word":"two words","previous":"","time":1})",
      R"({"language":"en","word":"w","previous":"a b","time":1})",
      R"({"language":"en","word":"w","time":1})",
      R"({"language":"en","word":"w","previous":"","time":-1})",
      R"({"language":"EN","word":"w","previous":"","time":1})",
      R"(3)",
  };
  for (const std::string& entry : bad) {
    const std::string doc =
        R"({"format":"keydecide-user-store","version":1,"words":[],"pairs":[],"recent":[)" + entry +
        "]}";
    TransferReport report;
    ASSERT_TRUE(b->Import(doc, &report).ok()) << doc;
    EXPECT_EQ(report.skipped, 1u) << doc;
    ASSERT_EQ(report.notes.size(), 1u);
    EXPECT_NE(report.notes[0].find("recent[0]"), std::string::npos) << report.notes[0];
  }
  EXPECT_EQ(
      b->Import(
           R"({"format":"keydecide-user-store","version":1,"words":[],"pairs":[],"recent":{}})")
          .code(),
      Status::Code::kInvalidArgument);
  ASSERT_TRUE(b->ListRecent("en", 1u << 30, &en).ok());
  EXPECT_EQ(en.size(), UserStore::kMaxRecentWords);
}

TEST_F(UserStoreTest, ImportRefusesBadFilesAndLeavesOutBadEntries) {
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store->Learn({Event("kept")}).ok());
  const std::string good_word =
      R"({"language":"en","word":"w","count":2,"picks":1,"weight":1.5,"first_time":1,"last_time":2})";
  auto doc = [](const std::string& words, const std::string& pairs = "[]",
                const std::string& head = R"("format":"keydecide-user-store","version":1)") {
    return "{" + head + R"(,"words":)" + words + R"(,"pairs":)" + pairs + "}";
  };
  ASSERT_TRUE(store->Import(doc("[" + good_word + "]")).ok());  // the template is valid
  ASSERT_TRUE(
      store
          ->Import(doc(
              R"([{"language":"en","word":"w","count":2,"picks":0,"weight":1,"first_time":1,"last_time":1,"apps":{"code":{"count":2,"weight":1.5}}}])"))
          .ok());  // and with counts per app type
  ASSERT_TRUE(store->Clear().ok());
  ASSERT_TRUE(store->Learn({Event("kept")}).ok());

  // Not an export as a whole: refused, nothing changed.
  const std::vector<std::string> refused = {
      "",
      "not json",
      "[]",
      "3",
      "{\"format\":\"something else\",\"version\":1,\"words\":[],\"pairs\":[]}",
      doc("[]", "[]", R"("format":"keydecide-user-store")"),
      doc("{}"),
      doc("[[[[[[[[1]]]]]]]]"),
      doc("[" + good_word + "]") + "\xff",
      doc("[" + good_word + "]") + "x",
      R"({"format":"keydecide-user-store","version":1,"words":[]})",
  };
  for (const std::string& json : refused) {
    const Status s = store->Import(json);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << json << ": " << s.ToString();
    EXPECT_EQ(s.message().find("\"w\""), std::string::npos);  // positions, never the text
  }
  EXPECT_EQ(store->Import(doc("[]", "[]", R"("format":"keydecide-user-store","version":2)")).code(),
            Status::Code::kNotSupported);
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].word, "kept");

  // A bad entry: left out, the rest imported, the report naming its place, never its text.
  const std::vector<std::string> left_out = {
      doc("[" + good_word + ", 3]"),
      doc(R"([{"language":"en","word":"two words","count":1,"picks":0,"weight":1,"first_time":1,"last_time":1}])"),
      doc(R"([{"language":"en","word":"w","count":0,"picks":0,"weight":0,"first_time":1,"last_time":1}])"),
      doc(R"([{"language":"en","word":"w","count":-1,"picks":0,"weight":0,"first_time":1,"last_time":1}])"),
      doc(R"([{"language":"EN","word":"w","count":1,"picks":0,"weight":1,"first_time":1,"last_time":1}])"),
      doc(R"([{"language":"en","count":1,"picks":0,"weight":1,"first_time":1,"last_time":1}])"),
      doc("[" + good_word + "]",
          R"([{"language":"en","previous":"","word":"w","count":1,"weight":1,"last_time":1}])"),
      // Counts per app type: an unknown app type, none, not an object.
      doc(R"([{"language":"en","word":"w","count":2,"picks":0,"weight":1,"first_time":1,"last_time":1,"apps":{"mail":{"count":1,"weight":1}}}])"),
      doc(R"([{"language":"en","word":"w","count":2,"picks":0,"weight":1,"first_time":1,"last_time":1,"apps":{"code":{"count":0,"weight":0}}}])"),
      doc(R"([{"language":"en","word":"w","count":2,"picks":0,"weight":1,"first_time":1,"last_time":1,"apps":[1]}])"),
      doc("[" + std::string(20000, ' ') + "{\"language\":\"en\",\"word\":\"" +
          std::string(20000, 'x') + "\"}]"),  // past any entry's size: not kept
  };
  for (const std::string& json : left_out) {
    TransferReport report;
    const Status s = store->Import(json, &report);
    ASSERT_TRUE(s.ok()) << json << ": " << s.ToString();
    EXPECT_EQ(report.skipped, 1u) << json;
    ASSERT_EQ(report.notes.size(), 1u);
    EXPECT_EQ(report.notes[0].find("\"w\""), std::string::npos);
    EXPECT_EQ(report.notes[0].find("two words"), std::string::npos);
  }
  // Out of range but clear in meaning: brought into range (picks past the count, a weight past
  // it, a first use after the last, an app's count past the word's).
  const std::vector<std::string> clamped = {
      doc(R"([{"language":"en","word":"c1","count":1,"picks":2,"weight":1,"first_time":1,"last_time":1}])"),
      doc(R"([{"language":"en","word":"c2","count":1,"picks":0,"weight":5,"first_time":1,"last_time":1}])"),
      doc(R"([{"language":"en","word":"c3","count":1,"picks":0,"weight":1,"first_time":5,"last_time":1}])"),
      doc(R"([{"language":"en","word":"c4","count":2,"picks":0,"weight":1,"first_time":1,"last_time":1,"apps":{"code":{"count":3,"weight":1}}}])"),
  };
  for (const std::string& json : clamped) {
    TransferReport report;
    ASSERT_TRUE(store->Import(json, &report).ok()) << json;
    EXPECT_EQ(report.clamped, 1u) << json;
    EXPECT_EQ(report.skipped, 0u) << json;
  }
  ASSERT_TRUE(store->List("", &words).ok());
  for (const LearnedWord& w : words) {
    EXPECT_LE(w.picks, w.count);
    EXPECT_LE(w.weight, w.count);
    EXPECT_LE(w.first_time, w.last_time);
    for (const AppCount& a : w.apps) EXPECT_LE(a.count, w.count);
  }
}

TEST_F(UserStoreTest, ACorruptFileIsSetAsideNotDeletedAndAFreshStoreWorks) {
  ASSERT_EQ(system(("mkdir -p '" + dir_ + "/keydecide'").c_str()), 0);
  const std::string garbage(8192, 'x');
  testing::WriteFile(path_, garbage);
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store);
  ASSERT_FALSE(store->set_aside_path().empty());
  EXPECT_EQ(store->set_aside_path().rfind(path_ + ".corrupt-", 0), 0u);
  EXPECT_EQ(ReadAll(store->set_aside_path()), garbage);
  ASSERT_TRUE(store->Learn({Event("fresh")}).ok());
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("", &words).ok());
  EXPECT_EQ(words.size(), 1u);
}

TEST_F(UserStoreTest, ADamagedPageIsCaughtAtOpen) {
  {
    auto store = OpenOrFail(path_);
    std::vector<LearnEvent> batch;
    for (int i = 0; i < 3000; ++i) batch.push_back(Event("word" + std::to_string(i)));
    ASSERT_TRUE(store->Learn(batch).ok());
    ASSERT_TRUE(store->Clear().ok() && store->Learn(batch).ok());  // enough pages, checkpointed
  }
  std::string bytes = ReadAll(path_);
  ASSERT_GT(bytes.size(), 5 * 4096u);
  for (size_t i = 2 * 4096; i < 5 * 4096; ++i) bytes[i] = static_cast<char>(i * 7);
  testing::WriteFile(path_, bytes);
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store);
  EXPECT_FALSE(store->set_aside_path().empty());
  EXPECT_EQ(ReadAll(store->set_aside_path()), bytes);
}

TEST_F(UserStoreTest, AnUnwritablePlaceIsAClearError) {
  std::unique_ptr<UserStore> store;
  UserStoreOptions options;
  options.path = "/proc/self/keydecide/user.db";  // unwritable even for root
  Status s = UserStore::Open(options, &store);
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_FALSE(store);
  if (geteuid() != 0) {  // root writes anywhere else
    ASSERT_EQ(system(("mkdir -p '" + dir_ + "/ro' && chmod 0500 '" + dir_ + "/ro'").c_str()), 0);
    options.path = dir_ + "/ro/user.db";
    s = UserStore::Open(options, &store);
    EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
    EXPECT_NE(s.message().find("cannot open for writing"), std::string::npos);
  }
}

TEST_F(UserStoreTest, ANewerSchemaIsRefusedAndLeftAlone) {
  { auto store = OpenOrFail(path_); }
  RawExec(path_, "PRAGMA user_version = 99");
  std::unique_ptr<UserStore> store;
  UserStoreOptions options;
  options.path = path_;
  const Status s = UserStore::Open(options, &store);
  EXPECT_EQ(s.code(), Status::Code::kNotSupported) << s.ToString();
  EXPECT_EQ(IntegrityCheck(path_), "ok");  // still there, not set aside
}

TEST_F(UserStoreTest, ALockedStoreGivesIOErrorAfterTheBusyTimeout) {
  std::unique_ptr<UserStore> store;
  UserStoreOptions options;
  options.path = path_;
  options.busy_timeout_ms = 50;
  ASSERT_TRUE(UserStore::Open(options, &store).ok());
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  const Status s = store->Learn({Event("w")});
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("locked"), std::string::npos) << s.ToString();
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  EXPECT_TRUE(store->Learn({Event("w")}).ok());
}

// --- kill -9 -------------------------------------------------------------------------------

constexpr int kWrites = 1000;  // learning writes per child
constexpr int kSeeds = 24;     // on tmpfs (/dev/shm): about 3 s in all
constexpr int kDiskSeeds = 8;  // without one, fsync makes each commit ~4 ms: about 15 s

std::string BatchWord(int write, int j) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on the chain of +.
  std::string word = "w";
  word += std::to_string(write);
  word += '_';
  word += std::to_string(j);
  return word;
}
int BatchSize(int write) { return 1 + write % 3; }  // batches of 1..3 words, all or nothing

// The child: 1,000 Learn calls, each reported on `fd` once it returned OK.
[[noreturn]] void LearnAndReport(const std::string& path, int fd) {
  std::unique_ptr<UserStore> store;
  UserStoreOptions options;
  options.path = path;
  if (!UserStore::Open(options, &store).ok()) _exit(2);
  for (int i = 0; i < kWrites; ++i) {
    std::vector<LearnEvent> batch;
    for (int j = 0; j < BatchSize(i); ++j) {
      batch.push_back(Event(BatchWord(i, j), j > 0 ? BatchWord(i, j - 1) : ""));
    }
    if (!store->Learn(batch).ok()) _exit(3);
    if (write(fd, &i, sizeof i) != sizeof i) _exit(4);
  }
  _exit(0);
}

TEST_F(UserStoreTest, ShortcutsAreSetReplacedRemovedExportedAndCleared) {
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store->SetShortcut("OMW", "On my way!").ok());  // stored lower-cased
  ASSERT_TRUE(store->SetShortcut("myaddr", "1 Main St\nSpringfield").ok());
  ASSERT_TRUE(store->SetShortcut("Don\u2019t", "Do not").ok());  // read as the session does
  ASSERT_TRUE(store->SetShortcut("omw", "On my way, see you soon!").ok());  // replaced
  for (const char* bad :
       {"", "two words", "tab\there", "\xff\xfe", "a-trigger-that-is-longer-than-32-bytes"}) {
    EXPECT_EQ(store->SetShortcut(bad, "x").code(), Status::Code::kInvalidArgument) << bad;
  }
  for (const std::string& bad :
       {std::string(), std::string(1025, 'x'), std::string("bell\a"), std::string("\xc3")}) {
    EXPECT_EQ(store->SetShortcut("ok", bad).code(), Status::Code::kInvalidArgument);
  }
  std::vector<Shortcut> all;
  ASSERT_TRUE(store->ListShortcuts(&all).ok());
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].trigger, "don't");
  EXPECT_EQ(all[1].trigger, "myaddr");
  EXPECT_EQ(all[1].expansion, "1 Main St\nSpringfield");
  EXPECT_EQ(all[2].trigger, "omw");
  EXPECT_EQ(all[2].expansion, "On my way, see you soon!");
  EXPECT_GT(all[2].created, 0);

  std::string json;
  ASSERT_TRUE(store->Export(&json).ok());
  bool removed = false;
  ASSERT_TRUE(store->RemoveShortcut("OmW", &removed).ok());
  EXPECT_TRUE(removed);
  ASSERT_TRUE(store->RemoveShortcut("omw", &removed).ok());
  EXPECT_FALSE(removed);
  ASSERT_TRUE(store->Clear().ok());
  ASSERT_TRUE(store->ListShortcuts(&all).ok());
  EXPECT_TRUE(all.empty());
  ASSERT_TRUE(store->Import(json).ok());  // the export brings them back
  ASSERT_TRUE(store->ListShortcuts(&all).ok());
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].expansion, "On my way, see you soon!");
  // An import with a bad shortcut leaves that one out and names its place.
  ASSERT_TRUE(store->Clear().ok());
  const std::string bad_import =
      R"({"format":"keydecide-user-store","version":1,"exported_at":0,"words":[],"pairs":[],)"
      R"("shortcuts":[{"trigger":"ok","expansion":"fine","created":1},)"
      R"({"trigger":"Not Lower","expansion":"x","created":1}]})";
  TransferReport report;
  ASSERT_TRUE(store->Import(bad_import, &report).ok());
  EXPECT_EQ(report.skipped, 1u);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("shortcuts[1]"), std::string::npos) << report.notes[0];
  ASSERT_TRUE(store->ListShortcuts(&all).ok());
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].trigger, "ok");
}

// A store written by the first schema (version 1, before shortcuts) opens, keeps what it
// learned, and takes shortcuts.
TEST_F(UserStoreTest, AVersionOneStoreIsMigratedWithItsWords) {
  std::system(("mkdir -p '" + dir_ + "/keydecide'").c_str());
  const char* v1 =
      "CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
      "INSERT INTO meta VALUES('tick', 3);"
      "CREATE TABLE words(language TEXT NOT NULL, word TEXT NOT NULL,"
      " count INTEGER NOT NULL, picks INTEGER NOT NULL, weight REAL NOT NULL,"
      " last_tick INTEGER NOT NULL, first_time INTEGER NOT NULL, last_time INTEGER NOT NULL,"
      " PRIMARY KEY(language, word)) WITHOUT ROWID;"
      "CREATE TABLE pairs(language TEXT NOT NULL, previous TEXT NOT NULL, word TEXT NOT NULL,"
      " count INTEGER NOT NULL, weight REAL NOT NULL, last_tick INTEGER NOT NULL,"
      " last_time INTEGER NOT NULL, PRIMARY KEY(language, previous, word)) WITHOUT ROWID;"
      "CREATE INDEX words_last_time ON words(last_time);"
      "CREATE INDEX pairs_last_time ON pairs(last_time);"
      "INSERT INTO words VALUES('en', 'Zorblax', 3, 0, 3.0, 3, 100, 200);"
      "PRAGMA user_version = 1;";
  RawExec(path_, v1);
  auto store = OpenOrFail(path_);
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("en", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].word, "Zorblax");
  EXPECT_EQ(words[0].count, 3u);
  ASSERT_TRUE(store->SetShortcut("omw", "On my way!").ok());
  std::vector<Shortcut> all;
  ASSERT_TRUE(store->ListShortcuts(&all).ok());
  EXPECT_EQ(all.size(), 1u);
  store.reset();
  EXPECT_EQ(IntegrityCheck(path_), "ok");
}

// A store of schema version 2 (shortcuts, before readings) opens, keeps its words, shortcuts
// and pairs, and its words get readings from then on.
TEST_F(UserStoreTest, AVersionTwoStoreIsMigratedAndItsWordsTakeReadings) {
  std::system(("mkdir -p '" + dir_ + "/keydecide'").c_str());
  const char* v2 =
      "CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
      "INSERT INTO meta VALUES('tick', 3);"
      "CREATE TABLE words(language TEXT NOT NULL, word TEXT NOT NULL,"
      " count INTEGER NOT NULL, picks INTEGER NOT NULL, weight REAL NOT NULL,"
      " last_tick INTEGER NOT NULL, first_time INTEGER NOT NULL, last_time INTEGER NOT NULL,"
      " PRIMARY KEY(language, word)) WITHOUT ROWID;"
      "CREATE TABLE pairs(language TEXT NOT NULL, previous TEXT NOT NULL, word TEXT NOT NULL,"
      " count INTEGER NOT NULL, weight REAL NOT NULL, last_tick INTEGER NOT NULL,"
      " last_time INTEGER NOT NULL, PRIMARY KEY(language, previous, word)) WITHOUT ROWID;"
      "CREATE INDEX words_last_time ON words(last_time);"
      "CREATE INDEX pairs_last_time ON pairs(last_time);"
      "CREATE TABLE shortcuts(trigger TEXT PRIMARY KEY, expansion TEXT NOT NULL,"
      " created INTEGER NOT NULL) WITHOUT ROWID;"
      "INSERT INTO words VALUES('zh', '你好', 2, 1, 2.0, 3, 100, 200);"
      "INSERT INTO pairs VALUES('zh', '你好', '世界', 1, 1.0, 3, 200);"
      "INSERT INTO shortcuts VALUES('omw', 'On my way!', 50);"
      "PRAGMA user_version = 2;";
  RawExec(path_, v2);
  auto store = OpenOrFail(path_);
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("zh", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].count, 2u);
  EXPECT_EQ(words[0].reading, "");
  std::vector<LearnedPair> pairs;
  ASSERT_TRUE(store->ListPairs("zh", &pairs).ok());
  EXPECT_EQ(pairs.size(), 1u);
  std::vector<Shortcut> all;
  ASSERT_TRUE(store->ListShortcuts(&all).ok());
  EXPECT_EQ(all.size(), 1u);
  LearnEvent e{"zh", "你好", "", false, 0, "ni'hao"};
  ASSERT_TRUE(store->Learn({e}).ok());
  ASSERT_TRUE(store->List("zh", &words).ok());
  EXPECT_EQ(words[0].count, 3u);
  EXPECT_EQ(words[0].reading, "ni'hao");
  store.reset();
  EXPECT_EQ(IntegrityCheck(path_), "ok");
}

LearnEvent InApp(std::string word, int app, int64_t time) {
  LearnEvent e = Event(std::move(word), "", false, time);
  e.app = app;
  return e;
}

const AppCount* Find(const LearnedWord& w, AppType app) {
  for (const AppCount& a : w.apps) {
    if (a.app == static_cast<int>(app)) return &a;
  }
  return nullptr;
}

// Issue 16, per app type: a word's uses in each app type are counted beside its overall count,
// listed with it, forgotten with it, exported and imported; an event without an app type (or
// with one out of range) counts overall only.
TEST_F(UserStoreTest, CountsPerAppTypeAreKeptForgottenExportedAndImported) {
  auto store = OpenOrFail(path_);
  const int code = static_cast<int>(AppType::kCode), chat = static_cast<int>(AppType::kChat);
  ASSERT_TRUE(store
                  ->Learn({InApp("lambda", code, 100), InApp("lambda", code, 200),
                           InApp("lambda", chat, 300), InApp("lambda", -1, 400),
                           InApp("lambda", 7, 450), InApp("hello", chat, 500)})
                  .ok());
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("en", &words).ok());
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0].word, "lambda");
  EXPECT_EQ(words[0].count, 5u);
  ASSERT_EQ(words[0].apps.size(), 2u);
  ASSERT_NE(Find(words[0], AppType::kCode), nullptr);
  EXPECT_EQ(Find(words[0], AppType::kCode)->count, 2u);
  EXPECT_EQ(Find(words[0], AppType::kChat)->count, 1u);
  EXPECT_EQ(Find(words[1], AppType::kChat)->count, 1u);

  // Export and import carry them (and an import adds them up).
  std::string json;
  ASSERT_TRUE(store->Export(&json).ok());
  EXPECT_NE(json.find("\"apps\""), std::string::npos);
  auto other = OpenOrFail(dir_ + "/other.db");
  ASSERT_TRUE(other->Import(json).ok());
  ASSERT_TRUE(other->Import(json).ok());
  std::vector<LearnedWord> imported;
  ASSERT_TRUE(other->List("en", &imported).ok());
  ASSERT_EQ(imported.size(), 2u);
  EXPECT_EQ(Find(imported[0], AppType::kCode)->count, 4u);
  EXPECT_NEAR(Find(imported[0], AppType::kCode)->weight, 2 * Find(words[0], AppType::kCode)->weight,
              0.01);

  // Forgetting the word forgets its uses per app type; a range takes those last made in it.
  ASSERT_TRUE(store->Forget("LAMBDA", nullptr).ok());
  ASSERT_TRUE(store->Learn({InApp("lambda", -1, 600)}).ok());
  ASSERT_TRUE(store->List("en", &words).ok());
  for (const LearnedWord& w : words) {
    if (w.word == "lambda") {
      EXPECT_TRUE(w.apps.empty());
    }
  }
  ASSERT_TRUE(other->ForgetRange(0, 10000, nullptr).ok());
  ASSERT_TRUE(other->Learn({InApp("hello", -1, 20000)}).ok());
  ASSERT_TRUE(other->List("en", &imported).ok());
  ASSERT_EQ(imported.size(), 1u);
  EXPECT_TRUE(imported[0].apps.empty());
  ASSERT_TRUE(store->Clear().ok());
  ASSERT_TRUE(store->Learn({InApp("hello", -1, 700)}).ok());
  ASSERT_TRUE(store->List("en", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_TRUE(words[0].apps.empty());
}

// A version-4 store (before counts per app type) migrates keeping its words, and counts per
// app type from then on.
TEST_F(UserStoreTest, AVersionFourStoreIsMigratedAndCountsPerAppType) {
  {
    auto store = OpenOrFail(path_);
    ASSERT_TRUE(store->Learn({Event("kept", "", false, 100)}).ok());
  }
  RawExec(path_, "DROP TABLE app_words; PRAGMA user_version = 4;");
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store->Learn({InApp("kept", static_cast<int>(AppType::kEditor), 200)}).ok());
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("en", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].count, 2u);
  ASSERT_EQ(words[0].apps.size(), 1u);
  EXPECT_EQ(words[0].apps[0].app, static_cast<int>(AppType::kEditor));
  EXPECT_EQ(words[0].apps[0].count, 1u);
  store.reset();
  EXPECT_EQ(IntegrityCheck(path_), "ok");
}

// A word keeps the last reading it was learned with; an event without one leaves it, one
// with a malformed reading is skipped, and export and import carry readings.
TEST_F(UserStoreTest, ReadingsAreKeptExportedAndImported) {
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store
                  ->Learn({{"zh", "重庆", "", true, 0, "zhong'qing"},
                           {"zh", "重庆", "", false, 0, "chong'qing"},
                           {"zh", "重庆", "", false, 0, ""},
                           {"zh", "坏的", "", false, 0, "huai de"},
                           {"zh", "坏的", "", false, 0, "'huai"},
                           {"zh", "坏的", "", false, 0, "huai''de"},
                           {"zh", "坏的", "", false, 0, std::string(129, 'a')},
                           Event("Darcy")})
                  .ok());
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("zh", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].word, "重庆");
  EXPECT_EQ(words[0].count, 3u);
  EXPECT_EQ(words[0].reading, "chong'qing");
  std::string json;
  ASSERT_TRUE(store->Export(&json).ok());
  EXPECT_NE(json.find("\"reading\": \"chong'qing\""), std::string::npos) << json;
  EXPECT_EQ(json.find("\"reading\": \"\""), std::string::npos) << "English has none";
  auto other = OpenOrFail(dir_ + "/other.db");
  ASSERT_TRUE(other->Import(json).ok());
  ASSERT_TRUE(other->List("zh", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].reading, "chong'qing");
  const std::string bad =
      R"({"format":"keydecide-user-store","version":1,"exported_at":0,"pairs":[],"words":[)"
      R"({"language":"zh","word":"好","count":1,"picks":0,"weight":1,"first_time":1,)"
      R"("last_time":1,"reading":"HAO"}]})";
  TransferReport report;
  ASSERT_TRUE(other->Import(bad, &report).ok());  // the entry is left out, by position
  EXPECT_EQ(report.skipped, 1u);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("words[0]: 'reading'"), std::string::npos) << report.notes[0];
  ASSERT_TRUE(other->List("zh", &words).ok());
  EXPECT_EQ(words.size(), 1u);
}

// --- Hostile and careless files (issue 51) --------------------------------------------------

// A word whose bytes are not UTF-8 (a damaged page that passes quick_check, another writer):
// the export leaves out what is damaged, keeps everything else, and is itself an export that
// imports (before: nlohmann's type_error.316 escaped Export and aborted the process).
TEST_F(UserStoreTest, TheExportLeavesOutDamagedRowsAndKeepsTheRest) {
  {
    auto store = OpenOrFail(path_);
    ASSERT_TRUE(store
                    ->Learn({Event("Mr"), Event("Zorblax", "Mr"), Event("Kept", "Zorblax"),
                             Event("Sound", "Mr")})
                    .ok());
    ASSERT_TRUE(store->SetShortcut("omw", "On my way!").ok());
    ASSERT_TRUE(store->SetShortcut("bad", "placeholder").ok());
  }
  // 5A 6F 72 FF 62 6C 61 78: "Zor\xffblax", written as another program would.
  RawExec(path_,
          "UPDATE words SET word = CAST(X'5A6F72FF626C6178' AS TEXT) WHERE word = 'Zorblax';"
          "UPDATE pairs SET word = CAST(X'5A6F72FF626C6178' AS TEXT) WHERE word = 'Zorblax';"
          "UPDATE pairs SET previous = CAST(X'5A6F72FF626C6178' AS TEXT)"
          " WHERE previous = 'Zorblax';"
          "UPDATE recent SET word = CAST(X'5A6F72FF626C6178' AS TEXT) WHERE word = 'Zorblax';"
          "UPDATE recent SET previous = CAST(X'5A6F72FF626C6178' AS TEXT)"
          " WHERE previous = 'Zorblax';"
          "UPDATE shortcuts SET expansion = CAST(X'41FF42' AS TEXT) WHERE trigger = 'bad';");
  auto store = OpenOrFail(path_);
  std::string json;
  const Status s = store->Export(&json);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(json.find("Zor"), std::string::npos);
  EXPECT_EQ(json.find('\xff'), std::string::npos);
  EXPECT_NE(json.find("\"Kept\""), std::string::npos);
  EXPECT_NE(json.find("\"Sound\""), std::string::npos);
  EXPECT_NE(json.find("On my way!"), std::string::npos);
  auto other = OpenOrFail(dir_ + "/other.db");
  ASSERT_TRUE(other->Import(json).ok());
  std::vector<LearnedWord> words;
  ASSERT_TRUE(other->List("", &words).ok());
  EXPECT_EQ(words.size(), 3u);  // Mr, Kept, Sound
  std::vector<LearnedPair> pairs;
  ASSERT_TRUE(other->ListPairs("", &pairs).ok());
  ASSERT_EQ(pairs.size(), 1u);  // (Mr, Sound): both pairs of the damaged word are left out
  EXPECT_EQ(pairs[0].word, "Sound");
}

// A word at the count's cap, learned once more, still exports as an export that imports; the
// same entry imported twice saturates instead of passing the cap (before: count 1e9 + 1 and
// weight 2e9, and the export was refused on import).
TEST_F(UserStoreTest, CountsSaturateAtTheCapSoEveryExportImports) {
  const std::string capped =
      R"({"format":"keydecide-user-store","version":1,"words":[{"language":"en","word":"Big",)"
      R"("count":1000000000,"picks":1000000000,"weight":1000000000,"first_time":1,"last_time":2,)"
      R"("apps":{"chat":{"count":1000000000,"weight":1000000000}}}],)"
      R"("pairs":[{"language":"en","previous":"Big","word":"Big","count":1000000000,)"
      R"("weight":1000000000,"last_time":2}]})";
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store->Import(capped).ok());
  LearnEvent again = Event("Big", "Big", true);
  again.app = 0;
  ASSERT_TRUE(store->Learn({again}).ok());
  ASSERT_TRUE(store->Import(capped).ok());
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].count, personal::kMaxCount);
  EXPECT_LE(words[0].picks, words[0].count);
  EXPECT_LE(words[0].weight, words[0].count);
  ASSERT_EQ(words[0].apps.size(), 1u);
  EXPECT_LE(words[0].apps[0].count, words[0].count);
  EXPECT_LE(words[0].apps[0].weight, words[0].apps[0].count);
  std::vector<LearnedPair> pairs;
  ASSERT_TRUE(store->ListPairs("", &pairs).ok());
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].count, personal::kMaxCount);
  EXPECT_LE(pairs[0].weight, pairs[0].count);
  std::string json;
  ASSERT_TRUE(store->Export(&json).ok());
  auto other = OpenOrFail(dir_ + "/other.db");
  const Status s = other->Import(json);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// One bad entry does not make a backup unrestorable: the sound entries are imported, counts
// past the cap are brought to it, and the report names what was left out by position only.
TEST_F(UserStoreTest, AnImportKeepsWhatIsSoundAndReportsWhatItLeftOut) {
  const std::string doc =
      R"({"format":"keydecide-user-store","version":1,"words":[)"
      R"({"language":"en","word":"good","count":2,"picks":0,"weight":1,"first_time":1,"last_time":2},)"
      R"({"language":"en","word":"two words","count":1,"picks":0,"weight":1,"first_time":1,"last_time":1},)"
      R"({"language":"en","word":"huge","count":5000000000,"picks":0,"weight":9e9,"first_time":1,"last_time":1},)"
      R"({}],"pairs":[{"language":"en","previous":"good","word":"huge","count":1,"weight":1,"last_time":1},)"
      R"({"language":"en","previous":"good","word":"huge","count":-1,"weight":1,"last_time":1}],)"
      R"("shortcuts":[{"trigger":"ok","expansion":"fine","created":1},{"trigger":"Not Lower","expansion":"x","created":1}]})";
  auto store = OpenOrFail(path_);
  TransferReport report;
  const Status s = store->Import(doc, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(report.entries, 4u);  // good, huge, the first pair, the first shortcut
  EXPECT_EQ(report.skipped, 4u);
  EXPECT_EQ(report.clamped, 1u);
  ASSERT_FALSE(report.notes.empty());
  EXPECT_NE(report.notes[0].find("words[1]"), std::string::npos) << report.notes[0];
  for (const std::string& note : report.notes) {
    EXPECT_EQ(note.find("two words"), std::string::npos);  // positions, never the text
  }
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("", &words).ok());
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0].word, "huge");
  EXPECT_EQ(words[0].count, personal::kMaxCount);
  std::vector<Shortcut> shortcuts;
  ASSERT_TRUE(store->ListShortcuts(&shortcuts).ok());
  EXPECT_EQ(shortcuts.size(), 1u);
}

// A JSON bomb (255 MB of {"words":[{},{},...]} took 9 GB and aborted under a memory cap): the
// reader checks the limits while it reads, so the refusal comes at the 2,000,001st entry and
// memory stays near the input's size. Run in a child under an address-space cap.
TEST_F(UserStoreTest, AJsonBombIsRefusedEarlyWithinBoundedMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "an address-space cap does not mix with the sanitizers' shadow memory";
#else
  std::string bomb = R"({"format":"keydecide-user-store","version":1,"pairs":[],"words":[)";
  const size_t n = 20'000'000;  // 60 MB of {}: a DOM of it takes well over a gigabyte
  bomb.reserve(bomb.size() + 3 * n + 2);
  for (size_t i = 0; i < n; ++i) bomb += i == 0 ? "{}" : ",{}";
  bomb += "]}";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    struct rlimit limit;
    getrlimit(RLIMIT_AS, &limit);
    // What the process maps now plus 512 MiB: the input is already here, the parse gets room
    // for itself, not for a tree of the whole file.
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f == nullptr || std::fscanf(f, "%lu", &pages) != 1) _exit(3);
    std::fclose(f);
    limit.rlim_cur = pages * sysconf(_SC_PAGESIZE) + (size_t{512} << 20);
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
    personal::ExportContents contents;
    Status s;
    try {
      s = personal::ParseExport(bomb, &contents);
    } catch (...) {
      _exit(2);  // bad_alloc: what the DOM parse did
    }
    _exit(s.code() == Status::Code::kInvalidArgument &&
                  s.message().find("2,000,000") != std::string::npos
              ? 0
              : 1);
  }
  int wstatus = 0;
  ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
  ASSERT_TRUE(WIFEXITED(wstatus)) << "killed by signal " << WTERMSIG(wstatus);
  EXPECT_EQ(WEXITSTATUS(wstatus), 0);
#endif
}

// "Any case" is the lexicon's case folding (utf8proc), not ASCII's: forget überzeugung takes
// Überzeugung, ñandúpiel takes Ñandúpiel, with their pairs and recent text.
TEST_F(UserStoreTest, ForgetFoldsCaseBeyondAscii) {
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store
                  ->Learn({Event("Überzeugung"), Event("Ñandúpiel", "Überzeugung"),
                           Event("ΣΟΦΙΑ", "Ñandúpiel"), Event("stays")})
                  .ok());
  int removed = 0;
  ASSERT_TRUE(store->Forget("überzeugung", &removed).ok());
  EXPECT_EQ(removed, 2);  // the word and (Überzeugung, Ñandúpiel)
  ASSERT_TRUE(store->Forget("ÑANDÚPIEL", &removed).ok());
  EXPECT_EQ(removed, 2);
  ASSERT_TRUE(store->Forget("σοφια", &removed).ok());
  EXPECT_EQ(removed, 1);
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("", &words).ok());
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].word, "stays");
  std::vector<RecentWord> recent;
  ASSERT_TRUE(store->ListRecent("en", 100, &recent).ok());
  ASSERT_EQ(recent.size(), 1u);
  EXPECT_EQ(recent[0].word, "stays");
  store.reset();
  const std::string bytes = ReadAll(path_) + ReadAll(path_ + "-wal");
  EXPECT_EQ(bytes.find("berzeugung"), std::string::npos);
  EXPECT_EQ(bytes.find("and\xc3\xba"), std::string::npos);
}

// Bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE and the like) would make `list` show another
// word than the one stored: refused in learned words, imported words and shortcuts.
TEST_F(UserStoreTest, BidiControlsAreRefusedInWordsAndShortcuts) {
  auto store = OpenOrFail(path_);
  for (const char* control : {"\u202e", "\u202a", "\u2066", "\u2069", "\u200f", "\u061c"}) {
    const std::string word = std::string("abc") + control + "def";
    EXPECT_FALSE(personal::IsStorableWord(word)) << word;
    EXPECT_EQ(store->SetShortcut("omw", "On " + word).code(), Status::Code::kInvalidArgument);
    ASSERT_TRUE(store->Learn({Event(word)}).ok());
  }
  const std::string doc =
      R"({"format":"keydecide-user-store","version":1,"pairs":[],"words":[{"language":"en",)"
      R"("word":"gnp\u202ejs","count":1,"picks":0,"weight":1,"first_time":1,"last_time":1}]})";
  store->Import(doc);  // refused or left out, never stored
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("", &words).ok());
  EXPECT_TRUE(words.empty());
  std::vector<Shortcut> shortcuts;
  ASSERT_TRUE(store->ListShortcuts(&shortcuts).ok());
  EXPECT_TRUE(shortcuts.empty());
}

// After an import the log is checkpointed and truncated: it does not keep the import's size
// while the engine runs (before: 47 MB of -wal after an import, for as long as the daemon ran).
TEST_F(UserStoreTest, TheLogIsTruncatedAfterALargeImport) {
  std::string doc = R"({"format":"keydecide-user-store","version":1,"pairs":[],"words":[)";
  for (int i = 0; i < 30000; ++i) {
    doc += std::string(i == 0 ? "" : ",") + R"({"language":"en","word":"word)" + std::to_string(i) +
           R"(","count":1,"picks":0,"weight":1,"first_time":1,"last_time":1})";
  }
  doc += "]}";
  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store->Import(doc).ok());
  struct stat st;
  const bool has_log = stat((path_ + "-wal").c_str(), &st) == 0;
  EXPECT_TRUE(!has_log || st.st_size < (1 << 20)) << st.st_size << " bytes of log";
}

// The shortcuts' total size is bounded (200,000 maximal ones took 940 MB of log): past
// kMaxShortcuts a new trigger is refused, an existing one may still change.
TEST_F(UserStoreTest, TheShortcutsAreBoundedInNumber) {
  constexpr size_t kMaxShortcutsForTest = UserStore::kMaxShortcuts;
  std::string doc =
      R"({"format":"keydecide-user-store","version":1,"words":[],"pairs":[],"shortcuts":[)";
  auto trigger = [](size_t i) {
    std::string t;
    for (; t.size() < 4 || i > 0; i /= 26) t.push_back(static_cast<char>('a' + i % 26));
    return t;
  };
  for (size_t i = 0; i < kMaxShortcutsForTest + 10; ++i) {
    doc += std::string(i == 0 ? "" : ",") + R"({"trigger":")" + trigger(i) +
           R"(","expansion":"x","created":1})";
  }
  doc += "]}";
  auto store = OpenOrFail(path_);
  store->Import(doc);
  std::vector<Shortcut> all;
  ASSERT_TRUE(store->ListShortcuts(&all).ok());
  EXPECT_LE(all.size(), kMaxShortcutsForTest);
  ASSERT_TRUE(store->Clear().ok());
  for (size_t i = 0; i < kMaxShortcutsForTest; i += 1000) {
    std::string part =
        R"({"format":"keydecide-user-store","version":1,"words":[],"pairs":[],"shortcuts":[)";
    for (size_t j = i; j < i + 1000; ++j) {
      part += std::string(j == i ? "" : ",") + R"({"trigger":")" + trigger(j) +
              R"(","expansion":"x","created":1})";
    }
    ASSERT_TRUE(store->Import(part + "]}").ok());
  }
  const Status s = store->SetShortcut("zzzzzzzzz", "one too many");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("shortcuts"), std::string::npos) << s.ToString();
  EXPECT_TRUE(store->SetShortcut(trigger(5), "changed").ok());
}

// A user.db restored from a backup beside the -wal of the store it replaced: SQLite would
// replay that log into the restored file and the store would be set aside as damaged. The log
// that does not belong is set aside instead (kept, never deleted), and the restored words stay.
TEST_F(UserStoreTest, AStaleLogBesideARestoredStoreIsSetAsideNotTheStore) {
  std::vector<LearnEvent> first, later;
  for (int i = 0; i < 400; ++i) first.push_back(Event("early" + std::to_string(i)));
  for (int i = 0; i < 4000; ++i) later.push_back(Event("later" + std::to_string(i)));
  { ASSERT_TRUE(OpenOrFail(path_)->Learn(first).ok()); }
  const std::string backup = ReadAll(path_);  // the person's backup, taken now
  { ASSERT_TRUE(OpenOrFail(path_)->Learn(later).ok()); }
  // A process learns more and dies before it checkpoints: its log stays beside the file.
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::unique_ptr<UserStore> store;
    UserStoreOptions options;
    options.path = path_;
    if (!UserStore::Open(options, &store).ok()) _exit(1);
    std::vector<LearnEvent> more;
    for (int i = 0; i < 3000; ++i) more.push_back(Event("more" + std::to_string(i), "x"));
    _exit(store->Learn(more).ok() ? 0 : 1);  // no close: the log is not checkpointed
  }
  int wstatus = 0;
  ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
  ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
  struct stat st;
  ASSERT_EQ(stat((path_ + "-wal").c_str(), &st), 0);
  ASSERT_GT(st.st_size, 0);
  testing::WriteFile(path_, backup);  // restored by hand, beside the other store's log
  std::remove((path_ + "-shm").c_str());

  auto store = OpenOrFail(path_);
  ASSERT_TRUE(store);
  std::vector<LearnedWord> words;
  ASSERT_TRUE(store->List("", &words).ok());
  EXPECT_EQ(words.size(), first.size());  // the backup's words, not a fresh store
  EXPECT_NE(store->set_aside_path().find("-wal"), std::string::npos) << store->set_aside_path();
  EXPECT_GT(ReadAll(store->set_aside_path()).size(), 0u);  // the log kept, not deleted
}

TEST(UserStoreCrashTest, KillNineLosesNoReturnedCommitAndLeavesAnIntactStore) {
  // tmpfs when there is one: kill -9 tests the process dying, not the disk (synchronous=FULL
  // covers power loss), and fsync there costs nothing, so many seeds fit in seconds.
  const bool tmpfs = access("/dev/shm", W_OK) == 0;
  const std::string dir = tmpfs ? "/dev/shm" : "/tmp";
  const int seeds = tmpfs ? kSeeds : kDiskSeeds;
  int killed_midway = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::string path =
        dir + "/kd_kill_" + std::to_string(getpid()) + "_" + std::to_string(seed) + ".db";
    RemoveStore(path);
    std::mt19937 rng(seed);
    const int kill_after = static_cast<int>(rng() % kWrites);  // reports read before the kill
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      LearnAndReport(path, fds[1]);
    }
    close(fds[1]);
    std::set<int> returned;
    int i;
    while (static_cast<int>(returned.size()) < kill_after &&
           read(fds[0], &i, sizeof i) == sizeof i) {
      returned.insert(i);
    }
    kill(pid, SIGKILL);
    while (read(fds[0], &i, sizeof i) == sizeof i) returned.insert(i);  // sent before it died
    close(fds[0]);
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    if (WIFSIGNALED(wstatus)) ++killed_midway;

    EXPECT_EQ(IntegrityCheck(path), "ok");
    std::unique_ptr<UserStore> store;
    UserStoreOptions options;
    options.path = path;
    ASSERT_TRUE(UserStore::Open(options, &store).ok());
    EXPECT_TRUE(store->set_aside_path().empty());
    std::vector<LearnedWord> words;
    ASSERT_TRUE(store->List("en", &words).ok());
    std::set<std::string> present;
    for (const LearnedWord& w : words) present.insert(w.word);
    int lost = 0, partial = 0;
    for (int w = 0; w < kWrites; ++w) {
      int found = 0;
      for (int j = 0; j < BatchSize(w); ++j) found += present.count(BatchWord(w, j));
      if (returned.count(w) && found != BatchSize(w)) ++lost;
      if (found != 0 && found != BatchSize(w)) ++partial;
    }
    EXPECT_EQ(lost, 0) << returned.size() << " commits returned";
    EXPECT_EQ(partial, 0);
    store.reset();
    RemoveStore(path);
  }
  // Most children die mid-way (a kill after the last write is possible, rarely).
  EXPECT_GE(killed_midway, seeds / 2);
}

}  // namespace
}  // namespace keydecide
