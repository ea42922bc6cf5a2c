// ContextStates: the English model's final hidden state after each of several lines, each set
// as a session's whole context (Session::SetContext), read exactly as a session reads it (the
// same TypedText and ModelTrack). A tool-only header: `keydecide eval context-states` writes
// them so that a decision head can be fitted again on the shipped model's own features, on a
// CPU (training/keydecide_train/fit_intent_head.py).

#ifndef KEYDECIDE_DECIDE_EN_CONTEXT_STATE_H_
#define KEYDECIDE_DECIDE_EN_CONTEXT_STATE_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/options.h"
#include "keydecide/status.h"

namespace keydecide {

// Opens the English model file at `model_path` and appends, per line of `lines` (valid UTF-8),
// the d_model floats of its hidden state in a session of kind `app` to *states; *d_model is
// set. Also appends the model's intent probabilities after each line to *intent (as many per
// line as *labels, which is set), so a caller can check it reads what a session reads.
Status ContextStates(const std::string& model_path, AppType app,
                     std::span<const std::string_view> lines, int* d_model,
                     std::vector<float>* states, std::vector<std::string>* labels,
                     std::vector<float>* intent);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_EN_CONTEXT_STATE_H_
