// The hot path does not allocate: after warm-up, typing and deciding make no heap
// allocation. Counted through the global operator new of this test binary.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "keydecide/engine.h"
#include "test_util.h"

namespace {
std::atomic<long> g_allocations{0};
}

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

TEST(AllocationTest, TypingAndDecidingDoNotAllocateOnceWarm) {
  auto engine = testing::FixtureEngine();
  ASSERT_NE(engine, nullptr);
  auto session = engine->NewSession(SessionOptions());
  Decision d;
  const std::string text = testing::ReadFixture("tiny_corpus.txt");
  auto type_all = [&] {
    for (size_t i = 0; i < text.size(); ++i) {
      ASSERT_TRUE(session->Type(std::string_view(text).substr(i, 1)).ok());
      // Varying counts grow and shrink the candidate list.
      ASSERT_TRUE(session->Decide(static_cast<int>(1 + i % 5 * 50), &d).ok());
      if (i % 7 == 3) {
        ASSERT_TRUE(session->Backspace().ok());
        ASSERT_TRUE(session->Decide(3, &d).ok());
        ASSERT_TRUE(session->Type(std::string_view(text).substr(i, 1)).ok());
      }
    }
  };
  type_all();  // warm-up: buffers reach their sizes
  const long before = g_allocations.load();
  type_all();
  EXPECT_EQ(g_allocations.load() - before, 0);
  // Sanity check of the hook itself.
  const long b2 = g_allocations.load();
  auto* p = new std::string(100, 'x');
  delete p;
  EXPECT_GE(g_allocations.load() - b2, 1);
}

}  // namespace
}  // namespace keydecide
