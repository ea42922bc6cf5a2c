// Stage: one step of the per-keystroke pipeline, with one job and one entry point (librime's
// Processor). A pack lists its stages in one table; Decide runs them in order (StagePipeline).
//
// A stage has a role, which says which of Decision::timings its time goes to and what it may
// touch: a feature reader reads the session's state, a candidate source adds candidates, a model
// step runs the model, a score adjuster changes scores, a decision writer writes the Decision
// (candidates, heads, shortcuts). The roles are the small interfaces below it:
// feature_reader.h, candidate_source.h, model_step.h, score_adjuster.h, decision_writer.h.

#ifndef KEYDECIDE_DECIDE_STAGE_H_
#define KEYDECIDE_DECIDE_STAGE_H_

namespace keydecide {

struct DecideContext;

// Each role's time goes to one field of StageTimings: features_us, candidates_us, model_us,
// heads_us (scoring), post_us (writing).
enum class StageRole : int { kFeatures, kCandidates, kModel, kScoring, kWriting };

enum class StageResult : int {
  kContinue,
  // The model's outputs overflowed on this input: the pipeline runs its scoring and writing
  // stages again with DecideContext::hidden null (the lexicon rung). The stage that asks has
  // rolled the context back to what the model's step found (the candidates it gathered).
  kRescoreWithoutModel,
};

class Stage {
 public:
  virtual ~Stage() = default;
  // For traces and tests: what the pack's table calls it.
  virtual const char* name() const = 0;
  virtual StageRole role() const = 0;
  // Runs on every Decide. Called on the hot path: must not allocate once warm.
  virtual StageResult Run(DecideContext* context) = 0;
};

// The role interfaces are typed on the context their stages read (a pack's context derives from
// DecideContext); StagePipeline only builds a pack's table from stages whose context type is
// the pack's or one it derives from, so the cast in Run is safe.
template <typename Context, StageRole kRole>
class TypedStage : public Stage {
 public:
  using context_type = Context;
  StageRole role() const final { return kRole; }
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_STAGE_H_
