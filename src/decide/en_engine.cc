#include "decide/en_engine.h"

#include "decide/baseline_scorer.h"
#include "decide/en_session.h"
#include "decide/model_scorer.h"
#include "decide/pack_files.h"
#include "decide/text_limits.h"
#include "model/simd_target.h"

namespace keydecide {

namespace {

constexpr float kNatsPerPoint = 0.35f;  // search and baseline: one 10-point slip ~ 3.5 nats

}  // namespace

Status OpenEnEngine(const EngineOptions& options, std::unique_ptr<Engine>* out) {
  auto engine = std::make_unique<EnEngine>();
  KD_RETURN_IF_ERROR(engine->Init(options));
  *out = std::move(engine);
  return Status::OK();
}

std::unique_ptr<Session> EnEngine::NewSession(const SessionOptions& options) const {
  return std::make_unique<EnSession>(this, options);
}

Status EnEngine::LoadModel(const std::string& path) {
  KD_RETURN_IF_ERROR(Transformer::Open(path, &model_));
  if (model_->language() != "en") {
    return Status::InvalidArgument(path + ": a model for language '" +
                                   std::string(model_->language()) + "', not 'en'");
  }
  // Map lexicon entries to vocabulary words and back, once, so the hot path does no
  // string lookups.
  entry_word_.assign(lexicon_->entry_count(), -1);
  word_entry_.assign(model_->n_words(), lexicon::kNoEntry);
  double oov_count = 0;
  for (uint32_t e = 0; e < lexicon_->entry_count(); ++e) {
    const int w = model_->vocab().Find(lexicon_->Key(e));
    if (w > ModelConfig::kEmailWord) {
      entry_word_[e] = w;
      word_entry_[w] = e;
    } else {
      oov_count += lexicon_->Count(e);
    }
  }
  scorer_ = std::make_unique<ModelScorer>(lexicon_.get(), model_.get(), oov_count,
                                          ModelScorer::Options());
  info_.model_path = path;
  info_.model_weights = model_->weight_format();
  info_.model_words = model_->n_words();
  info_.intent_labels = model_->config().intent_labels;
  return Status::OK();
}

Status EnEngine::Init(const EngineOptions& options) {
  if (options.max_candidates < 1 || options.max_candidates > kMaxCandidatesLimit) {
    return Status::InvalidArgument("max_candidates must be in 1..200");
  }
  const std::string pack = ResolveModelDir(options) + "/en";
  const std::string lexicon_path =
      options.lexicon_path.empty() ? pack + "/lexicon.kdlex" : options.lexicon_path;
  KD_RETURN_IF_ERROR(Lexicon::Open(lexicon_path, &lexicon_));
  KD_RETURN_IF_ERROR(LoadKeyboardLayout(options, &layout_));
  costs_ = std::make_unique<TypingCosts>(&layout_);
  search_options_.max_candidates = static_cast<size_t>(options.max_candidates);
  search_options_.nats_per_point = kNatsPerPoint;

  info_.language = "en";
  info_.lexicon_path = lexicon_path;
  info_.lexicon_words = lexicon_->entry_count();
  info_.lexicon_bytes = lexicon_->header().file_size;
  info_.keyboard_layout = layout_.name();
  KD_RETURN_IF_ERROR(SelectSimdTarget());
  info_.simd_target = SimdTargetName();

  const std::string model_path = ResolveModelPath(options, pack);
  BaselineScorer::Options o;
  o.nats_per_point = kNatsPerPoint;
  baseline_ = std::make_unique<BaselineScorer>(lexicon_.get(), o);
  if (model_path != "none") {
    KD_RETURN_IF_ERROR(LoadModel(model_path));
  } else {
    scorer_ = std::make_unique<BaselineScorer>(lexicon_.get(), o);
  }
  info_.scorer = scorer_->name();

  // Warm-up: touch the top of the trie and the code paths once, so the first real
  // keystroke does not pay for page faults.
  auto session = NewSession(SessionOptions());
  Decision d;
  for (const char* keys : {"t", "h", "e", " ", "q"}) {
    session->Type(keys);
    session->Decide(3, &d);
  }
  return Status::OK();
}

}  // namespace keydecide
