#include "ibus_content_type.h"

#include <ibus.h>

namespace keydecide::ibus {

FieldPolicy FieldPolicyFromIBus(uint32_t purpose, uint32_t hints) {
  FieldPolicy field;
  field.secret = purpose == IBUS_INPUT_PURPOSE_PASSWORD || purpose == IBUS_INPUT_PURPOSE_PIN;
  field.private_text = (hints & IBUS_INPUT_HINT_PRIVATE) != 0;
  field.no_spellcheck = (hints & IBUS_INPUT_HINT_NO_SPELLCHECK) != 0;
  if (purpose == IBUS_INPUT_PURPOSE_URL || purpose == IBUS_INPUT_PURPOSE_EMAIL) {
    field.app = KD_APP_URL;
  } else if (purpose == IBUS_INPUT_PURPOSE_TERMINAL) {
    field.app = KD_APP_CODE;
    field.terminal = true;
  }
  return field;
}

}  // namespace keydecide::ibus
