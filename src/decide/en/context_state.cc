#include "decide/en/context_state.h"

#include <memory>

#include "decide/en/english_word.h"
#include "decide/model_track.h"
#include "decide/typed_text.h"
#include "model/transformer.h"
#include "text/utf8.h"

namespace keydecide {

Status ContextStates(const std::string& model_path, AppType app,
                     std::span<const std::string_view> lines, int* d_model,
                     std::vector<float>* states, std::vector<std::string>* labels,
                     std::vector<float>* intent) {
  std::unique_ptr<Transformer> model;
  KD_RETURN_IF_ERROR(Transformer::Open(model_path, &model));
  if (model->vocab().language() != "en") {
    return Status::InvalidArgument(model_path + " is not an English model");
  }
  *d_model = model->config().d_model;
  labels->assign(model->config().intent_labels.begin(), model->config().intent_labels.end());
  std::vector<float> probs(labels->size());
  for (const std::string_view line : lines) {
    KD_RETURN_IF_ERROR(utf8::Validate(line));
    TypedText text(&kEnglishComposition);
    text.Assign(line);
    ModelTrack track(model.get(), static_cast<int>(app));
    const float* y = track.Sync(text);
    states->insert(states->end(), y, y + *d_model);
    model->Intent(y, probs.data());
    intent->insert(intent->end(), probs.begin(), probs.end());
  }
  return Status::OK();
}

}  // namespace keydecide
