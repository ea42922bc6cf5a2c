// Options for opening an Engine and a Session.

#ifndef KEYDECIDE_OPTIONS_H_
#define KEYDECIDE_OPTIONS_H_

#include <string>
#include <string_view>

#include "keydecide/export.h"
#include "keydecide/status.h"

namespace keydecide {

// The pinyin pack's options (EngineOptions::pinyin), each validated by the pack when it opens
// (InvalidArgument names the field).
struct PinyinOptions {
  // Partial sentences the pinyin sentence search keeps per position (1..64). Wider costs time
  // in proportion and rarely finds a better sentence (docs/history/BENCHMARKS-to-2026-12-07.md).
  int beam_width = 8;

  // Fuzzy pinyin pairs read both ways at a small penalty, a comma-separated subset of
  // "z/zh,c/ch,s/sh,n/l,an/ang,en/eng,in/ing", or "all". Empty: none (as libime).
  std::string fuzzy;

  // Also read letters through one typing slip per syllable (two swapped letters, "xign" ->
  // xing, or a neighbouring key, "xinf" -> xing, from EngineOptions::keyboard_layout).
  bool typos = false;

  // With a model: how much the model's log P of a sentence counts beside the bigram's score
  // when the best sentences are ranked (0: the bigram's order; chosen on the tuning half of the
  // pinyin dev file, docs/MODEL.md).
  float model_weight = 0.3f;

  // The general-language teacher beside the lexicon (lexicon.kdng: libime's zh_CN.lm
  // converted, docs/MODEL.md), mixed with the word bigram in the sentence search as
  // P = (1 − λ) · P_bigram + λ · P_teacher, λ this weight in 0..1 (0: the teacher is not
  // loaded). The bigram knows the technical text the pack was trained on, the teacher general
  // language: a code session (a terminal, an editor's code) mixes in teacher_weight_code
  // instead. Chosen on held-out-source dev text (docs/BENCHMARKS.md, "Chinese quality").
  float teacher_weight = 0.8f;
  float teacher_weight_code = 0.3f;

  // With EngineOptions::personal: the person's words as a cache model in the sentence search,
  // a word gaining log(1 + user_word_weight * P_user(w) / P_lexicon(w)) and, after the word
  // before it, log(1 + user_pair_weight * P_user(w | previous) / P_lexicon(w)) (ZhSession).
  // Chosen on a person with names (Wesnoth's nr campaign; docs/PERSONAL.md, "Chinese"): the
  // words the lexicon lacks (a name built from single hanzi) enter the sentences at
  // log(user_word_weight * P_user(w)); 0.1 / 0.2 / 0.5 raised top-1 from 0.653 to 0.699 /
  // 0.708 / 0.706. Pairs lost lines at every weight tried, so they are off. 0 turns it all off
  // (the person's picks and phrases still rank first for their letters). 0..10 each.
  float user_word_weight = 0.2f;
  float user_pair_weight = 0.0f;

  // With EngineOptions::fine_tune: how much the adapter's correction counts in the model's
  // sentence scores. Chosen on the tuning person's text (docs/PERSONAL.md, "Chinese
  // fine-tuning"): 0.35 kept general text within 0.5 points, 0.5 gained more there but cost 0.8
  // points of general text. 0..10.
  float fine_tune_weight = 0.35f;
};

struct EngineOptions {
  // --- Behaviour ---

  // Folder with the language packs ("<model_dir>/en/lexicon.kdlex") and keyboard layouts
  // ("<model_dir>/layouts/"). Empty: $KEYDECIDE_MODEL_DIR, else the first folder of
  // ModelSearchPath() (keydecide/engine.h: the user's and the system's data folders, then the
  // models installed with the library) that holds the language's pack.
  std::string model_dir;

  // Language pack to load: "en", or "zh" (pinyin to hanzi sentences and words, ranked by the
  // lexicon, the word bigram beside it and, when there is one, the zh model).
  std::string language = "en";

  // Overrides the lexicon file of the language pack. Empty: <model_dir>/<language>/lexicon.kdlex.
  std::string lexicon_path;

  // The typing model. Empty: <model_dir>/<language>/model.q8.safetensors (int8) if that
  // file exists, else model.safetensors (float), else the count baseline. "none": the
  // count baseline even when a model exists.
  std::string model_path;

  // The smaller model of the latency ladder's small-model rung (Tier::kSmallModel), which the
  // governor steps down to before dropping the model (English; the same vocabulary and
  // intents as the typing model, else Engine::Open fails). Empty: the pack's
  // <model_dir>/<language>/model.small.q8.safetensors when that file exists and the typing
  // model is the pack's own (model_path empty); otherwise none. "none": no small-model rung
  // (the ladder skips it).
  std::string small_model_path;
  // The popup network (English): the suggestion bar's estimate from the model's popup head,
  // the candidates and what the person typed past (docs/MODEL.md, "Popup network"). Empty:
  // the pack's <model_dir>/<language>/popup.json when it exists and the typing model is the
  // pack's own (the network is fitted to that model's outputs); otherwise none. "none": the
  // popup head mixed with the candidates' share (decide/popup_estimate.h).
  std::string popup_net_path;
  // The intent n-grams (English): a classifier of the line being typed whose logits join the
  // model's intent head (docs/MODEL.md, "Intent n-grams"). Empty: the pack's
  // <model_dir>/<language>/intent_ngrams.safetensors when it exists and the typing model is the
  // pack's own (its blend was chosen against that model's head); otherwise none. "none": the
  // model's intent head alone.
  std::string intent_ngrams_path;

  // Keyboard layout name (a file <model_dir>/layouts/<name>.txt) or a path to a layout
  // file. Drives the typing-slip costs of fuzzy matching.
  std::string keyboard_layout = "qwerty";

  // --- Performance ---

  // Candidates gathered from the lexicon and scored per keystroke (1..200; 0: the pack's
  // default, English 64, Chinese 50). The search returns the best by count and typing cost, and
  // the model re-ranks them: English with 32 / 48 / 64 / 96 replayed the tuning text at KSR
  // 0.4438 / 0.4463 / 0.4473 / 0.4484 for P50 185 / 194 / 191 / 205 µs
  // (docs/history/BENCHMARKS-to-2026-12-07.md, "Where the completions lose to a trigram").
  int max_candidates = 0;

  // English: how much the word bigram beside the lexicon (lexicon.kdbg, trained on the
  // training text) counts in a model-scored candidate's score: score += word_bigram_weight *
  // log(P(word | the word before) / P(word)). It gives the words outside the model's vocabulary
  // a context, and the model a second opinion; without the model (the lexicon-only rung, the
  // count baseline) the bigram ranks with weight 1. Chosen on the tuning part of the dev text
  // (docs/history/BENCHMARKS-to-2026-12-07.md, "The word bigram"). 0: the bigram is not loaded (the
  // baseline then ranks by counts alone).
  float word_bigram_weight = 0.3f;

  // English: how much the general-language teacher beside the lexicon (lexicon.kdng: the
  // pocketsphinx-en-us trigram converted, docs/MODEL.md) counts: score += teacher_weight *
  // log(P_teacher(word | the two words before) / P_teacher(word)), and the words it expects next
  // join the candidates. Needs the bigram (the two share word ids). 0: the teacher is not loaded.
  float teacher_weight = 0.6f;

  // The pinyin pack's options (language "zh"; PinyinOptions above), validated by that pack
  // when it opens. (Until this release they were the flat pinyin_* fields of EngineOptions.)
  PinyinOptions pinyin;

  // --- Personalisation (the user store: keydecide/user_store.h, docs/PERSONAL.md) ---

  // Learn from what the person types and rank with it. Off by default, so that tools and
  // tests never write to the person's store unless asked. English and Chinese.
  bool personal = false;
  // The store file. Empty: UserStore::DefaultPath() ($XDG_DATA_HOME/keydecide/user.db). A store
  // that cannot be opened (unwritable, locked, newer schema) leaves the engine typing without
  // personalisation; Engine::Info::personal says why.
  std::string user_store_path;
  // With `personal`: learn from sessions (false: rank with what the store holds, learn nothing;
  // pausing learning).
  bool learn = true;
  // With `personal`: how often the learner writes what sessions finished to the store and
  // refreshes the words sessions rank with, in ms. 0: only on Engine::FlushLearning (what an
  // evaluation wants: the same ranking at the same point of a text, run after run).
  int learn_flush_ms = 500;
  // Ranking, the person's words as a cache model: score += user_word_weight * log(1 + P_user(w)
  // / P_lexicon(w)) + user_pair_weight * log(1 + 3 * P_user(w | previous) / P_lexicon(w)), P_user
  // from the person's decayed counts (of the word among all theirs, of the pair among the
  // previous word's); a learned word the lexicon and model lack also gets user_new_word_bonus
  // (it has no model score of its own). Chosen on the Wesnoth tuning split (docs/PERSONAL.md):
  // KSR 0.4217 -> 0.4510 against 0.4437 for the earlier count bonus (0.3 * log(1 + w) + 1.0 *
  // log(1 + p)), general text 0.4296 -> 0.4276 for both; Austen, whose novels the model
  // trained on, 0.5172 -> 0.5172 (earlier: 0.5167). The bonus is a judgement, not a
  // measurement.
  float user_word_weight = 0.3f;
  float user_pair_weight = 0.3f;
  // P_user(w) above, in a session of one app type (SessionOptions::app): (1 - share) × the
  // word's share of all the person's words + share × its share of what they wrote in that app
  // type (when they wrote anything there), so that a word they use in a code editor counts
  // more there than in chat. English and Chinese (the pinyin cache: PinyinOptions). 0..1
  // (docs/PERSONAL.md, "Per app type").
  float user_app_share = 0.75f;
  float user_new_word_bonus = 8.0f;
  // English, with `personal` and a model: fine-tune the model to the person (docs/PERSONAL.md,
  // "Fine-tuning"): an adapter of the word scores, trained on their recent text in the store
  // on a background thread at the lowest priority, used by every session. Off by default, as
  // in the keyboards that have it: a round takes seconds to tens of seconds of one core.
  bool fine_tune = false;
  // With fine_tune: a background round after this many newly learned words (0: none; only
  // Engine::FineTune trains).
  int fine_tune_every_words = 2000;
  // How much the adapter's correction counts in a candidate's score. Chosen on a tuning split
  // of a writer's text (docs/PERSONAL.md, "Fine-tuning"): at 1 it cost 0.8 points of KSR on
  // general text there, at 0.5 none, for most of the gain.
  float fine_tune_weight = 0.5f;
};

// How readily a session autocorrects the word just typed (SessionOptions::autocorrect_level).
// Each level is a threshold on the model's autocorrect probability (a lower one for a lower-case
// word no word list knows, 0.9 at least for a word the model knows), chosen on the tuning part of
// the English dev text with misspellings no model trained on
// (docs/history/BENCHMARKS-to-2026-12-07.md, "The false rate over every word"); there, kCautious
// fixed 80% of them and changed 0.18% of the correctly typed words, kNormal 89% / 0.47%,
// kEager 92% / 0.80%.
enum class AutocorrectLevel : int { kOff = 0, kCautious = 1, kNormal = 2, kEager = 3 };

// The threshold a level stands for (kOff: above any probability).
KD_API float AutocorrectThreshold(AutocorrectLevel level);
// "off", "cautious", "normal", "eager" (the names the CLI, the C ABI's hosts and the daemon
// use); InvalidArgument for any other.
KD_API const char* AutocorrectLevelName(AutocorrectLevel level);
KD_API Status ParseAutocorrectLevel(std::string_view name, AutocorrectLevel* out);

// Kind of text field a session types into; part of the model's input later on.
// (UserStore::kAppTypes counts them: a new one changes both.)
enum class AppType : int { kChat = 0, kSearch = 1, kCode = 2, kEditor = 3, kUrl = 4 };

// "chat", "search", "code", "editor", "url": the names the CLI, the daemon protocol and the
// user store's export use ("chat" for a value outside the enum). ParseAppType: InvalidArgument
// for any other name.
KD_API const char* AppTypeName(AppType app);
KD_API Status ParseAppType(std::string_view name, AppType* out);

struct SessionOptions {
  AppType app = AppType::kChat;

  // Upper-case the first letter of candidates at the start of a sentence.
  bool auto_capitalize = true;

  // Show the suggestion bar when the popup estimate reaches this: the popup network's
  // probability that one of the bar's words saves two letters or more now (model/popup_net.h),
  // or without one the model's popup head mixed with the candidates' own share
  // (decide/popup_estimate.h). English only: a pinyin session shows its candidates whenever it
  // has some. The default keeps the bar as often as before the network (21% of the decisions
  // of the tuning texts), now right more often
  // (docs/history/BENCHMARKS-to-2026-12-07.md, "Popup network").
  float popup_threshold = 0.44f;
  // How readily to autocorrect (AutocorrectLevel above). Decision::autocorrect.apply is never
  // set at kOff; the replacement is still written as a hint.
  AutocorrectLevel autocorrect_level = AutocorrectLevel::kNormal;
  // When >= 0, overrides the level's threshold: autocorrect when the model's probability
  // reaches this (tools tune with it, e.g. `keydecide eval autocorrect --threshold`); a quarter
  // of it for a lower-case word no list knows, at least 0.9 for a word the model knows.
  float autocorrect_threshold = -1;

  // Learn nothing from this session (password fields, incognito windows): the host says so
  // when it opens it. The session still ranks with what the store already holds.
  bool no_learn = false;
};

}  // namespace keydecide

#endif  // KEYDECIDE_OPTIONS_H_
