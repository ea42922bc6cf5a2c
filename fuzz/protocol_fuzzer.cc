// libFuzzer target for the daemon's request parser (src/service/protocol.cc). Besides
// "never crashes, never leaks, no undefined behaviour", it checks what the daemon relies
// on: a parsed request is in range, and every line the daemon writes about it (an error
// echoing its id, its text re-encoded) is valid JSON.
//
//   build-fuzz/bin/protocol_fuzzer -max_total_time=30 NEW_CORPUS_DIR fuzz/corpus/protocol

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "service/protocol.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keydecide::service;
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  ProtocolRequest req;
  ProtocolError err;
  const bool ok = ParseRequest(line, &req, &err);
  Check(req.id.size() <= kMaxIdBytes);
  // The error (or any) response echoing the id must be one valid JSON line.
  const std::string reply = ErrorLine(req.id, ok ? "ok" : err.code, ok ? "" : err.message);
  Check(!reply.empty() && reply.back() == '\n' && reply.find('\n') == reply.size() - 1);
  Check(!nlohmann::json::parse(reply, nullptr, false).is_discarded());
  if (ok) {
    Check(req.k >= 0 && req.k <= kMaxRequestCandidates);
    Check(req.count >= 1 && req.count <= 4096);
    Check(OpName(req.op) != std::string("unknown"));
    Check(req.op != Op::kPick || req.candidate >= 1);  // a pick names an id, never 0
    // The parsed text written back as a JSON string reads back the same.
    std::string encoded;
    AppendJsonString(req.text, &encoded);
    const auto back = nlohmann::json::parse(encoded, nullptr, false);
    Check(back.is_string() && back.get<std::string>() == req.text);
  }
  return 0;
}
