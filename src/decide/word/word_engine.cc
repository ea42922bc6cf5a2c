#include "decide/word/word_engine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "base/mapped_file.h"
#include "decide/baseline_scorer.h"
#include "decide/model_scorer.h"
#include "decide/open_learner.h"
#include "decide/pack_files.h"
#include "decide/popup_features.h"
#include "decide/text_limits.h"
#include "decide/word/teacher_followers.h"
#include "decide/word/word_pack_spec.h"
#include "decide/word/word_session.h"
#include "keydecide/user_store.h"
#include "model/simd_target.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

constexpr float kNatsPerPoint = 0.35f;  // search and baseline: one 10-point slip ~ 3.5 nats

}  // namespace

std::unique_ptr<Session> WordEngine::NewSession(const SessionOptions& options) const {
  return std::make_unique<WordSession>(&pack_, options);
}

Status WordEngine::LoadModel(const std::string& path) {
  KD_RETURN_IF_ERROR(Transformer::Open(path, &pack_.model_));
  if (pack_.model_->language() != pack_.spec().language) {
    return Status::InvalidArgument(path + ": a model for language '" +
                                   std::string(pack_.model_->language()) + "', not '" +
                                   std::string(pack_.spec().language) + "'");
  }
  // Map lexicon entries to vocabulary words and back, once, so the hot path does no
  // string lookups.
  pack_.entry_word_.assign(pack_.lexicon_->entry_count(), -1);
  pack_.word_entry_.assign(pack_.model_->n_words(), lexicon::kNoEntry);
  double oov_count = 0;
  for (uint32_t e = 0; e < pack_.lexicon_->entry_count(); ++e) {
    const int w = pack_.model_->vocab().Find(pack_.lexicon_->Key(e));
    if (w > ModelConfig::kEmailWord) {
      pack_.entry_word_[e] = w;
      pack_.word_entry_[w] = e;
    } else {
      oov_count += pack_.lexicon_->Count(e);
    }
  }
  pack_.oov_count_ = oov_count;
  pack_.scorer_ = std::make_unique<ModelScorer>(pack_.lexicon_.get(), pack_.model_.get(), oov_count,
                                                ModelScorer::Options());
  info_.model_path = path;
  info_.model_weights = pack_.model_->weight_format();
  info_.model_words = pack_.model_->n_words();
  info_.intent_labels = pack_.model_->config().intent_labels;
  return Status::OK();
}

// The small model shares the typing model's word indices (the lexicon maps, the scorer's
// rows), so its vocabulary must be the same, word for word.
Status WordEngine::LoadSmallModel(const std::string& path) {
  std::unique_ptr<Transformer> small;
  KD_RETURN_IF_ERROR(Transformer::Open(path, &small));
  const Transformer& model = *pack_.model_;
  bool same = small->language() == pack_.spec().language && small->n_words() == model.n_words() &&
              small->config().intent_labels == model.config().intent_labels;
  for (int w = 0; same && w < model.n_words(); ++w) {
    same = small->vocab().Word(w) == model.vocab().Word(w);
  }
  if (!same) {
    return Status::InvalidArgument(path + ": the small model's language, vocabulary or intents " +
                                   "are not the typing model's (" + info_.model_path + ")");
  }
  pack_.small_model_ = std::move(small);
  pack_.small_scorer_ = std::make_unique<ModelScorer>(
      pack_.lexicon_.get(), pack_.small_model_.get(), pack_.oov_count_, ModelScorer::Options());
  info_.small_model_path = path;
  return Status::OK();
}

// A word pack's bigram has one word per lexicon entry, numbered in key order (word_bigram.h):
// checked here, as the candidates' prefix ranges rely on it.
Status WordEngine::MapBigramWords() {
  const Lexicon& lex = *pack_.lexicon_;
  const WordBigram& bigram = *pack_.bigram_;
  if (bigram.word_count() != lex.entry_count() + 1) {
    return Status::InvalidArgument("not a word bigram of a word pack (one word per lexicon entry)");
  }
  pack_.bigram_entry_.assign(bigram.word_count(), lexicon::kNoEntry);
  for (uint32_t e = 0; e < lex.entry_count(); ++e) {
    const uint32_t w = bigram.WordOf(lex.VariantIndex(e, 0));
    for (size_t v = 1; v < lex.Variants(e).size(); ++v) {
      if (bigram.WordOf(lex.VariantIndex(e, v)) != w) {
        return Status::InvalidArgument(
            "not a word bigram of a word pack (spellings of one word differ)");
      }
    }
    if (pack_.bigram_entry_[w] != lexicon::kNoEntry) {
      return Status::InvalidArgument("not a word bigram of a word pack (two entries share a word)");
    }
    pack_.bigram_entry_[w] = e;
  }
  for (uint32_t w = 2; w < bigram.word_count(); ++w) {
    if (!(lex.Key(pack_.bigram_entry_[w - 1]) < lex.Key(pack_.bigram_entry_[w]))) {
      return Status::InvalidArgument("not a word bigram of a word pack (words not in key order)");
    }
  }
  return Status::OK();
}

WordEngine::~WordEngine() { pack_.fine_tuner_.reset(); }

Status WordEngine::FlushLearning() {
  return pack_.learner_ ? pack_.learner_->Flush() : Status::OK();
}

Status WordEngine::FineTune(std::string* summary) {
  return FineTuneNow(pack_.learner_.get(), pack_.fine_tuner_.get(), summary);
}

void WordEngine::OpenPersonal(const EngineOptions& options, const std::string& pack_dir) {
  OpenLearner(options, std::string(pack_.spec().language), nullptr, &pack_.learner_,
              &info_.personal);
  if (pack_.learner_ == nullptr) return;
  pack_.learning_ = options.learn;
  pack_.personal_weights_ = {options.user_word_weight, options.user_pair_weight,
                             options.user_new_word_bonus, options.fine_tune_weight,
                             options.user_app_share};
  if (pack_.model_ == nullptr) return;
  OpenFineTuner(options, std::string(pack_.spec().language), pack_.model_.get(),
                TypedAdapterExamples(pack_.model_.get(), pack_.spec().rule), pack_.learner_.get(),
                pack_dir, &pack_.fine_tuner_);
}

Status WordEngine::LoadLexicon(const EngineOptions& options, const std::string& lexicon_path) {
  KD_RETURN_IF_ERROR(Lexicon::Open(lexicon_path, &pack_.lexicon_));
  const std::string_view language = pack_.spec().language;
  if (const std::string& lang = pack_.lexicon_->header().language; lang != language) {
    return Status::InvalidArgument(lexicon_path + ": a lexicon for language '" + lang + "', not '" +
                                   std::string(language) + "'");
  }
  if (pack_.spec().index_apostrophes) pack_.apostrophes_ = ApostropheIndex(*pack_.lexicon_);
  if (!(std::isfinite(options.word_bigram_weight) && options.word_bigram_weight >= 0 &&
        options.word_bigram_weight <= 10)) {
    return Status::InvalidArgument("word_bigram_weight must be in 0..10");
  }
  if (const std::string words_path = BesideLexicon(lexicon_path, ".kdws");
      std::filesystem::exists(words_path)) {
    KD_RETURN_IF_ERROR(WordSet::Open(words_path, &pack_.known_words_));
  }
  if (const std::string bigram_path = BesideLexicon(lexicon_path, ".kdbg");
      options.word_bigram_weight > 0 && std::filesystem::exists(bigram_path)) {
    KD_RETURN_IF_ERROR(WordBigram::Open(bigram_path, *pack_.lexicon_, &pack_.bigram_));
    const Status mapped = MapBigramWords();
    if (!mapped.ok()) return mapped.Annotated(bigram_path);
    pack_.bigram_weight_ = options.word_bigram_weight;
  }
  if (!(std::isfinite(options.teacher_weight) && options.teacher_weight >= 0 &&
        options.teacher_weight <= 10)) {
    return Status::InvalidArgument("teacher_weight must be in 0..10");
  }
  if (const std::string teacher_path = BesideLexicon(lexicon_path, ".kdng");
      pack_.bigram_ != nullptr && options.teacher_weight > 0 &&
      std::filesystem::exists(teacher_path)) {
    KD_RETURN_IF_ERROR(WordNgram::Open(teacher_path, *pack_.lexicon_, &pack_.teacher_));
    pack_.teacher_->IndexTopBigrams(TeacherFollowers::kFollowers);
    pack_.teacher_weight_ = options.teacher_weight;
  }
  return Status::OK();
}

Status WordEngine::LoadModels(const EngineOptions& options, const std::string& pack) {
  const std::string model_path = ResolveModelPath(options, pack);
  BaselineScorer::Options o;
  o.nats_per_point = kNatsPerPoint;
  pack_.baseline_ = std::make_unique<BaselineScorer>(pack_.lexicon_.get(), o);
  if (model_path == "none") {
    pack_.scorer_ = std::make_unique<BaselineScorer>(pack_.lexicon_.get(), o);
    return Status::OK();
  }
  KD_RETURN_IF_ERROR(LoadModel(model_path));
  const std::string small_path = ResolveSmallModelPath(options, pack);
  if (small_path != "none") KD_RETURN_IF_ERROR(LoadSmallModel(small_path));
  if (const std::string popup_path = ResolvePopupNetPath(options, pack); popup_path != "none") {
    KD_RETURN_IF_ERROR(PopupNet::Open(popup_path, kPopupFeatureNames, &pack_.popup_net_));
    info_.popup_net_path = popup_path;
  }
  if (const std::string path = ResolveIntentNgramsPath(options, pack); path != "none") {
    KD_RETURN_IF_ERROR(
        IntentNgrams::Open(path, pack_.model_->config().intent_labels, &pack_.intent_ngrams_));
    info_.intent_ngrams_path = path;
  }
  return Status::OK();
}

Status WordEngine::Init(const EngineOptions& options, const WordPackSpec& spec) {
  pack_.spec_ = &spec;
  if (options.max_candidates < 0 || options.max_candidates > kMaxCandidatesLimit) {
    return Status::InvalidArgument("max_candidates must be in 0..200 (0: the default)");
  }
  if (!(options.user_app_share >= 0 && options.user_app_share <= 1)) {
    return Status::InvalidArgument("user_app_share must be in 0..1");
  }
  if (!(options.fine_tune_weight >= 0 && options.fine_tune_weight <= 10)) {
    return Status::InvalidArgument("fine_tune_weight must be in 0..10");
  }
  PackDir dir;
  KD_RETURN_IF_ERROR(ResolvePackDir(options, spec.language, &dir));
  const std::string pack = dir.dir.empty() ? "" : dir.dir + "/" + std::string(spec.language);
  const std::string lexicon_path =
      options.lexicon_path.empty() ? pack + "/lexicon.kdlex" : options.lexicon_path;
  KD_RETURN_IF_ERROR(LoadLexicon(options, lexicon_path));
  KD_RETURN_IF_ERROR(LoadKeyboardLayout(options, dir, &pack_.layout_));
  pack_.costs_ = std::make_unique<TypingCosts>(&pack_.layout_);
  pack_.search_options_.max_candidates = static_cast<size_t>(
      options.max_candidates != 0 ? options.max_candidates : spec.default_candidates);
  pack_.search_options_.nats_per_point = kNatsPerPoint;

  info_.language = std::string(spec.language);
  info_.traits = spec.traits();
  info_.lexicon_path = lexicon_path;
  info_.lexicon_words = pack_.lexicon_->entry_count();
  info_.lexicon_bytes = pack_.lexicon_->header().file_size;
  info_.keyboard_layout = pack_.layout_.name();
  KD_RETURN_IF_ERROR(SelectSimdTarget());
  info_.simd_target = SimdTargetName();

  KD_RETURN_IF_ERROR(LoadModels(options, pack));
  info_.ladder = {Tier::kLexiconOnly};
  if (pack_.model_ != nullptr) {
    info_.ladder = {Tier::kFullModel, Tier::kNoVocabProposals, Tier::kLexiconOnly};
    if (pack_.small_model_ != nullptr) {
      info_.ladder.insert(info_.ladder.begin() + 2, Tier::kSmallModel);
    }
  }
  info_.scorer = pack_.scorer_->name();
  if (pack_.bigram_ != nullptr) info_.scorer += "+bigram";
  if (pack_.teacher_ != nullptr) info_.scorer += "+teacher";
  OpenPersonal(options, pack);

  // Warm-up: touch the top of the trie and the code paths once, so the first real
  // keystroke does not pay for page faults. It learns nothing.
  SessionOptions warm_up;
  warm_up.no_learn = true;
  auto session = NewSession(warm_up);
  Decision d;
  for (const char* keys : spec.warm_up_keys) {
    session->Type(keys);
    session->Decide(3, &d);
  }
  return Status::OK();
}

}  // namespace keydecide
