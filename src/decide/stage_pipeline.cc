#include "decide/stage_pipeline.h"

#include <chrono>

#include "decide/decide_context.h"
#include "decide/stage_clock.h"
#include "keydecide/decision.h"

namespace keydecide {

namespace {

float* TimingOf(StageRole role, StageTimings* timings) {
  switch (role) {
    case StageRole::kFeatures:
      return &timings->features_us;
    case StageRole::kCandidates:
      return &timings->candidates_us;
    case StageRole::kModel:
      return &timings->model_us;
    case StageRole::kScoring:
      return &timings->heads_us;
    case StageRole::kWriting:
      break;
  }
  return &timings->post_us;
}

}  // namespace

void StagePipeline::Add(std::unique_ptr<Stage> stage) {
  if (stage->role() == StageRole::kScoring && first_scoring_ == kNone) {
    first_scoring_ = stages_.size();
  }
  stages_.push_back(std::move(stage));
}

void StagePipeline::Run(DecideContext* context) const {
  StageTimings& timings = context->out->timings;
  timings = StageTimings();
  Clock::time_point t = Clock::now();
  const Clock::time_point t0 = t;
  bool rescored = false;
  for (size_t i = 0; i < stages_.size(); ++i) {
    const Stage& stage = *stages_[i];
    const StageResult result = stages_[i]->Run(context);
    const bool role_ends = i + 1 == stages_.size() || stages_[i + 1]->role() != stage.role();
    if (role_ends || result != StageResult::kContinue) {
      *TimingOf(stage.role(), &timings) += MicrosSince(&t);
    }
    if (result == StageResult::kRescoreWithoutModel && !rescored && first_scoring_ != kNone) {
      rescored = true;
      context->hidden = nullptr;
      i = first_scoring_ - 1;  // the loop's ++i lands on it (unsigned: also from 0)
    }
  }
  timings.total_us = std::chrono::duration<float, std::micro>(t - t0).count();
}

Status StagePipeline::Decide(int max_candidates, Decision* out, DecideContext* context) const {
  if (max_candidates < 0) return Status::InvalidArgument("max_candidates < 0");
  context->out = out;
  context->max_candidates = max_candidates;
  Run(context);
  return Status::OK();
}

}  // namespace keydecide
