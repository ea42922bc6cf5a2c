#include "personal/export_format.h"

#include <nlohmann/json.hpp>

#include "keydecide/options.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide::personal {

namespace {

using Json = nlohmann::json;

}  // namespace

bool IsShortcutTrigger(std::string_view trigger) {
  if (trigger.size() > kMaxTriggerBytes || !IsStorableWord(trigger)) return false;
  // What a session reads as one word being typed: letters, and apostrophes after a letter.
  char32_t previous = 0;
  for (size_t pos = 0; pos < trigger.size();) {
    char32_t cp;
    utf8::Decode(trigger, &pos, &cp);
    if (!IsLetter(cp) && !(cp == '\'' && previous != 0 && previous != '\'')) return false;
    previous = cp;
  }
  std::string lower;
  AppendLowerUtf8(trigger, &lower);
  return lower == trigger;
}

bool IsBidiControl(char32_t cp) {
  // The embeddings and overrides (U+202A..U+202E), the isolates (U+2066..U+2069), the marks
  // (U+200E, U+200F, U+061C): each changes the order in which the text around it is shown.
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
         cp == 0x200F || cp == 0x061C;
}

bool IsShortcutExpansion(std::string_view expansion) {
  if (expansion.empty() || expansion.size() > kMaxExpansionBytes ||
      !utf8::Validate(expansion).ok()) {
    return false;
  }
  for (size_t pos = 0; pos < expansion.size();) {
    char32_t cp;
    utf8::Decode(expansion, &pos, &cp);
    if ((cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7F && cp < 0xA0) ||
        IsBidiControl(cp)) {
      return false;
    }
  }
  return true;
}

bool IsReading(std::string_view reading) {
  if (reading.empty()) return true;
  if (reading.size() > kMaxReadingBytes || reading.front() == '\'' || reading.back() == '\'') {
    return false;
  }
  for (size_t i = 0; i < reading.size(); ++i) {
    const char c = reading[i];
    if (c == '\'' ? reading[i - 1] == '\'' : (c < 'a' || c > 'z')) return false;
  }
  return true;
}

bool IsStorableWord(std::string_view word) {
  if (word.empty() || word.size() > kMaxWordBytes || !utf8::Validate(word).ok()) return false;
  for (size_t pos = 0; pos < word.size();) {
    char32_t cp;
    utf8::Decode(word, &pos, &cp);
    // Controls, spaces and the Unicode line/paragraph and no-break spaces end a word; bidi
    // controls would make a list show another word than the one stored.
    if (cp <= 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0x1680 ||
        (cp >= 0x2000 && cp <= 0x200B) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
        cp == 0x205F || cp == 0x3000 || cp == 0xFEFF || IsBidiControl(cp)) {
      return false;
    }
  }
  return true;
}

bool IsLanguageTag(std::string_view language) {
  if (language.empty() || language.size() > kMaxLanguageBytes) return false;
  for (char c : language) {
    if (!((c >= 'a' && c <= 'z') || c == '-')) return false;
  }
  return true;
}

std::string WriteExport(const ExportContents& contents, int64_t exported_at) {
  Json out = {{"format", kExportFormatName}, {"version", UserStore::kExportVersion},
              {"exported_at", exported_at},  {"words", Json::array()},
              {"pairs", Json::array()},      {"shortcuts", Json::array()},
              {"recent", Json::array()}};
  for (const LearnedWord& w : contents.words) {
    out["words"].push_back({{"language", w.language},
                            {"word", w.word},
                            {"count", w.count},
                            {"picks", w.picks},
                            {"weight", w.weight},
                            {"first_time", w.first_time},
                            {"last_time", w.last_time}});
    if (!w.reading.empty()) out["words"].back()["reading"] = w.reading;
    for (const AppCount& a : w.apps) {
      if (a.app < 0 || a.app >= UserStore::kAppTypes || a.count == 0) continue;
      out["words"].back()["apps"][AppTypeName(static_cast<AppType>(a.app))] = {
          {"count", a.count}, {"weight", a.weight}};
    }
  }
  for (const LearnedPair& p : contents.pairs) {
    out["pairs"].push_back({{"language", p.language},
                            {"previous", p.previous},
                            {"word", p.word},
                            {"count", p.count},
                            {"weight", p.weight},
                            {"last_time", p.last_time}});
  }
  for (const Shortcut& sc : contents.shortcuts) {
    out["shortcuts"].push_back(
        {{"trigger", sc.trigger}, {"expansion", sc.expansion}, {"created", sc.created}});
  }
  for (const RecentEntry& r : contents.recent) {
    out["recent"].push_back({{"language", r.language},
                             {"word", r.word.word},
                             {"previous", r.word.previous},
                             {"time", r.word.unix_time}});
  }
  // Every string was checked by the caller (Export leaves damaged rows out); replace, never
  // throw, should one slip through.
  return out.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace keydecide::personal
