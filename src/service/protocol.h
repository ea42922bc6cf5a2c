// The daemon's wire format (docs/PROTOCOL.md): one JSON object per line each way. This
// file turns a request line into a ProtocolRequest and responses into lines; it knows
// nothing of sockets. ParseRequest is the libFuzzer target (fuzz/protocol_fuzzer.cc).

#ifndef KEYDECIDE_SERVICE_PROTOCOL_H_
#define KEYDECIDE_SERVICE_PROTOCOL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "keydecide/options.h"
#include "keydecide/runtime.h"

namespace keydecide::service {

inline constexpr int kProtocolVersion = 1;
// Nesting deeper than this is refused before parsing (a request is at most two deep).
inline constexpr int kMaxJsonDepth = 8;
inline constexpr size_t kMaxIdBytes = 128;  // the echoed "id", serialised
inline constexpr int kMaxRequestCandidates = 20;

enum class Op : int {
  kHello,
  kOpenSession,
  kKey,
  kBackspace,
  kCommit,
  kSetContext,
  kDecide,
  kCloseSession,
  kStats,
  kPick,
};

struct ProtocolRequest {
  std::string id;  // the request's "id" as JSON text, echoed in the response ("" if none)
  Op op = Op::kHello;
  uint64_t session = 0;          // every op on a session
  std::string text;              // key: the typed text; commit: the word; set_context: the text
  std::optional<int64_t> t_ms;   // key: when it was pressed (monotonic ms); absent: untimed
  int count = 1;                 // backspace: characters to delete
  int k = 3;                     // candidates wanted (0..kMaxRequestCandidates)
  bool decide = true;            // edits: answer with a decision
  AppType app = AppType::kChat;  // open_session
  std::string lang;              // open_session; "" (absent): the daemon's default language
  bool auto_capitalize = true;   // open_session
  bool no_learn = false;         // open_session: learn nothing from this session
  // open_session: "off", "cautious", "normal" (default) or "eager"
  AutocorrectLevel autocorrect = AutocorrectLevel::kNormal;
  bool correction = false;  // commit: the word is the applied autocorrection
  uint32_t candidate = 0;   // pick: the candidate's id (the "id" of a decision's candidate)
};

// Stable error codes of the protocol (docs/PROTOCOL.md).
namespace errors {
inline constexpr const char* kBadJson = "bad_json";
inline constexpr const char* kBadRequest = "bad_request";
inline constexpr const char* kUnknownOp = "unknown_op";
inline constexpr const char* kUnknownSession = "unknown_session";
inline constexpr const char* kTooManySessions = "too_many_sessions";
inline constexpr const char* kOverBudget = "over_budget";  // the session memory budget
inline constexpr const char* kLineTooLong = "line_too_long";
inline constexpr const char* kBusy = "busy";
inline constexpr const char* kInvalidText = "invalid_text";
inline constexpr const char* kNotSupported = "not_supported";
inline constexpr const char* kShuttingDown = "shutting_down";
inline constexpr const char* kPermissionDenied = "permission_denied";
inline constexpr const char* kTooManyClients = "too_many_clients";
inline constexpr const char* kTimeout = "timeout";
}  // namespace errors

struct ProtocolError {
  const char* code = errors::kBadRequest;
  std::string message;
};

// Parses one request line (without its newline). On failure returns false and fills
// *error; out->id is set whenever the line was a JSON object with a usable "id", so the
// error can still be matched to its request. Never throws.
bool ParseRequest(std::string_view line, ProtocolRequest* out, ProtocolError* error);

// Appends `s` as a JSON string literal (quotes included) to *out. REQUIRES: valid UTF-8.
void AppendJsonString(std::string_view s, std::string* out);

// {"id":..,"ok":false,"error":{"code":..,"message":..}}\n
std::string ErrorLine(std::string_view id, std::string_view code, std::string_view message);

// The response line to an edit or decide request of `session` (docs/PROTOCOL.md).
void AppendResponseLine(std::string_view id, uint64_t session, const Response& r, std::string* out);

const char* OpName(Op op);

}  // namespace keydecide::service

#endif  // KEYDECIDE_SERVICE_PROTOCOL_H_
