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

// A pack's folders, resolved once at Init: the models folder as ResolveModelDir finds it, and
// why there is none. A lexicon given by path (options.lexicon_path) needs no models folder:
// then `dir` may stay empty, and only what is looked for in it (the pack's model, a layout by
// name) is not found.
struct PackDir {
  std::string dir;   // "" when none was found
  Status not_found;  // ResolveModelDir's failure, when dir is empty
};
// ResolveModelDir's result into *out; its failure only when no lexicon is given by path.
Status ResolvePackDir(const EngineOptions& options, std::string_view language, PackDir* out);

// The model file of a language pack (`pack`: its folder, "" when there is none):
// options.model_path; when empty, the int8 model
// <pack>/model.q8.safetensors if it exists, else <pack>/model.safetensors, else "none".
std::string ResolveModelPath(const EngineOptions& options, const std::string& pack);
// The small-model rung's file: options.small_model_path; when empty and the typing model is
// the pack's own (options.model_path empty), <pack>/model.small.q8.safetensors if it exists;
// else "none".
std::string ResolveSmallModelPath(const EngineOptions& options, const std::string& pack);

// The popup network's file: options.popup_net_path; when empty and the typing model is the
// pack's own (options.model_path empty), <pack>/popup.json if it exists; else "none".
std::string ResolvePopupNetPath(const EngineOptions& options, const std::string& pack);

// The intent n-grams' file: options.intent_ngrams_path; when empty and the typing model is the
// pack's own, <pack>/intent_ngrams.safetensors if it exists; else "none".
std::string ResolveIntentNgramsPath(const EngineOptions& options, const std::string& pack);

// A file beside a lexicon, of the same name with another extension (lexicon.kdlex ->
// lexicon.kdbg for `extension` ".kdbg").
std::string BesideLexicon(const std::string& lexicon_path, std::string_view extension);

// options.keyboard_layout: a file path (with a '/' or ending in .txt), else the name of a
// layout in <pack's models folder>/layouts/ (pack.not_found when it has none).
Status LoadKeyboardLayout(const EngineOptions& options, const PackDir& pack, KeyboardLayout* out);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_PACK_FILES_H_
