// What the English session (engine.cc) and the pinyin session (pinyin_session.cc) share: the
// limits on the text they keep, the checks on what a host hands them, the candidate slots a
// Decision reuses, stage timing, and where the language packs live. Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_SESSION_COMMON_H_
#define KEYDECIDE_DECIDE_SESSION_COMMON_H_

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/decision.h"
#include "keydecide/options.h"
#include "keydecide/status.h"
#include "lexicon/lexicon_format.h"
#include "text/utf8.h"

namespace keydecide {

class KeyboardLayout;

inline constexpr size_t kMaxTextBytes = 4096;   // context kept before the cursor
inline constexpr size_t kTrimTextBytes = 1024;  // dropped at once beyond that, to amortise
inline constexpr size_t kMaxAcceptBytes = 256;
inline constexpr size_t kCandidateTextReserve = 4 * lexicon::kMaxKeyBytes + 16;
inline constexpr int kMaxCandidatesLimit = 200;

using Clock = std::chrono::steady_clock;

// Microseconds since *t; moves *t to now (one call per pipeline stage).
float MicrosSince(Clock::time_point* t);

// The models folder: options.model_dir, else $KEYDECIDE_MODEL_DIR, else the bundled one.
std::string ResolveModelDir(const EngineOptions& options);

// The model file of a language pack: options.model_path; when empty, the int8 model
// <pack>/model.q8.safetensors if it exists, else <pack>/model.safetensors, else "none".
std::string ResolveModelPath(const EngineOptions& options, const std::string& pack);

// options.keyboard_layout: a file path (with a '/' or ending in .txt), else the name of a
// layout in <model dir>/layouts/.
Status LoadKeyboardLayout(const EngineOptions& options, KeyboardLayout* out);

// Session::Accept's contract: valid UTF-8, at most kMaxAcceptBytes, no white space.
Status CheckAcceptedWord(std::string_view word);

// The last kMaxTextBytes of `text` at most, cut at a character boundary (SetContext).
std::string_view ContextTail(std::string_view text);

// Session::Type's loop: refuses invalid UTF-8 before changing anything, then calls
// append(bytes, code point) for each character.
template <typename Append>
Status ForEachChar(std::string_view text, Append append) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = pos;
    char32_t cp;
    utf8::Decode(text, &pos, &cp);
    append(text.substr(start, pos - start), cp);
  }
  return Status::OK();
}

// A Decision's outputs when no model served it: the bar shows whenever there are
// candidates; no autocorrect, no intent.
void ClearModelOutputs(Decision* out);

// Every candidate slot a Decision can need (kMaxCandidatesLimit), made at session open with
// room for any spelling, so that Decide moves slots and their buffers around instead of
// allocating.
class CandidateSlots {
 public:
  CandidateSlots();
  // Grows or shrinks *out to k slots, keeping removed slots (and their buffers) aside.
  void Resize(size_t k, std::vector<Candidate>* out);

 private:
  std::vector<Candidate> spare_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_SESSION_COMMON_H_
