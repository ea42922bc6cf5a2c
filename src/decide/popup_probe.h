// Tool-only (scripts/check_includes.py lists it): the popup features of a session's latest
// decision, for `keydecide replay --popup-features`, whose rows
// training/keydecide_train/fit_popup.py fits the popup network on.

#ifndef KEYDECIDE_DECIDE_POPUP_PROBE_H_
#define KEYDECIDE_DECIDE_POPUP_PROBE_H_

#include "decide/popup_features.h"

namespace keydecide {

class Session;

// The features of `session`'s latest decision made with the model's heads into *out; false
// when it is not an English session.
bool LatestPopupFeatures(const Session& session, PopupFeatures* out);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_POPUP_PROBE_H_
