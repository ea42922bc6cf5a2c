#include "decision_worker.h"

#include <utility>

namespace keydecide::frontend {

// The answer of one batch, shared by the worker (which fills it), the dispatcher's callback
// and Wait; `delivered` makes the delivery happen once, whichever comes first.
struct DecisionWorker::Pending {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  Answer answer;
  bool delivered = false;  // main thread only
  Deliver deliver;

  void DeliverOnce() {  // main thread, after done
    if (delivered) return;
    delivered = true;
    deliver(answer);
  }
};

namespace {

DecisionCopy Copy(const kd_session* session, const kd_decision& d) {
  DecisionCopy c;
  c.candidates.reserve(static_cast<size_t>(d.n_candidates));
  const uint32_t* ids = kd_session_candidate_ids(session);
  for (int32_t i = 0; i < d.n_candidates; ++i) {
    c.candidates.push_back(
        {d.candidates[i].text, d.candidates[i].kind, ids != nullptr ? ids[i] : 0u});
  }
  c.composition = d.composition;
  c.preedit = kd_session_preedit(session);
  c.popup_show = d.popup_show != 0;
  c.autocorrect_apply = d.autocorrect_apply != 0;
  c.autocorrect_replacement = d.autocorrect_replacement;
  int32_t fire = 0;
  const char* shortcut = kd_session_shortcut(session, &fire);
  c.shortcut = shortcut != nullptr ? shortcut : "";
  c.shortcut_fire = fire != 0;
  return c;
}

}  // namespace

DecisionWorker::DecisionWorker(EngineSetup setup, Post post)
    : setup_(std::move(setup)), post_(std::move(post)), thread_([this] { Run(); }) {}

DecisionWorker::~DecisionWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

DecisionWorker::SessionId DecisionWorker::Open(const SessionSpec& spec) {
  std::lock_guard<std::mutex> lock(mu_);
  const SessionId id = next_id_++;
  queue_.push_back({id, Job::kOpen, spec, {}, nullptr});
  cv_.notify_one();
  return id;
}

void DecisionWorker::Close(SessionId id) {
  std::lock_guard<std::mutex> lock(mu_);
  queue_.push_back({id, Job::kClose, {}, {}, nullptr});
  cv_.notify_one();
}

std::shared_ptr<DecisionWorker::Pending> DecisionWorker::Submit(SessionId id,
                                                                std::vector<Edit> edits,
                                                                Deliver deliver) {
  auto pending = std::make_shared<Pending>();
  pending->deliver = std::move(deliver);
  std::lock_guard<std::mutex> lock(mu_);
  queue_.push_back({id, Job::kEdits, {}, std::move(edits), pending});
  cv_.notify_one();
  return pending;
}

bool DecisionWorker::Wait(const std::shared_ptr<Pending>& pending,
                          std::chrono::milliseconds timeout) {
  {
    std::unique_lock<std::mutex> lock(pending->mu);
    if (!pending->cv.wait_for(lock, timeout, [&] { return pending->done; })) return false;
  }
  pending->DeliverOnce();
  return true;
}

void DecisionWorker::Run() {
  OpenEngine();
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) break;  // stopping, and everything queued was served
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    Serve(job);
  }
  for (auto& [id, session] : sessions_) kd_session_free(session);
  sessions_.clear();
  kd_engine_free(engine_);
}

void DecisionWorker::OpenEngine() {
  engine_tried_ = std::chrono::steady_clock::now();
  if (setup_.daemon && !in_process_) {
    engine_rc_ = kd_engine_connect(
        setup_.socket_path.empty() ? nullptr : setup_.socket_path.c_str(), &engine_);
    if (engine_rc_ == KD_OK || !setup_.fall_back_in_process) {
      if (engine_rc_ != KD_OK) engine_error_ = kd_last_error();
      return;
    }
    in_process_ = true;  // no daemon: this process's own engine, from now on
  }
  kd_engine_params p = kd_engine_default_params();
  p.language = "en,zh";
  if (!setup_.model_dir.empty()) p.model_dir = setup_.model_dir.c_str();
  if (!setup_.layout.empty()) p.keyboard_layout = setup_.layout.c_str();
  p.personal = setup_.personal ? 1 : 0;
  if (!setup_.user_store.empty()) p.user_store_path = setup_.user_store.c_str();
  engine_rc_ = kd_engine_open(&p, &engine_);
  if (engine_rc_ != KD_OK) engine_error_ = kd_last_error();
}

// The session of `id`, opened on the engine at its first use; null without an engine (a daemon
// that is not there is tried again every few seconds) or when the engine refused it.
kd_session* DecisionWorker::SessionFor(SessionId id) {
  constexpr auto kRetry = std::chrono::seconds(3);
  if (engine_ == nullptr && setup_.daemon && !in_process_ &&
      std::chrono::steady_clock::now() - engine_tried_ > kRetry) {
    OpenEngine();
  }
  if (engine_ == nullptr) return nullptr;
  if (auto it = sessions_.find(id); it != sessions_.end()) return it->second;
  auto spec = specs_.find(id);
  if (spec == specs_.end()) return nullptr;
  kd_session_params p = kd_session_default_params();
  p.app = spec->second.app;
  p.autocorrect_level = spec->second.autocorrect_level;
  p.no_learn = spec->second.no_learn ? 1 : 0;
  p.n_candidates = spec->second.n_candidates;
  kd_session* session = nullptr;
  if (kd_session_open_lang(engine_, spec->second.language.c_str(), &p, &session) != KD_OK) {
    engine_error_ = kd_last_error();
    return nullptr;
  }
  sessions_[id] = session;
  return session;
}

void DecisionWorker::Serve(Job& job) {
  if (job.kind == Job::kOpen) {
    specs_[job.id] = job.spec;
    return;
  }
  if (job.kind == Job::kClose) {
    if (auto it = sessions_.find(job.id); it != sessions_.end()) {
      kd_session_free(it->second);
      sessions_.erase(it);
    }
    specs_.erase(job.id);
    return;
  }
  Answer answer;
  if (kd_session* session = SessionFor(job.id)) {
    answer = Apply(session, job.edits);
  } else {
    answer.rc = engine_ == nullptr ? engine_rc_ : KD_ERR_NOT_SUPPORTED;
    answer.error = engine_error_;
  }
  Pending& pending = *job.pending;
  {
    std::lock_guard<std::mutex> lock(pending.mu);
    pending.answer = std::move(answer);
    pending.done = true;
  }
  pending.cv.notify_all();
  // Runs on the main loop; dropped by the front end once it shut down.
  post_([p = job.pending] { p->DeliverOnce(); });
}

Answer DecisionWorker::Apply(kd_session* session, const std::vector<Edit>& edits) {
  Answer answer;
  for (const Edit& e : edits) {
    int rc = KD_OK;
    switch (e.kind) {
      case Edit::kType:
        rc = e.t_ms >= 0 ? kd_session_type_at(session, e.text.c_str(), e.t_ms, nullptr)
                         : kd_session_type(session, e.text.c_str(), nullptr);
        break;
      case Edit::kBackspace:
        rc = kd_session_backspace(session, e.count, nullptr);
        break;
      case Edit::kCommit:
        rc = kd_session_commit(session, e.text.c_str(), nullptr);
        break;
      case Edit::kAutocorrect:
        rc = kd_session_autocorrect(session, e.text.c_str(), nullptr);
        break;
      case Edit::kSetContext:
        rc = kd_session_set_context(session, e.text.c_str(), nullptr);
        break;
      case Edit::kPick:
        rc = e.id != 0 ? kd_session_pick(session, e.id, nullptr) : KD_ERR_NOT_SUPPORTED;
        // A daemon without ids, or an id gone stale (an edit came between): the text.
        if (rc == KD_ERR_NOT_SUPPORTED || rc == KD_INVALID_ARGUMENT) {
          rc = kd_session_commit(session, e.text.c_str(), nullptr);
        }
        break;
    }
    if (rc != KD_OK) {
      answer.rc = rc;
      answer.error = kd_last_error();
      return answer;
    }
  }
  kd_decision d;
  answer.rc = kd_session_decide(session, &d);
  if (answer.rc == KD_OK) {
    answer.decision = Copy(session, d);
  } else {
    answer.error = kd_last_error();
  }
  return answer;
}

}  // namespace keydecide::frontend
