#include "decide/zh/keystroke_step.h"

#include "decide/model_track.h"
#include "decide/zh/zh_state.h"

namespace keydecide {

KeystrokeStep::KeystrokeStep(const PinyinEnv& env) {
  if (env.session->model.model != nullptr) keys_.reserve(kMaxKeys);
}

void KeystrokeStep::Step(PinyinContext* context) {
  ZhState& session = *context->session;
  const std::string_view typed = session.composition();
  if (!session.UseModel() || typed.empty() || typed.size() > kMaxKeys) return;
  keys_.clear();
  const size_t start = session.text.composition_start();
  for (size_t i = 0; i < typed.size(); ++i) {
    keys_.push_back(ModelTrack::Keystroke(session.model.model->config(),
                                          static_cast<unsigned char>(typed[i]), i,
                                          session.text.meta(start + i)));
  }
  context->hidden = session.lm->Keystrokes(keys_);
}

}  // namespace keydecide
