// Runtime: the worker queue in front of one Engine per language. Requests for any session
// may come from any thread; inference runs on a few worker threads (one by default,
// DESIGN.md), shared by every language. Each session's requests are applied in the order
// they were submitted. Edits that arrive while a session is busy are coalesced: the next
// time a worker takes the session it applies all pending edits, makes one decision for the
// newest state and answers the older requests that asked for a decision as superseded.
// Each language has its own latency governor (its engine has its own tier ladder): it steps
// that language's sessions down the ladder when their decisions break the budget and back
// up when there is room.
//
//   std::unique_ptr<keydecide::Runtime> rt;
//   Status s = keydecide::Runtime::Create(engine.get(), keydecide::RuntimeOptions(), &rt);
//   keydecide::Runtime::SessionId id;
//   rt->OpenSession({}, &id);
//   keydecide::Request r;
//   r.kind = keydecide::RequestKind::kType;
//   r.text = "h";
//   rt->Submit(id, r, [](const keydecide::Response& resp) { /* on a worker thread */ });
//
// Thread-safety: every method may be called from any thread. Callbacks run on a worker
// thread, one at a time per session and in submission order; they must not block for long,
// must not throw, and must not call Shutdown (they may call Submit). The Engines must
// outlive the Runtime.

#ifndef KEYDECIDE_RUNTIME_H_
#define KEYDECIDE_RUNTIME_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/decision.h"
#include "keydecide/export.h"
#include "keydecide/options.h"
#include "keydecide/status.h"

namespace keydecide {

class Engine;

struct GovernorOptions {
  // Per-decision budget in microseconds, measured from the Submit of the request that gets
  // the decision until the decision is made: queue wait + edits + Decide. A saturated
  // worker (many clients, a loaded machine) thus steps down as well as a slow model. 0
  // turns the governor off: always the full tier. The default leaves room for the fp32
  // reference model on one laptop core (0.6 ms at P50, docs/history/BENCHMARKS-to-2026-12-07.md)
  // and some queueing, and is far below what a typist notices (~50 ms).
  float budget_us = 5000;

  // Decisions in the moving window. The governor looks at the window's 90th percentile.
  int window = 64;

  // A rung is left (one step down) once at least window / 4 decisions were measured on it
  // and the window's P90 is over budget.
  // A step back up is tried after a full window whose P90 is below this share of the
  // budget. If the rung above breaks the budget again within its first window, the wait
  // before the next try doubles (up to 64 windows), so a slow machine does not oscillate.
  float step_up_fraction = 0.5f;
};

struct RuntimeOptions {
  // --- Behaviour ---

  // Inference threads. 1 (one worker per engine, DESIGN.md) keeps a single model step in
  // flight; more help only with several cores and many active sessions.
  int workers = 1;

  // Open sessions, across all callers; OpenSession fails beyond this.
  size_t max_sessions = 4096;

  // Requests waiting for one session; Submit answers kQueueFull beyond this (back-pressure).
  size_t max_pending_per_session = 256;
  // Requests waiting in total.
  size_t max_pending = 1 << 16;

  // --- Performance ---

  // A worker that runs out of work polls for this many microseconds before it sleeps, so
  // that the next keystroke does not pay for a thread wake-up (tens of microseconds on a
  // virtual machine). 0: sleep at once (best when cores are scarce and shared).
  int spin_us = 0;

  GovernorOptions governor;

  // For tests and benchmarks: called on the worker after each Decide, inside the measured
  // span, with the tier that served it. An artificially slow scorer sleeps here.
  std::function<void(Tier)> decide_hook;
};

enum class RequestKind : int {
  kType = 0,              // Session::Type(text)
  kBackspace = 1,         // Session::Backspace(), `count` times
  kAccept = 2,            // Session::Accept(text): the person picked a candidate
  kSetContext = 3,        // Session::SetContext(text)
  kDecide = 4,            // no edit, only a decision
  kAcceptCorrection = 5,  // Session::AcceptCorrection(text): the host applied the autocorrection
  kPick = 6,              // Session::Pick(candidate): the person picked a candidate by its id
};

struct Request {
  RequestKind kind = RequestKind::kDecide;
  std::string text;  // kType, kAccept, kAcceptCorrection, kSetContext
  // kType: when the key was pressed, ms of a monotonic clock (Session::Type); none: untimed.
  std::optional<int64_t> t_ms;
  int count = 1;           // kBackspace: characters to delete (1..4096)
  uint32_t candidate = 0;  // kPick: the Candidate::id (of the session's last decision)
  bool decide = true;      // answer with a decision (else only "applied")
  int max_candidates = 3;  // candidates in the decision (0..200)
};

enum class Outcome : int {
  // `decision` holds the decision for the state after this request. (Only if a newer
  // request of the same batch asked for a decision but failed does the state also include
  // the edits up to that one.) Edits after it that asked for no decision come later.
  kDecided = 0,
  kApplied = 1,     // the edit was applied; no decision was asked for
  kSuperseded = 2,  // the edit was applied; a newer request of the session got the decision
  kFailed = 3,      // `status` says why; the session is unchanged by this request
};

struct Response {
  Outcome outcome = Outcome::kFailed;
  Status status;
  // kDecided only: valid during the callback (the session's storage is reused).
  const Decision* decision = nullptr;
  uint32_t coalesced = 0;  // requests served by this worker pass (1 when not coalesced)
  float queue_us = 0;      // from Submit until a worker took the session
  float service_us = 0;    // the worker pass: edits applied and the decision made
};

using ResponseCallback = std::function<void(const Response&)>;

enum class Admission : int {
  kAccepted = 0,
  kUnknownSession = 1,  // never opened, or closed
  kQueueFull = 2,       // back-pressure: retry later
  kShutDown = 3,        // the runtime is stopping
  kInvalid = 4,         // the request itself is malformed (count or max_candidates range)
};

KD_API const char* OutcomeName(Outcome outcome);
KD_API const char* AdmissionName(Admission admission);

class KD_API Runtime {
 public:
  using SessionId = uint64_t;

  struct Stats {
    uint64_t requests = 0;    // accepted by Submit
    uint64_t rejected = 0;    // refused by Submit (queue full, unknown session, shut down)
    uint64_t passes = 0;      // worker passes (one per batch of a session's requests)
    uint64_t decisions = 0;   // Decide calls
    uint64_t superseded = 0;  // requests answered as superseded
    uint64_t tier_decisions[4] = {0, 0, 0, 0};  // decisions served per Tier, all languages
    // tier, tier_changes and the window: the default language's governor (see `languages`
    // for each).
    uint64_t tier_changes = 0;
    Tier tier = Tier::kFullModel;  // the governor's current rung
    float window_p50_us = 0;       // of the governor's window
    float window_p90_us = 0;
    size_t sessions = 0;
    size_t pending = 0;

    struct Language {
      std::string language;  // Engine::Info::language
      size_t sessions = 0;   // open now
      uint64_t decisions = 0;
      uint64_t tier_changes = 0;
      Tier tier = Tier::kFullModel;  // this language's governor
      float window_p50_us = 0;
      float window_p90_us = 0;
    };
    std::vector<Language> languages;  // one per engine, in Create's order (default first)
  };

  // Starts the workers over one engine. On failure (bad options) returns InvalidArgument
  // and leaves *out untouched. REQUIRES: engine outlives the Runtime.
  static Status Create(const Engine* engine, const RuntimeOptions& options,
                       std::unique_ptr<Runtime>* out);

  // Starts the workers over several engines, one per language (Engine::Info::language).
  // The first is the default language, the one OpenSession without a language uses.
  // InvalidArgument (and *out untouched) for no engine, a null one, a language served
  // twice, or bad options. REQUIRES: the engines outlive the Runtime.
  static Status Create(const std::vector<const Engine*>& engines, const RuntimeOptions& options,
                       std::unique_ptr<Runtime>* out);

  // Shuts down (see Shutdown) and joins the workers.
  virtual ~Runtime() = default;

  // A new session of the default language. InvalidArgument beyond max_sessions;
  // NotSupported after Shutdown.
  virtual Status OpenSession(const SessionOptions& options, SessionId* id) = 0;

  // A new session of `language` (an Engine::Info::language given to Create). NotSupported
  // (and *id untouched) for a language no engine serves; otherwise as above.
  virtual Status OpenSession(std::string_view language, const SessionOptions& options,
                             SessionId* id) = 0;

  // As above, the session counted for `owner` (the daemon passes its client). The workers
  // share their time fairly among owners, not sessions: the ready owner whose sessions used
  // the least worker time goes next, so a client keeping many sessions busy cannot slow
  // another's typing. Owner 0 (the calls above): the session is its own owner.
  // InvalidArgument for an owner of 2^63 or more.
  virtual Status OpenSession(std::string_view language, const SessionOptions& options,
                             uint64_t owner, SessionId* id) = 0;

  // The languages served, default first.
  virtual std::vector<std::string> languages() const = 0;

  // Queues `request` for the session. kAccepted: `done` will be called exactly once, on a
  // worker thread. Anything else: `done` is not called and nothing changed.
  virtual Admission Submit(SessionId id, Request request, ResponseCallback done) = 0;

  // Closes the session: requests already accepted are still served, in order; later ones
  // get kUnknownSession. Returns false if the session is unknown.
  virtual bool CloseSession(SessionId id) = 0;

  // Refuses new requests, serves those already accepted, and stops the workers. Idempotent.
  virtual void Shutdown() = 0;

  virtual Stats stats() const = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_RUNTIME_H_
