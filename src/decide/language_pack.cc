#include "decide/language_pack.h"

#include <string>

#include "decide/en_engine.h"
#include "decide/zh_engine.h"

namespace keydecide {

namespace {

// A pack's engine, opened: PackEngine::Init(options) loads it.
template <typename PackEngine>
Status OpenPack(const EngineOptions& options, std::unique_ptr<Engine>* out) {
  auto engine = std::make_unique<PackEngine>();
  KD_RETURN_IF_ERROR(engine->Init(options));
  *out = std::move(engine);
  return Status::OK();
}

constexpr LanguagePack kPacks[] = {
    {"en", OpenPack<EnEngine>},
    {"zh", OpenPack<ZhEngine>},
};

}  // namespace

std::span<const LanguagePack> LanguagePacks() { return kPacks; }

Status Engine::Open(const EngineOptions& options, std::unique_ptr<Engine>* out) {
  std::string known;
  for (const LanguagePack& pack : LanguagePacks()) {
    if (pack.language == options.language) return pack.open(options, out);
    known += known.empty() ? "'" : ", '";
    known += pack.language;
    known += '\'';
  }
  return Status::NotSupported("language '" + options.language + "' (this build has " + known +
                              ")");
}

}  // namespace keydecide
