// Inputs that are not what they claim (issue 19): every file the engine maps and every text
// the tools read is refused at once when it is a FIFO, a device or a directory, never waited
// on; the tools' text inputs also take pipes, and stop at their size cap.

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <future>
#include <string>
#include <thread>

#include "base/mapped_file.h"
#include "keydecide/engine.h"
#include "lexicon/lexicon.h"
#include "lexicon/word_bigram.h"
#include "model/transformer.h"
#include "test_util.h"
#include "text/keyboard_layout.h"
#include "tools/text_file.h"

namespace keydecide {
namespace {

// Long enough for a loaded CI machine; a call that blocks on the FIFO never returns at all.
constexpr auto kPromptly = std::chrono::seconds(10);

class FifoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fifo_ = testing::TempPath(
        std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".fifo");
    std::remove(fifo_.c_str());
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
  }
  void TearDown() override { std::remove(fifo_.c_str()); }

  // Runs `open` and expects it back within kPromptly. A call stuck in open() on the FIFO is
  // released by opening its write end, so that a failing test still ends.
  Status Promptly(std::function<Status()> open) {
    auto result = std::async(std::launch::async, std::move(open));
    if (result.wait_for(kPromptly) == std::future_status::timeout) {
      ADD_FAILURE() << "blocked on the FIFO " << fifo_;
      const int fd = ::open(fifo_.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) ::close(fd);
    }
    return result.get();
  }

  std::string fifo_;
};

void ExpectRefusedNaming(const Status& s, const std::string& path, const std::string& why) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(path), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find(why), std::string::npos) << s.ToString();
}

TEST_F(FifoTest, EveryMappedFileRefusesAFifoAtOnce) {
  std::unique_ptr<MappedFile> file;
  ExpectRefusedNaming(Promptly([&] { return MappedFile::Open(fifo_, &file); }), fifo_, "FIFO");
  std::unique_ptr<Lexicon> lexicon;
  ExpectRefusedNaming(Promptly([&] { return Lexicon::Open(fifo_, &lexicon); }), fifo_, "FIFO");
  std::unique_ptr<Transformer> model;
  ExpectRefusedNaming(Promptly([&] { return Transformer::Open(fifo_, &model); }), fifo_, "FIFO");
  KeyboardLayout layout;
  ExpectRefusedNaming(Promptly([&] { return KeyboardLayout::Load(fifo_, &layout); }), fifo_,
                      "FIFO");
  std::unique_ptr<Lexicon> zh;
  ASSERT_TRUE(Lexicon::Open(std::string(KD_MODELS_DIR) + "/zh/lexicon.kdlex", &zh).ok());
  std::unique_ptr<WordBigram> bigram;
  ExpectRefusedNaming(Promptly([&] { return WordBigram::Open(fifo_, *zh, &bigram); }), fifo_,
                      "FIFO");
}

TEST_F(FifoTest, TheEngineRefusesAFifoAsModelLexiconOrLayout) {
  for (int which = 0; which < 3; ++which) {
    EngineOptions options;
    options.model_dir = KD_MODELS_DIR;
    options.model_path = "none";
    if (which == 0) options.model_path = fifo_;
    if (which == 1) options.lexicon_path = fifo_;
    if (which == 2) options.keyboard_layout = fifo_;
    std::unique_ptr<Engine> engine;
    ExpectRefusedNaming(Promptly([&] { return Engine::Open(options, &engine); }), fifo_, "FIFO");
  }
}

TEST(MappedFileTest, DevicesAndDirectoriesAreRefused) {
  std::unique_ptr<MappedFile> file;
  ExpectRefusedNaming(MappedFile::Open("/dev/zero", &file), "/dev/zero", "character device");
  ExpectRefusedNaming(MappedFile::Open("/", &file), "/", "directory");
  EXPECT_EQ(MappedFile::Open("/nonexistent/missing", &file).code(), Status::Code::kNotFound);
}

TEST_F(FifoTest, TextFromAFifoWithAWriterIsRead) {
  const std::string text = testing::ReadFixture("tiny_corpus.txt");
  ASSERT_LT(text.size(), 4096u);  // fits the pipe's buffer: written before anyone reads
  // O_RDWR never blocks on a FIFO and makes this end a writer, so the reader waits for the
  // end of the text; once the reader has taken every byte it has opened it, and closing
  // this end gives it end of file.
  const int fd = ::open(fifo_.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  std::string got;
  auto read = std::async(std::launch::async, [&] { return ReadTextFile(fifo_, &got); });
  int pending = 1;
  for (int i = 0; i < 10000 && pending > 0; ++i) {
    ASSERT_EQ(::ioctl(fd, FIONREAD, &pending), 0);
    if (pending > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::close(fd);
  ASSERT_EQ(read.wait_for(kPromptly), std::future_status::ready);
  const Status s = read.get();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(got, text);
}

TEST_F(FifoTest, TextFromAFifoWithoutAWriterIsEmpty) {
  std::string got = "stale";
  const Status s = Promptly([&] { return ReadTextFile(fifo_, &got); });
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(got, "");
}

TEST(TextFileTest, DevicesAndDirectoriesAreRefused) {
  std::string got;
  ExpectRefusedNaming(ReadTextFile("/dev/zero", &got), "/dev/zero", "character device");
  ExpectRefusedNaming(ReadTextFile("/", &got), "/", "directory");
  EXPECT_EQ(ReadTextFile("/nonexistent/missing", &got).code(), Status::Code::kNotFound);
}

TEST(TextFileTest, ThePipeAndTheFileStopAtTheCap) {
  const std::string path = testing::TempPath("cap.txt");
  testing::WriteFile(path, std::string(100, 'a'));
  std::string got;
  EXPECT_TRUE(ReadTextFile(path, &got, 100).ok());
  EXPECT_EQ(got.size(), 100u);
  ExpectRefusedNaming(ReadTextFile(path, &got, 99), path, "more than 99 bytes");
  std::remove(path.c_str());
  // A pipe that never ends: read up to the cap, then refused. (The writer then fails with
  // EPIPE, not SIGPIPE.)
  std::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    const std::string chunk(1 << 16, 'z');
    while (::write(fds[1], chunk.data(), chunk.size()) > 0) {
    }
  });
  const std::string pipe = "/dev/fd/" + std::to_string(fds[0]);
  ExpectRefusedNaming(ReadTextFile(pipe, &got, size_t{1} << 20), pipe, "more than 1 MiB");
  ::close(fds[0]);
  writer.join();
  ::close(fds[1]);
}

}  // namespace
}  // namespace keydecide
