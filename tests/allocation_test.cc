// The hot path does not allocate: after warm-up, typing and deciding make no heap
// allocation. Counted through the global operator new of this test binary.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "keydecide/engine.h"
#include "model_fixture.h"
#include "test_util.h"

namespace {
std::atomic<long> g_allocations{0};
}

// This file replaces the global allocator with malloc/free, so GCC's check that delete
// matches new would flag the replacements themselves.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

// Every replaceable form, so that no allocation bypasses the count and no pointer is freed
// by a different allocator than the one that made it.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void* operator new(std::size_t n) {
  if (void* p = operator new(n, std::nothrow)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace keydecide {
namespace {

// Types the fixture text twice with backspaces and varying candidate counts; returns the
// allocations of the second pass (the first one is the warm-up).
long AllocationsOnceWarm(const Engine& engine) {
  auto session = engine.NewSession(SessionOptions());
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
  const long before = g_allocations.load();
  type_all();
  return g_allocations.load() - before;
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

TEST(AllocationTest, WithQuantizedModels) {
  testing::TinyModelSpec spec;
  spec.d_model = 32, spec.d_ff = 64, spec.max_len = 32;  // 4-bit needs 32-column groups
  for (const int bits : {8, 4}) {
    QuantizeOptions o;
    o.bits = bits, o.group = 32, o.promote_flagged = false;
    auto engine = testing::FixtureEngine(testing::QuantizedModelBytes(testing::TinyModelBytes(spec), o));
    ASSERT_NE(engine, nullptr);
    EXPECT_EQ(AllocationsOnceWarm(*engine), 0) << bits << " bits";
  }
}

TEST(AllocationTest, TheHookCounts) {
  const long before = g_allocations.load();
  auto* p = new std::string(100, 'x');
  delete p;
  EXPECT_GE(g_allocations.load() - before, 1);
}

}  // namespace
}  // namespace keydecide
