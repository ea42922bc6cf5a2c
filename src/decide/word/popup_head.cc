#include "decide/word/popup_head.h"

#include "decide/popup_estimate.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"
#include "model/transformer.h"

namespace keydecide {

StageResult PopupHead::Write(WordContext* context) {
  if (context->hidden == nullptr) return StageResult::kContinue;
  const WordPack& pack = *context->pack;
  const Transformer& model = context->small_active ? *pack.small_model() : *pack.model();
  Decision* out = context->out;
  const Lexicon& lex = pack.lexicon();
  const std::string& typed = context->typed;
  const uint32_t own = typed.empty() ? lexicon::kNoEntry : lex.Find(typed);
  ComputePopupFeatures(
      {model.Popup(context->hidden), context->scored, out->candidates.size(), typed.size(), &lex,
       own != lexicon::kNoEntry ? lex.Count(own) : 0, context->capitalize},
      &context->popup_features);
  const PopupNet* net = pack.popup_net();
  out->popup.probability =
      net != nullptr && !context->small_active
          ? net->Probability(context->popup_features)
          : MixPopupLogits(context->popup_features[0], context->popup_features[1]);
  out->popup.show = !out->candidates.empty() &&
                    out->popup.probability >= context->session->options.popup_threshold;
  return StageResult::kContinue;
}

}  // namespace keydecide
