// IBus's key events as KeyPress (the typing logic's keys). Plain function, no IBus object.

#ifndef KEYDECIDE_FRONTENDS_IBUS_IBUS_KEY_H_
#define KEYDECIDE_FRONTENDS_IBUS_IBUS_KEY_H_

#include <cstdint>

#include "key_press.h"

namespace keydecide::ibus {

// The key `keyval` (IBUS_KEY_*) pressed with `modifiers` (IBusModifierType; a release carries
// IBUS_RELEASE_MASK and maps to kModifier: nothing happens on releases). Control+Shift+space
// is kSwitchLanguage.
KeyPress KeyPressFromIBus(uint32_t keyval, uint32_t modifiers);

}  // namespace keydecide::ibus

#endif  // KEYDECIDE_FRONTENDS_IBUS_IBUS_KEY_H_
