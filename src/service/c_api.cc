// The C ABI (include/keydecide/keydecide.h): a local back end over Engine/Session, and a
// remote one that speaks the daemon's protocol (docs/PROTOCOL.md) over a blocking socket,
// one request in flight per connection.

#include "keydecide/keydecide.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "keydecide/engine.h"
#include "keydecide/service.h"
#include "keydecide/user_store.h"
#include "service/daemon_client.h"
#include "service/json_fields.h"
#include "service/protocol.h"
#include "service/session_cost.h"

namespace {

using keydecide::Status;
using Json = nlohmann::json;

thread_local std::string g_last_error;

int Fail(int code, std::string message) {
  g_last_error = std::move(message);
  return code;
}

int FromStatus(const Status& s) {
  if (s.ok()) return KD_OK;
  g_last_error = s.ToString();
  switch (s.code()) {
    case Status::Code::kNotFound:
      return KD_ERR_NOT_FOUND;
    case Status::Code::kCorruption:
      return KD_ERR_CORRUPTION;
    case Status::Code::kInvalidArgument:
      return KD_INVALID_ARGUMENT;
    case Status::Code::kNotSupported:
      return KD_ERR_NOT_SUPPORTED;
    case Status::Code::kIOError:
      return KD_ERR_IO;
    case Status::Code::kOk:
      break;
  }
  return KD_ERR_INTERNAL;
}

using keydecide::service::BoolField;
using keydecide::service::DaemonClient;
using keydecide::service::Field;
using keydecide::service::FloatField;
using keydecide::service::StringField;

// A DaemonClient call with its failure reported as the C ABI's last error.
int Call(DaemonClient* client, Json request, Json* reply) {
  std::string error;
  const int rc = client->Call(std::move(request), reply, &error);
  return rc == KD_OK ? rc : Fail(rc, std::move(error));
}

// Storage behind a kd_decision: the strings its pointers point to.
struct DecisionStore {
  std::vector<std::string> texts;
  std::vector<kd_candidate> candidates;
  std::vector<uint32_t> ids;  // kd_session_candidate_ids
  std::string composition, replacement, intent;
  std::string preedit;   // kd_session_preedit
  std::string shortcut;  // kd_session_shortcut: the expansion, "" for none
  bool shortcut_fire = false;
};

}  // namespace

struct kd_engine {
  std::vector<std::unique_ptr<keydecide::Engine>> local;  // one per language, default first
  // In process: what a session of each local engine costs, and the budget they share (as the
  // daemon's: an embedder opening sessions without end gets KD_BUSY, not bad_alloc).
  std::vector<size_t> session_cost;
  std::mutex budget_mu;
  size_t session_budget = keydecide::service::kDefaultSessionBudgetBytes;
  size_t session_bytes = 0;  // guarded by budget_mu
  std::unique_ptr<DaemonClient> remote;
  std::atomic<uint64_t> generation{0};  // remote: connections made (a reconnect adds one)
  std::mutex reconnect_mu;              // one thread reconnects at a time
  std::string languages;                // comma-separated, default first (kd_engine_languages)
};

struct kd_session {
  kd_engine* engine = nullptr;
  int32_t n_candidates = 3;
  size_t bytes = 0;  // in process: what it counts against the engine's session budget
  // Local.
  std::unique_ptr<keydecide::Session> local;
  keydecide::Decision decision;
  // Remote.
  uint64_t remote_id = 0;
  uint64_t generation = 0;  // the engine's connection the session was opened on
  Json open_request;        // to open it again on a new connection
  DecisionStore store;
};

namespace {

void FillFromLocal(kd_session* s, kd_decision* out) {
  const keydecide::Decision& d = s->decision;
  s->store.candidates.resize(d.candidates.size());
  s->store.ids.resize(d.candidates.size());
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    s->store.candidates[i] = {d.candidates[i].text.c_str(), d.candidates[i].score,
                              static_cast<int32_t>(d.candidates[i].kind)};
    s->store.ids[i] = d.candidates[i].id;
  }
  out->n_candidates = static_cast<int32_t>(d.candidates.size());
  out->candidates = s->store.candidates.data();
  out->composition = d.composition.c_str();
  s->store.preedit = d.preedit;  // one store for kd_session_preedit on both back ends
  s->store.shortcut = d.shortcut.expansion;
  s->store.shortcut_fire = d.shortcut.fire;
  out->tier = static_cast<int32_t>(d.tier);
  out->popup_show = d.popup.show;
  out->popup_probability = d.popup.probability;
  out->autocorrect_apply = d.autocorrect.apply;
  out->autocorrect_replacement = d.autocorrect.replacement.c_str();
  out->autocorrect_confidence = d.autocorrect.confidence;
  out->intent = d.intent.label.c_str();
  out->decide_us = d.timings.total_us;
}

int32_t TierFromName(const std::string& name) {
  for (int t = 0; t < 4; ++t) {
    if (name == keydecide::TierName(static_cast<keydecide::Tier>(t))) return t;
  }
  return KD_TIER_LEXICON_ONLY;
}

int32_t KindFromName(const std::string& name) {
  for (int k = KD_COMPLETION; k <= KD_SHORTCUT; ++k) {
    if (name == keydecide::CandidateKindName(static_cast<keydecide::CandidateKind>(k))) return k;
  }
  return KD_COMPLETION;
}

int FillFromRemote(kd_session* s, const Json& reply, kd_decision* out) {
  const Json& d = Field(reply, "decision");
  const Json& cands = Field(d, "candidates");
  if (!cands.is_array()) return Fail(KD_ERR_PROTOCOL, "answer without a decision");
  DecisionStore& st = s->store;
  st.texts.resize(cands.size());
  st.candidates.resize(cands.size());
  st.ids.resize(cands.size());
  for (size_t i = 0; i < cands.size(); ++i) {
    st.texts[i] = StringField(cands[i], "text");
    st.candidates[i] = {st.texts[i].c_str(), FloatField(cands[i], "score"),
                        KindFromName(StringField(cands[i], "kind"))};
    // 0 from a daemon older than ids: nothing to pick by (kd_session_commit the text).
    const Json& id = Field(cands[i], "id");
    st.ids[i] = id.is_number_unsigned() && id.get<uint64_t>() <= UINT32_MAX
                    ? static_cast<uint32_t>(id.get<uint64_t>())
                    : 0;
  }
  const Json& popup = Field(d, "popup");
  const Json& autocorrect = Field(d, "autocorrect");
  st.composition = StringField(d, "composition");
  st.preedit = StringField(d, "preedit");
  const Json& shortcut = Field(d, "shortcut");  // absent when none matches
  st.shortcut = StringField(shortcut, "expansion");
  st.shortcut_fire = BoolField(shortcut, "fire", false);
  st.replacement = StringField(autocorrect, "replacement");
  st.intent = StringField(d, "intent");
  out->n_candidates = static_cast<int32_t>(cands.size());
  out->candidates = st.candidates.data();
  out->composition = st.composition.c_str();
  out->tier = TierFromName(StringField(d, "tier"));
  out->popup_show = BoolField(popup, "show", false);
  out->popup_probability = FloatField(popup, "probability");
  out->autocorrect_apply = BoolField(autocorrect, "apply", false);
  out->autocorrect_replacement = st.replacement.c_str();
  out->autocorrect_confidence = FloatField(autocorrect, "confidence");
  out->intent = st.intent.c_str();
  out->decide_us = FloatField(d, "decide_us");
  return KD_OK;
}

// The hello exchange after connecting: the protocol version, the line limit, the languages.
int Handshake(kd_engine* engine) {
  Json reply;
  const int rc = Call(engine->remote.get(), {{"op", "hello"}}, &reply);
  if (rc != KD_OK) return rc == KD_INVALID_ARGUMENT ? KD_ERR_PROTOCOL : rc;
  const Json& protocol = Field(reply, "protocol");
  if (!protocol.is_number_integer() ||
      protocol.get<int64_t>() != keydecide::service::kProtocolVersion) {
    return Fail(KD_ERR_PROTOCOL, "the daemon speaks protocol " + protocol.dump());
  }
  const Json& max_line = Field(reply, "max_line_bytes");
  if (max_line.is_number_unsigned()) engine->remote->set_max_request_bytes(max_line.get<size_t>());
  // "languages" (a daemon from before it served several has only "language"); read at the
  // first connection only (kd_engine_languages' string stays valid).
  const Json& languages = Field(reply, "languages");
  if (engine->generation.fetch_add(1) > 0) return KD_OK;
  if (languages.is_array()) {
    for (const Json& l : languages) {
      if (!l.is_string()) continue;
      engine->languages += (engine->languages.empty() ? "" : ",") + l.get<std::string>();
    }
  } else {
    engine->languages = StringField(reply, "language");
  }
  return KD_OK;
}

// A broken daemon connection is made again (the daemon restarted) before the next call.
int EnsureConnected(kd_engine* engine) {
  if (!engine->remote->broken()) return KD_OK;
  std::lock_guard<std::mutex> lock(engine->reconnect_mu);
  if (!engine->remote->broken()) return KD_OK;  // another thread reconnected
  std::string error;
  if (const int rc = engine->remote->Reconnect(&error); rc != KD_OK) {
    return Fail(rc == KD_ERR_NOT_FOUND ? KD_ERR_IO : rc, "reconnecting: " + error);
  }
  return Handshake(engine);
}

// A session opened on an earlier connection is opened again on this one, with empty text:
// KD_SESSION_RESET tells the host to restore the text (kd_session_set_context).
int EnsureSessionConnected(kd_session* s) {
  if (const int rc = EnsureConnected(s->engine); rc != KD_OK) return rc;
  if (s->generation == s->engine->generation) return KD_OK;
  Json reply;
  if (const int rc = Call(s->engine->remote.get(), s->open_request, &reply); rc != KD_OK) {
    return rc;
  }
  const Json& id = Field(reply, "session");
  if (!id.is_number_unsigned()) return Fail(KD_ERR_PROTOCOL, "open_session answered no session");
  s->remote_id = id.get<uint64_t>();
  s->generation = s->engine->generation;
  return Fail(KD_SESSION_RESET,
              "the daemon restarted: the session was opened again with empty text and the edit "
              "was not applied; restore the text with kd_session_set_context");
}

enum class Edit { kType, kBackspace, kCommit, kCorrect, kSetContext, kDecide, kPick };

// A pick's answer from a daemon that does not know the op (before ids): KD_ERR_NOT_SUPPORTED,
// and the connection lives on.
int PickRefused(int rc, const Json& reply) {
  if (StringField(Field(reply, "error"), "code") != keydecide::service::errors::kUnknownOp) {
    return rc;
  }
  return Fail(KD_ERR_NOT_SUPPORTED,
              "the daemon is too old to pick a candidate by id (update keydecided); commit the "
              "candidate's text with kd_session_commit instead");
}

// t_ms: kType's key time (monotonic ms), or a negative value for untimed. id: kPick's.
int DoEdit(kd_session* s, Edit edit, const char* text, int32_t count, int64_t t_ms, uint32_t id,
           kd_decision* out) {
  if (s == nullptr) return Fail(KD_INVALID_ARGUMENT, "no session");
  if (edit != Edit::kBackspace && edit != Edit::kDecide && edit != Edit::kPick && text == nullptr) {
    return Fail(KD_INVALID_ARGUMENT, "no text");
  }
  if (edit == Edit::kBackspace && (count < 1 || count > 4096)) {
    return Fail(KD_INVALID_ARGUMENT, "count must be in 1..4096");
  }
  if (s->local) {
    keydecide::Session* session = s->local.get();
    Status st;
    switch (edit) {
      case Edit::kType:
        st = t_ms >= 0 ? session->Type(text, t_ms) : session->Type(text);
        break;
      case Edit::kBackspace:
        for (int32_t i = 0; i < count && st.ok(); ++i) st = session->Backspace();
        break;
      case Edit::kCommit:
        st = session->Accept(text);
        break;
      case Edit::kCorrect:
        st = session->AcceptCorrection(text);
        break;
      case Edit::kSetContext:
        st = session->SetContext(text);
        break;
      case Edit::kPick:
        st = session->Pick(id);
        break;
      case Edit::kDecide:
        break;
    }
    if (!st.ok()) return FromStatus(st);
    if (out == nullptr) return KD_OK;
    st = session->Decide(s->n_candidates, &s->decision);
    if (!st.ok()) return FromStatus(st);
    FillFromLocal(s, out);
    return KD_OK;
  }
  Json req;
  switch (edit) {
    case Edit::kType:
      if (text[0] == '\0') {  // nothing typed: only the decision, if any
        if (out == nullptr) return KD_OK;
        req = {{"op", "decide"}};
      } else {
        req = {{"op", "key"}, {"text", text}};
        if (t_ms >= 0) req["t_ms"] = t_ms;
      }
      break;
    case Edit::kBackspace:
      req = {{"op", "backspace"}, {"count", count}};
      break;
    case Edit::kCommit:
      req = {{"op", "commit"}, {"word", text}};
      break;
    case Edit::kCorrect:
      req = {{"op", "commit"}, {"word", text}, {"autocorrect", true}};
      break;
    case Edit::kSetContext:
      req = {{"op", "set_context"}, {"text", text}};
      break;
    case Edit::kPick:
      req = {{"op", "pick"}, {"candidate", id}};
      break;
    case Edit::kDecide:
      req = {{"op", "decide"}};
      break;
  }
  if (const int rc = EnsureSessionConnected(s); rc != KD_OK) return rc;
  req["session"] = s->remote_id;
  req["k"] = s->n_candidates;
  if (edit != Edit::kDecide) req["decide"] = out != nullptr;
  Json reply;
  const int rc = Call(s->engine->remote.get(), std::move(req), &reply);
  if (rc != KD_OK) return edit == Edit::kPick ? PickRefused(rc, reply) : rc;
  return out != nullptr ? FillFromRemote(s, reply, out) : KD_OK;
}

}  // namespace

namespace {

// --- The user store (docs/PERSONAL.md): opened per call, so no engine is needed -----------

int OpenUserStore(const char* path, std::unique_ptr<keydecide::UserStore>* out) {
  keydecide::UserStoreOptions options;
  if (path != nullptr) options.path = path;
  return FromStatus(keydecide::UserStore::Open(options, out));
}

int PersonalExport(const char* store_path, char** json_out) {
  if (json_out == nullptr) return Fail(KD_INVALID_ARGUMENT, "no out pointer");
  *json_out = nullptr;
  std::unique_ptr<keydecide::UserStore> store;
  if (int rc = OpenUserStore(store_path, &store); rc != KD_OK) return rc;
  std::string json;
  if (int rc = FromStatus(store->Export(&json)); rc != KD_OK) return rc;
  *json_out = static_cast<char*>(std::malloc(json.size() + 1));
  if (*json_out == nullptr) return Fail(KD_ERR_INTERNAL, "out of memory");
  std::memcpy(*json_out, json.c_str(), json.size() + 1);
  return KD_OK;
}

int PersonalImport(const char* store_path, const char* json) {
  if (json == nullptr) return Fail(KD_INVALID_ARGUMENT, "no export");
  std::unique_ptr<keydecide::UserStore> store;
  if (int rc = OpenUserStore(store_path, &store); rc != KD_OK) return rc;
  return FromStatus(store->Import(json));
}

// Forget(word) when word is not null, else ForgetRange(from, to).
int PersonalForget(const char* store_path, const char* word, int64_t from, int64_t to,
                   int32_t* removed) {
  std::unique_ptr<keydecide::UserStore> store;
  if (int rc = OpenUserStore(store_path, &store); rc != KD_OK) return rc;
  int n = 0;
  const int rc =
      FromStatus(word != nullptr ? store->Forget(word, &n) : store->ForgetRange(from, to, &n));
  if (rc == KD_OK && removed != nullptr) *removed = n;
  return rc;
}

int PersonalShortcut(const char* store_path, const char* trigger, const char* expansion,
                     int32_t* removed) {
  std::unique_ptr<keydecide::UserStore> store;
  if (int rc = OpenUserStore(store_path, &store); rc != KD_OK) return rc;
  if (expansion != nullptr) return FromStatus(store->SetShortcut(trigger, expansion));
  bool was = false;
  const int rc = FromStatus(store->RemoveShortcut(trigger, &was));
  if (rc == KD_OK && removed != nullptr) *removed = was ? 1 : 0;
  return rc;
}

int PersonalClear(const char* store_path) {
  std::unique_ptr<keydecide::UserStore> store;
  if (int rc = OpenUserStore(store_path, &store); rc != KD_OK) return rc;
  return FromStatus(store->Clear());
}

}  // namespace

extern "C" {

kd_engine_params kd_engine_default_params(void) {
  kd_engine_params p;
  p.model_dir = nullptr;
  p.language = nullptr;
  p.lexicon_path = nullptr;
  p.model_path = nullptr;
  p.keyboard_layout = nullptr;
  p.max_candidates = 0;
  p.personal = 0;
  p.user_store_path = nullptr;
  p.learn = 1;
  return p;
}

kd_session_params kd_session_default_params(void) {
  kd_session_params p;
  p.app = KD_APP_CHAT;
  p.auto_capitalize = 1;
  p.n_candidates = 3;
  p.autocorrect_level = KD_AUTOCORRECT_NORMAL;
  p.no_learn = 0;
  return p;
}

const char* kd_last_error(void) { return g_last_error.c_str(); }

int kd_abi_revision(void) { return KD_ABI_REVISION; }

int kd_engine_open(const kd_engine_params* params, kd_engine** out) {
  if (out == nullptr) return Fail(KD_INVALID_ARGUMENT, "no out pointer");
  *out = nullptr;
  const kd_engine_params p = params != nullptr ? *params : kd_engine_default_params();
  keydecide::EngineOptions o;
  if (p.model_dir != nullptr) o.model_dir = p.model_dir;
  if (p.lexicon_path != nullptr) o.lexicon_path = p.lexicon_path;
  if (p.model_path != nullptr) o.model_path = p.model_path;
  if (p.keyboard_layout != nullptr) o.keyboard_layout = p.keyboard_layout;
  if (p.max_candidates != 0) o.max_candidates = p.max_candidates;
  o.personal = p.personal != 0;
  if (p.user_store_path != nullptr) o.user_store_path = p.user_store_path;
  o.learn = p.learn != 0;
  auto engine = std::make_unique<kd_engine>();
  try {
    std::vector<std::string> languages = {o.language};
    if (p.language != nullptr) {
      const int rc = FromStatus(keydecide::ParseLanguageList(p.language, &languages));
      if (rc != KD_OK) return rc;
    }
    const int rc = FromStatus(keydecide::OpenLanguageEngines(o, languages, &engine->local));
    if (rc != KD_OK) return rc;
    for (const auto& e : engine->local) {
      engine->session_cost.push_back(keydecide::service::MeasureSessionBytes(*e));
    }
    for (const std::string& l : languages) {
      engine->languages += (engine->languages.empty() ? "" : ",") + l;
    }
  } catch (const std::exception& e) {  // nothing may unwind through the C boundary
    return Fail(KD_ERR_INTERNAL, e.what());
  }
  *out = engine.release();
  return KD_OK;
}

kd_connect_params kd_connect_default_params(void) {
  const DaemonClient::Options o;
  kd_connect_params p;
  p.connect_timeout_ms = o.connect_timeout_ms;
  p.answer_timeout_ms = o.answer_timeout_ms;
  return p;
}

int kd_engine_connect(const char* socket_path, kd_engine** out) {
  const kd_connect_params p = kd_connect_default_params();
  return kd_engine_connect_with(socket_path, &p, out);
}

int kd_engine_connect_with(const char* socket_path, const kd_connect_params* params,
                           kd_engine** out) {
  if (out == nullptr) return Fail(KD_INVALID_ARGUMENT, "no out pointer");
  *out = nullptr;
  if (params == nullptr || params->connect_timeout_ms < 1 || params->answer_timeout_ms < 1) {
    return Fail(KD_INVALID_ARGUMENT, "connect params: timeouts must be at least 1 ms");
  }
  const std::string path = socket_path != nullptr && socket_path[0] != '\0'
                               ? std::string(socket_path)
                               : keydecide::DefaultSocketPath();
  DaemonClient::Options options;
  options.connect_timeout_ms = params->connect_timeout_ms;
  options.answer_timeout_ms = params->answer_timeout_ms;
  auto engine = std::make_unique<kd_engine>();
  engine->remote = std::make_unique<DaemonClient>(options);
  try {
    std::string error;
    int rc = engine->remote->Connect(path, &error);
    if (rc != KD_OK) return Fail(rc, std::move(error));
    rc = Handshake(engine.get());
    if (rc != KD_OK) return rc;
  } catch (const std::exception& e) {
    return Fail(KD_ERR_PROTOCOL, e.what());
  }
  *out = engine.release();
  return KD_OK;
}

void kd_engine_free(kd_engine* engine) { delete engine; }

const char* kd_engine_languages(const kd_engine* engine) {
  return engine != nullptr ? engine->languages.c_str() : "";
}

int kd_session_open(kd_engine* engine, const kd_session_params* params, kd_session** out) {
  return kd_session_open_lang(engine, nullptr, params, out);
}

int kd_session_open_lang(kd_engine* engine, const char* language, const kd_session_params* params,
                         kd_session** out) {
  if (out == nullptr || engine == nullptr) return Fail(KD_INVALID_ARGUMENT, "no engine or out");
  *out = nullptr;
  const kd_session_params p = params != nullptr ? *params : kd_session_default_params();
  if (p.app < KD_APP_CHAT || p.app > KD_APP_URL || p.n_candidates < 0 ||
      p.n_candidates > keydecide::service::kMaxRequestCandidates ||
      p.autocorrect_level < KD_AUTOCORRECT_OFF || p.autocorrect_level > KD_AUTOCORRECT_EAGER) {
    return Fail(KD_INVALID_ARGUMENT, "bad session params");
  }
  auto s = std::make_unique<kd_session>();
  s->engine = engine;
  s->n_candidates = p.n_candidates;
  const bool default_language = language == nullptr || language[0] == '\0';
  try {
    if (!engine->local.empty()) {
      const keydecide::Engine* chosen = default_language ? engine->local.front().get() : nullptr;
      size_t cost = default_language ? engine->session_cost.front() : 0;
      for (size_t i = 0; i < engine->local.size(); ++i) {
        if (chosen == nullptr && engine->local[i]->info().language == language) {
          chosen = engine->local[i].get();
          cost = engine->session_cost[i];
        }
      }
      if (chosen == nullptr) {
        return Fail(KD_ERR_NOT_SUPPORTED, std::string("language '") + language +
                                              "' is not open in this engine (it serves " +
                                              engine->languages + ")");
      }
      keydecide::SessionOptions o;
      o.app = static_cast<keydecide::AppType>(p.app);
      o.auto_capitalize = p.auto_capitalize != 0;
      o.autocorrect_level = static_cast<keydecide::AutocorrectLevel>(p.autocorrect_level);
      o.no_learn = p.no_learn != 0;
      {
        std::lock_guard<std::mutex> lock(engine->budget_mu);
        if (engine->session_bytes + cost > engine->session_budget) {
          return Fail(KD_BUSY, "the engine's session memory budget (" +
                                   std::to_string(engine->session_budget >> 20) +
                                   " MiB, kd_engine_set_session_budget) is spent: free a session"
                                   " or retry later");
        }
        engine->session_bytes += cost;
      }
      s->bytes = cost;
      s->local = chosen->NewSession(o);
    } else {
      Json request = {
          {"op", "open_session"},
          {"app", keydecide::AppTypeName(static_cast<keydecide::AppType>(p.app))},
          {"auto_capitalize", p.auto_capitalize != 0},
          {"autocorrect", keydecide::AutocorrectLevelName(
                              static_cast<keydecide::AutocorrectLevel>(p.autocorrect_level))}};
      if (p.no_learn != 0) request["no_learn"] = true;
      if (!default_language) request["lang"] = language;  // omitted: the daemon's default
      if (const int rc = EnsureConnected(engine); rc != KD_OK) return rc;
      s->open_request = request;
      s->generation = engine->generation;
      Json reply;
      const int rc = Call(engine->remote.get(), std::move(request), &reply);
      if (rc != KD_OK) return rc;
      s->remote_id = Field(reply, "session").is_number_unsigned()
                         ? Field(reply, "session").get<uint64_t>()
                         : 0;
      if (s->remote_id == 0) return Fail(KD_ERR_PROTOCOL, "open_session answered no session");
    }
  } catch (const std::exception& e) {
    return Fail(KD_ERR_INTERNAL, e.what());
  }
  *out = s.release();
  return KD_OK;
}

int kd_engine_set_session_budget(kd_engine* engine, int64_t bytes) {
  if (engine == nullptr || bytes < 0) return Fail(KD_INVALID_ARGUMENT, "no engine, or bytes < 0");
  if (engine->local.empty()) return KD_OK;  // the daemon keeps its own budget
  std::lock_guard<std::mutex> lock(engine->budget_mu);
  engine->session_budget =
      bytes == 0 ? keydecide::service::kDefaultSessionBudgetBytes : static_cast<size_t>(bytes);
  return KD_OK;
}

const char* kd_session_preedit(const kd_session* session) {
  return session != nullptr ? session->store.preedit.c_str() : "";
}

const char* kd_session_shortcut(const kd_session* session, int32_t* fire) {
  const bool any = session != nullptr && !session->store.shortcut.empty();
  if (fire != nullptr) *fire = any && session->store.shortcut_fire ? 1 : 0;
  return any ? session->store.shortcut.c_str() : nullptr;
}

const uint32_t* kd_session_candidate_ids(const kd_session* session) {
  return session != nullptr ? session->store.ids.data() : nullptr;
}

void kd_session_free(kd_session* session) {
  if (session == nullptr) return;
  if (session->bytes > 0) {
    std::lock_guard<std::mutex> lock(session->engine->budget_mu);
    session->engine->session_bytes -= session->bytes;
  }
  if (session->remote_id != 0) {
    try {
      Json reply;
      Call(session->engine->remote.get(),
           {{"op", "close_session"}, {"session", session->remote_id}}, &reply);
    } catch (const std::exception&) {  // closing is best effort: the daemon cleans up anyway
    }
  }
  delete session;
}

#define KD_GUARDED(expr)                    \
  try {                                     \
    return (expr);                          \
  } catch (const std::exception& e) {       \
    return Fail(KD_ERR_INTERNAL, e.what()); \
  }

int kd_session_type(kd_session* session, const char* text, kd_decision* out) {
  KD_GUARDED(DoEdit(session, Edit::kType, text, 0, -1, 0, out));
}
int kd_session_type_at(kd_session* session, const char* text, int64_t t_ms, kd_decision* out) {
  if (t_ms < 0 || t_ms > (int64_t{1} << 53)) {
    return Fail(KD_INVALID_ARGUMENT, "t_ms must be in 0..2^53");
  }
  KD_GUARDED(DoEdit(session, Edit::kType, text, 0, t_ms, 0, out));
}
int kd_session_backspace(kd_session* session, int32_t count, kd_decision* out) {
  KD_GUARDED(DoEdit(session, Edit::kBackspace, nullptr, count, -1, 0, out));
}
int kd_session_commit(kd_session* session, const char* word, kd_decision* out) {
  KD_GUARDED(DoEdit(session, Edit::kCommit, word, 0, -1, 0, out));
}
int kd_session_autocorrect(kd_session* session, const char* replacement, kd_decision* out) {
  KD_GUARDED(DoEdit(session, Edit::kCorrect, replacement, 0, -1, 0, out));
}
int kd_session_set_context(kd_session* session, const char* text, kd_decision* out) {
  KD_GUARDED(DoEdit(session, Edit::kSetContext, text, 0, -1, 0, out));
}
int kd_session_pick(kd_session* session, uint32_t id, kd_decision* out) {
  KD_GUARDED(DoEdit(session, Edit::kPick, nullptr, 0, -1, id, out));
}
int kd_session_decide(kd_session* session, kd_decision* out) {
  if (out == nullptr) return Fail(KD_INVALID_ARGUMENT, "no out pointer");
  KD_GUARDED(DoEdit(session, Edit::kDecide, nullptr, 0, -1, 0, out));
}

int kd_personal_export(const char* store_path, char** json_out) {
  KD_GUARDED(PersonalExport(store_path, json_out));
}
int kd_personal_import(const char* store_path, const char* json) {
  KD_GUARDED(PersonalImport(store_path, json));
}
int kd_personal_forget(const char* store_path, const char* word, int32_t* removed) {
  if (word == nullptr) return Fail(KD_INVALID_ARGUMENT, "no word");
  KD_GUARDED(PersonalForget(store_path, word, 0, 0, removed));
}
int kd_personal_forget_range(const char* store_path, int64_t from, int64_t to, int32_t* removed) {
  KD_GUARDED(PersonalForget(store_path, nullptr, from, to, removed));
}
int kd_personal_clear(const char* store_path) { KD_GUARDED(PersonalClear(store_path)); }

int kd_personal_shortcut_set(const char* store_path, const char* trigger, const char* expansion) {
  if (trigger == nullptr || expansion == nullptr) {
    return Fail(KD_INVALID_ARGUMENT, "no trigger or expansion");
  }
  KD_GUARDED(PersonalShortcut(store_path, trigger, expansion, nullptr));
}

int kd_personal_shortcut_remove(const char* store_path, const char* trigger, int32_t* removed) {
  if (trigger == nullptr) return Fail(KD_INVALID_ARGUMENT, "no trigger");
  KD_GUARDED(PersonalShortcut(store_path, trigger, nullptr, removed));
}
void kd_string_free(char* s) { std::free(s); }

}  // extern "C"
