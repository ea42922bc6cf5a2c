#include "decide/zh/zh_pack.h"

#include "decide/refresh_personal.h"
#include "decide/shortcut_writer.h"
#include "decide/zh/keystroke_step.h"
#include "decide/zh/next_words.h"
#include "decide/zh/pinyin_candidates_writer.h"
#include "decide/zh/pinyin_conversion.h"
#include "decide/zh/pinyin_features.h"
#include "decide/zh/pinyin_heads.h"
#include "decide/zh/pinyin_heads_writer.h"
#include "decide/zh/pinyin_preedit.h"
#include "decide/zh/word_ranking.h"
#include "decide/zh/zh_engine.h"

namespace keydecide {

namespace {

template <typename S>
constexpr StageEntry<PinyinEnv> Make = {MakeStage<S, PinyinContext, PinyinEnv>};

// The pinyin gear table: every keystroke runs these, in this order.
constexpr StageEntry<PinyinEnv> kStages[] = {
    // Features: the letters, the person's newest words.
    Make<PinyinFeatures>,
    Make<RefreshPersonal>,
    // Candidates: the sentences and words for the letters; without letters, 联想.
    Make<PinyinConversion>,
    Make<NextWords>,
    // Model: the keystrokes (the sentences were scored in the search).
    Make<KeystrokeStep>,
    // Scoring: the heads (latin letters first), the words ranked again.
    Make<PinyinHeads>,
    Make<WordRanking>,
    // Writing.
    Make<PinyinCandidatesWriter>,
    Make<PinyinPreedit>,
    Make<PinyinHeadsWriter>,
    Make<ShortcutWriter>,
};

const PackTraits& ChineseTraits() {
  static const PackTraits traits = [] {
    PackTraits t;
    t.word = kPinyinWord;
    t.converts_reading = true;
    t.space = KeyAction::kPickFirst;  // the sentence
    t.enter = KeyAction::kCommitTyped;
    t.always_show_bar = true;  // the candidates are how letters become hanzi
    t.pick_adds_space = false;
    t.digits_pick_next_words = true;  // 联想
    t.punctuation = {{",", "，"}, {".", "。"}, {"?", "？"}, {"!", "！"},
                     {":", "："}, {";", "；"}, {"(", "（"}, {")", "）"}};
    t.indicator = "拼";
    return t;
  }();
  return traits;
}

Status OpenChinese(const EngineOptions& options, std::unique_ptr<Engine>* out) {
  auto engine = std::make_unique<ZhEngine>();
  KD_RETURN_IF_ERROR(engine->Init(options, kStages, ChineseTraits()));
  *out = std::move(engine);
  return Status::OK();
}

}  // namespace

LanguagePack ChinesePack() { return {"zh", OpenChinese, &ChineseTraits()}; }

}  // namespace keydecide
