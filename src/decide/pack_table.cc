// The pack table: one line per pack folder (language_pack.h), in the order `keydecide info`
// lists them.

#include "decide/en/en_pack.h"
#include "decide/language_pack.h"
#include "decide/zh/zh_pack.h"

namespace keydecide {

std::span<const LanguagePack> LanguagePacks() {
  static const LanguagePack kPacks[] = {
      EnglishPack(),
      ChinesePack(),
  };
  return kPacks;
}

}  // namespace keydecide
