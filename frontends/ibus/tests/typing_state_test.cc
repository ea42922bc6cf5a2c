// The IBus engine's typing logic (TypingState) over the real engine, in process, on the
// repository's models: keys in, the application's text and the panel checked. Candidates are
// found by text, not by position, because the models change.

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "keydecide/keydecide.h"
#include "typing_state.h"

namespace keydecide::ibus {
namespace {

using Kind = KeyPress::Kind;

// The application: its text (commits, deletions) and the panel it shows.
class FakeApp : public TypingHost {
 public:
  void CommitText(const std::string& text) override { text_ += text; }
  void DeleteBefore(int chars) override {
    for (int i = 0; i < chars && !text_.empty(); ++i) {
      size_t n = text_.size() - 1;
      while (n > 0 && (static_cast<unsigned char>(text_[n]) & 0xC0) == 0x80) --n;
      text_.resize(n);
    }
  }
  void ShowPanel(const PanelView& view) override {
    panel_ = view;
    if (!view.candidates.empty()) ++windows_shown_;
  }

  const std::string& text() const { return text_; }
  const PanelView& panel() const { return panel_; }
  int windows_shown() const { return windows_shown_; }
  int Find(const std::string& candidate) const {
    auto it = std::find(panel_.candidates.begin(), panel_.candidates.end(), candidate);
    return it == panel_.candidates.end() ? -1 : static_cast<int>(it - panel_.candidates.begin());
  }

 private:
  std::string text_;
  PanelView panel_;
  int windows_shown_ = 0;
};

frontend::EngineSetup InProcess() {
  frontend::EngineSetup setup;
  setup.model_dir = KD_MODELS_DIR;
  return setup;
}

class TypingStateTest : public ::testing::Test {
 protected:
  explicit TypingStateTest(frontend::EngineSetup setup = InProcess())
      : worker_(std::make_unique<DecisionWorker>(setup, [](std::function<void()>) {})) {
    settings_.wait = std::chrono::seconds(60);  // every decision drawn with its key
  }

  void Start() { state_ = std::make_unique<TypingState>(worker_.get(), &app_, settings_); }

  // One key per character; false when one of them was not consumed.
  bool Type(const std::string& text) {
    bool all = true;
    for (size_t i = 0; i < text.size();) {
      size_t n = 1;
      while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
      all = state_->HandleKey({Kind::kText, text.substr(i, n)}) && all;
      i += n;
    }
    return all;
  }
  bool Key(Kind kind) { return state_->HandleKey({kind, ""}); }

  TypingSettings settings_;
  std::unique_ptr<DecisionWorker> worker_;
  FakeApp app_;
  std::unique_ptr<TypingState> state_;
};

TEST_F(TypingStateTest, TabCompletesTheWord) {
  Start();
  Type("see you tomo");
  EXPECT_EQ(app_.panel().preedit, "tomo");
  EXPECT_GE(app_.Find("tomorrow"), 0);
  EXPECT_EQ(app_.text(), "see you ");
  EXPECT_TRUE(Key(Kind::kTab));
  EXPECT_EQ(app_.text(), "see you tomorrow ");
  EXPECT_EQ(app_.panel().preedit, "");
}

TEST_F(TypingStateTest, NumberKeyPicksOnThePage) {
  Start();
  Type("see you tomo");
  const int at = app_.Find("tomorrow");
  ASSERT_GE(at, 0);
  ASSERT_LT(at, settings_.page_size);
  EXPECT_TRUE(Type(std::to_string(at + 1)));
  EXPECT_EQ(app_.text(), "see you tomorrow ");
}

TEST_F(TypingStateTest, AutocorrectionIsUndoneByBackspace) {
  Start();
  Type("I saw teh ");
  EXPECT_EQ(app_.text(), "I saw the ");
  EXPECT_TRUE(Key(Kind::kBackspace));  // the correction goes, the letters come back
  EXPECT_EQ(app_.text(), "I saw ");
  EXPECT_EQ(app_.panel().preedit, "teh");
  Type(" ");
  EXPECT_EQ(app_.text(), "I saw teh ");
}

TEST_F(TypingStateTest, PinyinSpaceConvertsTheSentence) {
  Start();
  EXPECT_TRUE(Key(Kind::kSwitchLanguage));
  EXPECT_EQ(state_->language(), "zh");
  EXPECT_TRUE(Type("nihao"));
  EXPECT_EQ(app_.panel().preedit, "ni'hao");
  EXPECT_EQ(app_.Find("你好"), 0);
  EXPECT_TRUE(Type(" "));
  EXPECT_EQ(app_.text(), "你好");
  EXPECT_EQ(app_.panel().preedit, "");
  EXPECT_TRUE(Type(","));  // the pack's own punctuation
  EXPECT_EQ(app_.text(), "你好，");
}

// A word for the first syllables converts only them: the pick is by id, and the rest of the
// letters stay to be converted.
TEST_F(TypingStateTest, PinyinWordPickLeavesTheRest) {
  Start();
  Key(Kind::kSwitchLanguage);
  Type("nihaozhongguo");
  const int word = app_.Find("你好");
  ASSERT_GT(word, 0);  // after the sentence
  state_->Pick(word);
  EXPECT_EQ(app_.text(), "你好");
  EXPECT_EQ(app_.panel().preedit, "zhong'guo");
  Type(" ");
  EXPECT_EQ(app_.text(), "你好中国");
}

TEST_F(TypingStateTest, PasswordFieldIsTypedAsItIs) {
  Start();
  FieldPolicy password;
  password.secret = true;
  state_->SetField(password);
  EXPECT_FALSE(Type("tomo"));  // every key goes to the application
  EXPECT_FALSE(Key(Kind::kBackspace));
  EXPECT_EQ(app_.text(), "");
  EXPECT_EQ(app_.panel().preedit, "");
  EXPECT_EQ(app_.windows_shown(), 0);
  state_->SetField(FieldPolicy());  // an ordinary field again predicts
  Type("see you tomo");
  EXPECT_GE(app_.Find("tomorrow"), 0);
}

TEST_F(TypingStateTest, ShortcutKeyEndsTheWordAsTyped) {
  Start();
  Type("tomo");
  KeyPress ctrl_a{Kind::kText, "a", true};
  EXPECT_FALSE(state_->HandleKey(ctrl_a));
  EXPECT_EQ(app_.text(), "tomo");
  EXPECT_EQ(app_.panel().preedit, "");
}

// Learning on, into a store of this test: a private field's words are not learned, an
// ordinary field's are (the control), once the worker has stopped and written them.
class LearningTest : public TypingStateTest {
 protected:
  static frontend::EngineSetup Personal(const std::string& store) {
    frontend::EngineSetup setup = InProcess();
    setup.personal = true;
    setup.user_store = store;
    return setup;
  }
  LearningTest() : TypingStateTest(Personal(Store())) {}
  static std::string Store() {
    return (std::filesystem::temp_directory_path() /
            ("ibus_typing_test_" + std::to_string(getpid()) + ".db"))
        .string();
  }
};

TEST_F(LearningTest, PrivateFieldLearnsNothing) {
  Start();
  FieldPolicy private_field;
  private_field.private_text = true;
  state_->SetField(private_field);
  Type("see you tomo");
  EXPECT_GE(app_.Find("tomorrow"), 0);  // it still predicts
  Key(Kind::kTab);
  Type("Privsecretqq Privsecretqq ");
  state_->SetField(FieldPolicy());
  Type("Openwordqq Openwordqq ");
  state_.reset();
  worker_.reset();  // the engine writes what it learned as it stops
  char* json = nullptr;
  ASSERT_EQ(kd_personal_export(Store().c_str(), &json), KD_OK);
  const std::string learned = json;
  kd_string_free(json);
  EXPECT_EQ(learned.find("Privsecretqq"), std::string::npos);
  EXPECT_NE(learned.find("Openwordqq"), std::string::npos);
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(Store() + suffix);
}

// The same typing over the keydecided daemon (the engine's --backend daemon): a daemon of this
// test on a socket of its own.
class DaemonTest : public TypingStateTest {
 protected:
  DaemonTest() : TypingStateTest(OverDaemon()) {}
  ~DaemonTest() override {
    state_.reset();
    worker_.reset();
    if (daemon_ > 0) {
      kill(daemon_, SIGTERM);
      waitpid(daemon_, nullptr, 0);
    }
    std::filesystem::remove(Socket());
  }

  static std::string Socket() {
    return (std::filesystem::temp_directory_path() /
            ("ibus_typing_test_" + std::to_string(getpid()) + ".sock"))
        .string();
  }

  // Starts the daemon and waits (up to 60 s) for its socket, before the worker connects.
  static frontend::EngineSetup OverDaemon() {
    setenv("KEYDECIDE_MODEL_DIR", KD_MODELS_DIR, 1);
    const std::string socket = Socket();  // named by this process's id, not the child's
    std::filesystem::remove(socket);
    daemon_ = fork();
    if (daemon_ == 0) {
      execl(KD_DAEMON, KD_DAEMON, "--socket", socket.c_str(), "--lang", "en,zh", "--quiet",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 600; ++i) {
      struct stat st;
      if (stat(socket.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) break;
      usleep(100000);
    }
    frontend::EngineSetup setup;
    setup.daemon = true;
    setup.socket_path = socket;
    return setup;
  }

  static pid_t daemon_;
};

pid_t DaemonTest::daemon_ = -1;

// The engine's --backend auto where no daemon answers: the engine opened in process.
class AutoWithoutDaemonTest : public TypingStateTest {
 protected:
  static frontend::EngineSetup Auto() {
    frontend::EngineSetup setup = InProcess();
    setup.daemon = true;
    setup.fall_back_in_process = true;
    setup.socket_path = "/nonexistent/keydecided.sock";
    return setup;
  }
  AutoWithoutDaemonTest() : TypingStateTest(Auto()) {}
};

TEST_F(AutoWithoutDaemonTest, FallsBackInProcess) {
  Start();
  Type("see you tomo");
  EXPECT_GE(app_.Find("tomorrow"), 0);
}

TEST_F(DaemonTest, TypesAndPicksByIdOverTheDaemon) {
  Start();
  Type("see you tomo");
  EXPECT_GE(app_.Find("tomorrow"), 0);
  Key(Kind::kTab);
  EXPECT_EQ(app_.text(), "see you tomorrow ");
  Key(Kind::kSwitchLanguage);
  Type("nihaozhongguo");
  const int word = app_.Find("你好");
  ASSERT_GT(word, 0);
  state_->Pick(word);  // the id travels over the protocol
  EXPECT_EQ(app_.text(), "see you tomorrow 你好");
  EXPECT_EQ(app_.panel().preedit, "zhong'guo");
}

}  // namespace
}  // namespace keydecide::ibus
