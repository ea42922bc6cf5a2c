// The C ABI's user-store calls (kd_personal_*, include/keydecide/keydecide.h): export, import,
// forget, forget a range, clear, shortcuts, on a store of the test's own; bad input changes
// nothing. A shortcut reaches a session's decision in process and through the daemon.

#include <sqlite3.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "keydecide/engine.h"
#include "keydecide/keydecide.h"
#include "keydecide/service.h"
#include "test_util.h"

namespace {

constexpr const char* kExport =
    R"({"format": "keydecide-user-store", "version": 1, "words": [)"
    R"({"language": "en", "word": "Zorblax", "count": 3, "picks": 1, "weight": 2.5,)"
    R"( "first_time": 1000, "last_time": 2000},)"
    R"({"language": "en", "word": "Quoggle", "count": 1, "picks": 0, "weight": 1,)"
    R"( "first_time": 5000, "last_time": 5000}],)"
    R"( "pairs": [{"language": "en", "previous": "Mr", "word": "Zorblax", "count": 2,)"
    R"( "weight": 1.5, "last_time": 2000}]})";

std::string Export(const std::string& path) {
  char* json = nullptr;
  EXPECT_EQ(kd_personal_export(path.c_str(), &json), KD_OK) << kd_last_error();
  std::string out = json != nullptr ? json : "";
  kd_string_free(json);
  return out;
}

TEST(PersonalCApiTest, ExportImportForgetClear) {
  const std::string path = keydecide::testing::TempPath("personal_c_api.db");
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());

  ASSERT_EQ(kd_personal_import(path.c_str(), kExport), KD_OK) << kd_last_error();
  std::string json = Export(path);
  EXPECT_NE(json.find("\"Zorblax\""), std::string::npos);
  EXPECT_NE(json.find("\"Quoggle\""), std::string::npos);

  EXPECT_EQ(kd_personal_import(path.c_str(), "{\"format\": 1}"), KD_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kd_last_error()).find("format"), std::string::npos);
  EXPECT_EQ(kd_personal_import(path.c_str(), nullptr), KD_INVALID_ARGUMENT);
  json = Export(path);  // the refusals changed nothing
  EXPECT_NE(json.find("\"Zorblax\""), std::string::npos);
  EXPECT_NE(json.find("\"Quoggle\""), std::string::npos);

  int32_t removed = -1;
  ASSERT_EQ(kd_personal_forget(path.c_str(), "zorblax", &removed), KD_OK);
  EXPECT_EQ(removed, 2);
  EXPECT_EQ(Export(path).find("Zorblax"), std::string::npos);
  ASSERT_EQ(kd_personal_forget_range(path.c_str(), 4000, 6000, &removed), KD_OK);
  EXPECT_EQ(removed, 1);
  ASSERT_EQ(kd_personal_import(path.c_str(), kExport), KD_OK);
  ASSERT_EQ(kd_personal_clear(path.c_str()), KD_OK);
  EXPECT_EQ(Export(path).find("Quoggle"), std::string::npos);

  EXPECT_EQ(kd_personal_clear("/proc/self/keydecide/user.db"), KD_ERR_IO);
  EXPECT_EQ(kd_personal_export(path.c_str(), nullptr), KD_INVALID_ARGUMENT);
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());
}

void RemoveStore(const std::string& path) {
  for (const char* s : {"", "-wal", "-shm"}) std::remove((path + s).c_str());
}

TEST(PersonalCApiTest, ShortcutsAreSetRemovedAndExported) {
  const std::string path = keydecide::testing::TempPath("shortcuts_c_api.db");
  RemoveStore(path);
  ASSERT_EQ(kd_personal_shortcut_set(path.c_str(), "OMW", "On my way!"), KD_OK) << kd_last_error();
  EXPECT_EQ(kd_personal_shortcut_set(path.c_str(), "two words", "x"), KD_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kd_last_error()).find("trigger"), std::string::npos);
  EXPECT_EQ(kd_personal_shortcut_set(path.c_str(), "ok", ""), KD_INVALID_ARGUMENT);
  EXPECT_EQ(kd_personal_shortcut_set(path.c_str(), nullptr, "x"), KD_INVALID_ARGUMENT);
  EXPECT_NE(Export(path).find("\"trigger\": \"omw\""), std::string::npos);
  int32_t removed = -1;
  ASSERT_EQ(kd_personal_shortcut_remove(path.c_str(), "omw", &removed), KD_OK);
  EXPECT_EQ(removed, 1);
  ASSERT_EQ(kd_personal_shortcut_remove(path.c_str(), "omw", &removed), KD_OK);
  EXPECT_EQ(removed, 0);
  EXPECT_EQ(Export(path).find("omw"), std::string::npos);
  RemoveStore(path);
}

// Typing the trigger: the expansion first (KD_SHORTCUT) and kd_session_shortcut saying it
// fires, on an engine in this process and through a daemon serving a personal engine.
TEST(PersonalCApiTest, AShortcutReachesTheDecisionOnBothBackEnds) {
  const std::string path = keydecide::testing::TempPath("shortcut_session.db");
  RemoveStore(path);
  ASSERT_EQ(kd_personal_shortcut_set(path.c_str(), "omw", "On my way!"), KD_OK);
  kd_engine_params p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;
  p.model_path = "none";
  p.personal = 1;
  p.user_store_path = path.c_str();
  kd_engine* local = nullptr;
  ASSERT_EQ(kd_engine_open(&p, &local), KD_OK) << kd_last_error();
  keydecide::EngineOptions o;
  o.model_dir = KD_MODELS_DIR;
  o.model_path = "none";
  o.personal = true;
  o.user_store_path = path;
  std::unique_ptr<keydecide::Engine> engine;
  ASSERT_TRUE(keydecide::Engine::Open(o, &engine).ok());
  keydecide::ServerOptions so;
  so.socket_path = keydecide::testing::TempPath("shortcut.sock");
  std::unique_ptr<keydecide::Server> server;
  ASSERT_TRUE(keydecide::Server::Start(engine.get(), so, &server).ok());
  kd_engine* remote = nullptr;
  ASSERT_EQ(kd_engine_connect(so.socket_path.c_str(), &remote), KD_OK) << kd_last_error();

  for (kd_engine* e : {local, remote}) {
    SCOPED_TRACE(e == local ? "in process" : "daemon");
    kd_session_params sp = kd_session_default_params();
    kd_session* s = nullptr;
    ASSERT_EQ(kd_session_open(e, &sp, &s), KD_OK);
    EXPECT_EQ(kd_session_shortcut(s, nullptr), nullptr);  // before any decision
    kd_decision d;
    ASSERT_EQ(kd_session_type(s, "see you, omw", &d), KD_OK);
    ASSERT_GT(d.n_candidates, 0);
    EXPECT_STREQ(d.candidates[0].text, "On my way!");
    EXPECT_EQ(d.candidates[0].kind, KD_SHORTCUT);
    EXPECT_EQ(d.autocorrect_apply, 0);
    int32_t fire = 0;
    const char* expansion = kd_session_shortcut(s, &fire);
    ASSERT_NE(expansion, nullptr);
    EXPECT_STREQ(expansion, "On my way!");
    EXPECT_EQ(fire, 1);
    ASSERT_EQ(kd_session_type(s, "x", &d), KD_OK);
    EXPECT_EQ(kd_session_shortcut(s, &fire), nullptr);
    EXPECT_EQ(fire, 0);
    kd_session_free(s);
  }
  kd_engine_free(remote);
  kd_engine_free(local);
  server->Stop();
  server->Wait();
  RemoveStore(path);
}

// A store holding a word whose bytes are not UTF-8 (issue 51): the C ABI's export gives what is
// sound (before: -6), decisions stay valid UTF-8 in process and through the daemon (before:
// the daemon wrote the raw bytes, KD_ERR_PROTOCOL), and no learned word reaches
// kd_last_error() (before: it repeated the whole answer line, which the fcitx5 addon logs).
TEST(PersonalCApiTest, ADamagedWordNeitherBreaksTheAnswersNorReachesTheErrors) {
  const std::string path = keydecide::testing::TempPath("damaged_word.db");
  RemoveStore(path);
  ASSERT_EQ(kd_personal_import(path.c_str(), kExport), KD_OK) << kd_last_error();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  // "Zor\xffblax", written as another program would (a damaged page passing quick_check).
  ASSERT_EQ(sqlite3_exec(db,
                         "UPDATE words SET word = CAST(X'5A6F72FF626C6178' AS TEXT)"
                         " WHERE word = 'Zorblax'",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);

  char* json = nullptr;
  ASSERT_EQ(kd_personal_export(path.c_str(), &json), KD_OK) << kd_last_error();
  const std::string exported = json;
  kd_string_free(json);
  EXPECT_EQ(exported.find('\xff'), std::string::npos);
  EXPECT_EQ(exported.find("\"Zor\\"), std::string::npos);  // the damaged word is left out
  EXPECT_NE(exported.find("\"Quoggle\""), std::string::npos);
  EXPECT_EQ(kd_personal_import(keydecide::testing::TempPath("damaged_again.db").c_str(),
                               exported.c_str()),
            KD_OK);  // and what it gave imports

  kd_engine_params p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;
  p.model_path = "none";
  p.personal = 1;
  p.learn = 0;
  p.user_store_path = path.c_str();
  kd_engine* local = nullptr;
  ASSERT_EQ(kd_engine_open(&p, &local), KD_OK) << kd_last_error();
  keydecide::EngineOptions o;
  o.model_dir = KD_MODELS_DIR;
  o.model_path = "none";
  o.personal = true;
  o.learn = false;
  o.user_store_path = path;
  std::unique_ptr<keydecide::Engine> engine;
  ASSERT_TRUE(keydecide::Engine::Open(o, &engine).ok());
  keydecide::ServerOptions so;
  so.socket_path = keydecide::testing::TempPath("damaged_word.sock");
  std::unique_ptr<keydecide::Server> server;
  ASSERT_TRUE(keydecide::Server::Start(engine.get(), so, &server).ok());
  kd_engine* remote = nullptr;
  ASSERT_EQ(kd_engine_connect(so.socket_path.c_str(), &remote), KD_OK) << kd_last_error();
  for (kd_engine* e : {local, remote}) {
    SCOPED_TRACE(e == local ? "in process" : "daemon");
    kd_session_params sp = kd_session_default_params();
    sp.n_candidates = 10;
    kd_session* s = nullptr;
    ASSERT_EQ(kd_session_open(e, &sp, &s), KD_OK);
    kd_decision d;
    const int rc = kd_session_type(s, "we zor", &d);
    EXPECT_EQ(rc, KD_OK) << kd_last_error();
    EXPECT_EQ(std::string(kd_last_error()).find("blax"), std::string::npos) << kd_last_error();
    for (int i = 0; rc == KD_OK && i < d.n_candidates; ++i) {
      EXPECT_EQ(std::string(d.candidates[i].text).find('\xff'), std::string::npos);
    }
    kd_session_free(s);
  }
  kd_engine_free(remote);
  kd_engine_free(local);
  server->Stop();
  server->Wait();
  RemoveStore(path);
}

}  // namespace
