// ConcreteRuntime: sessions, one ready queue of sessions with pending requests, and the
// worker threads that serve them. One mutex guards the map, the queue and every session's
// pending list; a Session object itself is touched only by the worker that took it (a
// session is in the ready queue or in a worker's hands at most once, `scheduled`), so its
// requests stay in order and two workers never share it.

#include "keydecide/runtime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
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

float MicrosBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<float, std::micro>(b - a).count();
}

struct Pending {
  Request request;
  ResponseCallback done;
  Clock::time_point submitted;
};

struct SessionState {
  Runtime::SessionId id = 0;
  std::unique_ptr<Session> session;  // only the worker holding the session touches it
  Decision decision;                 // reused by every Decide of this session
  std::deque<Pending> pending;       // guarded by the runtime's mutex
  bool scheduled = false;            // in the ready queue or in a worker's hands
};

class ConcreteRuntime : public Runtime {
 public:
  ConcreteRuntime(const Engine* engine, const RuntimeOptions& options, std::vector<Tier> ladder)
      : engine_(engine), options_(options), governor_(options.governor, std::move(ladder)) {
    tier_.store(governor_.tier());
  }
  ~ConcreteRuntime() override { Shutdown(); }

  void Start() {
    for (int i = 0; i < options_.workers; ++i) workers_.emplace_back([this] { WorkerLoop(); });
  }

  Status OpenSession(const SessionOptions& options, SessionId* id) override;
  Admission Submit(SessionId id, Request request, ResponseCallback done) override;
  bool CloseSession(SessionId id) override;
  void Shutdown() override;
  Stats stats() const override;

 private:
  void WorkerLoop();
  // Polls for up to options_.spin_us without the lock before the worker goes to sleep, so
  // that a key following closely is taken without a wake-up. REQUIRES: lock held; held
  // again on return.
  void SpinForWork(std::unique_lock<std::mutex>* lock);
  // Applies a batch of one session's requests and answers them (outside the lock).
  void Serve(SessionState* s, std::vector<Pending>* batch, std::vector<Status>* results);
  Status Apply(Session* session, const Request& r);

  const Engine* engine_;
  const RuntimeOptions options_;

  mutable std::mutex mu_;
  std::condition_variable ready_cv_;
  std::unordered_map<SessionId, std::shared_ptr<SessionState>> sessions_;
  std::deque<std::shared_ptr<SessionState>> ready_;
  std::atomic<size_t> ready_count_{0};  // ready_.size(), readable without the lock
  size_t pending_ = 0;
  SessionId next_id_ = 1;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
  std::once_flag joined_;

  mutable std::mutex governor_mu_;
  LatencyGovernor governor_;
  std::atomic<Tier> tier_;

  std::atomic<uint64_t> requests_{0}, rejected_{0}, passes_{0}, decisions_{0}, superseded_{0};
  std::atomic<uint64_t> tier_decisions_[4] = {0, 0, 0, 0};
};

Status ConcreteRuntime::OpenSession(const SessionOptions& options, SessionId* id) {
  auto state = std::make_shared<SessionState>();
  state->session = engine_->NewSession(options);  // outside the lock: allocates buffers
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return Status::NotSupported("the runtime is shutting down");
  if (sessions_.size() >= options_.max_sessions) {
    return Status::InvalidArgument("too many open sessions");
  }
  state->id = next_id_++;
  *id = state->id;
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
    ready_.push_back(it->second);
    ready_count_.store(ready_.size(), std::memory_order_release);
    lock.unlock();
    ready_cv_.notify_one();
  }
  return Admission::kAccepted;
}

bool ConcreteRuntime::CloseSession(SessionId id) {
  std::lock_guard<std::mutex> lock(mu_);
  // The ready queue (or a worker) keeps its own reference, so accepted requests are still
  // served; the state is freed with the last reference.
  return sessions_.erase(id) == 1;
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
  {
    std::lock_guard<std::mutex> lock(governor_mu_);
    st.tier = governor_.tier();
    st.tier_changes = governor_.changes();
    st.window_p50_us = governor_.WindowQuantile(0.5f);
    st.window_p90_us = governor_.WindowQuantile(0.9f);
  }
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
    if (ready_.empty() && !stopping_ && options_.spin_us > 0) SpinForWork(&lock);
    ready_cv_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
    if (ready_.empty()) return;  // stopping, and everything accepted was served
    std::shared_ptr<SessionState> s = std::move(ready_.front());
    ready_.pop_front();
    ready_count_.store(ready_.size(), std::memory_order_release);
    batch.clear();
    for (Pending& p : s->pending) batch.push_back(std::move(p));
    s->pending.clear();
    pending_ -= batch.size();
    lock.unlock();

    Serve(s.get(), &batch, &results);
    batch.clear();  // drop the callbacks (and what they hold) outside the lock

    lock.lock();
    if (!s->pending.empty()) {
      ready_.push_back(std::move(s));  // to the back: sessions take turns
      ready_count_.store(ready_.size(), std::memory_order_release);
      ready_cv_.notify_one();
    } else {
      s->scheduled = false;
    }
  }
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
      return session->Type(r.text);
    case RequestKind::kBackspace:
      for (int i = 0; i < r.count; ++i) KD_RETURN_IF_ERROR(session->Backspace());
      return Status::OK();
    case RequestKind::kAccept:
      return session->Accept(r.text);
    case RequestKind::kSetContext:
      return session->SetContext(r.text);
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
    const Tier requested = tier_.load(std::memory_order_relaxed);
    s->session->SetTier(requested);
    Status st = s->session->Decide((*batch)[decider].request.max_candidates, &s->decision);
    if (options_.decide_hook) options_.decide_hook(s->decision.tier);
    if (!st.ok()) {
      (*results)[decider] = st;
    } else {
      decisions_.fetch_add(1, std::memory_order_relaxed);
      tier_decisions_[static_cast<int>(s->decision.tier)].fetch_add(1, std::memory_order_relaxed);
      // What the person waits for: from the request to its decision, queue included, so
      // a saturated worker steps down as well as a slow model does.
      const float us = MicrosBetween((*batch)[decider].submitted, Clock::now());
      std::lock_guard<std::mutex> lock(governor_mu_);
      // Only decisions made on the governor's current rung judge it (a worker may have
      // used the rung it read just before a change).
      if (requested == governor_.tier() && governor_.Record(us)) {
        tier_.store(governor_.tier(), std::memory_order_relaxed);
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
  // The ladder this engine can serve: no smaller model is loaded yet, so that rung is
  // skipped; without a model only the lexicon rung exists.
  std::vector<Tier> ladder;
  if (engine->info().scorer == "model") {
    ladder = {Tier::kFullModel, Tier::kNoVocabProposals, Tier::kLexiconOnly};
  } else {
    ladder = {Tier::kLexiconOnly};
  }
  auto rt = std::make_unique<ConcreteRuntime>(engine, options, std::move(ladder));
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
