// The Chinese (pinyin) language pack's engine: what it loads (the pinyin-keyed lexicon, the word
// bigram beside it, the zh model when there is one) and what its sessions share (ZhSession).
// Immutable after Init.

#ifndef KEYDECIDE_DECIDE_ZH_ZH_ENGINE_H_
#define KEYDECIDE_DECIDE_ZH_ZH_ENGINE_H_

#include <memory>
#include <string>

#include "decide/fine_tuner.h"
#include "decide/zh/zh_context.h"
#include "decide/zh/zh_session.h"
#include "keydecide/engine.h"
#include "lexicon/lexicon.h"
#include "lexicon/pinyin/pinyin_candidates.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "lexicon/word_bigram.h"
#include "lexicon/word_ngram.h"
#include "model/transformer.h"
#include "personal/learner.h"
#include "text/keyboard_layout.h"

namespace keydecide {

class ZhEngine : public Engine {
 public:
  std::unique_ptr<Session> NewSession(const SessionOptions& options) const override;
  Info info() const override { return info_; }
  Status FlushLearning() override;
  Status FineTune(std::string* summary) override;

  // Loads the "zh" pack: <model_dir>/zh/lexicon.kdlex (or options.lexicon_path), which must be
  // pinyin-keyed, and the word bigram beside it (the same name ending in .kdbg) when present (a
  // malformed one, or one built for another lexicon, fails the open), and the zh model
  // (ResolveModelPath; a model for another language fails the open). Its sessions run
  // `stages` (the pack's table, zh_pack.cc), which must outlive the engine.
  Status Init(const EngineOptions& options, std::span<const StageEntry<PinyinEnv>> stages,
              const PackTraits& traits);

 private:
  // The lexicon and the bigram and teacher beside it.
  Status LoadLexicon(const EngineOptions& options, const std::string& lexicon_path);
  Status LoadModel(const std::string& path, float weight);
  // Opens the user store and its learner; a store that fails leaves personalisation off.
  void OpenPersonal(const EngineOptions& options, const std::string& pack_dir);
  // A learned word's lexicon variant (Lexicon::VariantIndex) by its reading and spelling, or
  // UserWords::kNoTag (UserWords::Tagger; the learner's thread calls it).
  uint32_t VariantOf(const UserWords::Word& word) const;

  std::unique_ptr<Lexicon> lexicon_;
  std::unique_ptr<WordBigram> bigram_;  // null without lexicon.kdbg
  std::unique_ptr<WordNgram> teacher_;  // null without lexicon.kdng (or a bigram)
  float teacher_weight_ = 0;            // PinyinOptions::teacher_weight
  float teacher_weight_code_ = 0;       // ... _code: a code session's
  std::unique_ptr<Transformer> model_;  // null without a zh model
  std::unique_ptr<ZhContext> context_;
  ZhSessionModel session_model_;
  KeyboardLayout
      layout_;  // PinyinOptions::typos only (each lattice reads it once, at construction)
  PinyinCandidateSearch::Options search_options_;
  PinyinSentenceSearch::Options sentence_options_;
  std::span<const StageEntry<PinyinEnv>> stages_;
  Info info_;
  // Last: its thread reads the lexicon (VariantOf) until it stops.
  std::unique_ptr<Learner> learner_;
  std::unique_ptr<FineTuner> fine_tuner_;  // after learner_: it reads the learner's store
  bool learning_ = false;
  float user_word_weight_ = 0, user_pair_weight_ = 0, user_app_share_ = 0, fine_tune_weight_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_ZH_ENGINE_H_
