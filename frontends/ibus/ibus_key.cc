#include "ibus_key.h"

#include <ibus.h>

namespace keydecide::ibus {

namespace {

// Shift, Control, Caps Lock ... Hyper, AltGr and the ISO level keys, Mode_switch: keys that
// only change what the next key types.
bool IsModifierKey(uint32_t keyval) {
  return (keyval >= IBUS_KEY_Shift_L && keyval <= IBUS_KEY_Hyper_R) ||
         (keyval >= IBUS_KEY_ISO_Lock && keyval <= IBUS_KEY_ISO_Level5_Lock) ||
         keyval == IBUS_KEY_Mode_switch || keyval == IBUS_KEY_Num_Lock;
}

}  // namespace

KeyPress KeyPressFromIBus(uint32_t keyval, uint32_t modifiers) {
  using Kind = KeyPress::Kind;
  KeyPress key;
  if ((modifiers & IBUS_RELEASE_MASK) != 0 || IsModifierKey(keyval)) {
    key.kind = Kind::kModifier;
    return key;
  }
  const uint32_t held = modifiers & (IBUS_SHIFT_MASK | IBUS_CONTROL_MASK | IBUS_MOD1_MASK |
                                     IBUS_SUPER_MASK | IBUS_MOD4_MASK | IBUS_HYPER_MASK);
  if (keyval == IBUS_KEY_space && held == (IBUS_CONTROL_MASK | IBUS_SHIFT_MASK)) {
    key.kind = Kind::kSwitchLanguage;
    return key;
  }
  key.shortcut = (held & ~static_cast<uint32_t>(IBUS_SHIFT_MASK)) != 0;
  switch (keyval) {
    case IBUS_KEY_BackSpace:
      key.kind = Kind::kBackspace;
      return key;
    case IBUS_KEY_Return:
    case IBUS_KEY_KP_Enter:
      key.kind = Kind::kEnter;
      return key;
    case IBUS_KEY_Tab:
      key.kind = Kind::kTab;
      return key;
    case IBUS_KEY_Escape:
      key.kind = Kind::kEscape;
      return key;
    case IBUS_KEY_Page_Up:
    case IBUS_KEY_KP_Page_Up:
      key.kind = Kind::kPageUp;
      return key;
    case IBUS_KEY_Page_Down:
    case IBUS_KEY_KP_Page_Down:
      key.kind = Kind::kPageDown;
      return key;
    case IBUS_KEY_Up:
    case IBUS_KEY_KP_Up:
      key.kind = Kind::kUp;
      return key;
    case IBUS_KEY_Down:
    case IBUS_KEY_KP_Down:
      key.kind = Kind::kDown;
      return key;
    default:
      break;
  }
  const gunichar ch = ibus_keyval_to_unicode(keyval);
  if (ch >= 0x20 && ch != 0x7F) {
    char utf8[8] = {};
    key.text.assign(utf8, static_cast<size_t>(g_unichar_to_utf8(ch, utf8)));
    key.kind = Kind::kText;
  }
  return key;
}

}  // namespace keydecide::ibus
