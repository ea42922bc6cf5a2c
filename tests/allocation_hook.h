// Counts the heap allocations of a test binary: link allocation_hook.cc into it (it replaces
// the global operator new and delete) and compare Allocations() before and after the code
// that must not allocate.

#ifndef KEYDECIDE_TESTS_ALLOCATION_HOOK_H_
#define KEYDECIDE_TESTS_ALLOCATION_HOOK_H_

namespace keydecide::testing {

// Every operator new of this process so far.
long Allocations();

}  // namespace keydecide::testing

#endif  // KEYDECIDE_TESTS_ALLOCATION_HOOK_H_
