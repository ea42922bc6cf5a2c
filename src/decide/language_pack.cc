#include "decide/language_pack.h"

#include <string>

namespace keydecide {

Status Engine::Open(const EngineOptions& options, std::unique_ptr<Engine>* out) {
  std::string known;
  for (const LanguagePack& pack : LanguagePacks()) {
    if (pack.language == options.language) return pack.open(options, out);
    known += known.empty() ? "'" : ", '";
    known += pack.language;
    known += '\'';
  }
  return Status::NotSupported("language '" + options.language + "' (this build has " + known + ")");
}

}  // namespace keydecide
