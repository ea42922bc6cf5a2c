#include "decide/pack_files.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "keydecide/engine.h"
#include "text/keyboard_layout.h"

namespace keydecide {

namespace {

// Where this code was loaded from: libkeydecide.so when it is there (shared: true: dladdr names
// a file called *.so*), else the program it is linked into (/proc/self/exe: dladdr names the
// main program as it was started, which may be a relative path).
struct LoadedImage {
  std::filesystem::path dir;
  bool shared = false;
};

LoadedImage FindLoadedImage() {
  Dl_info info{};
  std::error_code ec;
  if (dladdr(reinterpret_cast<void*>(&ModelSearchPath), &info) != 0 && info.dli_fname != nullptr &&
      std::filesystem::path(info.dli_fname).filename().string().find(".so") != std::string::npos) {
    const std::filesystem::path p = std::filesystem::canonical(info.dli_fname, ec);
    if (!ec) return {p.parent_path(), true};
  }
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return {ec ? std::filesystem::path() : exe.parent_path(), false};
}

void AddUnique(std::string dir, std::vector<std::string>* out) {
  if (dir.empty()) return;
  for (const std::string& d : *out) {
    if (d == dir) return;
  }
  out->push_back(std::move(dir));
}

const char* NonEmptyEnv(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

}  // namespace

std::vector<std::string> ModelSearchPath() {
  std::vector<std::string> dirs;
  // XDG: relative entries are to be ignored (Base Directory Specification).
  if (const char* home = NonEmptyEnv("XDG_DATA_HOME"); home != nullptr && home[0] == '/') {
    AddUnique(std::string(home) + "/keydecide/models", &dirs);
  } else if (const char* user = NonEmptyEnv("HOME"); user != nullptr) {
    AddUnique(std::string(user) + "/.local/share/keydecide/models", &dirs);
  }
  const char* data_dirs = NonEmptyEnv("XDG_DATA_DIRS");
  std::string_view list = data_dirs != nullptr ? data_dirs : "/usr/local/share:/usr/share";
  while (!list.empty()) {
    const size_t colon = list.find(':');
    const std::string_view dir = list.substr(0, colon);
    if (!dir.empty() && dir[0] == '/') AddUnique(std::string(dir) + "/keydecide/models", &dirs);
    list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
  }
  // Beside this library or program, by the install layout's relative path (a build tree links
  // <build>/share/keydecide/models to the repository's models/).
  if (const LoadedImage image = FindLoadedImage(); !image.dir.empty()) {
    const char* relative = image.shared ? KEYDECIDE_LIB_TO_MODELS : KEYDECIDE_BIN_TO_MODELS;
    AddUnique((image.dir / relative).lexically_normal().string(), &dirs);
  }
  return dirs;
}

Status ResolveModelDir(const EngineOptions& options, std::string_view language, std::string* dir) {
  if (!options.model_dir.empty()) {
    *dir = options.model_dir;
    return Status::OK();
  }
  if (const char* env = NonEmptyEnv("KEYDECIDE_MODEL_DIR")) {
    *dir = env;
    return Status::OK();
  }
  const std::vector<std::string> search = ModelSearchPath();
  std::string looked;
  for (const std::string& d : search) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(d + "/" + std::string(language) + "/lexicon.kdlex", ec)) {
      *dir = d;
      return Status::OK();
    }
    looked += looked.empty() ? d : ", " + d;
  }
  return Status::NotFound("no models folder holds " + std::string(language) +
                          "/lexicon.kdlex (set EngineOptions::model_dir or $KEYDECIDE_MODEL_DIR; "
                          "looked in " +
                          looked + ")");
}

Status ResolvePackDir(const EngineOptions& options, std::string_view language, PackDir* out) {
  out->not_found = ResolveModelDir(options, language, &out->dir);
  if (!out->not_found.ok()) out->dir.clear();
  return options.lexicon_path.empty() ? out->not_found : Status::OK();
}

std::string ResolveModelPath(const EngineOptions& options, const std::string& pack) {
  if (!options.model_path.empty()) return options.model_path;
  if (pack.empty()) return "none";
  for (const char* file : {"/model.q8.safetensors", "/model.safetensors"}) {
    if (std::filesystem::exists(pack + file)) return pack + file;
  }
  return "none";
}

std::string ResolveSmallModelPath(const EngineOptions& options, const std::string& pack) {
  if (!options.small_model_path.empty()) return options.small_model_path;
  // A model chosen by hand gets no default rung.
  if (!options.model_path.empty() || pack.empty()) return "none";
  const std::string path = pack + "/model.small.q8.safetensors";
  return std::filesystem::exists(path) ? path : "none";
}

std::string ResolvePopupNetPath(const EngineOptions& options, const std::string& pack) {
  if (!options.popup_net_path.empty()) return options.popup_net_path;
  // A network fitted to the pack's model says nothing sound about another model's outputs.
  if (!options.model_path.empty() || pack.empty()) return "none";
  const std::string path = pack + "/popup.json";
  return std::filesystem::exists(path) ? path : "none";
}

std::string ResolveIntentNgramsPath(const EngineOptions& options, const std::string& pack) {
  if (!options.intent_ngrams_path.empty()) return options.intent_ngrams_path;
  // Its scale and code shift were chosen against the pack's model's intent head.
  if (!options.model_path.empty() || pack.empty()) return "none";
  const std::string path = pack + "/intent_ngrams.safetensors";
  return std::filesystem::exists(path) ? path : "none";
}

Status LoadKeyboardLayout(const EngineOptions& options, const PackDir& pack, KeyboardLayout* out) {
  const std::string& name = options.keyboard_layout;
  if (name.find('/') != std::string::npos || name.ends_with(".txt")) {
    return KeyboardLayout::Load(name, out);
  }
  if (pack.dir.empty()) return pack.not_found.Annotated("keyboard layout '" + name + "'");
  return KeyboardLayout::Load(pack.dir + "/layouts/" + name + ".txt", out);
}

std::string BesideLexicon(const std::string& lexicon_path, std::string_view extension) {
  std::string path = lexicon_path;
  if (path.ends_with(".kdlex")) path.resize(path.size() - 6);
  return path.append(extension);
}

}  // namespace keydecide
