// FieldPolicy: what the focused text field says of itself (IBus's input purpose and hints,
// ibus_content_type.h), as the typing logic needs it. Plain values.

#ifndef KEYDECIDE_FRONTENDS_IBUS_FIELD_POLICY_H_
#define KEYDECIDE_FRONTENDS_IBUS_FIELD_POLICY_H_

#include <cstdint>

#include "keydecide/keydecide.h"

namespace keydecide::ibus {

struct FieldPolicy {
  // A password or PIN: the keys reach the application as they are; nothing is shown, sent to
  // the engine, learned or kept.
  bool secret = false;
  // The field says its text is private (an incognito window): candidates, but nothing learned.
  bool private_text = false;
  // A terminal: nothing learned unless the person allows it (terminals never flag their
  // password prompts, sudo's or ssh's).
  bool terminal = false;
  // The field asks for no spell checking: never autocorrected (candidates still show).
  bool no_spellcheck = false;
  int32_t app = KD_APP_CHAT;  // enum kd_app: the intent the session starts from

  bool operator==(const FieldPolicy&) const = default;
};

}  // namespace keydecide::ibus

#endif  // KEYDECIDE_FRONTENDS_IBUS_FIELD_POLICY_H_
