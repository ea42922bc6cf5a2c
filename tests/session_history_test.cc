#include "decide/session_history.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "lexicon/lexicon.h"
#include "test_util.h"

namespace keydecide {
namespace {

class SessionHistoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Lexicon::FromBytes(testing::FixtureLexiconBytes(), &lexicon_).ok());
    history_ = std::make_unique<SessionHistory>(lexicon_.get());
  }

  // The distinct remembered words with their counts, by key.
  std::map<std::string, int> Remembered() const {
    std::map<std::string, int> out;
    for (const SessionHistory::Word& w : *history_) {
      if (w.count > 0) {
        EXPECT_TRUE(out.emplace(std::string(w.key()), w.count).second);
      }
    }
    return out;
  }

  std::unique_ptr<Lexicon> lexicon_;
  std::unique_ptr<SessionHistory> history_;
};

TEST_F(SessionHistoryTest, CountsWordsLowerCasedAndIgnoresOthers) {
  for (const char* w : {"The", "dog", "the", "Zyzzyva", "zyzzyva'", "42", "", "the"}) {
    history_->Push(w);
  }
  history_->Push(std::string(SessionHistory::kMaxWordBytes + 1, 'a'));
  EXPECT_EQ(history_->size(), 6u);
  EXPECT_EQ(Remembered(), (std::map<std::string, int>{{"dog", 1}, {"the", 3}, {"zyzzyva", 2}}));
  EXPECT_EQ(history_->CountOf(lexicon_->Find("the")), 3);
  EXPECT_EQ(history_->CountOf(lexicon_->Find("fox")), 0);
  EXPECT_EQ(history_->CountOf(lexicon::kNoEntry), 0);
  EXPECT_EQ(history_->CountOfUnknown("zyzzyva"), 2);
  EXPECT_EQ(history_->CountOfUnknown("zyzzyv"), 0);
  EXPECT_EQ(history_->CountOfUnknown("the"), 0);  // a lexicon word: CountOf
  history_->PopLast();
  EXPECT_EQ(history_->CountOf(lexicon_->Find("the")), 2);
  history_->Clear();
  EXPECT_EQ(history_->size(), 0u);
  EXPECT_TRUE(Remembered().empty());
  EXPECT_EQ(history_->CountOf(lexicon_->Find("the")), 0);
}

// Against a plain list of the last kCapacity words, through pushes past the capacity, undoes
// and many words coming and going (the index's deletions move records around).
TEST_F(SessionHistoryTest, AgreesWithTheLastWordsThroughChurn) {
  std::vector<std::string> vocabulary;
  for (uint32_t e = 0; e < lexicon_->entry_count(); ++e) {
    vocabulary.emplace_back(lexicon_->Key(e));
  }
  ASSERT_GT(vocabulary.size(), 50u);
  for (int i = 0; i < 40; ++i) vocabulary.push_back("qx" + std::to_string(i) + "name");
  std::mt19937 rng(7);
  std::deque<std::string> last;
  for (int step = 0; step < 6 * static_cast<int>(SessionHistory::kCapacity); ++step) {
    if (rng() % 8 == 0 && !last.empty()) {
      history_->PopLast();
      last.pop_back();
    } else {
      // Skewed: a few words often, most rarely, as in text.
      const size_t pick = std::min<size_t>(rng() % vocabulary.size(), rng() % vocabulary.size());
      history_->Push(vocabulary[pick]);
      last.push_back(vocabulary[pick]);
      if (last.size() > SessionHistory::kCapacity) last.pop_front();
    }
    if (step % 97 != 0) continue;
    std::map<std::string, int> want;
    for (const std::string& w : last) ++want[w];
    ASSERT_EQ(Remembered(), want) << "step " << step;
    ASSERT_EQ(history_->size(), last.size());
    for (const auto& [key, count] : want) {
      const uint32_t entry = lexicon_->Find(key);
      if (entry != lexicon::kNoEntry) {
        ASSERT_EQ(history_->CountOf(entry), count) << key;
      } else {
        ASSERT_EQ(history_->CountOfUnknown(key), count) << key;
      }
    }
  }
}

}  // namespace
}  // namespace keydecide
