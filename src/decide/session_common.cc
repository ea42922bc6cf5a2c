#include "decide/session_common.h"

#include <cstdlib>
#include <filesystem>

#include "text/keyboard_layout.h"
#include "text/letter_case.h"

namespace keydecide {

float MicrosSince(Clock::time_point* t) {
  const Clock::time_point now = Clock::now();
  const float us = std::chrono::duration<float, std::micro>(now - *t).count();
  *t = now;
  return us;
}

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

Status LoadKeyboardLayout(const EngineOptions& options, KeyboardLayout* out) {
  const std::string& name = options.keyboard_layout;
  const bool is_path = name.find('/') != std::string::npos || name.ends_with(".txt");
  return KeyboardLayout::Load(
      is_path ? name : ResolveModelDir(options) + "/layouts/" + name + ".txt", out);
}

Status CheckAcceptedWord(std::string_view word) {
  KD_RETURN_IF_ERROR(utf8::Validate(word));
  if (word.size() > kMaxAcceptBytes) return Status::InvalidArgument("accepted word is too long");
  size_t pos = 0;
  while (pos < word.size()) {
    char32_t cp;
    utf8::Decode(word, &pos, &cp);
    if (IsSpace(cp)) return Status::InvalidArgument("accepted word contains white space");
  }
  return Status::OK();
}

std::string_view ContextTail(std::string_view text) {
  if (text.size() > kMaxTextBytes) {
    text.remove_prefix(utf8::BoundaryAtOrAfter(text, text.size() - kMaxTextBytes));
  }
  return text;
}

void ClearModelOutputs(Decision* out) {
  out->popup = {0, !out->candidates.empty()};
  out->autocorrect.apply = false;
  out->autocorrect.replacement.clear();
  out->autocorrect.confidence = 0;
  out->intent.label.clear();
  out->intent.probabilities.clear();
}

CandidateSlots::CandidateSlots() : spare_(kMaxCandidatesLimit) {
  for (Candidate& c : spare_) c.text.reserve(kCandidateTextReserve);
}

void CandidateSlots::Resize(size_t k, std::vector<Candidate>* out) {
  if (out->capacity() < static_cast<size_t>(kMaxCandidatesLimit)) out->reserve(kMaxCandidatesLimit);
  while (out->size() > k) {
    spare_.push_back(std::move(out->back()));
    out->pop_back();
  }
  while (out->size() < k) {
    if (!spare_.empty()) {
      out->push_back(std::move(spare_.back()));
      spare_.pop_back();
    } else {
      out->emplace_back();
      out->back().text.reserve(kCandidateTextReserve);
    }
  }
}

}  // namespace keydecide
