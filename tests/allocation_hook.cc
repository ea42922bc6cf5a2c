// The replaceable global allocation functions, counting: see allocation_hook.h.

#include "allocation_hook.h"

#include <atomic>
#include <cstdlib>
#include <new>

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

namespace keydecide::testing {
long Allocations() { return g_allocations.load(std::memory_order_relaxed); }
}  // namespace keydecide::testing
