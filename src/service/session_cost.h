// What one session of an engine costs in memory: what the daemon and the C ABI's in-process
// engines count against their session budgets (ServerOptions::session_memory_budget_bytes,
// kd_engine_set_session_budget).

#ifndef KEYDECIDE_SERVICE_SESSION_COST_H_
#define KEYDECIDE_SERVICE_SESSION_COST_H_

#include <cstddef>

namespace keydecide {

class Engine;

namespace service {

// The bytes one new session of `engine` allocates (heap and mmapped chunks), with a margin for
// the runtime's per-session state. Measured by opening one, typing a key and deciding; 2.5 MiB
// where the allocator does not report to mallinfo2 (a host's own malloc, a sanitizer).
size_t MeasureSessionBytes(const Engine& engine);

// The C ABI's in-process budget when the host sets none: the daemon's default, 384 MiB.
inline constexpr size_t kDefaultSessionBudgetBytes = size_t{384} << 20;

}  // namespace service
}  // namespace keydecide

#endif  // KEYDECIDE_SERVICE_SESSION_COST_H_
