#include "decide/popup_probe.h"

#include "decide/word/word_session.h"

namespace keydecide {

bool LatestPopupFeatures(const Session& session, PopupFeatures* out) {
  const auto* en = dynamic_cast<const WordSession*>(&session);
  if (en == nullptr) return false;
  *out = en->popup_features();
  return true;
}

}  // namespace keydecide
