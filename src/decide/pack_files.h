// Where a language pack finds its files: the models folder, the model file, the keyboard
// layout. Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_PACK_FILES_H_
#define KEYDECIDE_DECIDE_PACK_FILES_H_

#include <string>
#include <string_view>

#include "keydecide/options.h"
#include "keydecide/status.h"

namespace keydecide {

class KeyboardLayout;

// The models folder of `language`'s pack: options.model_dir, else $KEYDECIDE_MODEL_DIR, else
// the first folder of ModelSearchPath() (keydecide/engine.h) that holds
// <language>/lexicon.kdlex. NotFound, naming every folder looked in, when none does.
Status ResolveModelDir(const EngineOptions& options, std::string_view language, std::string* dir);

// The model file of a language pack (`pack`: its folder, "" when there is none):
// options.model_path; when empty, the int8 model
// <pack>/model.q8.safetensors if it exists, else <pack>/model.safetensors, else "none".
std::string ResolveModelPath(const EngineOptions& options, const std::string& pack);
// The small-model rung's file: options.small_model_path; when empty and the typing model is
// the pack's own (options.model_path empty), <pack>/model.small.q8.safetensors if it exists;
// else "none".
std::string ResolveSmallModelPath(const EngineOptions& options, const std::string& pack);

// options.keyboard_layout: a file path (with a '/' or ending in .txt), else the name of a
// layout in <model dir>/layouts/ (the models folder of `language`'s pack).
Status LoadKeyboardLayout(const EngineOptions& options, std::string_view language,
                          KeyboardLayout* out);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_PACK_FILES_H_
