// The C ABI: the same keystrokes through an in-process engine and through the daemon give
// the same decisions, in English and in Chinese (pinyin); error codes and ownership rules
// as documented in keydecide.h.

#include "keydecide/keydecide.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "keydecide/engine.h"
#include "keydecide/service.h"
#include "test_util.h"

namespace keydecide {
namespace {

// Scores travel with three decimals (docs/PROTOCOL.md).
constexpr float kWireScoreTolerance = 0.0006f;

std::vector<std::string> Texts(const kd_decision& d) {
  std::vector<std::string> out;
  for (int i = 0; i < d.n_candidates; ++i) out.push_back(d.candidates[i].text);
  return out;
}

class CApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    kd_engine_params p = kd_engine_default_params();
    p.model_dir = KD_MODELS_DIR;
    p.model_path = "none";
    ASSERT_EQ(kd_engine_open(&p, &local_), KD_OK) << kd_last_error();
    // The daemon side: the same lexicon, its own Engine, served in this process, and the
    // zh pack beside it.
    EngineOptions o;
    o.model_dir = KD_MODELS_DIR;
    o.model_path = "none";
    ASSERT_TRUE(Engine::Open(o, &engine_).ok());
    o.language = "zh";
    o.model_path = "";
    ASSERT_TRUE(Engine::Open(o, &zh_engine_).ok());
    path_ = testing::TempPath("capi.sock");
    ServerOptions so;
    so.socket_path = path_;
    so.max_sessions_per_client = 4;
    ASSERT_TRUE(Server::Start({engine_.get(), zh_engine_.get()}, so, &server_).ok());
    ASSERT_EQ(kd_engine_connect(path_.c_str(), &remote_), KD_OK) << kd_last_error();
  }
  void TearDown() override {
    kd_engine_free(remote_);
    kd_engine_free(local_);
    if (server_) server_->Stop();
    server_.reset();
  }

  kd_engine* local_ = nullptr;
  kd_engine* remote_ = nullptr;
  std::unique_ptr<Engine> engine_, zh_engine_;
  std::unique_ptr<Server> server_;
  std::string path_;
};

TEST_F(CApiTest, LocalAndDaemonDecideAlike) {
  kd_session_params sp = kd_session_default_params();
  sp.n_candidates = 5;
  kd_session *a = nullptr, *b = nullptr;
  ASSERT_EQ(kd_session_open(local_, &sp, &a), KD_OK);
  ASSERT_EQ(kd_session_open(remote_, &sp, &b), KD_OK);
  kd_decision da, db;
  ASSERT_EQ(kd_session_set_context(a, "I will see you ", &da), KD_OK);
  ASSERT_EQ(kd_session_set_context(b, "I will see you ", &db), KD_OK);
  EXPECT_EQ(Texts(da), Texts(db));
  for (const char* key : {"t", "o", "m", "o"}) {
    ASSERT_EQ(kd_session_type(a, key, &da), KD_OK);
    ASSERT_EQ(kd_session_type(b, key, &db), KD_OK) << kd_last_error();
    EXPECT_EQ(Texts(da), Texts(db)) << key;
    EXPECT_STREQ(da.composition, db.composition);
    EXPECT_EQ(da.tier, db.tier);
    EXPECT_EQ(da.popup_show, db.popup_show);
  }
  EXPECT_STREQ(db.composition, "tomo");
  EXPECT_EQ(db.tier, KD_TIER_LEXICON_ONLY);
  ASSERT_GT(db.n_candidates, 0);
  EXPECT_STREQ(db.candidates[0].text, "tomorrow");
  EXPECT_NEAR(da.candidates[0].score, db.candidates[0].score, kWireScoreTolerance);
  ASSERT_EQ(kd_session_backspace(a, 2, &da), KD_OK);
  ASSERT_EQ(kd_session_backspace(b, 2, &db), KD_OK);
  EXPECT_STREQ(db.composition, "to");
  ASSERT_EQ(kd_session_commit(a, "tomorrow", nullptr), KD_OK);
  ASSERT_EQ(kd_session_commit(b, "tomorrow", nullptr), KD_OK);
  ASSERT_EQ(kd_session_decide(a, &da), KD_OK);
  ASSERT_EQ(kd_session_decide(b, &db), KD_OK);
  EXPECT_STREQ(da.composition, "tomorrow");
  EXPECT_STREQ(db.composition, "tomorrow");
  EXPECT_EQ(Texts(da), Texts(db));
  kd_session_free(a);
  kd_session_free(b);
}

// Key times reach the model in process and through the daemon alike: the same timed keys give
// the same heads both ways, and a hesitant typist another state than an untimed one.
TEST(CApiTimingTest, KeyTimesReachTheModelInProcessAndThroughTheDaemon) {
  kd_engine_params p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;
  kd_engine* local = nullptr;
  ASSERT_EQ(kd_engine_open(&p, &local), KD_OK) << kd_last_error();
  EngineOptions o;
  o.model_dir = KD_MODELS_DIR;
  std::unique_ptr<Engine> engine;
  ASSERT_TRUE(Engine::Open(o, &engine).ok());
  ServerOptions so;
  so.socket_path = testing::TempPath("capi_timing.sock");
  std::unique_ptr<Server> server;
  ASSERT_TRUE(Server::Start({engine.get()}, so, &server).ok());
  kd_engine* remote = nullptr;
  ASSERT_EQ(kd_engine_connect(so.socket_path.c_str(), &remote), KD_OK) << kd_last_error();
  auto confidence = [](kd_engine* e, int64_t pause_ms) {  // pause < 0: untimed
    kd_session_params sp = kd_session_default_params();
    kd_session* s = nullptr;
    EXPECT_EQ(kd_session_open(e, &sp, &s), KD_OK);
    kd_decision d;
    int64_t t = 1000;
    for (const char* key : {"s", "e", "e", " ", "y", "o", "u", " ", "t", "o", "m", "o"}) {
      t += pause_ms;
      EXPECT_EQ(pause_ms < 0 ? kd_session_type(s, key, &d) : kd_session_type_at(s, key, t, &d),
                KD_OK)
          << kd_last_error();
    }
    const float c = d.autocorrect_confidence;
    kd_session_free(s);
    return c;
  };
  EXPECT_NEAR(confidence(local, 900), confidence(remote, 900), kWireScoreTolerance);
  EXPECT_NE(confidence(local, 900), confidence(local, -1));
  kd_session_params sp = kd_session_default_params();
  kd_session* s = nullptr;
  ASSERT_EQ(kd_session_open(local, &sp, &s), KD_OK);
  EXPECT_EQ(kd_session_type_at(s, "a", -5, nullptr), KD_INVALID_ARGUMENT);
  kd_session_free(s);
  kd_engine_free(remote);
  kd_engine_free(local);
  server->Stop();
}

// Types `keys` one character at a time; the last decision is in *d.
void TypeEach(kd_session* s, const std::string& keys, kd_decision* d) {
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(kd_session_type(s, keys.substr(i, 1).c_str(), d), KD_OK) << kd_last_error();
  }
}

TEST_F(CApiTest, ChineseAndEnglishSessionsInProcessAndThroughTheDaemon) {
  kd_engine_params p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;
  p.model_path = "none";
  p.language = "en,zh";
  kd_engine* both = nullptr;
  ASSERT_EQ(kd_engine_open(&p, &both), KD_OK) << kd_last_error();
  EXPECT_STREQ(kd_engine_languages(both), "en,zh");
  EXPECT_STREQ(kd_engine_languages(remote_), "en,zh");  // from the daemon's hello
  EXPECT_STREQ(kd_engine_languages(local_), "en");
  EXPECT_STREQ(kd_engine_languages(nullptr), "");

  for (kd_engine* engine : {both, remote_}) {
    kd_session *zh = nullptr, *en = nullptr;
    ASSERT_EQ(kd_session_open_lang(engine, "zh", nullptr, &zh), KD_OK) << kd_last_error();
    ASSERT_EQ(kd_session_open(engine, nullptr, &en), KD_OK);  // the default: en
    kd_decision dz, de;
    ASSERT_EQ(kd_session_set_context(en, "I will see you ", &de), KD_OK);
    for (size_t i = 0; i < 5; ++i) {  // side by side: "nihao" and "tomo"
      ASSERT_EQ(kd_session_type(zh, std::string("nihao").substr(i, 1).c_str(), &dz), KD_OK);
      if (i < 4) {
        ASSERT_EQ(kd_session_type(en, std::string("tomo").substr(i, 1).c_str(), &de), KD_OK);
      }
    }
    EXPECT_STREQ(dz.composition, "nihao");
    EXPECT_STREQ(kd_session_preedit(zh), "ni'hao");
    EXPECT_STREQ(kd_session_preedit(en), "tomo");
    ASSERT_GT(dz.n_candidates, 0);
    EXPECT_STREQ(dz.candidates[0].text, "你好");
    // model_path "none" holds for every language of `both`; the daemon's zh engine has the
    // shipped zh model, which read the keystrokes.
    EXPECT_EQ(dz.tier, engine == both ? KD_TIER_LEXICON_ONLY : KD_TIER_FULL_MODEL);
    ASSERT_GT(de.n_candidates, 0);
    EXPECT_STREQ(de.candidates[0].text, "tomorrow");
    ASSERT_EQ(kd_session_commit(zh, "你好", &dz), KD_OK) << kd_last_error();
    EXPECT_STREQ(dz.composition, "");
    kd_session_free(zh);
    kd_session_free(en);
  }

  // All at once, and "" or NULL for the default language.
  kd_session *a = nullptr, *b = nullptr;
  ASSERT_EQ(kd_session_open_lang(both, nullptr, nullptr, &a), KD_OK);
  ASSERT_EQ(kd_session_open_lang(remote_, "", nullptr, &b), KD_OK);
  kd_decision da, db;
  TypeEach(a, "tomo", &da);
  TypeEach(b, "tomo", &db);
  EXPECT_EQ(Texts(da), Texts(db));
  kd_session_free(a);
  kd_session_free(b);
  // The in-process zh engine and the daemon's convert alike. (Only the first candidate: the
  // daemon's engine has the zh model, which re-ranks the words after it, and `both` has none.)
  ASSERT_EQ(kd_session_open_lang(both, "zh", nullptr, &a), KD_OK);
  ASSERT_EQ(kd_session_open_lang(remote_, "zh", nullptr, &b), KD_OK);
  ASSERT_EQ(kd_session_type(a, "nihao", &da), KD_OK);
  ASSERT_EQ(kd_session_type(b, "nihao", &db), KD_OK);
  ASSERT_GT(da.n_candidates, 0);
  ASSERT_GT(db.n_candidates, 0);
  EXPECT_STREQ(da.candidates[0].text, "你好");
  EXPECT_STREQ(db.candidates[0].text, "你好");
  kd_session_free(a);
  kd_session_free(b);
  kd_engine_free(both);
}

TEST_F(CApiTest, UnservedLanguagesAreNotSupportedAndTheEngineLivesOn) {
  for (kd_engine* engine : {local_, remote_}) {
    kd_session* s = reinterpret_cast<kd_session*>(1);
    // local_ serves en only; the daemon en and zh.
    EXPECT_EQ(kd_session_open_lang(engine, engine == local_ ? "zh" : "fr", nullptr, &s),
              KD_ERR_NOT_SUPPORTED);
    EXPECT_EQ(s, nullptr);
    EXPECT_NE(std::string(kd_last_error()).find("en"), std::string::npos) << kd_last_error();
    EXPECT_EQ(kd_session_open_lang(engine, "a\xFF", nullptr, &s),
              engine == local_ ? KD_ERR_NOT_SUPPORTED : KD_INVALID_ARGUMENT);
    kd_session_params bad = kd_session_default_params();
    bad.n_candidates = 99;
    EXPECT_EQ(kd_session_open_lang(engine, "en", &bad, &s), KD_INVALID_ARGUMENT);
    for (int32_t level : {-1, 4}) {  // the autocorrect level: off, cautious, normal, eager only
      bad = kd_session_default_params();
      bad.autocorrect_level = level;
      EXPECT_EQ(kd_session_open_lang(engine, "en", &bad, &s), KD_INVALID_ARGUMENT) << level;
    }
    EXPECT_EQ(kd_session_open_lang(nullptr, "en", nullptr, &s), KD_INVALID_ARGUMENT);
    ASSERT_EQ(kd_session_open_lang(engine, "en", nullptr, &s), KD_OK) << kd_last_error();
    kd_decision d;
    ASSERT_EQ(kd_session_type(s, "dog", &d), KD_OK);
    EXPECT_STREQ(d.composition, "dog");
    kd_session_free(s);
  }
}

TEST(CApiOpenTest, LanguageLists) {
  kd_engine_params p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;
  p.model_path = "none";
  kd_engine* e = reinterpret_cast<kd_engine*>(1);
  for (const char* bad : {"", "en,", "en,,zh", "en,en"}) {
    p.language = bad;
    EXPECT_EQ(kd_engine_open(&p, &e), KD_INVALID_ARGUMENT) << bad;
    EXPECT_EQ(e, nullptr);
  }
  p.language = "en,xx";
  EXPECT_EQ(kd_engine_open(&p, &e), KD_ERR_NOT_SUPPORTED);
  EXPECT_NE(std::string(kd_last_error()).find("xx"), std::string::npos) << kd_last_error();
  p.language = "zh";  // one language, not en: its sessions are the default ones
  ASSERT_EQ(kd_engine_open(&p, &e), KD_OK) << kd_last_error();
  kd_session* s = nullptr;
  ASSERT_EQ(kd_session_open(e, nullptr, &s), KD_OK);
  kd_decision d;
  ASSERT_EQ(kd_session_type(s, "nihao", &d), KD_OK);
  EXPECT_STREQ(d.candidates[0].text, "你好");
  kd_session_free(s);
  kd_engine_free(e);
}

TEST_F(CApiTest, ErrorsAreRecoverableAndLeaveTheSessionUnchanged) {
  for (kd_engine* engine : {local_, remote_}) {
    kd_session* s = nullptr;
    ASSERT_EQ(kd_session_open(engine, nullptr, &s), KD_OK);
    kd_decision d;
    ASSERT_EQ(kd_session_type(s, "dog", nullptr), KD_OK);
    EXPECT_EQ(kd_session_type(s, "a\xFF", &d), KD_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kd_last_error()), "");
    EXPECT_EQ(kd_session_commit(s, "two words", &d), KD_INVALID_ARGUMENT);
    EXPECT_EQ(kd_session_backspace(s, 0, &d), KD_INVALID_ARGUMENT);
    EXPECT_EQ(kd_session_autocorrect(s, "two words", &d), KD_INVALID_ARGUMENT);
    EXPECT_EQ(kd_session_autocorrect(s, nullptr, &d), KD_INVALID_ARGUMENT);
    EXPECT_EQ(kd_session_type(s, nullptr, &d), KD_INVALID_ARGUMENT);
    EXPECT_EQ(kd_session_decide(s, nullptr), KD_INVALID_ARGUMENT);
    ASSERT_EQ(kd_session_decide(s, &d), KD_OK);
    EXPECT_STREQ(d.composition, "dog");
    kd_session_free(s);
  }
  kd_session_params bad = kd_session_default_params();
  bad.app = 42;
  kd_session* s = reinterpret_cast<kd_session*>(1);
  EXPECT_EQ(kd_session_open(local_, &bad, &s), KD_INVALID_ARGUMENT);
  EXPECT_EQ(s, nullptr);
  kd_session_free(nullptr);
  kd_engine_free(nullptr);
  EXPECT_STREQ(kd_session_preedit(nullptr), "");
}

// Issue 49: a candidate picked by its id, in process and through the daemon: the ids of a
// decision, a pick that converts only the first pinyin letters, a stale id refused.
TEST_F(CApiTest, PickByIdInProcessAndThroughTheDaemon) {
  EXPECT_EQ(kd_abi_revision(), KD_ABI_REVISION);
  EXPECT_EQ(kd_session_candidate_ids(nullptr), nullptr);
  EXPECT_EQ(kd_session_pick(nullptr, 1, nullptr), KD_INVALID_ARGUMENT);
  kd_engine_params p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;
  p.model_path = "none";
  p.language = "en,zh";
  kd_engine* both = nullptr;
  ASSERT_EQ(kd_engine_open(&p, &both), KD_OK) << kd_last_error();
  kd_session_params sp = kd_session_default_params();
  sp.n_candidates = 10;
  for (kd_engine* engine : {both, remote_}) {
    kd_session *en = nullptr, *zh = nullptr;
    ASSERT_EQ(kd_session_open(engine, &sp, &en), KD_OK) << kd_last_error();
    ASSERT_EQ(kd_session_open_lang(engine, "zh", &sp, &zh), KD_OK) << kd_last_error();
    kd_decision d;
    ASSERT_EQ(kd_session_set_context(en, "I will see you ", nullptr), KD_OK);
    TypeEach(en, "tomo", &d);
    ASSERT_GT(d.n_candidates, 0);
    const uint32_t* ids = kd_session_candidate_ids(en);
    ASSERT_NE(ids, nullptr);
    for (int i = 0; i < d.n_candidates; ++i) EXPECT_NE(ids[i], 0u) << i;
    const uint32_t tomorrow = ids[0];
    EXPECT_STREQ(d.candidates[0].text, "tomorrow");
    ASSERT_EQ(kd_session_type(en, "r", &d), KD_OK);  // an edit: the ids before it are stale
    EXPECT_EQ(kd_session_pick(en, tomorrow, &d), KD_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kd_last_error()).find("stale"), std::string::npos) << kd_last_error();
    ASSERT_EQ(kd_session_decide(en, &d), KD_OK);
    EXPECT_STREQ(d.composition, "tomor");  // unchanged
    ASSERT_GT(d.n_candidates, 0);
    ASSERT_EQ(kd_session_pick(en, kd_session_candidate_ids(en)[0], &d), KD_OK) << kd_last_error();
    EXPECT_STREQ(d.composition, "tomorrow");

    // 中国 converts the first letters of "zhongguoren" and leaves "ren".
    ASSERT_EQ(kd_session_type(zh, "zhongguoren", &d), KD_OK);
    int zhongguo = -1;
    for (int i = 0; i < d.n_candidates; ++i) {
      if (std::string(d.candidates[i].text) == "中国") zhongguo = i;
    }
    ASSERT_GE(zhongguo, 0);
    ASSERT_EQ(kd_session_pick(zh, kd_session_candidate_ids(zh)[zhongguo], &d), KD_OK)
        << kd_last_error();
    EXPECT_STREQ(d.composition, "ren");
    ASSERT_GT(d.n_candidates, 0);
    ASSERT_EQ(kd_session_pick(zh, kd_session_candidate_ids(zh)[0], nullptr), KD_OK);
    ASSERT_EQ(kd_session_decide(zh, &d), KD_OK);
    EXPECT_STREQ(d.composition, "");
    kd_session_free(en);
    kd_session_free(zh);
  }
  kd_engine_free(both);
}

TEST_F(CApiTest, DaemonLimitsAndDisappearanceAreReported) {
  std::vector<kd_session*> sessions;
  kd_session* s = nullptr;
  while (kd_session_open(remote_, nullptr, &s) == KD_OK) sessions.push_back(s);
  EXPECT_EQ(sessions.size(), 4u);  // the server's per-client limit
  EXPECT_EQ(kd_session_open(remote_, nullptr, &s), KD_INVALID_ARGUMENT);
  kd_session_free(sessions.back());
  sessions.pop_back();
  ASSERT_EQ(kd_session_open(remote_, nullptr, &s), KD_OK);
  sessions.push_back(s);

  server_->Stop();
  server_->Wait();
  kd_decision d;
  EXPECT_EQ(kd_session_type(sessions[0], "a", &d), KD_ERR_IO);
  EXPECT_EQ(kd_session_type(sessions[1], "a", &d), KD_ERR_IO);  // stays broken
  for (kd_session* x : sessions) kd_session_free(x);            // still safe to free
}

// The daemon restarts: the library connects again on the next call, the session is opened again
// (KD_SESSION_RESET: its text is gone, nothing applied) and goes on once its text is restored.
TEST_F(CApiTest, ReconnectsAfterTheDaemonRestarts) {
  kd_session* s = nullptr;
  ASSERT_EQ(kd_session_open(remote_, nullptr, &s), KD_OK);
  kd_decision d;
  ASSERT_EQ(kd_session_type(s, "see you to", &d), KD_OK);
  server_->Stop();
  server_->Wait();
  server_.reset();
  EXPECT_EQ(kd_session_type(s, "m", &d), KD_ERR_IO);  // the daemon is gone
  EXPECT_EQ(kd_session_type(s, "m", &d), KD_ERR_IO);  // and still is: no socket to connect to
  ServerOptions so;
  so.socket_path = path_;
  ASSERT_TRUE(Server::Start({engine_.get(), zh_engine_.get()}, so, &server_).ok());
  EXPECT_EQ(kd_session_type(s, "m", &d), KD_SESSION_RESET) << kd_last_error();
  ASSERT_EQ(kd_session_set_context(s, "see you to", &d), KD_OK) << kd_last_error();
  ASSERT_EQ(kd_session_type(s, "mo", &d), KD_OK) << kd_last_error();
  EXPECT_STREQ(d.composition, "tomo");
  ASSERT_GT(d.n_candidates, 0);
  EXPECT_STREQ(d.candidates[0].text, "tomorrow");
  kd_session* fresh = nullptr;
  ASSERT_EQ(kd_session_open(remote_, nullptr, &fresh), KD_OK);  // new sessions just work
  ASSERT_EQ(kd_session_type(fresh, "a", &d), KD_OK);
  kd_session_free(fresh);
  kd_session_free(s);
}

// A daemon that answers each request line with the next scripted line, to see the C ABI
// cope with a broken or hostile peer.
class FakeDaemon {
 public:
  FakeDaemon(const std::string& path, std::vector<std::string> answers) : path_(path) {
    listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    ::unlink(path.c_str());
    EXPECT_EQ(::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(listen_fd_, 4), 0);
    thread_ = std::thread([this, answers = std::move(answers)] {
      const int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      std::string buf;
      char tmp[4096];
      for (const std::string& answer : answers) {
        while (buf.find('\n') == std::string::npos) {
          const ssize_t n = ::recv(fd, tmp, sizeof(tmp), 0);
          if (n <= 0) break;
          buf.append(tmp, static_cast<size_t>(n));
        }
        buf.erase(0, buf.find('\n') + 1);
        const std::string line = answer + "\n";
        if (::send(fd, line.data(), line.size(), MSG_NOSIGNAL) < 0) break;
      }
      ::close(fd);  // then hang up
    });
  }
  ~FakeDaemon() {
    thread_.join();
    ::close(listen_fd_);
    ::unlink(path_.c_str());
  }

 private:
  std::string path_;
  int listen_fd_ = -1;
  std::thread thread_;
};

TEST(CApiFakeDaemonTest, GarbageAnswersAreProtocolErrors) {
  const std::string path = testing::TempPath("fake.sock");
  kd_engine* e = nullptr;
  {
    FakeDaemon fake(path, {"this is not json"});
    EXPECT_EQ(kd_engine_connect(path.c_str(), &e), KD_ERR_PROTOCOL);
    EXPECT_EQ(e, nullptr);
  }
  {
    FakeDaemon fake(path, {R"({"id":1,"ok":true,"protocol":2})"});
    EXPECT_EQ(kd_engine_connect(path.c_str(), &e), KD_ERR_PROTOCOL);
  }
  {
    FakeDaemon fake(path, {R"({"id":null,"ok":false,"error":{"code":"permission_denied"}})"});
    EXPECT_EQ(kd_engine_connect(path.c_str(), &e), KD_ERR_IO);
  }
  {  // a daemon from before "languages", and one whose list is not all strings
    FakeDaemon fake(path, {R"({"id":1,"ok":true,"protocol":1,"language":"en"})"});
    ASSERT_EQ(kd_engine_connect(path.c_str(), &e), KD_OK);
    EXPECT_STREQ(kd_engine_languages(e), "en");
    kd_engine_free(e);
  }
  {
    FakeDaemon fake(path, {R"({"id":1,"ok":true,"protocol":1,"languages":["zh",3,null,"en"]})"});
    ASSERT_EQ(kd_engine_connect(path.c_str(), &e), KD_OK);
    EXPECT_STREQ(kd_engine_languages(e), "zh,en");
    kd_engine_free(e);
  }
}

// An answer this library cannot read is a protocol error whose message never repeats the line
// (issue 51): the line may hold the person's words, and hosts log kd_last_error().
TEST(CApiFakeDaemonTest, UnreadableAnswersAreNotRepeatedInTheError) {
  const std::string path = testing::TempPath("fake_secret.sock");
  FakeDaemon fake(path, {R"({"id":1,"ok":true,"protocol":1,"languages":["en"]})",
                         "{\"id\":2,\"ok\":true,\"session\":1,\"text\":\"Secretword\xff"});
  kd_engine* e = nullptr;
  ASSERT_EQ(kd_engine_connect(path.c_str(), &e), KD_OK);
  kd_session_params sp = kd_session_default_params();
  kd_session* s = nullptr;
  EXPECT_EQ(kd_session_open(e, &sp, &s), KD_ERR_PROTOCOL);
  EXPECT_EQ(std::string(kd_last_error()).find("Secretword"), std::string::npos) << kd_last_error();
  EXPECT_NE(std::string(kd_last_error()).size(), 0u);
  kd_engine_free(e);
}

// An engine in this process has a session budget as the daemon has (issue 51: 2.1 MB each and
// no cap, bad_alloc after 1,301 sessions under 3 GB): past it kd_session_open says KD_BUSY, and
// once a session is freed another opens.
TEST(CApiOpenTest, AnInProcessEngineRefusesSessionsPastItsBudgetWithBusy) {
  kd_engine_params p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;  // with the model: about 2 MB a session
  kd_engine* e = nullptr;
  ASSERT_EQ(kd_engine_open(&p, &e), KD_OK) << kd_last_error();
  kd_session_params sp = kd_session_default_params();
  std::vector<kd_session*> sessions;
  int rc = KD_OK;
  for (int i = 0; i < 600 && rc == KD_OK; ++i) {
    kd_session* s = nullptr;
    rc = kd_session_open(e, &sp, &s);
    if (rc == KD_OK) sessions.push_back(s);
  }
  EXPECT_EQ(rc, KD_BUSY) << sessions.size() << " sessions opened";
  EXPECT_NE(std::string(kd_last_error()).find("budget"), std::string::npos) << kd_last_error();
  EXPECT_GT(sessions.size(), 16u);
  if (!sessions.empty()) {
    kd_session_free(sessions.back());
    sessions.pop_back();
    kd_session* s = nullptr;
    EXPECT_EQ(kd_session_open(e, &sp, &s), KD_OK) << kd_last_error();
    if (s != nullptr) sessions.push_back(s);
  }
  for (kd_session* s : sessions) kd_session_free(s);
  kd_engine_free(e);
}

TEST(CApiFakeDaemonTest, MalformedDecisionsDoNotCrash) {
  const std::string path = testing::TempPath("fake.sock");
  FakeDaemon fake(path, {
                            R"({"id":1,"ok":true,"protocol":1})",
                            R"({"id":2,"ok":true,"session":5})",
                            R"({"id":3,"ok":true,"decision":{"candidates":[{"text":7},{},3],)"
                            R"("popup":"x","autocorrect":[],"tier":9,"composition":null}})",
                            R"({"id":4,"ok":true})",
                            R"({"id":5,"ok":false,"error":{"code":17}})",
                        });
  kd_engine* e = nullptr;
  ASSERT_EQ(kd_engine_connect(path.c_str(), &e), KD_OK) << kd_last_error();
  EXPECT_STREQ(kd_engine_languages(e), "");  // a hello without languages
  kd_session* s = nullptr;
  ASSERT_EQ(kd_session_open(e, nullptr, &s), KD_OK) << kd_last_error();
  kd_decision d;
  ASSERT_EQ(kd_session_type(s, "a", &d), KD_OK) << kd_last_error();
  ASSERT_EQ(d.n_candidates, 3);
  EXPECT_STREQ(d.candidates[0].text, "");
  EXPECT_STREQ(d.composition, "");
  EXPECT_EQ(d.popup_show, 0);
  EXPECT_EQ(kd_session_type(s, "b", &d), KD_ERR_PROTOCOL);  // no decision in the answer
  EXPECT_EQ(kd_session_type(s, "c", &d), KD_ERR_PROTOCOL);  // an error code that is no string
  EXPECT_EQ(kd_session_type(s, "d", &d), KD_ERR_IO);        // it hung up
  kd_session_free(s);
  kd_engine_free(e);
}

// A daemon from before candidate ids: its candidates have none (0), and it answers a pick with
// unknown_op, which the C ABI reports as not supported; the connection lives on.
TEST(CApiFakeDaemonTest, ADaemonTooOldToPickSaysSo) {
  const std::string path = testing::TempPath("fake_old.sock");
  const std::string decision =
      R"("decision":{"composition":"a","candidates":[{"text":"and","score":1,"kind":"completion"}]}})";
  FakeDaemon fake(path, {
                            R"({"id":1,"ok":true,"protocol":1,"languages":["en"]})",
                            R"({"id":2,"ok":true,"session":5})",
                            R"({"id":3,"ok":true,)" + decision,
                            R"({"id":4,"ok":false,"error":{"code":"unknown_op","message":"x"}})",
                            R"({"id":5,"ok":true,)" + decision,
                        });
  kd_engine* e = nullptr;
  ASSERT_EQ(kd_engine_connect(path.c_str(), &e), KD_OK) << kd_last_error();
  kd_session* s = nullptr;
  ASSERT_EQ(kd_session_open(e, nullptr, &s), KD_OK) << kd_last_error();
  kd_decision d;
  ASSERT_EQ(kd_session_type(s, "a", &d), KD_OK) << kd_last_error();
  ASSERT_EQ(d.n_candidates, 1);
  EXPECT_EQ(kd_session_candidate_ids(s)[0], 0u);
  EXPECT_EQ(kd_session_pick(s, 1, &d), KD_ERR_NOT_SUPPORTED);
  EXPECT_NE(std::string(kd_last_error()).find("too old"), std::string::npos) << kd_last_error();
  EXPECT_EQ(kd_session_commit(s, "and", &d), KD_OK) << kd_last_error();
  kd_session_free(s);
  kd_engine_free(e);
}

// A local stranger (uid nobody) listens where the client would connect: in a folder anyone
// can write, on the daemon's path. The client refuses before sending a byte, whether the
// socket file is the stranger's or (chowned to us) only the process behind it is.
class Squatter {
 public:
  // Forks a child that, as nobody, listens on `path`, accepts one connection for up to
  // 1.5 s and reports through a pipe how many bytes it received.
  Squatter(const std::string& path, bool chown_to_us) {
    int ready[2], counted[2];
    EXPECT_EQ(::pipe(ready), 0);
    EXPECT_EQ(::pipe(counted), 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      ::close(counted[0]);
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
      const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
      sockaddr_un addr{};
      addr.sun_family = AF_UNIX;
      std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
      if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || ::listen(fd, 4)) {
        ::_exit(3);
      }
      char one = 1;
      if (::write(ready[1], &one, 1) != 1) ::_exit(4);
      pollfd p{fd, POLLIN, 0};
      int64_t got = 0;
      if (::poll(&p, 1, 1500) == 1) {
        const int c = ::accept(fd, nullptr, nullptr);
        char buf[4096];
        pollfd q{c, POLLIN, 0};
        while (::poll(&q, 1, 1000) == 1) {
          const ssize_t n = ::recv(c, buf, sizeof(buf), 0);
          if (n <= 0) break;
          got += n;
        }
      }
      if (::write(counted[1], &got, sizeof(got)) != sizeof(got)) ::_exit(5);
      ::_exit(0);
    }
    ::close(ready[1]);
    ::close(counted[1]);
    char one = 0;
    EXPECT_EQ(::read(ready[0], &one, 1), 1);  // listening
    ::close(ready[0]);
    if (chown_to_us) {
      EXPECT_EQ(::chown(path.c_str(), ::geteuid(), ::getegid()), 0);
    }
    counted_ = counted[0];
  }
  // Bytes the squatter received (waits for it to finish).
  int64_t BytesReceived() {
    int64_t got = -1;
    EXPECT_EQ(::read(counted_, &got, sizeof(got)), static_cast<ssize_t>(sizeof(got)));
    ::close(counted_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    return got;
  }

 private:
  pid_t pid_ = -1;
  int counted_ = -1;
};

TEST(CApiTrustTest, AStrangerOnTheSocketNeverReceivesAByte) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run a squatter as nobody";
  char dir_template[] = "/tmp/kd-squat-XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);  // anyone may write here (and squat)
  for (bool chowned : {false, true}) {
    const std::string path = dir + (chowned ? "/chowned.sock" : "/squat.sock");
    Squatter squatter(path, chowned);
    kd_engine* e = nullptr;
    EXPECT_EQ(kd_engine_connect(path.c_str(), &e), KD_ERR_PERMISSION) << kd_last_error();
    EXPECT_EQ(e, nullptr);
    EXPECT_NE(std::string(kd_last_error()).find(chowned ? "runs as uid 65534" : "uid 65534"),
              std::string::npos)
        << kd_last_error();
    EXPECT_EQ(squatter.BytesReceived(), 0);
    ::unlink(path.c_str());
  }
  ::rmdir(dir.c_str());
}

// A daemon that accepts and never answers, or answers without end: the client's waits end.
TEST(CApiFakeDaemonTest, SilentAndEndlessDaemonsTimeOut) {
  const std::string path = testing::TempPath("silent.sock");
  ::unlink(path.c_str());
  const int listen_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  ASSERT_EQ(::bind(listen_fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(::listen(listen_fd, 4), 0);
  kd_connect_params p = kd_connect_default_params();
  p.answer_timeout_ms = 200;
  kd_engine* e = nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(kd_engine_connect_with(path.c_str(), &p, &e), KD_ERR_IO);  // accepted, never answered
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  EXPECT_NE(std::string(kd_last_error()).find("no answer"), std::string::npos) << kd_last_error();
  ::close(::accept(listen_fd, nullptr, nullptr));  // the silent one's connection
  // Bytes without a newline, forever: the answer's length bound ends it.
  std::thread flood([&] {
    const int fd = ::accept(listen_fd, nullptr, nullptr);
    const std::string junk(1 << 20, 'x');
    for (int i = 0; i < 40; ++i) {
      if (::send(fd, junk.data(), junk.size(), MSG_NOSIGNAL) < 0) break;
    }
    ::close(fd);
  });
  p.answer_timeout_ms = 10000;
  EXPECT_EQ(kd_engine_connect_with(path.c_str(), &p, &e), KD_ERR_PROTOCOL);
  EXPECT_NE(std::string(kd_last_error()).find("longer than"), std::string::npos) << kd_last_error();
  flood.join();
  p.answer_timeout_ms = 0;
  EXPECT_EQ(kd_engine_connect_with(path.c_str(), &p, &e), KD_INVALID_ARGUMENT);
  ::close(listen_fd);
  ::unlink(path.c_str());
}

// A request longer than the daemon's line limit is refused before it is sent; the connection
// and its sessions live on.
TEST_F(CApiTest, OverlongRequestsAreRefusedAndTheConnectionLivesOn) {
  kd_session* s = nullptr;
  ASSERT_EQ(kd_session_open(remote_, nullptr, &s), KD_OK);
  const std::string huge(100 * 1024, 'a');
  kd_decision d;
  EXPECT_EQ(kd_session_set_context(s, huge.c_str(), &d), KD_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kd_last_error()).find("not sent"), std::string::npos) << kd_last_error();
  ASSERT_EQ(kd_session_type(s, "tomo", &d), KD_OK) << kd_last_error();
  EXPECT_STREQ(d.composition, "tomo");
  kd_session_free(s);
}

TEST(CApiOpenTest, MissingThingsAreNotFound) {
  kd_engine* e = reinterpret_cast<kd_engine*>(1);
  EXPECT_EQ(kd_engine_connect("/nonexistent/keydecided.sock", &e), KD_ERR_NOT_FOUND);
  EXPECT_EQ(e, nullptr);
  kd_engine_params p = kd_engine_default_params();
  p.model_dir = "/nonexistent";
  EXPECT_EQ(kd_engine_open(&p, &e), KD_ERR_NOT_FOUND);
  EXPECT_NE(std::string(kd_last_error()).find("nonexistent"), std::string::npos);
  p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;
  p.language = "xx";
  EXPECT_EQ(kd_engine_open(&p, &e), KD_ERR_NOT_SUPPORTED);
}

TEST_F(CApiTest, OneConnectionSharedByThreads) {
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      kd_session* s = nullptr;
      if (kd_session_open(remote_, nullptr, &s) != KD_OK) {
        failures.fetch_add(1);
        return;
      }
      const std::string word = t % 2 ? "station" : "meeting";
      kd_decision d;
      for (size_t i = 0; i < word.size(); ++i) {
        if (kd_session_type(s, word.substr(i, 1).c_str(), &d) != KD_OK ||
            std::string(d.composition) != word.substr(0, i + 1)) {
          failures.fetch_add(1);
        }
      }
      kd_session_free(s);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace keydecide
