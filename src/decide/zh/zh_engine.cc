#include "decide/zh/zh_engine.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "decide/open_learner.h"
#include "decide/pack_files.h"
#include "decide/text_limits.h"
#include "decide/zh/keystroke_step.h"
#include "decide/zh/zh_adapter_examples.h"
#include "model/simd_target.h"

namespace keydecide {

namespace {

constexpr size_t kMinSearchCandidates = 50;

// PinyinOptions::fuzzy: "z/zh,n/l", "all" or "" into FuzzyPinyin bits.
Status ParseFuzzyPinyin(std::string_view spec, uint8_t* bits) {
  static constexpr std::pair<std::string_view, FuzzyPinyin> kPairs[] = {
      {"z/zh", kFuzzyZZh},     {"c/ch", kFuzzyCCh},     {"s/sh", kFuzzySSh},    {"n/l", kFuzzyNL},
      {"an/ang", kFuzzyAnAng}, {"en/eng", kFuzzyEnEng}, {"in/ing", kFuzzyInIng}};
  *bits = 0;
  if (spec == "all") {
    *bits = kFuzzyAll;
    return Status::OK();
  }
  if (spec.empty()) return Status::OK();
  for (bool more = true; more;) {  // every comma separates two names: "z/zh," is refused
    const size_t comma = spec.find(',');
    const std::string_view name = spec.substr(0, comma);
    more = comma != std::string_view::npos;
    if (more) spec.remove_prefix(comma + 1);
    const auto* pair = std::find_if(std::begin(kPairs), std::end(kPairs),
                                    [&](const auto& p) { return p.first == name; });
    if (pair == std::end(kPairs)) {
      return Status::InvalidArgument("pinyin.fuzzy: unknown pair '" + std::string(name) +
                                     "' (z/zh, c/ch, s/sh, n/l, an/ang, en/eng, in/ing, or all)");
    }
    *bits |= pair->second;
  }
  return Status::OK();
}

bool InRange(float x, float low, float high) { return x >= low && x <= high; }  // false for NaN

// EngineOptions::pinyin, checked before anything loads; InvalidArgument names the field.
Status ValidatePinyinOptions(const PinyinOptions& o) {
  if (o.beam_width < 1 || o.beam_width > 64) {
    return Status::InvalidArgument("pinyin.beam_width must be in 1..64");
  }
  if (!InRange(o.teacher_weight, 0, 1) || !InRange(o.teacher_weight_code, 0, 1)) {
    return Status::InvalidArgument(
        "pinyin.teacher_weight and pinyin.teacher_weight_code must be in 0..1");
  }
  if (!InRange(o.model_weight, 0, 10)) {
    return Status::InvalidArgument("pinyin.model_weight must be in 0..10");
  }
  if (!InRange(o.user_word_weight, 0, 10) || !InRange(o.user_pair_weight, 0, 10)) {
    return Status::InvalidArgument(
        "pinyin.user_word_weight and pinyin.user_pair_weight must be in 0..10");
  }
  if (!InRange(o.fine_tune_weight, 0, 10)) {
    return Status::InvalidArgument("pinyin.fine_tune_weight must be in 0..10");
  }
  uint8_t fuzzy;
  return ParseFuzzyPinyin(o.fuzzy, &fuzzy);
}

}  // namespace

std::unique_ptr<Session> ZhEngine::NewSession(const SessionOptions& options) const {
  ZhSessionPersonal personal;
  personal.learner = learner_.get();
  personal.learn = learner_ != nullptr && learning_ && !options.no_learn;
  personal.weights = {user_word_weight_, user_pair_weight_, user_app_share_};
  personal.tuner = fine_tuner_.get();
  personal.fine_tune_weight = fine_tune_weight_;
  PinyinSentenceSearch::Options sentence_options = sentence_options_;
  sentence_options.teacher_weight =
      options.app == AppType::kCode ? teacher_weight_code_ : teacher_weight_;
  return std::make_unique<ZhSession>(lexicon_.get(), bigram_.get(), search_options_,
                                     sentence_options, session_model_, stages_, options.app,
                                     personal);
}

Status ZhEngine::FlushLearning() { return learner_ ? learner_->Flush() : Status::OK(); }

Status ZhEngine::FineTune(std::string* summary) {
  return FineTuneNow(learner_.get(), fine_tuner_.get(), summary);
}

uint32_t ZhEngine::VariantOf(const UserWords::Word& word) const {
  if (word.letters.empty()) return UserWords::kNoTag;
  const uint32_t entry = lexicon_->Find(word.letters);
  if (entry == lexicon::kNoEntry) return UserWords::kNoTag;
  const std::span<const lexicon::Variant> variants = lexicon_->Variants(entry);
  for (size_t v = 0; v < variants.size(); ++v) {
    if (lexicon_->VariantText(variants[v]) == word.spelling)
      return lexicon_->VariantIndex(entry, v);
  }
  return UserWords::kNoTag;
}

void ZhEngine::OpenPersonal(const EngineOptions& options, const std::string& pack_dir) {
  OpenLearner(
      options, "zh", [this](const UserWords::Word& w) { return VariantOf(w); }, &learner_,
      &info_.personal);
  learning_ = learner_ != nullptr && options.learn;
  user_word_weight_ = options.pinyin.user_word_weight;
  user_pair_weight_ = options.pinyin.user_pair_weight;
  user_app_share_ = options.user_app_share;
  fine_tune_weight_ = options.pinyin.fine_tune_weight;
  if (model_ != nullptr) {
    OpenFineTuner(options, "zh", model_.get(), ZhAdapterExamples(model_.get(), context_.get()),
                  learner_.get(), pack_dir, &fine_tuner_);
  }
}

Status ZhEngine::LoadLexicon(const EngineOptions& options, const std::string& lexicon_path) {
  const PinyinOptions& pinyin = options.pinyin;
  KD_RETURN_IF_ERROR(Lexicon::Open(lexicon_path, &lexicon_));
  if (lexicon_->header().language != "zh") {
    std::string message = lexicon_path;
    message += ": not a pinyin-keyed (zh) lexicon";
    return Status::InvalidArgument(message);
  }
  if (const std::string bigram_path = BesideLexicon(lexicon_path, ".kdbg");
      std::filesystem::exists(bigram_path)) {
    KD_RETURN_IF_ERROR(WordBigram::Open(bigram_path, *lexicon_, &bigram_));
  }
  if (const std::string teacher_path = BesideLexicon(lexicon_path, ".kdng");
      bigram_ != nullptr && (pinyin.teacher_weight > 0 || pinyin.teacher_weight_code > 0) &&
      std::filesystem::exists(teacher_path)) {
    KD_RETURN_IF_ERROR(WordNgram::Open(teacher_path, *lexicon_, &teacher_));
    sentence_options_.teacher = teacher_.get();
    teacher_weight_ = pinyin.teacher_weight;
    teacher_weight_code_ = pinyin.teacher_weight_code;
  }
  return Status::OK();
}

Status ZhEngine::Init(const EngineOptions& options, std::span<const StageEntry<PinyinEnv>> stages,
                      const PackTraits& traits) {
  stages_ = stages;
  const PinyinOptions& pinyin = options.pinyin;
  if (options.max_candidates < 0 || options.max_candidates > kMaxCandidatesLimit) {
    return Status::InvalidArgument("max_candidates must be in 0..200 (0: the default)");
  }
  KD_RETURN_IF_ERROR(ValidatePinyinOptions(pinyin));
  if (!(options.user_app_share >= 0 && options.user_app_share <= 1)) {
    return Status::InvalidArgument("user_app_share must be in 0..1");
  }
  PackDir dir;
  KD_RETURN_IF_ERROR(ResolvePackDir(options, "zh", &dir));
  const std::string pack = dir.dir.empty() ? "" : dir.dir + "/zh";
  std::string lexicon_path = options.lexicon_path;
  if (lexicon_path.empty()) lexicon_path = pack + "/lexicon.kdlex";
  KD_RETURN_IF_ERROR(LoadLexicon(options, lexicon_path));
  search_options_.max_candidates =
      std::max(kMinSearchCandidates, static_cast<size_t>(options.max_candidates));
  sentence_options_.beam_width = static_cast<size_t>(pinyin.beam_width);
  PinyinLattice::Options lattice;
  KD_RETURN_IF_ERROR(ParseFuzzyPinyin(pinyin.fuzzy, &lattice.fuzzy));
  if (pinyin.typos) {
    lattice.typos = kTypoAll;
    KD_RETURN_IF_ERROR(LoadKeyboardLayout(options, dir, &layout_));
    lattice.layout = &layout_;
    info_.keyboard_layout = options.keyboard_layout;  // only the slips read it
  }
  search_options_.lattice = lattice;
  sentence_options_.lattice = lattice;
  if (const std::string model_path = ResolveModelPath(options, pack); model_path != "none") {
    KD_RETURN_IF_ERROR(LoadModel(model_path, pinyin.model_weight));
  }

  info_.language = "zh";
  info_.traits = traits;
  // No vocabulary proposals here: the model runs whole or not at all.
  info_.ladder = model_ != nullptr ? std::vector<Tier>{Tier::kFullModel, Tier::kLexiconOnly}
                                   : std::vector<Tier>{Tier::kLexiconOnly};
  info_.lexicon_path = lexicon_path;
  info_.lexicon_words = lexicon_->entry_count();
  info_.lexicon_bytes = lexicon_->header().file_size;
  info_.scorer = bigram_ != nullptr ? "lexicon+bigram" : "lexicon";
  if (teacher_ != nullptr) info_.scorer += "+teacher";
  if (model_ != nullptr) info_.scorer += "+model";
  KD_RETURN_IF_ERROR(SelectSimdTarget());
  info_.simd_target = SimdTargetName();

  // Warm-up (before the learner: a session it makes learns nothing, but it must not try): touch the
  // top of the trie and the code paths once.
  auto session = NewSession(SessionOptions());
  Decision d;
  for (const char* keys : {"n", "i", "h", "a", "o"}) {
    session->Type(keys);
    session->Decide(3, &d);
  }
  session.reset();
  OpenPersonal(options, pack);
  return Status::OK();
}

Status ZhEngine::LoadModel(const std::string& path, float weight) {
  KD_RETURN_IF_ERROR(Transformer::Open(path, &model_));
  if (model_->language() != "zh") {
    return Status::InvalidArgument(path + ": a model for language '" +
                                   std::string(model_->language()) + "', not 'zh'");
  }
  if (model_->config().max_len < static_cast<int>(KeystrokeStep::kMaxKeys) + 3) {
    return Status::InvalidArgument(path + ": max_len " + std::to_string(model_->config().max_len) +
                                   " is too short for a composition's keystrokes (at least " +
                                   std::to_string(KeystrokeStep::kMaxKeys + 3) + ")");
  }
  context_ = std::make_unique<ZhContext>(model_.get(), lexicon_.get());
  session_model_.model = model_.get();
  session_model_.context = context_.get();
  session_model_.sentence_weight = weight;
  session_model_.lm.slots =
      ZhState::kSentencesRescored + 4;  // a keystroke's sentences, the keys, more
  const double oov = static_cast<double>(lexicon_->total_count()) - context_->in_vocabulary_count();
  session_model_.log_oov_count = static_cast<float>(std::log(std::max(oov, 1.0)));
  const std::vector<std::string>& labels = model_->config().intent_labels;
  const auto latin = std::find(labels.begin(), labels.end(), "latin");
  session_model_.latin_label =
      latin == labels.end() ? -1 : static_cast<int>(latin - labels.begin());
  info_.intent_labels = labels;
  info_.model_path = path;
  info_.model_weights = model_->weight_format();
  info_.model_words = model_->n_words();
  return Status::OK();
}

}  // namespace keydecide
