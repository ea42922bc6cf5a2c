// Server: the language server's JSON-RPC dispatch and its LSP methods, over the engine's
// sessions (one per open document, from one shared Engine).
//
// Methods: initialize, initialized, shutdown, exit, textDocument/didOpen, didChange
// (incremental, positions in UTF-16 code units unless the client offers UTF-8), didClose,
// textDocument/completion, completionItem/resolve, workspace/didChangeConfiguration. Any
// other request is answered MethodNotFound; any other notification ($/cancelRequest among
// them: every request is answered at once, in order) is ignored. Malformed JSON is answered
// ParseError, a message that is not a request InvalidRequest, bad parameters InvalidParams.
//
// Privacy: nothing the person wrote (document text, URIs, candidates) reaches `log`; it gets
// method names, sizes and error kinds.
//
// Thread-safety: none; one thread calls Handle.

#ifndef KEYDECIDE_FRONTENDS_LS_SERVER_H_
#define KEYDECIDE_FRONTENDS_LS_SERVER_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "document_store.h"
#include "keydecide/decision.h"
#include "keydecide/options.h"

namespace keydecide {
class Session;
}

namespace keydecide::ls {

struct ServerOptions {
  // Completion items per request (1..50). initializationOptions.maxItems overrides it.
  int max_items = 10;
  // Offer completions in code too, not only in comments and strings of source files.
  // initializationOptions.completeInCode overrides it.
  bool complete_in_code = false;
  // Learn from what the person types (false: SessionOptions::no_learn for every session).
  bool learn = true;
  size_t max_document_bytes = DocumentStore::kDefaultMaxDocumentBytes;
  // For a pack whose composition is only what was typed (pinyin): DocumentSession::WordContinues.
  DocumentSession::WordContinues word_continues;
};

// Makes the engine session for a new document (Engine::NewSession in the program; a fake in
// tests and the fuzzer).
using SessionFactory = std::function<std::unique_ptr<Session>(const SessionOptions&)>;

class Server {
 public:
  Server(SessionFactory sessions, ServerOptions options, std::function<void(std::string_view)> log);
  ~Server();

  // Handles one message body; appends the bodies of the messages to send back, in order.
  void Handle(std::string_view body, std::vector<std::string>* out);
  // The message reader dropped a message (`error`): answers an error with a null id.
  void HandleFramingError(std::string_view error, std::vector<std::string>* out);

  // After the exit notification: stop reading. The process's exit code: 0 when shutdown
  // came first, else 1 (as the LSP specification says).
  bool exited() const { return exited_; }
  int exit_code() const { return shutdown_ ? 0 : 1; }

  DocumentStore& documents() { return documents_; }

 private:
  // A request's handler fills *result, or returns an error (code, message) for the reply.
  struct Error {
    int code = 0;
    std::string message;
  };
  Error Request(std::string_view method, const nlohmann::json& params, nlohmann::json* result);
  void Notification(std::string_view method, const nlohmann::json& params);
  Error Initialize(const nlohmann::json& params, nlohmann::json* result);
  Error Completion(const nlohmann::json& params, nlohmann::json* result);
  void Configure(const nlohmann::json& settings);
  void DidOpen(const nlohmann::json& params);
  void DidChange(const nlohmann::json& params);
  // Gives `d` its engine session; false when the engine could not make one.
  bool OpenSession(OpenDocument* d);
  PositionEncoding encoding() const {
    return utf8_positions_ ? PositionEncoding::kUtf8 : PositionEncoding::kUtf16;
  }

  SessionFactory sessions_;
  ServerOptions options_;
  std::function<void(std::string_view)> log_;
  DocumentStore documents_;
  Decision decision_;  // reused by every completion
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
  bool utf8_positions_ = false;
};

}  // namespace keydecide::ls

#endif  // KEYDECIDE_FRONTENDS_LS_SERVER_H_
