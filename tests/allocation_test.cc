// The hot path does not allocate: after warm-up, typing and deciding make no heap
// allocation. Counted through the global operator new of this test binary.

#include <gtest/gtest.h>

#include "allocation_hook.h"
#include "keydecide/engine.h"
#include "model_fixture.h"
#include "test_util.h"

namespace keydecide {
namespace {

// Types the fixture text twice with backspaces and varying candidate counts; returns the
// allocations of the second pass (the first one is the warm-up).
long AllocationsOnceWarm(const Engine& engine, const SessionOptions& options = SessionOptions()) {
  auto session = engine.NewSession(options);
  Decision d;
  const std::string text = testing::ReadFixture("tiny_corpus.txt");
  auto type_all = [&] {
    for (size_t i = 0; i < text.size(); ++i) {
      EXPECT_TRUE(session->Type(std::string_view(text).substr(i, 1)).ok());
      // Varying counts grow and shrink the candidate list.
      EXPECT_TRUE(session->Decide(static_cast<int>(1 + i % 5 * 50), &d).ok());
      if (i % 7 == 3) {
        EXPECT_TRUE(session->Backspace().ok());
        EXPECT_TRUE(session->Decide(3, &d).ok());
        EXPECT_TRUE(session->Type(std::string_view(text).substr(i, 1)).ok());
      }
    }
  };
  type_all();
  const long before = testing::Allocations();
  type_all();
  return testing::Allocations() - before;
}

TEST(AllocationTest, TypingAndDecidingDoNotAllocateOnceWarm) {
  auto engine = testing::FixtureEngine();
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(AllocationsOnceWarm(*engine), 0);
}

TEST(AllocationTest, WithAModelToo) {
  testing::TinyModelSpec spec;
  spec.max_len = 32;  // small, so the context window overflows and re-encodes too
  auto engine = testing::FixtureEngine(testing::TinyModelBytes(spec));
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(AllocationsOnceWarm(*engine), 0);
}

// Autocorrect's vocabulary read (CorrectionPick) on every keystroke: threshold 0 always fires.
TEST(AllocationTest, WithAutocorrectFiringOnEveryKey) {
  auto engine = testing::FixtureEngine(testing::TinyModelBytes());
  ASSERT_NE(engine, nullptr);
  SessionOptions options;
  options.autocorrect_threshold = 0;
  EXPECT_EQ(AllocationsOnceWarm(*engine, options), 0);
}

TEST(AllocationTest, WithQuantizedModels) {
  testing::TinyModelSpec spec;
  spec.d_model = 32, spec.d_ff = 64, spec.max_len = 32;  // 4-bit needs 32-column groups
  for (const int bits : {8, 4}) {
    QuantizeOptions o;
    o.bits = bits, o.group = 32, o.promote_flagged = false;
    auto engine =
        testing::FixtureEngine(testing::QuantizedModelBytes(testing::TinyModelBytes(spec), o));
    ASSERT_NE(engine, nullptr);
    EXPECT_EQ(AllocationsOnceWarm(*engine), 0) << bits << " bits";
  }
}

TEST(AllocationTest, TheHookCounts) {
  const long before = testing::Allocations();
  auto* p = new std::string(100, 'x');
  delete p;
  EXPECT_GE(testing::Allocations() - before, 1);
}

}  // namespace
}  // namespace keydecide
