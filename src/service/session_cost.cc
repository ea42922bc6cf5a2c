#include "service/session_cost.h"

#include <malloc.h>

#include "keydecide/decision.h"
#include "keydecide/engine.h"

namespace keydecide::service {

namespace {

// What malloc has handed out: the heap's chunks (uordblks) and the chunks it mapped on their
// own (hblkhd). A session's large buffers (its KV cache) are above glibc's mmap threshold and
// are only in the second: counting the heap alone took 1.2 MB for a session that holds 2.5.
size_t AllocatedBytes() {
  const struct mallinfo2 m = ::mallinfo2();
  return m.uordblks + m.hblkhd;
}

}  // namespace

size_t MeasureSessionBytes(const Engine& engine) {
  constexpr size_t kRuntimeMargin = 64 << 10;
  // An allocator that is not glibc's (a host's jemalloc, a sanitizer's) leaves mallinfo2 still:
  // a budget of sessions that cost nothing would have no limit, so count what a session with
  // the model was measured to cost instead (issue 51: 2.1 MB in-process, 2.49 MB in the daemon).
  constexpr size_t kUnmeasuredSessionBytes = size_t{5} << 19;  // 2.5 MiB
  const size_t before = AllocatedBytes();
  auto session = engine.NewSession(SessionOptions());
  Decision d;
  (void)session->Type("a");
  (void)session->Decide(3, &d);
  const size_t after = AllocatedBytes();
  if (after == before) return kUnmeasuredSessionBytes;
  return (after > before ? after - before : 0) + kRuntimeMargin;
}

}  // namespace keydecide::service
