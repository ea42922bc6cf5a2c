// IBus's content type of a field (input purpose and hints, as GTK and Qt set them) as a
// FieldPolicy. Plain function, no IBus object.

#ifndef KEYDECIDE_FRONTENDS_IBUS_IBUS_CONTENT_TYPE_H_
#define KEYDECIDE_FRONTENDS_IBUS_IBUS_CONTENT_TYPE_H_

#include <cstdint>

#include "field_policy.h"

namespace keydecide::ibus {

// `purpose`: IBusInputPurpose; `hints`: IBusInputHints.
//   PASSWORD, PIN             secret: typed as it is, nothing shown or learned
//   hint PRIVATE              private_text: candidates, nothing learned
//   URL, EMAIL                app KD_APP_URL
//   TERMINAL                  app KD_APP_CODE, terminal (learning as the settings say)
//   hint NO_SPELLCHECK        no autocorrection
FieldPolicy FieldPolicyFromIBus(uint32_t purpose, uint32_t hints);

}  // namespace keydecide::ibus

#endif  // KEYDECIDE_FRONTENDS_IBUS_IBUS_CONTENT_TYPE_H_
