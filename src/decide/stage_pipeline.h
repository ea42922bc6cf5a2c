// StagePipeline: a pack's stages in the order its table lists them, and Decide's loop over them
// (librime's ConcreteEngine::Compose): each runs on the keystroke's context, its time added to
// its role's field of Decision::timings.
//
// A pack's table is an array of StageEntry: how to make each stage for a session from the pack's
// environment (Env: what its stages are built from, e.g. the pack and the session's state).
// The pipeline makes one of each, in order, when the session opens.

#ifndef KEYDECIDE_DECIDE_STAGE_PIPELINE_H_
#define KEYDECIDE_DECIDE_STAGE_PIPELINE_H_

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "decide/stage.h"
#include "keydecide/status.h"

namespace keydecide {

struct DecideContext;
struct Decision;

// One line of a pack's stage table.
template <typename Env>
struct StageEntry {
  std::unique_ptr<Stage> (*make)(const Env& env);
};

// StageEntry::make for the stage class S of a pack whose context is Context: S(env) when S is
// built from the pack's environment, else S(). The stage must read Context or a context
// Context derives from (what makes the cast in its Run safe).
template <typename S, typename Context, typename Env>
std::unique_ptr<Stage> MakeStage(const Env& env) {
  static_assert(std::is_base_of_v<typename S::context_type, Context>,
                "a stage of another pack's context");
  if constexpr (std::is_constructible_v<S, const Env&>) {
    return std::make_unique<S>(env);
  } else {
    (void)env;
    return std::make_unique<S>();
  }
}

class StagePipeline {
 public:
  StagePipeline() = default;
  // One stage per entry of `table`, in its order.
  template <typename Env>
  StagePipeline(std::span<const StageEntry<Env>> table, const Env& env) {
    for (const StageEntry<Env>& entry : table) Add(entry.make(env));
  }

  // Runs every stage in order on `context` and writes context->out->timings: each role's time
  // (one clock read where the role changes) and the total. A stage's kRescoreWithoutModel
  // (at most once a keystroke) goes back to the first scoring stage, with context->hidden null.
  // REQUIRES: context->out set.
  void Run(DecideContext* context) const;
  // Session::Decide of every pack: InvalidArgument for a negative count; else sets `context`'s
  // Decision and count and runs the stages (Run).
  Status Decide(int max_candidates, Decision* out, DecideContext* context) const;

  std::span<const std::unique_ptr<Stage>> stages() const { return stages_; }

 private:
  void Add(std::unique_ptr<Stage> stage);

  static constexpr size_t kNone = ~size_t{0};
  std::vector<std::unique_ptr<Stage>> stages_;
  size_t first_scoring_ = kNone;  // where kRescoreWithoutModel goes back to
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_STAGE_PIPELINE_H_
