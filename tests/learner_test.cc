// The Learner (src/personal/learner.h): words offered from many threads reach the store in
// batches and the snapshot; readers see whole snapshots while it is replaced; a full queue
// refuses instead of waiting; a batch the store refuses is kept and written later.

#include <sqlite3.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "keydecide/user_store.h"
#include "personal/learner.h"
#include "test_util.h"

namespace keydecide {
namespace {

class LearnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ =
        testing::TempPath(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".db";
    Remove();
  }
  void TearDown() override { Remove(); }
  void Remove() {
    for (const char* s : {"", "-wal", "-shm"}) std::remove((path_ + s).c_str());
  }
  std::unique_ptr<UserStore> Open(int busy_timeout_ms = 2000) {
    UserStoreOptions options;
    options.path = path_;
    options.busy_timeout_ms = busy_timeout_ms;
    std::unique_ptr<UserStore> store;
    EXPECT_TRUE(UserStore::Open(options, &store).ok());
    return store;
  }
  size_t StoredWords() {
    std::vector<LearnedWord> words;
    EXPECT_TRUE(Open()->List("", &words).ok());
    return words.size();
  }
  std::string path_;
};

TEST_F(LearnerTest, WordsFromManyThreadsReachTheStoreAndTheSnapshot) {
  constexpr int kThreads = 4, kWords = 100;  // 400 < the queue's 512 between two flushes
  Learner learner(Open(), "en", /*flush_interval_ms=*/5);
  std::atomic<bool> done{false};
  std::atomic<int> refused{0};
  // Readers: whole snapshots, never a torn one, while the learner replaces them.
  std::thread reader([&] {
    while (!done) {
      const auto words = learner.words();
      ASSERT_TRUE(words);
      for (const UserWords::Word& w : words->WithPrefix("t")) ASSERT_EQ(w.key[0], 't');
    }
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < kWords; ++i) {
        char word[32];  // (not string concatenation: GCC 12's -Wrestrict false positive)
        std::snprintf(word, sizeof word, "t%dw%d", t, i);
        // The try-lock may miss while the queue is being emptied: offer again, as the next
        // word would be.
        while (!learner.Offer(word, i > 0 ? "prev" : "", false)) {
          ++refused;
          std::this_thread::yield();
        }
      }
    });
  }
  for (auto& w : writers) w.join();
  ASSERT_TRUE(learner.Flush().ok());
  done = true;
  reader.join();
  EXPECT_EQ(learner.words()->size(), size_t{kThreads * kWords});
  EXPECT_EQ(StoredWords(), size_t{kThreads * kWords});
  EXPECT_TRUE(learner.status().ok());
}

// Interval 0 (EngineOptions::learn_flush_ms 0, what `eval personal` uses): nothing is written
// or refreshed but by Flush, so a run is the same every time.
TEST_F(LearnerTest, IntervalZeroFlushesOnlyWhenAsked) {
  Learner learner(Open(), "en", /*flush_interval_ms=*/0);
  ASSERT_TRUE(learner.Offer("Darcy", "", false));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(StoredWords(), 0u);
  EXPECT_EQ(learner.words()->size(), 0u);
  ASSERT_TRUE(learner.Flush().ok());
  EXPECT_EQ(StoredWords(), 1u);
  EXPECT_EQ(learner.words()->size(), 1u);
}

TEST_F(LearnerTest, AFullQueueRefusesInsteadOfWaiting) {
  Learner learner(Open(), "en", /*flush_interval_ms=*/60'000);  // no flush during the test
  size_t accepted = 0;
  for (size_t i = 0; i < Learner::kQueueCapacity + 10; ++i) {
    char word[32];
    std::snprintf(word, sizeof word, "w%zu", i);
    accepted += learner.Offer(word, "", false);
  }
  EXPECT_EQ(accepted, Learner::kQueueCapacity);
  EXPECT_FALSE(learner.Offer(std::string(Learner::kMaxWordBytes + 1, 'a'), "", false));
  ASSERT_TRUE(learner.Flush().ok());
  EXPECT_TRUE(learner.Offer("again", "", false));  // room once flushed
}

TEST_F(LearnerTest, ABatchTheStoreRefusesIsKeptAndWrittenLater) {
  Learner learner(Open(/*busy_timeout_ms=*/20), "en", /*flush_interval_ms=*/60'000);
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  ASSERT_TRUE(learner.Offer("kept", "", false));
  const Status locked = learner.Flush();
  EXPECT_EQ(locked.code(), Status::Code::kIOError);
  EXPECT_EQ(learner.status().code(), Status::Code::kIOError);
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  ASSERT_TRUE(learner.Flush().ok());
  EXPECT_TRUE(learner.status().ok());
  EXPECT_NE(learner.words()->Find("kept"), nullptr);
}

// Idle cost (issue 51): with nothing learned and nothing changed, the snapshot is not rebuilt
// (before: from the whole store every 20 flushes, 10 s, however idle: 11% of a core with
// 300,000 words); a change made by another process (another handle here) is picked up.
TEST_F(LearnerTest, AnIdleLearnerDoesNotRebuildItsSnapshot) {
  { ASSERT_TRUE(Open()->Learn({{"en", "Zorblax", "", true, 0, ""}}).ok()); }
  Learner learner(Open(), "en", /*flush_interval_ms=*/2);
  const uint64_t version = learner.version();
  // 150 flush intervals: over seven of the old refreshes.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(learner.version(), version);
  ASSERT_TRUE(Open()->Learn({{"en", "Quoggle", "", true, 0, ""}}).ok());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (learner.version() == version && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_NE(learner.version(), version);
  EXPECT_NE(learner.words()->Find("quoggle"), nullptr);
}

// However much the store holds, the snapshot keeps the most used words and pairs up to its
// limits (issue 51: the daemon's memory grew with every pair 20 clients learned).
TEST_F(LearnerTest, TheSnapshotKeepsTheMostUsedWordsAndPairsUpToItsLimits) {
  {
    std::vector<LearnEvent> batch;
    for (int i = 0; i < 40; ++i) {
      char word[16];
      std::snprintf(word, sizeof word, "w%02d", i);
      // w00 is the most used, with the most used pair (p -> w00).
      for (int n = 0; n <= (i == 0 ? 5 : 1); ++n) batch.push_back({"en", word, "p", false, 0, ""});
    }
    ASSERT_TRUE(Open()->Learn(batch).ok());
  }
  Learner learner(Open(), "en", /*flush_interval_ms=*/0, nullptr, SnapshotLimits{10, 4});
  const auto words = learner.words();
  EXPECT_EQ(words->size(), 10u);
  ASSERT_NE(words->Find("w00"), nullptr);
  ASSERT_EQ(words->Following("p").size(), 4u);
  EXPECT_EQ(words->Following("p")[0].word, "w00");
  EXPECT_GT(words->PairWeight("p", "w00"), 0.0f);

  // What is learned later is read within the limits too; nothing leaves the store.
  ASSERT_TRUE(learner.Offer("w39", "p", false));
  ASSERT_TRUE(learner.Flush().ok());
  EXPECT_EQ(learner.words()->size(), 10u);
  EXPECT_EQ(StoredWords(), 40u);
}

}  // namespace
}  // namespace keydecide
