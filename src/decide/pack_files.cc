#include "decide/pack_files.h"

#include <cstdlib>
#include <filesystem>

#include "text/keyboard_layout.h"

namespace keydecide {

std::string ResolveModelDir(const EngineOptions& options) {
  if (!options.model_dir.empty()) return options.model_dir;
  if (const char* env = std::getenv("KEYDECIDE_MODEL_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return KEYDECIDE_DEFAULT_MODEL_DIR;
}

std::string ResolveModelPath(const EngineOptions& options, const std::string& pack) {
  if (!options.model_path.empty()) return options.model_path;
  for (const char* file : {"/model.q8.safetensors", "/model.safetensors"}) {
    if (std::filesystem::exists(pack + file)) return pack + file;
  }
  return "none";
}

std::string ResolveSmallModelPath(const EngineOptions& options, const std::string& pack) {
  if (!options.small_model_path.empty()) return options.small_model_path;
  if (!options.model_path.empty()) return "none";  // a model chosen by hand: no default rung
  const std::string path = pack + "/model.small.q8.safetensors";
  return std::filesystem::exists(path) ? path : "none";
}

Status LoadKeyboardLayout(const EngineOptions& options, KeyboardLayout* out) {
  const std::string& name = options.keyboard_layout;
  const bool is_path = name.find('/') != std::string::npos || name.ends_with(".txt");
  return KeyboardLayout::Load(
      is_path ? name : ResolveModelDir(options) + "/layouts/" + name + ".txt", out);
}

}  // namespace keydecide
