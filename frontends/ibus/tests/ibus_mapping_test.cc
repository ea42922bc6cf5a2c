// IBus's keys and content types as the typing logic's KeyPress and FieldPolicy.

#include <ibus.h>

#include <gtest/gtest.h>

#include "ibus_content_type.h"
#include "ibus_key.h"

namespace keydecide::ibus {
namespace {

using Kind = KeyPress::Kind;

TEST(IBusKeyTest, CharactersAreText) {
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_a, 0).kind, Kind::kText);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_a, 0).text, "a");
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_A, IBUS_SHIFT_MASK).text, "A");
  EXPECT_FALSE(KeyPressFromIBus(IBUS_KEY_A, IBUS_SHIFT_MASK).shortcut);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_eacute, 0).text, "é");
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_space, 0).text, " ");
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_KP_1, IBUS_MOD2_MASK).text, "1");  // Num Lock on
}

TEST(IBusKeyTest, NamedKeys) {
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_BackSpace, 0).kind, Kind::kBackspace);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_Return, 0).kind, Kind::kEnter);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_KP_Enter, 0).kind, Kind::kEnter);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_Tab, 0).kind, Kind::kTab);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_Escape, 0).kind, Kind::kEscape);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_Page_Down, 0).kind, Kind::kPageDown);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_Left, 0).kind, Kind::kOther);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_Delete, 0).kind, Kind::kOther);
}

TEST(IBusKeyTest, ModifiersReleasesShortcutsAndTheSwitch) {
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_Shift_L, 0).kind, Kind::kModifier);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_ISO_Level3_Shift, 0).kind, Kind::kModifier);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_a, IBUS_RELEASE_MASK).kind, Kind::kModifier);
  EXPECT_TRUE(KeyPressFromIBus(IBUS_KEY_c, IBUS_CONTROL_MASK).shortcut);
  EXPECT_TRUE(KeyPressFromIBus(IBUS_KEY_f, IBUS_MOD1_MASK).shortcut);
  EXPECT_EQ(KeyPressFromIBus(IBUS_KEY_space, IBUS_CONTROL_MASK | IBUS_SHIFT_MASK).kind,
            Kind::kSwitchLanguage);
  // Control+space alone is not the switch (IBus's own trigger on some desktops).
  EXPECT_NE(KeyPressFromIBus(IBUS_KEY_space, IBUS_CONTROL_MASK).kind, Kind::kSwitchLanguage);
}

TEST(IBusContentTypeTest, PasswordAndPinAreSecret) {
  EXPECT_TRUE(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_PASSWORD, 0).secret);
  EXPECT_TRUE(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_PIN, 0).secret);
  EXPECT_FALSE(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_FREE_FORM, 0).secret);
  EXPECT_FALSE(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_DIGITS, 0).secret);
}

TEST(IBusContentTypeTest, PrivateLearnsNothingButPredicts) {
  const FieldPolicy f = FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_FREE_FORM, IBUS_INPUT_HINT_PRIVATE);
  EXPECT_TRUE(f.private_text);
  EXPECT_FALSE(f.secret);
  EXPECT_FALSE(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_FREE_FORM, 0).private_text);
}

TEST(IBusContentTypeTest, PurposesSetTheIntent) {
  EXPECT_EQ(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_URL, 0).app, KD_APP_URL);
  EXPECT_EQ(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_EMAIL, 0).app, KD_APP_URL);
  const FieldPolicy terminal = FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_TERMINAL, 0);
  EXPECT_EQ(terminal.app, KD_APP_CODE);
  EXPECT_TRUE(terminal.terminal);
  EXPECT_EQ(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_FREE_FORM, 0).app, KD_APP_CHAT);
  EXPECT_TRUE(FieldPolicyFromIBus(IBUS_INPUT_PURPOSE_FREE_FORM, IBUS_INPUT_HINT_NO_SPELLCHECK)
                  .no_spellcheck);
}

}  // namespace
}  // namespace keydecide::ibus
