#include "model/vocab.h"

#include <algorithm>

#include "model/model_config.h"
#include "model/safetensors.h"
#include "model/weight_format.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

// The lines of a metadata entry (one per vocabulary word), at most n + 1 of them: enough to tell
// that there are too many.
std::vector<std::string_view> MetadataLines(std::string_view text, int n) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; static_cast<int>(lines.size()) <= n;) {
    const size_t nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

bool HasLetter(std::string_view word) {
  size_t pos = 0;
  while (pos < word.size()) {
    char32_t cp;
    utf8::Decode(word, &pos, &cp);
    if (IsLetter(cp)) return true;
  }
  return false;
}

}  // namespace

Status Vocab::Load(const SafetensorsFile& file, int n_words) {
  for (std::string_view w : MetadataLines(file.Metadata(weight_format::kMetaWords), n_words)) {
    words_.emplace_back(w);
  }
  if (static_cast<int>(words_.size()) != n_words) {
    return Status::InvalidArgument("model vocabulary has " + std::to_string(words_.size()) +
                                   " words, config says " + std::to_string(n_words));
  }
  for (int i = 0; i < n_words; ++i) {
    KD_RETURN_IF_ERROR(utf8::Validate(words_[i]));
    index_.emplace(words_[i], i);  // first occurrence wins
    letter_word_.push_back(i > ModelConfig::kEmailWord && HasLetter(words_[i]));
  }
  // The file says its language; the pack that loads it checks it is its own. Here only its form.
  if (const std::string_view lang = file.Metadata(weight_format::kMetaLanguage); !lang.empty()) {
    const bool tag = lang.size() <= 8 && std::all_of(lang.begin(), lang.end(), [](char c) {
                       return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
                     });
    if (!tag) {
      return Status::InvalidArgument("model language '" + std::string(lang) +
                                     "' is not a language tag (a-z, 0-9, '-', at most 8)");
    }
    language_.assign(lang.begin(), lang.end());
  }
  // A vocabulary with readings (a pinyin model's words) carries them beside its words.
  if (const std::string_view readings = file.Metadata(weight_format::kMetaPinyin);
      !readings.empty()) {
    return LoadReadings(readings);
  }
  return Status::OK();
}

Status Vocab::LoadReadings(std::string_view pinyin) {
  readings_ = MetadataLines(pinyin, size());
  if (static_cast<int>(readings_.size()) != size()) {
    return Status::InvalidArgument("model metadata 'pinyin' has " +
                                   std::to_string(readings_.size()) + " lines, expected " +
                                   std::to_string(size()));
  }
  for (std::string_view r : readings_) {
    const bool ok = std::all_of(r.begin(), r.end(),
                                [](char ch) { return (ch >= 'a' && ch <= 'z') || ch == '\''; });
    if (!ok) return Status::InvalidArgument("model metadata 'pinyin' has a non-pinyin line");
  }
  return Status::OK();
}

int Vocab::Find(std::string_view lower) const {
  auto it = index_.find(lower);
  return it == index_.end() ? ModelConfig::kUnkWord : it->second;
}

}  // namespace keydecide
