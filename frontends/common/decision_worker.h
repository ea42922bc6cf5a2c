// DecisionWorker: the thread that owns the keydecide engine (opened in this process, or a
// connection to the keydecided daemon) and every input context's session, so that a front
// end's event loop (fcitx5's, IBus's GLib loop) never waits on an engine load, a model step or
// the daemon. Shared by the front ends; it knows none of their frameworks.
//
// The main loop queues a batch of edits for a session (Submit); the worker applies them in
// order through the C ABI and answers with the decision for the state after the last. The
// answer reaches the main loop exactly once: through the front end's Post, or at once when the
// main loop waits for it (Wait, bounded) to draw the decision with the key that caused it.
//
// Thread-safety: Open, Submit, Wait and Close are called on the front end's main thread only.

#ifndef KEYDECIDE_FRONTENDS_COMMON_DECISION_WORKER_H_
#define KEYDECIDE_FRONTENDS_COMMON_DECISION_WORKER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "keydecide/keydecide.h"

namespace keydecide::frontend {

// How the worker reaches an engine.
struct EngineSetup {
  bool daemon = false;      // connect to keydecided instead of opening the engine here
  std::string socket_path;  // daemon: "" for the default socket
  // daemon: when none answers at the start, open the engine here instead (and stay so)
  bool fall_back_in_process = false;
  std::string model_dir;   // in-process: "" for the default search (docs/INTEGRATION.md)
  std::string layout;      // in-process: keyboard layout name or file ("" qwerty)
  bool personal = false;   // in-process: learn the person's words (the user store)
  std::string user_store;  // ... "" for the default store
};

// What a session is opened with (kd_session_params).
struct SessionSpec {
  std::string language;  // "en", "zh"
  int32_t app = KD_APP_CHAT;
  int32_t autocorrect_level = KD_AUTOCORRECT_NORMAL;
  bool no_learn = false;
  int32_t n_candidates = 10;
};

// One edit of kd_session_* (count: backspace; t_ms < 0: untimed). kPick picks the candidate
// `id` of the session's last decision (kd_session_pick); a daemon too old to pick by id gets
// `text` committed instead.
struct Edit {
  enum Kind { kType, kBackspace, kCommit, kAutocorrect, kSetContext, kPick } kind;
  std::string text;
  int32_t count = 1;
  int64_t t_ms = -1;
  uint32_t id = 0;
};

// A kd_decision copied out of the worker's storage.
struct DecisionCopy {
  struct Candidate {
    std::string text;
    int32_t kind = KD_COMPLETION;
    uint32_t id = 0;  // what Edit::kPick names it by (0 from a daemon too old to send ids)
  };
  std::vector<Candidate> candidates;
  std::string composition;
  std::string preedit;
  bool popup_show = false;
  bool autocorrect_apply = false;
  std::string autocorrect_replacement;
  bool shortcut_fire = false;  // kd_session_shortcut: expand `shortcut` as the word ends
  std::string shortcut;
};

struct Answer {
  int rc = KD_OK;     // of the first edit that failed, else of the decision
  std::string error;  // kd_last_error() when rc != KD_OK
  DecisionCopy decision;
};

class DecisionWorker {
 public:
  using SessionId = uint64_t;
  using Deliver = std::function<void(const Answer&)>;
  // Runs a function on the main loop, later (fcitx5's EventDispatcher, GLib's idle source).
  // Called on the worker thread; it may drop the function once the front end shuts down.
  using Post = std::function<void(std::function<void()>)>;

  // Starts the thread, which opens the engine first. REQUIRES: `post` stays callable until
  // this object is destroyed.
  DecisionWorker(EngineSetup setup, Post post);
  // Stops the thread after the work queued; frees every session and the engine.
  ~DecisionWorker();

  DecisionWorker(const DecisionWorker&) = delete;
  DecisionWorker& operator=(const DecisionWorker&) = delete;

  // A new session, opened on the worker before its first edit.
  SessionId Open(const SessionSpec& spec);
  void Close(SessionId id);

  // One queued batch; Submit's handle for Wait.
  struct Pending;

  // Queues `edits` for session `id`, then a decision; `deliver` gets the answer once, on the
  // main loop.
  std::shared_ptr<Pending> Submit(SessionId id, std::vector<Edit> edits, Deliver deliver);

  // Waits at most `timeout` for `pending`'s answer; when it came, delivers it now (unless it
  // was already) and returns true.
  bool Wait(const std::shared_ptr<Pending>& pending, std::chrono::milliseconds timeout);

 private:
  struct Job {
    SessionId id;
    enum { kOpen, kEdits, kClose } kind;
    SessionSpec spec;         // kOpen
    std::vector<Edit> edits;  // kEdits
    std::shared_ptr<Pending> pending;
  };

  void Run();
  void OpenEngine();
  kd_session* SessionFor(SessionId id);
  void Serve(Job& job);
  Answer Apply(kd_session* session, const std::vector<Edit>& edits);

  const EngineSetup setup_;
  const Post post_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  SessionId next_id_ = 1;

  // The worker thread's own: the engine and the sessions (by id).
  kd_engine* engine_ = nullptr;
  bool in_process_ = false;  // fell back from the daemon (fall_back_in_process)
  int engine_rc_ = KD_OK;
  std::string engine_error_;
  std::chrono::steady_clock::time_point engine_tried_;
  std::unordered_map<SessionId, SessionSpec> specs_;     // every open session's
  std::unordered_map<SessionId, kd_session*> sessions_;  // ... those opened on the engine

  std::thread thread_;
};

}  // namespace keydecide::frontend

#endif  // KEYDECIDE_FRONTENDS_COMMON_DECISION_WORKER_H_
