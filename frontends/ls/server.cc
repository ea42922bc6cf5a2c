#include "server.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "code_context.h"
#include "keydecide/engine.h"

namespace keydecide::ls {
namespace {

using nlohmann::json;

// JSON-RPC's and the LSP's error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kServerNotInitialized = -32002;
constexpr int kRequestFailed = -32803;

// Deeper JSON than this is refused before parsing (no LSP message nests more than a dozen).
constexpr int kMaxJsonDepth = 64;
constexpr int kMaxItemsLimit = 50;
constexpr int kCompletionItemKindText = 1;
constexpr int kTextDocumentSyncIncremental = 2;

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json ErrorReply(const json& id, int code, std::string_view message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

// The member `key` of `j` as T, or false when absent or of another type.
template <typename T>
bool Get(const json& j, const char* key, T* out) {
  if (!j.is_object()) return false;
  const auto it = j.find(key);
  if (it == j.end()) return false;
  if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string()) return false;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) return false;
  } else {
    if (!it->is_number_integer()) return false;
  }
  *out = it->get<T>();
  return true;
}

bool GetPosition(const json& j, Position* out) {
  int64_t line = 0, character = 0;
  if (!Get(j, "line", &line) || !Get(j, "character", &character) || line < 0 || character < 0) {
    return false;
  }
  out->line = static_cast<uint32_t>(std::min<int64_t>(line, UINT32_MAX));
  out->character = static_cast<uint32_t>(std::min<int64_t>(character, UINT32_MAX));
  return true;
}

// The member `key` of `j`, or null when `j` is not an object or lacks it (no copy, no throw).
const json& Member(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  const auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

json PositionJson(Position p) { return {{"line", p.line}, {"character", p.character}}; }

const char* KindDetail(CandidateKind kind) {
  switch (kind) {
    case CandidateKind::kCompletion:
      return "keydecide: completion";
    case CandidateKind::kCorrection:
      return "keydecide: correction";
    case CandidateKind::kNextWord:
      return "keydecide: next word";
    case CandidateKind::kSentence:
      return "keydecide: sentence";
    case CandidateKind::kTyped:
      return "keydecide: as typed";
    case CandidateKind::kShortcut:
      return "keydecide: shortcut";
  }
  return "keydecide";
}

}  // namespace

Server::Server(SessionFactory sessions, ServerOptions options,
               std::function<void(std::string_view)> log)
    : sessions_(std::move(sessions)),
      options_(options),
      log_(std::move(log)),
      documents_(options.max_document_bytes) {}

Server::~Server() = default;

void Server::HandleFramingError(std::string_view error, std::vector<std::string>* out) {
  log_(std::string("dropped a message: ") + std::string(error));
  out->push_back(Dump(ErrorReply(nullptr, kParseError, error)));
}

void Server::Handle(std::string_view body, std::vector<std::string>* out) {
  if (JsonNestingDepth(body, kMaxJsonDepth) > kMaxJsonDepth) {
    log_("refused a message nested deeper than 64");
    out->push_back(Dump(ErrorReply(nullptr, kParseError, "JSON nested deeper than 64")));
    return;
  }
  const json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    log_("refused a message that is not JSON");
    out->push_back(Dump(ErrorReply(nullptr, kParseError, "not valid JSON")));
    return;
  }
  if (!message.is_object()) {
    out->push_back(Dump(ErrorReply(nullptr, kInvalidRequest, "a message is a JSON object")));
    return;
  }
  const auto id = message.find("id");
  const bool is_request = id != message.end();
  if (is_request && !id->is_string() && !id->is_number_integer() && !id->is_null()) {
    out->push_back(Dump(ErrorReply(nullptr, kInvalidRequest, "id must be a number or string")));
    return;
  }
  std::string method;
  if (!Get(message, "method", &method)) {
    if (is_request && (message.contains("result") || message.contains("error"))) return;  // a
    // response to a request of ours (we send none that want one): nothing to do
    if (is_request) out->push_back(Dump(ErrorReply(*id, kInvalidRequest, "no method")));
    return;
  }
  static const json kNoParams = json::object();
  const auto params_it = message.find("params");
  const json& params = params_it == message.end() ? kNoParams : *params_it;
  try {
    if (!is_request) {
      Notification(method, params);
      return;
    }
    json result;
    const Error error = Request(method, params, &result);
    if (error.code != 0) {
      if (error.code != kMethodNotFound) log_(method + ": error " + std::to_string(error.code));
      out->push_back(Dump(ErrorReply(*id, error.code, error.message)));
      return;
    }
    out->push_back(Dump({{"jsonrpc", "2.0"}, {"id", *id}, {"result", result}}));
  } catch (const std::exception& e) {  // a type the checks above missed: never a crash
    log_(method + ": internal error");
    if (is_request) out->push_back(Dump(ErrorReply(*id, kInvalidParams, "invalid params")));
  }
}

Server::Error Server::Request(std::string_view method, const json& params, json* result) {
  if (method == "initialize") return Initialize(params, result);
  if (!initialized_) return {kServerNotInitialized, "initialize first"};
  if (shutdown_) return {kInvalidRequest, "the server is shutting down"};
  if (method == "shutdown") {
    shutdown_ = true;
    *result = nullptr;
    return {};
  }
  if (method == "textDocument/completion") return Completion(params, result);
  if (method == "completionItem/resolve") {
    // Cheap: what the item is was written into it when it was offered.
    if (!params.is_object()) return {kInvalidParams, "a completion item is an object"};
    *result = params;
    return {};
  }
  return {kMethodNotFound, "method not found"};
}

void Server::Notification(std::string_view method, const json& params) {
  if (method == "exit") {
    exited_ = true;
    return;
  }
  if (!initialized_ || shutdown_) return;
  if (method == "textDocument/didOpen") {
    DidOpen(params);
  } else if (method == "textDocument/didChange") {
    DidChange(params);
  } else if (method == "textDocument/didClose") {
    std::string uri;
    if (params.is_object() && Get(Member(params, "textDocument"), "uri", &uri)) {
      documents_.Close(uri);
    }
  } else if (method == "workspace/didChangeConfiguration") {
    Configure(Member(params, "settings"));
  }
}

void Server::Configure(const json& settings) {
  const json* s = &settings;
  if (Member(settings, "keydecide").is_object()) s = &Member(settings, "keydecide");
  int64_t max_items = 0;
  if (Get(*s, "maxItems", &max_items)) {
    options_.max_items = static_cast<int>(std::clamp<int64_t>(max_items, 1, kMaxItemsLimit));
  }
  bool in_code = false;
  if (Get(*s, "completeInCode", &in_code)) options_.complete_in_code = in_code;
}

Server::Error Server::Initialize(const json& params, json* result) {
  if (initialized_) return {kInvalidRequest, "initialize was already called"};
  if (!params.is_object()) return {kInvalidParams, "initialize takes an object"};
  initialized_ = true;
  Configure(Member(params, "initializationOptions"));
  // UTF-8 positions when the client offers them (LSP 3.17), else UTF-16, the default.
  const json& encodings =
      Member(Member(Member(params, "capabilities"), "general"), "positionEncodings");
  utf8_positions_ = encodings.is_array() &&
                    std::find(encodings.begin(), encodings.end(), "utf-8") != encodings.end();
  *result = {
      {"capabilities",
       {{"positionEncoding", utf8_positions_ ? "utf-8" : "utf-16"},
        {"textDocumentSync", {{"openClose", true}, {"change", kTextDocumentSyncIncremental}}},
        {"completionProvider",
         {{"triggerCharacters", json::array({" "})}, {"resolveProvider", true}}}}},
      {"serverInfo", {{"name", "keydecide-ls"}, {"version", KEYDECIDE_LS_VERSION}}}};
  return {};
}

void Server::DidOpen(const json& params) {
  const json& doc = Member(params, "textDocument");
  std::string uri, language_id, text;
  int64_t version = 0;
  if (!Get(doc, "uri", &uri) || !Get(doc, "text", &text)) {
    log_("textDocument/didOpen: invalid params, ignored");
    return;
  }
  Get(doc, "languageId", &language_id);
  Get(doc, "version", &version);
  const size_t bytes = text.size();
  OpenDocument* d = documents_.Open(uri, language_id, version, std::move(text));
  if (!d->too_large && IsBlank(d->doc.text()) && IsProseLanguage(language_id)) {
    // A new document (clients send a new file as "" or "\n"): what is typed into it is the
    // person's from the first key. A document with text gets its session at the first
    // completion, the text as context.
    OpenSession(d);
  }
  if (d->too_large) {
    log_("textDocument/didOpen: a document of " + std::to_string(bytes) +
         " bytes is over the limit of " + std::to_string(documents_.max_document_bytes()) +
         "; no completions in it");
  }
}

void Server::DidChange(const json& params) {
  const json& doc = Member(params, "textDocument");
  std::string uri;
  const json& changes = Member(params, "contentChanges");
  if (!Get(doc, "uri", &uri) || !changes.is_array()) {
    log_("textDocument/didChange: invalid params, ignored");
    return;
  }
  OpenDocument* d = documents_.Find(uri);
  if (d == nullptr) {
    log_("textDocument/didChange: a document that is not open (or was forgotten), ignored");
    return;
  }
  const bool was_large = d->too_large;
  Get(doc, "version", &d->version);
  for (const json& change : changes) {
    std::string text;
    if (!Get(change, "text", &text)) continue;
    const auto range = change.find("range");
    if (range == change.end()) {
      documents_.Replace(d, std::move(text));
      continue;
    }
    Position from, to;
    if (!GetPosition(Member(*range, "start"), &from) || !GetPosition(Member(*range, "end"), &to)) {
      log_("textDocument/didChange: a change without a valid range, ignored");
      continue;
    }
    documents_.Change(d, from, to, text, encoding());
  }
  if (d->too_large && !was_large) {
    log_("textDocument/didChange: a document grew over the limit of " +
         std::to_string(documents_.max_document_bytes()) + " bytes; no completions in it");
  }
}

bool Server::OpenSession(OpenDocument* d) {
  SessionOptions so;
  so.app = IsProseLanguage(d->language_id) ? AppType::kEditor : AppType::kCode;
  so.no_learn = !options_.learn;
  std::unique_ptr<Session> session = sessions_(so);
  if (!session) return false;
  const bool empty = IsBlank(d->doc.text());
  d->session = std::make_unique<DocumentSession>(std::move(session), options_.word_continues);
  if (empty) d->session->StartEmpty();
  documents_.TrimSessions();
  return true;
}

Server::Error Server::Completion(const json& params, json* result) {
  const json& doc = Member(params, "textDocument");
  std::string uri;
  Position position;
  if (!Get(doc, "uri", &uri) || !GetPosition(Member(params, "position"), &position)) {
    return {kInvalidParams, "textDocument/completion needs textDocument.uri and position"};
  }
  *result = {{"isIncomplete", true}, {"items", json::array()}};
  OpenDocument* d = documents_.Find(uri);
  if (d == nullptr) return {};  // not open, or forgotten: nothing to offer
  if (d->too_large) {
    return {kRequestFailed, "the document is larger than " +
                                std::to_string(documents_.max_document_bytes()) +
                                " bytes: keydecide-ls does not complete in it"};
  }
  const std::string& text = d->doc.text();
  const size_t cursor = d->doc.OffsetOf(position, encoding());
  const bool prose = IsProseLanguage(d->language_id);
  size_t region_begin = 0;
  if (!prose && !options_.complete_in_code) {
    const TextRegion region = RegionAt(d->language_id, text, cursor, &d->scan);
    if (region.kind == TextKind::kCode) return {};
    region_begin = region.begin;
  }
  if (!d->session && !OpenSession(d)) {
    return {kRequestFailed, "the engine could not open a session"};
  }
  DocumentSession& session = *d->session;
  const Status status =
      session.Complete(text, region_begin, cursor, options_.max_items, &decision_);
  if (!status.ok()) return {kRequestFailed, "the engine refused the text before the cursor"};
  const json range = {{"start", PositionJson(d->doc.PositionOf(session.word_begin(), encoding()))},
                      {"end", PositionJson(d->doc.PositionOf(cursor, encoding()))}};
  json& items = (*result)["items"];
  char sort[24];
  for (size_t i = 0; i < decision_.candidates.size(); ++i) {
    const Candidate& c = decision_.candidates[i];
    std::snprintf(sort, sizeof(sort), "%04zu", i);
    // A correction does not start with the letters typed: filtered by them, a client would
    // drop it, so it is filtered as the typed word.
    const std::string& filter =
        c.kind == CandidateKind::kCorrection ? decision_.composition : c.text;
    items.push_back({{"label", c.text},
                     {"kind", kCompletionItemKindText},
                     {"detail", KindDetail(c.kind)},
                     {"sortText", sort},
                     {"filterText", filter},
                     {"textEdit", {{"range", range}, {"newText", c.text}}}});
  }
  return {};
}

}  // namespace keydecide::ls
