// StagePipeline: the stages run in the table's order, each role's time lands in its field of
// Decision::timings, and a writer's kRescoreWithoutModel runs the scoring and writing stages
// once more with the model's state dropped.

#include "decide/stage_pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "decide/candidate_source.h"
#include "decide/decide_context.h"
#include "decide/decision_writer.h"
#include "decide/feature_reader.h"
#include "decide/model_step.h"
#include "decide/score_adjuster.h"
#include "keydecide/decision.h"

namespace keydecide {
namespace {

// A context that records which stages ran.
struct TraceContext : DecideContext {
  std::vector<std::string> ran;
  int rescore_requests = 0;
};

struct Env {
  int unused = 0;
};

class Features : public FeatureReader<TraceContext> {
 public:
  const char* name() const override { return "features"; }

 protected:
  void Read(TraceContext* c) override { c->ran.push_back("features"); }
};

class Source : public CandidateSource<TraceContext> {
 public:
  const char* name() const override { return "source"; }

 protected:
  void Gather(TraceContext* c) override { c->ran.push_back("source"); }
};

class Model : public ModelStep<TraceContext> {
 public:
  const char* name() const override { return "model"; }

 protected:
  void Step(TraceContext* c) override {
    static const float kState[1] = {1};
    c->hidden = kState;
    c->ran.push_back("model");
  }
};

class Scorer : public ScoreAdjuster<TraceContext> {
 public:
  const char* name() const override { return "score"; }

 protected:
  void Adjust(TraceContext* c) override {
    c->ran.push_back(c->hidden != nullptr ? "score(model)" : "score(lexicon)");
  }
};

// Asks once for a rescore while the model's state is set.
class Fallback : public DecisionWriter<TraceContext> {
 public:
  const char* name() const override { return "fallback"; }

 protected:
  StageResult Write(TraceContext* c) override {
    c->ran.push_back("fallback");
    if (c->hidden == nullptr) return StageResult::kContinue;
    ++c->rescore_requests;
    return StageResult::kRescoreWithoutModel;
  }
};

class Last : public DecisionWriter<TraceContext> {
 public:
  explicit Last(const Env& /*env*/) {}
  const char* name() const override { return "last"; }

 protected:
  StageResult Write(TraceContext* c) override {
    c->ran.push_back("last");
    return StageResult::kContinue;
  }
};

template <typename S>
constexpr StageEntry<Env> Make = {MakeStage<S, TraceContext, Env>};

constexpr StageEntry<Env> kTable[] = {Make<Features>, Make<Source>,   Make<Model>,
                                      Make<Scorer>,   Make<Fallback>, Make<Last>};

TEST(StagePipelineTest, RunsTheTableInOrderAndRescoresOnceWithoutTheModel) {
  const StagePipeline pipeline(std::span<const StageEntry<Env>>(kTable), Env{});
  ASSERT_EQ(pipeline.stages().size(), 6u);
  EXPECT_STREQ(pipeline.stages()[0]->name(), "features");
  EXPECT_EQ(pipeline.stages()[3]->role(), StageRole::kScoring);
  Decision d;
  d.timings.total_us = -1;
  TraceContext context;
  context.out = &d;
  pipeline.Run(&context);
  const std::vector<std::string> expected = {"features",     "source",   "model",
                                             "score(model)", "fallback", "score(lexicon)",
                                             "fallback",     "last"};
  EXPECT_EQ(context.ran, expected);
  EXPECT_EQ(context.rescore_requests, 1);
  EXPECT_EQ(context.hidden, nullptr);
  EXPECT_GE(d.timings.total_us, 0);
  EXPECT_GE(d.timings.total_us, d.timings.features_us + d.timings.candidates_us +
                                    d.timings.model_us + d.timings.heads_us + d.timings.post_us -
                                    1.0f);
}

}  // namespace
}  // namespace keydecide
