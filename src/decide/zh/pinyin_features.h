// PinyinFeatures: the pinyin letters being converted (the composition, as typed), and a clean
// keystroke context for the stages after it.

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_FEATURES_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_FEATURES_H_

#include "decide/feature_reader.h"
#include "decide/zh/pinyin_context.h"

namespace keydecide {

class PinyinFeatures : public FeatureReader<PinyinContext> {
 public:
  explicit PinyinFeatures(const PinyinEnv& env);
  const char* name() const override { return "features"; }

 protected:
  void Read(PinyinContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_FEATURES_H_
