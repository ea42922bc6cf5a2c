// libFuzzer target for the language server's message reader and JSON-RPC dispatch
// (frontends/ls: message_reader, server, and through them the documents, UTF-16 positions,
// the code/comment rule and the sessions' bookkeeping), with fake engine sessions
// (frontends/ls/tests/fake_session.h). Besides "never crashes, never leaks, no undefined
// behaviour", it checks what an editor relies on: every message the server writes is one JSON
// object of JSON-RPC 2.0, each request gets exactly one reply, and the reader's buffer stays
// bounded whatever the stream.
//
//   build-fuzz/bin/ls_fuzzer -max_total_time=10 NEW_CORPUS_DIR fuzz/corpus/ls
//
// The input is the byte stream from the client, fed in chunks whose sizes the first byte
// chooses (so messages split across reads are exercised).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontends/ls/message_reader.h"
#include "frontends/ls/server.h"
#include "frontends/ls/tests/fake_session.h"
#include "fuzz/fuzz_util.h"

namespace {

// Small caps, so that the fuzzer reaches the oversized paths with small inputs.
constexpr size_t kMaxBody = 1 << 14;
constexpr size_t kMaxDocument = 2048;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keydecide::ls;
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] % 64;
  std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);

  FakeLog log;
  ServerOptions options;
  options.max_document_bytes = kMaxDocument;
  if (data[0] & 0x80) {  // a pack that does not reopen words from context (pinyin's way)
    options.word_continues = [](std::string_view word, std::string_view ch) {
      return ch.size() == 1 && ((ch[0] >= 'a' && ch[0] <= 'z') || (!word.empty() && ch[0] == '\''));
    };
  }
  Server server(
      [&log](const keydecide::SessionOptions&) { return std::make_unique<FakeSession>(&log); },
      options, [](std::string_view) {});
  MessageReader reader(kMaxBody);
  std::string body, error;
  std::vector<std::string> out;
  while (!stream.empty() && !server.exited()) {
    reader.Append(stream.substr(0, chunk));
    stream.remove_prefix(std::min(chunk, stream.size()));
    FUZZ_CHECK(reader.buffered() <= MessageReader::kMaxHeaderBytes + kMaxBody + 64);
    for (;;) {
      const MessageReader::Result r = reader.Next(&body, &error);
      if (r == MessageReader::Result::kNeedMore) break;
      out.clear();
      bool request = false;
      if (r == MessageReader::Result::kError) {
        FUZZ_CHECK(!error.empty());
        server.HandleFramingError(error, &out);
        FUZZ_CHECK(out.size() == 1);
      } else {
        FUZZ_CHECK(body.size() <= kMaxBody);
        const auto j = nlohmann::json::parse(body, nullptr, false);
        request = j.is_object() && j.contains("id") && j.contains("method") &&
                  j["method"].is_string() && (j["id"].is_number_integer() || j["id"].is_string());
        server.Handle(body, &out);
        if (request) FUZZ_CHECK(out.size() == 1);
        FUZZ_CHECK(out.size() <= 1);
      }
      for (const std::string& reply : out) {
        const auto j = nlohmann::json::parse(reply, nullptr, false);
        FUZZ_CHECK(j.is_object() && j.value("jsonrpc", "") == "2.0");
        FUZZ_CHECK(j.contains("result") != j.contains("error"));
        // The framed reply reads back as the same body.
        MessageReader back;
        back.Append(FrameMessage(reply));
        std::string again, e2;
        FUZZ_CHECK(back.Next(&again, &e2) == MessageReader::Result::kMessage && again == reply);
      }
      if (server.exited()) break;
    }
  }
  FUZZ_CHECK(server.documents().size() <= DocumentStore::kMaxDocuments);
  FUZZ_CHECK(server.documents().sessions() <= DocumentStore::kMaxSessions);
  return 0;
}
