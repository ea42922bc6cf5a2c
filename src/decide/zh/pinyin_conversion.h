// PinyinConversion: the candidates for the composition: the best whole sentences of the
// sentence search (two, when they have more than one word), the hanzi words of the word search
// that can start it, and the person's words for its letters (ZhState::SearchComposition,
// FindUserWords).

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_CONVERSION_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_CONVERSION_H_

#include "decide/candidate_source.h"
#include "decide/zh/pinyin_context.h"

namespace keydecide {

class PinyinConversion : public CandidateSource<PinyinContext> {
 public:
  explicit PinyinConversion(const PinyinEnv& env);
  const char* name() const override { return "conversion"; }

 protected:
  void Gather(PinyinContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_CONVERSION_H_
