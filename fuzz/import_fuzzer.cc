// libFuzzer target for the user store's import (UserStore::Import, what `keydecide personal
// import` and kd_personal_import run): the streaming reader (src/personal/export_reader.cc)
// and the writes behind it, on a store of its own. Besides "never crashes, no undefined
// behaviour, no leak", it checks (issue 51): a file is refused whole or imported with a report
// whose counts add up (notes at most TransferReport::kMaxNotes, one per entry left out until
// then); what the store then holds exports as a file that imports again with nothing left out
// or clamped (every store is restorable), and the same entries.
//
//   build-fuzz/bin/import_fuzzer -max_total_time=10 NEW_CORPUS_DIR fuzz/corpus/import

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz/fuzz_util.h"
#include "keydecide/user_store.h"

namespace {

using namespace keydecide;

// One store per process, emptied before each input (tmpfs when there is one: fsync is free).
UserStore* Store() {
  static std::unique_ptr<UserStore> store = [] {
    const std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    UserStoreOptions options;
    options.path = dir + "/kd_import_fuzzer_" + std::to_string(getpid()) + ".db";
    for (const char* s : {"", "-wal", "-shm"}) std::remove((options.path + s).c_str());
    std::unique_ptr<UserStore> s;
    if (!UserStore::Open(options, &s).ok()) std::abort();
    return s;
  }();
  return store.get();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  UserStore* store = Store();
  FUZZ_CHECK(store->Clear().ok());
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  TransferReport report;
  const Status s = store->Import(json, &report);
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == Status::Code::kInvalidArgument ||
               s.code() == Status::Code::kNotSupported);
    std::string empty;
    FUZZ_CHECK(store->Export(&empty).ok());  // refused whole: nothing was written
    TransferReport none;
    FUZZ_CHECK(store->Import(empty, &none).ok() && none.entries == 0);
    return 0;
  }
  FUZZ_CHECK(report.notes.size() <= TransferReport::kMaxNotes);
  FUZZ_CHECK(report.notes.size() == std::min(report.skipped, TransferReport::kMaxNotes));
  FUZZ_CHECK(report.clamped <= report.entries);
  std::string exported;
  TransferReport out;
  FUZZ_CHECK(store->Export(&exported, &out).ok());
  FUZZ_CHECK(out.skipped == 0 && out.clamped == 0);
  FUZZ_CHECK(out.entries <= report.entries);  // same words and pairs add up into one entry
  FUZZ_CHECK(store->Clear().ok());
  TransferReport again;
  FUZZ_CHECK(store->Import(exported, &again).ok());
  FUZZ_CHECK(again.skipped == 0 && again.clamped == 0 && again.entries == out.entries);
  return 0;
}
