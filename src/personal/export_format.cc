#include "personal/export_format.h"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "keydecide/options.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide::personal {

namespace {

using Json = nlohmann::json;

// An export nests four deep (a word's "apps"); deeper input is refused before the parser
// sees it.
constexpr int kMaxDepth = 5;

// Reads the fields of one entry; the first failure is remembered with the entry's position.
class FieldReader {
 public:
  FieldReader(const Json& entry, std::string where) : entry_(entry), where_(std::move(where)) {}

  bool String(const char* key, bool (*valid)(std::string_view), std::string* out) {
    const Json* v = Find(key);
    if (v == nullptr) return false;
    if (!v->is_string() || !valid(v->get_ref<const std::string&>())) return Fail(key);
    *out = v->get<std::string>();
    return true;
  }
  // Absent: *out is "".
  bool OptionalString(const char* key, bool (*valid)(std::string_view), std::string* out) {
    out->clear();
    return entry_.find(key) == entry_.end() || String(key, valid, out);
  }
  bool Count(const char* key, uint32_t max, uint32_t* out) {
    const Json* v = Find(key);
    if (v == nullptr) return false;
    if (!v->is_number_unsigned() || v->get<uint64_t>() > max) return Fail(key);
    *out = static_cast<uint32_t>(v->get<uint64_t>());
    return true;
  }
  bool Time(const char* key, int64_t* out) {
    const Json* v = Find(key);
    if (v == nullptr) return false;
    // Seconds from 1970 to 9999: anything else is not a time this store wrote.
    if (!v->is_number_integer() || v->get<int64_t>() < 0 || v->get<int64_t>() > 253402300799) {
      return Fail(key);
    }
    *out = v->get<int64_t>();
    return true;
  }
  bool Weight(const char* key, double max, double* out) {
    const Json* v = Find(key);
    if (v == nullptr) return false;
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0 ||
        v->get<double>() > max) {
      return Fail(key);
    }
    *out = v->get<double>();
    return true;
  }
  bool Fail(const char* what) {
    if (error_.empty()) error_ = where_ + ": '" + what + "' missing or invalid";
    return false;
  }
  const std::string& error() const { return error_; }

 private:
  const Json* Find(const char* key) {
    auto it = entry_.find(key);
    if (it == entry_.end()) {
      Fail(key);
      return nullptr;
    }
    return &*it;
  }

  const Json& entry_;
  std::string where_;
  std::string error_;
};

// A word's optional "apps": {"code": {"count": 2, "weight": 1.9}, ...}, each count at most
// the word's, by app.
bool ReadApps(const Json& e, FieldReader* r, LearnedWord* w) {
  w->apps.clear();
  const auto apps = e.find("apps");
  if (apps == e.end()) return true;
  if (!apps->is_object()) return r->Fail("apps");
  for (int app = 0; app < UserStore::kAppTypes; ++app) {
    const auto it = apps->find(AppTypeName(static_cast<AppType>(app)));
    if (it == apps->end()) continue;
    if (!it->is_object()) return r->Fail("apps");
    FieldReader counts(*it, "apps");
    AppCount a;
    a.app = app;
    if (!counts.Count("count", w->count, &a.count) || a.count == 0 ||
        !counts.Weight("weight", a.count, &a.weight)) {
      return r->Fail("apps");
    }
    w->apps.push_back(a);
  }
  // Only the five names: a misspelt one would drop its counts unnoticed.
  if (w->apps.size() != apps->size()) return r->Fail("apps");
  return true;
}

bool ReadWord(const Json& e, size_t i, LearnedWord* w, std::string* error) {
  FieldReader r(e, "words[" + std::to_string(i) + "]");
  if (!e.is_object()) return r.Fail("entry"), *error = r.error(), false;
  const bool ok = r.String("language", IsLanguageTag, &w->language) &&
                  r.String("word", IsStorableWord, &w->word) &&
                  r.Count("count", kMaxCount, &w->count) && r.Count("picks", w->count, &w->picks) &&
                  r.Weight("weight", w->count, &w->weight) &&
                  r.Time("first_time", &w->first_time) && r.Time("last_time", &w->last_time) &&
                  (w->count > 0 || r.Fail("count")) &&
                  (w->first_time <= w->last_time || r.Fail("first_time")) &&
                  r.OptionalString("reading", IsReading, &w->reading) && ReadApps(e, &r, w);
  if (!ok) *error = r.error();
  return ok;
}

bool ReadPair(const Json& e, size_t i, LearnedPair* p, std::string* error) {
  FieldReader r(e, "pairs[" + std::to_string(i) + "]");
  if (!e.is_object()) return r.Fail("entry"), *error = r.error(), false;
  const bool ok = r.String("language", IsLanguageTag, &p->language) &&
                  r.String("previous", IsStorableWord, &p->previous) &&
                  r.String("word", IsStorableWord, &p->word) &&
                  r.Count("count", kMaxCount, &p->count) &&
                  r.Weight("weight", p->count, &p->weight) && r.Time("last_time", &p->last_time) &&
                  (p->count > 0 || r.Fail("count"));
  if (!ok) *error = r.error();
  return ok;
}

bool ReadShortcut(const Json& e, size_t i, Shortcut* sc, std::string* error) {
  FieldReader r(e, "shortcuts[" + std::to_string(i) + "]");
  if (!e.is_object()) return r.Fail("entry"), *error = r.error(), false;
  const bool ok = r.String("trigger", IsShortcutTrigger, &sc->trigger) &&
                  r.String("expansion", IsShortcutExpansion, &sc->expansion) &&
                  r.Time("created", &sc->created);
  if (!ok) *error = r.error();
  return ok;
}

bool IsPreviousWord(std::string_view previous) {
  return previous.empty() || IsStorableWord(previous);
}

bool ReadRecent(const Json& e, size_t i, RecentEntry* r, std::string* error) {
  FieldReader f(e, "recent[" + std::to_string(i) + "]");
  if (!e.is_object()) return f.Fail("entry"), *error = f.error(), false;
  const bool ok = f.String("language", IsLanguageTag, &r->language) &&
                  f.String("word", IsStorableWord, &r->word.word) &&
                  f.String("previous", IsPreviousWord, &r->word.previous) &&
                  f.Time("time", &r->word.unix_time);
  if (!ok) *error = f.error();
  return ok;
}

// The optional array `key` of j (absent: empty); false when it is there and not an array.
bool OptionalArray(const Json& j, const char* key, const Json** out) {
  static const Json kEmpty = Json::array();
  const auto it = j.find(key);
  *out = it != j.end() ? &*it : &kEmpty;
  return (*out)->is_array();
}

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

bool IsShortcutExpansion(std::string_view expansion) {
  if (expansion.empty() || expansion.size() > kMaxExpansionBytes ||
      !utf8::Validate(expansion).ok()) {
    return false;
  }
  for (size_t pos = 0; pos < expansion.size();) {
    char32_t cp;
    utf8::Decode(expansion, &pos, &cp);
    if ((cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7F && cp < 0xA0)) return false;
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
    // Controls, spaces and the Unicode line/paragraph and no-break spaces end a word.
    if (cp <= 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0x1680 ||
        (cp >= 0x2000 && cp <= 0x200B) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
        cp == 0x205F || cp == 0x3000 || cp == 0xFEFF) {
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
  return out.dump(1) + "\n";
}

Status ParseExport(std::string_view json, ExportContents* out) {
  *out = ExportContents();
  if (json.size() > kMaxExportBytes) return Status::InvalidArgument("export larger than 256 MiB");
  if (!utf8::Validate(json).ok()) return Status::InvalidArgument("export is not valid UTF-8");
  if (JsonNestingDepth(json, kMaxDepth) > kMaxDepth)
    return Status::InvalidArgument("export nested deeper than its format");
  const Json j = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("export is not JSON");
  if (!j.is_object()) return Status::InvalidArgument("export is not a JSON object");
  auto format = j.find("format");
  if (format == j.end() || !format->is_string() || *format != kExportFormatName) {
    return Status::InvalidArgument("'format' is not \"keydecide-user-store\"");
  }
  auto version = j.find("version");
  if (version == j.end() || !version->is_number_integer()) {
    return Status::InvalidArgument("'version' missing");
  }
  if (version->get<int64_t>() != UserStore::kExportVersion) {
    return Status::NotSupported("export version " + std::to_string(version->get<int64_t>()) +
                                " (this build reads version " +
                                std::to_string(UserStore::kExportVersion) + ")");
  }
  auto w = j.find("words"), p = j.find("pairs");
  if (w == j.end() || !w->is_array()) return Status::InvalidArgument("'words' is not an array");
  if (p == j.end() || !p->is_array()) return Status::InvalidArgument("'pairs' is not an array");
  const Json* sc = nullptr;  // optional (see the header)
  const Json* recent = nullptr;
  if (!OptionalArray(j, "shortcuts", &sc)) {
    return Status::InvalidArgument("'shortcuts' is not an array");
  }
  if (!OptionalArray(j, "recent", &recent)) {
    return Status::InvalidArgument("'recent' is not an array");
  }
  if (w->size() + p->size() + sc->size() + recent->size() > kMaxExportEntries) {
    return Status::InvalidArgument("export has more than 2,000,000 entries");
  }
  std::string error;
  out->words.resize(w->size());
  for (size_t i = 0; i < w->size(); ++i) {
    if (!ReadWord((*w)[i], i, &out->words[i], &error)) return Status::InvalidArgument(error);
  }
  out->pairs.resize(p->size());
  for (size_t i = 0; i < p->size(); ++i) {
    if (!ReadPair((*p)[i], i, &out->pairs[i], &error)) return Status::InvalidArgument(error);
  }
  out->shortcuts.resize(sc->size());
  for (size_t i = 0; i < sc->size(); ++i) {
    if (!ReadShortcut((*sc)[i], i, &out->shortcuts[i], &error)) {
      return Status::InvalidArgument(error);
    }
  }
  out->recent.resize(recent->size());
  for (size_t i = 0; i < recent->size(); ++i) {
    if (!ReadRecent((*recent)[i], i, &out->recent[i], &error)) {
      return Status::InvalidArgument(error);
    }
  }
  return Status::OK();
}

}  // namespace keydecide::personal
