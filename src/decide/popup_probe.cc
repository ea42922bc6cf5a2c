#include "decide/popup_probe.h"

#include "decide/en_session.h"

namespace keydecide {

bool LatestPopupFeatures(const Session& session, PopupFeatures* out) {
  const auto* en = dynamic_cast<const EnSession*>(&session);
  if (en == nullptr) return false;
  *out = en->popup_features();
  return true;
}

}  // namespace keydecide
