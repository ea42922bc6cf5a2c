// Request parsing and error lines. Parsing goes through nlohmann::json without exceptions;
// the depth pre-check keeps hostile nesting from reaching the parser at all.

#include "service/protocol.h"

#include <charconv>
#include <cstdio>
#include <limits>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "text/utf8.h"

namespace keydecide::service {

namespace {

using Json = nlohmann::json;

bool Fail(ProtocolError* error, const char* code, std::string message) {
  error->code = code;
  error->message = std::move(message);
  return false;
}

struct OpEntry {
  const char* name;
  Op op;
};
constexpr OpEntry kOps[] = {
    {"hello", Op::kHello},   {"open_session", Op::kOpenSession},
    {"key", Op::kKey},       {"backspace", Op::kBackspace},
    {"commit", Op::kCommit}, {"set_context", Op::kSetContext},
    {"decide", Op::kDecide}, {"close_session", Op::kCloseSession},
    {"stats", Op::kStats},   {"pick", Op::kPick},
};

// Reads an optional integer field within [lo, hi]; false (and *error) if present but not
// such an integer.
bool OptionalInt(const Json& j, const char* name, int64_t lo, int64_t hi, int64_t* out,
                 ProtocolError* error) {
  auto it = j.find(name);
  if (it == j.end()) return true;
  if (!it->is_number_integer()) {
    return Fail(error, errors::kBadRequest, std::string("\"") + name + "\" must be an integer");
  }
  int64_t v;
  if (it->is_number_unsigned()) {
    const uint64_t u = it->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Fail(error, errors::kBadRequest, std::string("\"") + name + "\" is out of range");
    }
    v = static_cast<int64_t>(u);
  } else {
    v = it->get<int64_t>();
  }
  if (v < lo || v > hi) {
    return Fail(error, errors::kBadRequest,
                std::string("\"") + name + "\" must be in " + std::to_string(lo) + ".." +
                    std::to_string(hi));
  }
  *out = v;
  return true;
}

bool OptionalBool(const Json& j, const char* name, bool* out, ProtocolError* error) {
  auto it = j.find(name);
  if (it == j.end()) return true;
  if (!it->is_boolean()) {
    return Fail(error, errors::kBadRequest, std::string("\"") + name + "\" must be true or false");
  }
  *out = it->get<bool>();
  return true;
}

bool RequiredString(const Json& j, const char* name, std::string* out, ProtocolError* error) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_string()) {
    return Fail(error, errors::kBadRequest, std::string("\"") + name + "\" (a string) is required");
  }
  *out = it->get<std::string>();
  return true;
}

// The fields of out->op (after the common ones).
bool ParseOpFields(const Json& j, ProtocolRequest* out, ProtocolError* error) {
  int64_t v = 0;
  switch (out->op) {
    case Op::kKey:
      if (!RequiredString(j, "text", &out->text, error)) return false;
      if (out->text.empty()) return Fail(error, errors::kBadRequest, "\"text\" is empty");
      if (j.contains("t_ms")) {  // integer milliseconds, at most 2^53 (exact in a double)
        v = 0;
        if (!OptionalInt(j, "t_ms", 0, int64_t{1} << 53, &v, error)) return false;
        out->t_ms = v;
      }
      break;
    case Op::kCommit:
      if (!RequiredString(j, "word", &out->text, error)) return false;
      if (!OptionalBool(j, "autocorrect", &out->correction, error)) return false;
      break;
    case Op::kSetContext:
      if (!RequiredString(j, "text", &out->text, error)) return false;
      break;
    case Op::kPick:  // "candidate", not "id": that is the request's own, echoed
      v = 0;
      if (!OptionalInt(j, "candidate", 1, std::numeric_limits<uint32_t>::max(), &v, error)) {
        return false;
      }
      if (v == 0) return Fail(error, errors::kBadRequest, "\"candidate\" (an id) is required");
      out->candidate = static_cast<uint32_t>(v);
      break;
    case Op::kBackspace:
      v = 1;
      if (!OptionalInt(j, "count", 1, 4096, &v, error)) return false;
      out->count = static_cast<int>(v);
      break;
    case Op::kOpenSession: {
      if (auto it = j.find("app"); it != j.end()) {
        if (!it->is_string()) return Fail(error, errors::kBadRequest, "\"app\" must be a string");
        if (!ParseAppType(it->get_ref<const std::string&>(), &out->app).ok()) {
          return Fail(error, errors::kBadRequest,
                      "\"app\" must be one of chat, search, code, editor, url");
        }
      }
      if (auto it = j.find("lang"); it != j.end()) {
        if (!it->is_string()) return Fail(error, errors::kBadRequest, "\"lang\" must be a string");
        out->lang = it->get<std::string>();
        if (out->lang.empty()) return Fail(error, errors::kBadRequest, "\"lang\" is empty");
      }
      if (!OptionalBool(j, "auto_capitalize", &out->auto_capitalize, error)) return false;
      if (!OptionalBool(j, "no_learn", &out->no_learn, error)) return false;
      if (auto it = j.find("autocorrect"); it != j.end()) {
        if (!it->is_string() ||
            !ParseAutocorrectLevel(it->get_ref<const std::string&>(), &out->autocorrect).ok()) {
          return Fail(error, errors::kBadRequest,
                      "\"autocorrect\" must be one of off, cautious, normal, eager");
        }
      }
      break;
    }
    default:
      break;
  }
  return true;
}

}  // namespace

bool ParseRequest(std::string_view line, ProtocolRequest* out, ProtocolError* error) {
  *out = ProtocolRequest();
  if (JsonNestingDepth(line, kMaxJsonDepth) > kMaxJsonDepth) {
    return Fail(error, errors::kBadJson, "nested too deeply");
  }
  // A NUL would end the text for many readers (and did end it for the parser): refuse it.
  if (line.find('\0') != std::string_view::npos) {
    return Fail(error, errors::kBadJson, "a NUL byte in the request line");
  }
  const Json j = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Fail(error, errors::kBadJson, "not valid JSON");
  if (!j.is_object()) return Fail(error, errors::kBadRequest, "a request is a JSON object");

  if (auto it = j.find("id"); it != j.end()) {
    // Not a float: it would not come back as written (1e5 as 100000.0).
    if (!it->is_string() && !it->is_number_integer() && !it->is_null()) {
      return Fail(error, errors::kBadRequest, "\"id\" must be a string, an integer or null");
    }
    std::string id = it->dump(-1, ' ', false, Json::error_handler_t::replace);
    if (id.size() > kMaxIdBytes) return Fail(error, errors::kBadRequest, "\"id\" is too long");
    out->id = std::move(id);
  }

  auto op_it = j.find("op");
  if (op_it == j.end() || !op_it->is_string()) {
    return Fail(error, errors::kBadRequest, "\"op\" (a string) is required");
  }
  const std::string& op = op_it->get_ref<const std::string&>();
  bool known = false;
  for (const OpEntry& e : kOps) {
    if (op == e.name) out->op = e.op, known = true;
  }
  if (!known) return Fail(error, errors::kUnknownOp, "unknown op");

  int64_t v = 0;
  const bool on_session =
      out->op != Op::kHello && out->op != Op::kOpenSession && out->op != Op::kStats;
  if (on_session) {
    v = -1;
    if (!OptionalInt(j, "session", 1, std::numeric_limits<uint32_t>::max(), &v, error)) {
      return false;
    }
    if (v < 0) return Fail(error, errors::kBadRequest, "\"session\" is required");
    out->session = static_cast<uint64_t>(v);
  }
  v = out->k;
  if (!OptionalInt(j, "k", 0, kMaxRequestCandidates, &v, error)) return false;
  out->k = static_cast<int>(v);
  if (!OptionalBool(j, "decide", &out->decide, error)) return false;

  return ParseOpFields(j, out, error);
}

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  // Everything on the wire is UTF-8: text that is not (a damaged word from the store) goes out
  // repaired, never as raw bytes that make the whole line unreadable. Valid text, nearly all,
  // costs one scan and no copy.
  std::string repaired;
  if (!utf8::Validate(s).ok()) {
    repaired = utf8::Repair(s);
    s = repaired;
  }
  out->push_back('"');
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

std::string ErrorLine(std::string_view id, std::string_view code, std::string_view message) {
  std::string line;
  line.reserve(64 + message.size());
  line.append("{\"id\":");
  line.append(id.empty() ? std::string_view("null") : id);
  line.append(",\"ok\":false,\"error\":{\"code\":");
  AppendJsonString(code, &line);
  line.append(",\"message\":");
  // Messages may quote the request; make sure they are valid UTF-8 on the wire.
  line.append(Json(std::string(message)).dump(-1, ' ', false, Json::error_handler_t::replace));
  line.append("}}\n");
  return line;
}

const char* OpName(Op op) {
  for (const OpEntry& e : kOps) {
    if (e.op == op) return e.name;
  }
  return "unknown";
}

}  // namespace keydecide::service
