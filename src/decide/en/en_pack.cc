#include "decide/en/en_pack.h"

#include "decide/en/apostrophe_words.h"
#include "decide/en/english_word.h"
#include "decide/en/spelling_rules.h"
#include "decide/refresh_personal.h"
#include "decide/shortcut_writer.h"
#include "decide/word/adapter_delta.h"
#include "decide/word/autocorrect_head.h"
#include "decide/word/bigram_followers.h"
#include "decide/word/bigram_score.h"
#include "decide/word/intent_head.h"
#include "decide/word/lexicon_candidates.h"
#include "decide/word/model_fallback.h"
#include "decide/word/popup_head.h"
#include "decide/word/previous_word.h"
#include "decide/word/score_candidates.h"
#include "decide/word/session_words.h"
#include "decide/word/teacher_followers.h"
#include "decide/word/teacher_score.h"
#include "decide/word/typed_candidate.h"
#include "decide/word/user_bonus.h"
#include "decide/word/user_candidates.h"
#include "decide/word/word_engine.h"
#include "decide/word/word_features.h"
#include "decide/word/word_model_step.h"
#include "decide/word/word_pack_spec.h"
#include "decide/word/write_candidates.h"

namespace keydecide {

namespace {

template <typename S>
constexpr StageEntry<WordEnv> Make = {MakeStage<S, WordContext, WordEnv>};

// The English gear table: every keystroke runs these, in this order.
constexpr StageEntry<WordEnv> kStages[] = {
    // Features: the composition, the person's newest words, the word before.
    Make<WordFeatures>,
    Make<RefreshPersonal>,
    Make<PreviousWord>,
    // Candidates.
    Make<LexiconCandidates>,
    Make<SessionWords>,
    Make<ApostropheWords>,
    Make<BigramFollowers>,
    Make<TeacherFollowers>,
    Make<UserCandidates>,
    // Model: its step, and at a word start its own proposals.
    Make<WordModelStep>,
    // Scoring: where the model overflowed, the pipeline runs these again without it.
    Make<ScoreCandidates>,
    Make<AdapterDelta>,
    Make<BigramScore>,
    Make<TeacherScore>,
    Make<UserBonus>,
    Make<TypedCandidate>,
    // Writing: the candidates, the heads, then the fallback check; a shortcut last, as it
    // overrides the autocorrection.
    Make<WriteCandidates>,
    Make<PopupHead>,
    Make<AutocorrectHead>,
    Make<SpellingRules>,
    Make<IntentHead>,
    Make<ModelFallback>,
    Make<ShortcutWriter>,
};

const PackTraits& EnglishTraits() {
  static const PackTraits traits = [] {
    PackTraits t;
    t.word = kEnglishWord;
    t.indicator = "EN";
    return t;
  }();
  return traits;
}

constexpr const char* kWarmUpKeys[] = {"t", "h", "e", " ", "q"};

const WordPackSpec kEnglish = {
    .language = "en",
    .rule = &kEnglishComposition,
    .stages = kStages,
    .default_candidates = 64,  // EngineOptions::max_candidates (options.h)
    .index_apostrophes = true,
    .warm_up_keys = kWarmUpKeys,
    .traits = EnglishTraits,
};

Status OpenEnglish(const EngineOptions& options, std::unique_ptr<Engine>* out) {
  auto engine = std::make_unique<WordEngine>();
  KD_RETURN_IF_ERROR(engine->Init(options, kEnglish));
  *out = std::move(engine);
  return Status::OK();
}

}  // namespace

LanguagePack EnglishPack() { return {kEnglish.language, OpenEnglish, &EnglishTraits()}; }

}  // namespace keydecide
