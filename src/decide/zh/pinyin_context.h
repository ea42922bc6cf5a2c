// PinyinContext: one keystroke of a pinyin session (zh_session.h), as its stages share it: the
// sentences and hanzi words found for the composition, what the model's heads read from its
// keystrokes. Reused by every Decide.

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_CONTEXT_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_CONTEXT_H_

#include <span>
#include <vector>

#include "decide/decide_context.h"
#include "lexicon/pinyin/pinyin_candidates.h"
#include "lexicon/pinyin/pinyin_sentence.h"

namespace keydecide {

struct ZhState;

struct PinyinContext : DecideContext {
  ZhState* session = nullptr;
  // The hanzi words for the composition (the search's, or ranked again by the model), and the
  // sentences offered before them; empty without a composition.
  std::span<const PinyinCandidate> found;
  std::span<const PinyinSentence> sentences;
  // The model's heads at the keystrokes' state (when hidden is set).
  std::vector<float> intent;
  float popup = 0;
  bool latin = false;       // the letters read as English or code: offered as typed first
  bool overflowed = false;  // the model overflowed on the keystrokes: the lexicon rung serves
};

// What a pinyin pack's stages are built from (StageEntry::make).
struct PinyinEnv {
  ZhState* session;
  PinyinContext* context;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_CONTEXT_H_
