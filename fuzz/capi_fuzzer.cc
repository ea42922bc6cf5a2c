// libFuzzer target for the C ABI (include/keydecide/keydecide.h) as a host drives it: the input
// is a sequence of calls (open, type, type_at, backspace, commit, autocorrect, set_context,
// decide, preedit, free, pick by an id offered or not, and the calls' refusals of NULL) on up to
// four live sessions, spread
// over three back ends made once at start-up:
//   0 an in-process English engine on the fixture lexicon and a tiny int8 model
//     (tests/model_fixture.h), so the model's heads, autocorrect and the tier ladder run;
//   1 the same with personal learning into a fresh user store, so that commits, undone
//     autocorrections and no-learn sessions reach the learner;
//   2 a connection to a daemon (Server, in this process) serving that English engine and the
//     shipped Chinese pack, so every call also crosses the protocol, the client and the server.
// Besides "never crashes, no undefined behaviour, no leak", it checks the contract: a code
// from enum kd_status; a failed open leaves *out NULL and an error message; a recoverable
// code leaves the session as it was (a fresh decision's composition and preedit unchanged);
// every decision holds at most the candidates asked for, valid UTF-8 everywhere, finite
// scores, an enum tier and kind, and probabilities in [0, 1]; kd_session_preedit is valid
// UTF-8; a shortcut (two are in back end 1's store) that fires is no autocorrection and is the
// first candidate.
//
//   build-fuzz/bin/capi_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/capi

#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "keydecide/engine.h"
#include "keydecide/keydecide.h"
#include "keydecide/service.h"
#include "lexicon/lexicon_tool.h"
#include "model/quantize.h"
#include "model_fixture.h"
#include "text/utf8.h"

namespace {

using namespace keydecide;

constexpr int kBackEnds = 3;
constexpr size_t kMaxLive = 4;

struct World {
  std::string dir;
  kd_engine* engines[kBackEnds] = {};
  std::unique_ptr<Engine> served_en, served_zh;
  std::unique_ptr<Server> server;
};

std::string ReadAll(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  FUZZ_CHECK(f != nullptr);
  std::string bytes;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof(buf), f)) > 0;) bytes.append(buf, n);
  std::fclose(f);
  return bytes;
}

void WriteAll(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  FUZZ_CHECK(f != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  std::fclose(f);
}

World* MakeWorld() {
  auto* w = new World;
  w->dir = "/tmp/kd_capi_fuzzer_" + std::to_string(::getpid());
  std::filesystem::remove_all(w->dir);
  std::filesystem::create_directories(w->dir);
  const std::string lexicon = w->dir + "/fixture.kdlex";
  const std::string f32 = w->dir + "/tiny.safetensors", q8 = w->dir + "/tiny.q8.safetensors";
  std::string bytes;
  FUZZ_CHECK(BuildLexiconFromText(ReadAll(KD_FIXTURES "/tiny_corpus.txt"), 1, &bytes).ok());
  WriteAll(lexicon, bytes);
  WriteAll(f32, testing::TinyModelBytes());
  QuantizeReport report;
  FUZZ_CHECK(QuantizeModel(f32, q8, QuantizeOptions(), &report).ok());

  kd_engine_params p = kd_engine_default_params();
  p.model_dir = KD_MODELS_DIR;
  p.lexicon_path = lexicon.c_str();
  p.model_path = q8.c_str();
  FUZZ_CHECK(kd_engine_open(&p, &w->engines[0]) == KD_OK);
  const std::string store = w->dir + "/user.db";
  // Shortcuts the typed letters reach: one that fires, one whose trigger is a fixture word.
  FUZZ_CHECK(kd_personal_shortcut_set(store.c_str(), "qz", "Quiz night!") == KD_OK);
  FUZZ_CHECK(kd_personal_shortcut_set(store.c_str(), "the", "The End") == KD_OK);
  p.personal = 1;
  p.user_store_path = store.c_str();
  FUZZ_CHECK(kd_engine_open(&p, &w->engines[1]) == KD_OK);

  EngineOptions o;
  o.model_dir = KD_MODELS_DIR;
  o.lexicon_path = lexicon;
  o.model_path = q8;
  FUZZ_CHECK(Engine::Open(o, &w->served_en).ok());
  o = EngineOptions();
  o.model_dir = KD_MODELS_DIR;
  o.language = "zh";
  o.model_path = "none";  // the pinyin fuzzer covers the Chinese model's searches
  FUZZ_CHECK(Engine::Open(o, &w->served_zh).ok());
  ServerOptions so;
  so.socket_path = w->dir + "/kd.sock";
  so.max_sessions_per_client = kMaxLive;
  FUZZ_CHECK(Server::Start({w->served_en.get(), w->served_zh.get()}, so, &w->server).ok());
  FUZZ_CHECK(kd_engine_connect(so.socket_path.c_str(), &w->engines[2]) == KD_OK);
  return w;
}

bool IsStatus(int rc) { return rc >= KD_ERR_PERMISSION && rc <= KD_SESSION_RESET; }

bool ValidText(const char* s) {
  return s != nullptr && utf8::Validate(std::string_view(s, std::strlen(s))).ok();
}

void CheckDecision(const kd_decision& d, int asked) {
  FUZZ_CHECK(d.n_candidates >= 0 && d.n_candidates <= asked);
  FUZZ_CHECK(d.n_candidates == 0 || d.candidates != nullptr);
  for (int i = 0; i < d.n_candidates; ++i) {
    const kd_candidate& c = d.candidates[i];
    FUZZ_CHECK(ValidText(c.text));
    FUZZ_CHECK(std::isfinite(c.score));
    FUZZ_CHECK(c.kind >= KD_COMPLETION && c.kind <= KD_SHORTCUT);
  }
  FUZZ_CHECK(ValidText(d.composition) && ValidText(d.intent));
  FUZZ_CHECK(d.tier >= KD_TIER_FULL_MODEL && d.tier <= KD_TIER_LEXICON_ONLY);
  FUZZ_CHECK(d.popup_show == 0 || d.popup_show == 1);
  FUZZ_CHECK(d.popup_probability >= 0 && d.popup_probability <= 1);
  FUZZ_CHECK(d.autocorrect_apply == 0 || d.autocorrect_apply == 1);
  FUZZ_CHECK(d.autocorrect_confidence >= 0 && d.autocorrect_confidence <= 1);
  FUZZ_CHECK(d.autocorrect_replacement != nullptr);
  FUZZ_CHECK(!d.autocorrect_apply || ValidText(d.autocorrect_replacement));
}

// The shortcut of the decision just made: an expansion that fires is no autocorrection, and
// it is the first candidate when any were asked for.
void CheckShortcut(const kd_session* s, const kd_decision& d) {
  int32_t fire = -1;
  const char* expansion = kd_session_shortcut(s, &fire);
  FUZZ_CHECK(fire == 0 || fire == 1);
  if (expansion == nullptr) {
    FUZZ_CHECK(fire == 0);
    for (int i = 0; i < d.n_candidates; ++i) FUZZ_CHECK(d.candidates[i].kind != KD_SHORTCUT);
    return;
  }
  FUZZ_CHECK(ValidText(expansion));
  if (fire == 1) FUZZ_CHECK(d.autocorrect_apply == 0);
  if (d.n_candidates > 0) {
    FUZZ_CHECK(d.candidates[0].kind == KD_SHORTCUT);
    FUZZ_CHECK(std::strcmp(d.candidates[0].text, expansion) == 0);
  }
}

// What a refused edit must leave as it was: the session's composition and preedit, as a fresh
// decision reads them (kd_session_preedit alone is only the last decision's).
std::string StateOf(kd_session* s) {
  kd_decision d;
  if (kd_session_decide(s, &d) != KD_OK) return "(no decision)";
  return std::string(d.composition) + '\n' + kd_session_preedit(s);
}

struct Live {
  kd_session* session;
  int asked;  // n_candidates it was opened with
};

// Text for an edit: mostly letters, spaces and punctuation a person types (so that words,
// candidates and autocorrections happen), sometimes any bytes (invalid UTF-8, NUL ends it).
std::string TextFrom(FuzzedDataProvider& in, size_t max_len) {
  if (in.ConsumeBool()) return in.ConsumeRandomLengthString(max_len);
  static constexpr char kKeys[] = "etaoinshrdlucmfwypvbgkjqxz  ,.'?";
  std::string s(in.ConsumeIntegralInRange<size_t>(0, max_len), ' ');
  for (char& c : s) c = kKeys[in.ConsumeIntegralInRange<size_t>(0, sizeof(kKeys) - 2)];
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World* world = MakeWorld();
  FuzzedDataProvider in(data, size);
  std::vector<Live> live;
  kd_decision d;
  for (int step = 0; step < 64 && in.remaining_bytes() > 0; ++step) {
    const int op = in.ConsumeIntegralInRange(0, 12);
    if (op == 0 || live.empty()) {  // open
      if (live.size() >= kMaxLive) continue;
      kd_engine* engine = world->engines[in.ConsumeIntegralInRange(0, kBackEnds - 1)];
      kd_session_params sp = kd_session_default_params();
      if (in.ConsumeBool()) {  // anything, in or out of range
        sp.app = in.ConsumeIntegral<int32_t>() % 7;
        sp.n_candidates = in.ConsumeIntegralInRange(-2, 24);
        sp.autocorrect_level = in.ConsumeIntegralInRange(-1, 5);
      }
      sp.auto_capitalize = in.ConsumeBool();
      sp.no_learn = in.ConsumeBool();
      const int lang = in.ConsumeIntegralInRange(0, 3);
      const char* names[] = {nullptr, "en", "zh", "fr"};
      kd_session* s = reinterpret_cast<kd_session*>(&d);  // must be set to NULL on failure
      const int rc = kd_session_open_lang(engine, names[lang], &sp, &s);
      FUZZ_CHECK(IsStatus(rc));
      if (rc == KD_OK) {
        FUZZ_CHECK(s != nullptr);
        FUZZ_CHECK(sp.n_candidates >= 0 && sp.n_candidates <= 20);
        FUZZ_CHECK(sp.autocorrect_level >= 0 && sp.autocorrect_level <= 3);
        live.push_back({s, sp.n_candidates});
      } else {
        FUZZ_CHECK(s == nullptr && *kd_last_error() != '\0');
      }
      continue;
    }
    const size_t pick = in.ConsumeIntegralInRange<size_t>(0, live.size() - 1);
    kd_session* s = live[pick].session;
    const bool want = in.ConsumeProbability<float>() < 0.9f;  // a NULL out is allowed
    kd_decision* out = want ? &d : nullptr;
    std::string before = StateOf(s);
    int rc = KD_OK;
    switch (op) {
      case 1:
        rc = kd_session_type(s, TextFrom(in, 12).c_str(), out);
        break;
      case 2:
        rc = kd_session_type_at(s, TextFrom(in, 4).c_str(), in.ConsumeIntegral<int64_t>(), out);
        break;
      case 3:
        rc = kd_session_backspace(s, in.ConsumeIntegralInRange(-2, 40), out);
        break;
      case 4:
        rc = kd_session_commit(s, TextFrom(in, 16).c_str(), out);
        break;
      case 5:
        rc = kd_session_autocorrect(s, TextFrom(in, 16).c_str(), out);
        break;
      case 6:
        rc = kd_session_set_context(s, TextFrom(in, 300).c_str(), out);
        break;
      case 7:
        rc = kd_session_decide(s, out);
        break;
      case 8:
        FUZZ_CHECK(ValidText(kd_session_preedit(s)));
        continue;
      case 9:  // the NULLs the contract refuses
        FUZZ_CHECK(kd_session_type(s, nullptr, out) == KD_INVALID_ARGUMENT);
        FUZZ_CHECK(kd_session_type(nullptr, "a", out) == KD_INVALID_ARGUMENT);
        FUZZ_CHECK(kd_session_decide(nullptr, out) == KD_INVALID_ARGUMENT);
        FUZZ_CHECK(StateOf(s) == before);
        continue;
      case 10:
        kd_session_free(s);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(pick));
        continue;
      case 11: {  // a pick: of the last decision (StateOf's, just made), or any id (stale)
        uint32_t id = in.ConsumeIntegral<uint32_t>();
        kd_decision last;
        if (in.ConsumeBool() && kd_session_decide(s, &last) == KD_OK && last.n_candidates > 0) {
          const uint32_t* ids = kd_session_candidate_ids(s);
          id = ids[in.ConsumeIntegralInRange<int32_t>(0, last.n_candidates - 1)];
          FUZZ_CHECK(id != 0);
        }
        rc = kd_session_pick(s, id, out);
        break;
      }
      default:  // a burst of keys, as a fast typist's, each decision checked as it comes
        for (int k = in.ConsumeIntegralInRange(1, 8); k > 0; --k) {
          rc = kd_session_type(s, TextFrom(in, 1).c_str(), out);
          if (rc != KD_OK) break;
          if (out) CheckDecision(d, live[pick].asked);
          if (out) CheckShortcut(s, d);
          before = StateOf(s);  // what a failing key must leave (d is stale from here)
        }
        out = nullptr;
        break;
    }
    FUZZ_CHECK(IsStatus(rc));
    // The in-process daemon never restarts and its queue never fills with one caller.
    FUZZ_CHECK(rc == KD_OK || rc == KD_INVALID_ARGUMENT);
    if (rc == KD_OK) {
      if (out) CheckDecision(d, live[pick].asked);
      if (out) CheckShortcut(s, d);
    } else {
      FUZZ_CHECK(*kd_last_error() != '\0');
      FUZZ_CHECK(StateOf(s) == before);
    }
  }
  for (const Live& l : live) kd_session_free(l.session);
  return 0;
}
