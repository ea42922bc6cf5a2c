// ConcreteRuntime: sessions, the ready sessions (those with pending requests) of each owner,
// and the worker threads that serve them. One mutex guards the map, the owners' queues and
// every session's pending list; a Session object itself is touched only by the worker that
// took it (a session is ready or in a worker's hands at most once, `scheduled`), so its
// requests stay in order and two workers never share it. Each session belongs to one
// language (an EngineSlot: the engine, its ladder's governor and the tier it chose); the
// workers and the queues are shared by all languages.
//
// Fair turns: workers share their time among owners (the daemon's clients), not sessions.
// Each owner has a virtual time, the worker time its sessions used, and the ready owner with
// the least goes next (start-time fair queueing, as Linux's CFS picks tasks). An owner that
// becomes ready starts at the clock (the virtual time of the last owner taken), so an idle
// one banks no credit and a person's key, arriving while a greedy client keeps many sessions
// busy, waits for about one decision instead of the whole queue.

#include "keydecide/runtime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "keydecide/engine.h"
#include "runtime/latency_governor.h"

namespace keydecide {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxWorkers = 64;
constexpr int kMaxBackspaces = 4096;
constexpr int kMaxCandidates = 200;
constexpr uint64_t kOwnSessionOwner = uint64_t{1} << 63;  // + the session id: its own owner

float MicrosBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<float, std::micro>(b - a).count();
}

struct Pending {
  Request request;
  ResponseCallback done;
  Clock::time_point submitted;
};

// One language: its engine and the governor of that engine's tier ladder.
struct EngineSlot {
  EngineSlot(const Engine* e, const GovernorOptions& options, std::vector<Tier> ladder)
      : engine(e), language(e->info().language), governor(options, std::move(ladder)) {
    tier.store(governor.tier());
  }
  const Engine* engine;
  const std::string language;
  mutable std::mutex governor_mu;
  LatencyGovernor governor;  // guarded by governor_mu
  std::atomic<Tier> tier;    // governor.tier(), readable without the lock
  std::atomic<size_t> sessions{0};
  std::atomic<uint64_t> decisions{0};
};

// The ladder `engine` can serve, as its pack says (Engine::Info::ladder): the small-model rung
// only where a small model is loaded, only the lexicon rung without a model.
std::vector<Tier> LadderOf(const Engine& engine) {
  std::vector<Tier> ladder = engine.info().ladder;
  if (ladder.empty()) ladder = {Tier::kLexiconOnly};
  return ladder;
}

struct SessionState {
  Runtime::SessionId id = 0;
  EngineSlot* slot = nullptr;        // the session's language
  std::unique_ptr<Session> session;  // only the worker holding the session touches it
  Decision decision;                 // reused by every Decide of this session
  std::deque<Pending> pending;       // guarded by the runtime's mutex
  bool scheduled = false;            // ready, or in a worker's hands
  uint64_t owner = 0;                // key of its owner in ConcreteRuntime::owners_
};

// The sessions of one owner, for fair turns (see the top of the file).
struct Owner {
  double vtime = 0;  // µs of worker time its sessions used, on the runtime's virtual clock
  std::deque<std::shared_ptr<SessionState>> ready;
  size_t open = 0;  // open sessions
};

class ConcreteRuntime : public Runtime {
 public:
  ConcreteRuntime(const std::vector<const Engine*>& engines, const RuntimeOptions& options)
      : options_(options) {
    for (const Engine* e : engines) {
      slots_.push_back(std::make_unique<EngineSlot>(e, options.governor, LadderOf(*e)));
    }
  }
  ~ConcreteRuntime() override { Shutdown(); }

  void Start() {
    for (int i = 0; i < options_.workers; ++i) workers_.emplace_back([this] { WorkerLoop(); });
  }

  Status OpenSession(const SessionOptions& options, SessionId* id) override {
    return Open(slots_.front().get(), options, 0, id);
  }
  Status OpenSession(std::string_view language, const SessionOptions& options,
                     SessionId* id) override {
    return OpenSession(language, options, 0, id);
  }
  Status OpenSession(std::string_view language, const SessionOptions& options, uint64_t owner,
                     SessionId* id) override;
  std::vector<std::string> languages() const override;
  Admission Submit(SessionId id, Request request, ResponseCallback done) override;
  bool CloseSession(SessionId id) override;
  void Shutdown() override;
  Stats stats() const override;

 private:
  Status Open(EngineSlot* slot, const SessionOptions& options, uint64_t owner, SessionId* id);
  void WorkerLoop();
  // The owners' turns. REQUIRES: mu_ held.
  void MakeReady(std::shared_ptr<SessionState> s);
  std::shared_ptr<SessionState> TakeReady();  // REQUIRES: ready_count_ > 0
  void Charge(uint64_t owner, float us);
  void DropIfUnused(uint64_t owner);
  // Polls for up to options_.spin_us without the lock before the worker goes to sleep, so
  // that a key following closely is taken without a wake-up. REQUIRES: lock held; held
  // again on return.
  void SpinForWork(std::unique_lock<std::mutex>* lock);
  // Applies a batch of one session's requests and answers them (outside the lock).
  void Serve(SessionState* s, std::vector<Pending>* batch, std::vector<Status>* results);
  Status Apply(Session* session, const Request& r);

  const RuntimeOptions options_;
  std::vector<std::unique_ptr<EngineSlot>> slots_;  // fixed after construction; default first

  mutable std::mutex mu_;
  std::condition_variable ready_cv_;
  std::unordered_map<SessionId, std::shared_ptr<SessionState>> sessions_;
  std::unordered_map<uint64_t, Owner> owners_;
  std::set<std::pair<double, uint64_t>> turns_;  // (vtime, owner) of owners with ready sessions
  double clock_ = 0;                             // the vtime of the owner last taken
  std::atomic<size_t> ready_count_{0};           // ready sessions, readable without the lock
  size_t pending_ = 0;
  SessionId next_id_ = 1;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
  std::once_flag joined_;

  std::atomic<uint64_t> requests_{0}, rejected_{0}, passes_{0}, decisions_{0}, superseded_{0};
  std::atomic<uint64_t> tier_decisions_[4] = {0, 0, 0, 0};
};

Status ConcreteRuntime::OpenSession(std::string_view language, const SessionOptions& options,
                                    uint64_t owner, SessionId* id) {
  if (owner >= kOwnSessionOwner) return Status::InvalidArgument("owner must be below 2^63");
  for (const auto& slot : slots_) {
    if (slot->language == language) return Open(slot.get(), options, owner, id);
  }
  std::string served;
  for (const auto& slot : slots_) served += (served.empty() ? "" : ", ") + slot->language;
  return Status::NotSupported("language '" + std::string(language) + "' (this runtime serves " +
                              served + ")");
}

std::vector<std::string> ConcreteRuntime::languages() const {
  std::vector<std::string> out;
  for (const auto& slot : slots_) out.push_back(slot->language);
  return out;
}

Status ConcreteRuntime::Open(EngineSlot* slot, const SessionOptions& options, uint64_t owner,
                             SessionId* id) {
  auto state = std::make_shared<SessionState>();
  state->slot = slot;
  state->session = slot->engine->NewSession(options);  // outside the lock: allocates buffers
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return Status::NotSupported("the runtime is shutting down");
  if (sessions_.size() >= options_.max_sessions) {
    return Status::InvalidArgument("too many open sessions");
  }
  state->id = next_id_++;
  *id = state->id;
  // Owner 0: the session is its own owner (callers' owners are below kOwnSessionOwner).
  state->owner = owner != 0 ? owner : kOwnSessionOwner | state->id;
  ++owners_[state->owner].open;
  slot->sessions.fetch_add(1, std::memory_order_relaxed);
  sessions_.emplace(state->id, std::move(state));
  return Status::OK();
}

Admission ConcreteRuntime::Submit(SessionId id, Request request, ResponseCallback done) {
  if (request.max_candidates < 0 || request.max_candidates > kMaxCandidates ||
      (request.kind == RequestKind::kBackspace &&
       (request.count < 1 || request.count > kMaxBackspaces))) {
    rejected_.fetch_add(1, std::memory_order_relaxed);
    return Admission::kInvalid;
  }
  std::unique_lock<std::mutex> lock(mu_);
  Admission verdict = Admission::kAccepted;
  auto it = sessions_.find(id);
  if (stopping_) {
    verdict = Admission::kShutDown;
  } else if (it == sessions_.end()) {
    verdict = Admission::kUnknownSession;
  } else if (it->second->pending.size() >= options_.max_pending_per_session ||
             pending_ >= options_.max_pending) {
    verdict = Admission::kQueueFull;
  }
  if (verdict != Admission::kAccepted) {
    rejected_.fetch_add(1, std::memory_order_relaxed);
    return verdict;
  }
  SessionState* s = it->second.get();
  s->pending.push_back({std::move(request), std::move(done), Clock::now()});
  ++pending_;
  requests_.fetch_add(1, std::memory_order_relaxed);
  if (!s->scheduled) {
    s->scheduled = true;
    MakeReady(it->second);
    lock.unlock();
    ready_cv_.notify_one();
  }
  return Admission::kAccepted;
}

bool ConcreteRuntime::CloseSession(SessionId id) {
  std::lock_guard<std::mutex> lock(mu_);
  // The ready queue (or a worker) keeps its own reference, so accepted requests are still
  // served; the state is freed with the last reference.
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return false;
  it->second->slot->sessions.fetch_sub(1, std::memory_order_relaxed);
  const uint64_t owner = it->second->owner;
  sessions_.erase(it);
  --owners_[owner].open;
  DropIfUnused(owner);
  return true;
}

void ConcreteRuntime::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  ready_cv_.notify_all();
  std::call_once(joined_, [this] {
    for (std::thread& t : workers_) t.join();
  });
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [id, state] : sessions_) {
    state->slot->sessions.fetch_sub(1, std::memory_order_relaxed);
  }
  sessions_.clear();
}

Runtime::Stats ConcreteRuntime::stats() const {
  Stats st;
  st.requests = requests_.load();
  st.rejected = rejected_.load();
  st.passes = passes_.load();
  st.decisions = decisions_.load();
  st.superseded = superseded_.load();
  for (int i = 0; i < 4; ++i) st.tier_decisions[i] = tier_decisions_[i].load();
  for (const auto& slot : slots_) {
    Stats::Language l;
    l.language = slot->language;
    l.sessions = slot->sessions.load();
    l.decisions = slot->decisions.load();
    {
      std::lock_guard<std::mutex> lock(slot->governor_mu);
      l.tier = slot->governor.tier();
      l.tier_changes = slot->governor.changes();
      l.window_p50_us = slot->governor.WindowQuantile(0.5f);
      l.window_p90_us = slot->governor.WindowQuantile(0.9f);
    }
    st.languages.push_back(std::move(l));
  }
  const Stats::Language& first = st.languages.front();
  st.tier = first.tier;
  st.tier_changes = first.tier_changes;
  st.window_p50_us = first.window_p50_us;
  st.window_p90_us = first.window_p90_us;
  std::lock_guard<std::mutex> lock(mu_);
  st.sessions = sessions_.size();
  st.pending = pending_;
  return st;
}

void ConcreteRuntime::WorkerLoop() {
  std::vector<Pending> batch;
  std::vector<Status> results;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    const auto ready = [this] { return ready_count_.load(std::memory_order_relaxed) > 0; };
    if (!ready() && !stopping_ && options_.spin_us > 0) SpinForWork(&lock);
    ready_cv_.wait(lock, [&] { return stopping_ || ready(); });
    if (!ready()) return;  // stopping, and everything accepted was served
    std::shared_ptr<SessionState> s = TakeReady();
    batch.clear();
    for (Pending& p : s->pending) batch.push_back(std::move(p));
    s->pending.clear();
    pending_ -= batch.size();
    lock.unlock();

    const Clock::time_point start = Clock::now();
    Serve(s.get(), &batch, &results);
    batch.clear();  // drop the callbacks (and what they hold) outside the lock
    const float used = MicrosBetween(start, Clock::now());

    lock.lock();
    Charge(s->owner, used);
    if (!s->pending.empty()) {
      MakeReady(std::move(s));  // behind the owners that used less
      ready_cv_.notify_one();
    } else {
      s->scheduled = false;
      DropIfUnused(s->owner);
    }
  }
}

void ConcreteRuntime::MakeReady(std::shared_ptr<SessionState> s) {
  Owner& o = owners_[s->owner];
  if (o.ready.empty()) {
    o.vtime = std::max(o.vtime, clock_);  // an idle owner banks no credit
    turns_.emplace(o.vtime, s->owner);
  }
  o.ready.push_back(std::move(s));
  ready_count_.fetch_add(1, std::memory_order_release);
}

std::shared_ptr<SessionState> ConcreteRuntime::TakeReady() {
  const auto turn = turns_.begin();
  const uint64_t key = turn->second;
  clock_ = std::max(clock_, turn->first);
  Owner& o = owners_[key];
  std::shared_ptr<SessionState> s = std::move(o.ready.front());
  o.ready.pop_front();
  if (o.ready.empty()) turns_.erase(turn);
  ready_count_.fetch_sub(1, std::memory_order_release);
  return s;
}

void ConcreteRuntime::Charge(uint64_t owner, float us) {
  const auto it = owners_.find(owner);
  if (it == owners_.end()) return;  // its sessions closed meanwhile
  Owner& o = it->second;
  if (o.ready.empty()) {
    o.vtime += us;
    return;
  }
  turns_.erase({o.vtime, owner});
  o.vtime += us;
  turns_.emplace(o.vtime, owner);
}

void ConcreteRuntime::DropIfUnused(uint64_t owner) {
  const auto it = owners_.find(owner);
  if (it != owners_.end() && it->second.open == 0 && it->second.ready.empty()) owners_.erase(it);
}

void ConcreteRuntime::SpinForWork(std::unique_lock<std::mutex>* lock) {
  lock->unlock();
  const Clock::time_point until =
      Clock::now() + std::chrono::microseconds(static_cast<int64_t>(options_.spin_us));
  while (ready_count_.load(std::memory_order_acquire) == 0 && Clock::now() < until) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  lock->lock();
}

Status ConcreteRuntime::Apply(Session* session, const Request& r) {
  switch (r.kind) {
    case RequestKind::kType:
      return session->Type(r.text, r.t_ms);
    case RequestKind::kBackspace:
      for (int i = 0; i < r.count; ++i) KD_RETURN_IF_ERROR(session->Backspace());
      return Status::OK();
    case RequestKind::kAccept:
      return session->Accept(r.text);
    case RequestKind::kAcceptCorrection:
      return session->AcceptCorrection(r.text);
    case RequestKind::kSetContext:
      return session->SetContext(r.text);
    case RequestKind::kPick:
      return session->Pick(r.candidate);
    case RequestKind::kDecide:
      return Status::OK();
  }
  return Status::InvalidArgument("unknown request kind");
}

void ConcreteRuntime::Serve(SessionState* s, std::vector<Pending>* batch,
                            std::vector<Status>* results) {
  const Clock::time_point taken = Clock::now();
  passes_.fetch_add(1, std::memory_order_relaxed);
  results->assign(batch->size(), Status::OK());
  // The decision is made for the state after the newest request that asks for one; edits
  // after it that ask for none are applied once the decision is made.
  size_t decide_end = 0;  // requests [0, decide_end) are applied before the decision
  for (size_t i = 0; i < batch->size(); ++i) {
    if ((*batch)[i].request.decide) decide_end = i + 1;
  }
  int decider = -1;  // the newest of those that asked for a decision and was applied
  for (size_t i = 0; i < decide_end; ++i) {
    (*results)[i] = Apply(s->session.get(), (*batch)[i].request);
    if ((*results)[i].ok() && (*batch)[i].request.decide) decider = static_cast<int>(i);
  }
  if (decider >= 0) {
    EngineSlot* slot = s->slot;  // the session's language: its governor judges the decision
    const Tier requested = slot->tier.load(std::memory_order_relaxed);
    s->session->SetTier(requested);
    Status st = s->session->Decide((*batch)[decider].request.max_candidates, &s->decision);
    if (options_.decide_hook) options_.decide_hook(s->decision.tier);
    if (!st.ok()) {
      (*results)[decider] = st;
    } else {
      decisions_.fetch_add(1, std::memory_order_relaxed);
      slot->decisions.fetch_add(1, std::memory_order_relaxed);
      tier_decisions_[static_cast<int>(s->decision.tier)].fetch_add(1, std::memory_order_relaxed);
      // What the person waits for: from the request to its decision, queue included, so
      // a saturated worker steps down as well as a slow model does.
      const float us = MicrosBetween((*batch)[decider].submitted, Clock::now());
      std::lock_guard<std::mutex> lock(slot->governor_mu);
      // Only decisions made on the governor's current rung judge it (a worker may have
      // used the rung it read just before a change).
      if (requested == slot->governor.tier() && slot->governor.Record(us)) {
        slot->tier.store(slot->governor.tier(), std::memory_order_relaxed);
      }
    }
  }
  for (size_t i = decide_end; i < batch->size(); ++i) {
    (*results)[i] = Apply(s->session.get(), (*batch)[i].request);
  }
  const Clock::time_point served = Clock::now();
  Response r;
  r.coalesced = static_cast<uint32_t>(batch->size());
  r.service_us = MicrosBetween(taken, served);
  for (size_t i = 0; i < batch->size(); ++i) {
    Pending& p = (*batch)[i];
    r.queue_us = MicrosBetween(p.submitted, taken);
    r.decision = nullptr;
    if (!(*results)[i].ok()) {
      r.outcome = Outcome::kFailed;
      r.status = std::move((*results)[i]);
    } else {
      r.status = Status::OK();
      if (static_cast<int>(i) == decider) {
        r.outcome = Outcome::kDecided;
        r.decision = &s->decision;
      } else if (p.request.decide) {
        r.outcome = Outcome::kSuperseded;
        superseded_.fetch_add(1, std::memory_order_relaxed);
      } else {
        r.outcome = Outcome::kApplied;
      }
    }
    if (p.done) p.done(r);
  }
}

}  // namespace

Status Runtime::Create(const Engine* engine, const RuntimeOptions& options,
                       std::unique_ptr<Runtime>* out) {
  if (engine == nullptr) return Status::InvalidArgument("no engine");
  return Create(std::vector<const Engine*>{engine}, options, out);
}

Status Runtime::Create(const std::vector<const Engine*>& engines, const RuntimeOptions& options,
                       std::unique_ptr<Runtime>* out) {
  if (engines.empty()) return Status::InvalidArgument("no engine");
  for (size_t i = 0; i < engines.size(); ++i) {
    if (engines[i] == nullptr) return Status::InvalidArgument("no engine");
    for (size_t j = 0; j < i; ++j) {
      if (engines[j]->info().language == engines[i]->info().language) {
        return Status::InvalidArgument("language '" + engines[i]->info().language +
                                       "' is served by two engines");
      }
    }
  }
  if (options.workers < 1 || options.workers > kMaxWorkers) {
    return Status::InvalidArgument("workers must be in 1..64");
  }
  if (options.spin_us < 0 || options.spin_us > 10000) {
    return Status::InvalidArgument("spin_us must be in 0..10000");
  }
  if (options.max_sessions < 1 || options.max_pending_per_session < 1 || options.max_pending < 1) {
    return Status::InvalidArgument("session and queue limits must be at least 1");
  }
  if (options.governor.budget_us < 0 || options.governor.window < 1 ||
      options.governor.step_up_fraction <= 0 || options.governor.step_up_fraction > 1) {
    return Status::InvalidArgument("bad governor options");
  }
  auto rt = std::make_unique<ConcreteRuntime>(engines, options);
  rt->Start();
  *out = std::move(rt);
  return Status::OK();
}

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kDecided:
      return "decided";
    case Outcome::kApplied:
      return "applied";
    case Outcome::kSuperseded:
      return "superseded";
    case Outcome::kFailed:
      return "failed";
  }
  return "failed";
}

const char* AdmissionName(Admission admission) {
  switch (admission) {
    case Admission::kAccepted:
      return "accepted";
    case Admission::kUnknownSession:
      return "unknown_session";
    case Admission::kQueueFull:
      return "queue_full";
    case Admission::kShutDown:
      return "shutting_down";
    case Admission::kInvalid:
      return "invalid_request";
  }
  return "invalid_request";
}

}  // namespace keydecide
