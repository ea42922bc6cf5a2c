// ParseExport: the export format (export_format.h) read as a stream of SAX events, so that the
// limits are checked while reading. A DOM of the whole file cost about 35 bytes of tree per
// byte of input (255 MB of {"words":[{},{},...]} took 9 GB and aborted under a memory cap, issue
// 51); here only one entry at a time is a tree, bounded in size, and what is kept is the sound
// entries themselves. The 2,000,001st entry, a 6th level of nesting or an entry over
// kMaxEntryCost ends the read at once.

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "keydecide/options.h"
#include "personal/export_format.h"

namespace keydecide::personal {

namespace {

using Json = nlohmann::json;

// An export nests four deep (the object, a section, an entry, a word's "apps" and its
// counts); deeper input is refused.
constexpr size_t kMaxDepth = 5;
// The most one entry may take while it is read: its values, one each, plus their strings'
// bytes. A valid entry takes a few hundred (an expansion at most 1,024 bytes); keys a later
// writer adds fit too. A larger entry is left out without being kept.
constexpr size_t kMaxEntryCost = 16 << 10;

// Reads the fields of one entry; the first failure is remembered with the entry's position.
// Values out of range that can be brought into it (a count past the cap, picks or a weight
// past the count, a first use after the last) are, and counted as clamped.
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
  // 1..max (0 when zero_ok); past max: max.
  bool Count(const char* key, uint32_t max, uint32_t* out, bool zero_ok = false) {
    const Json* v = Find(key);
    if (v == nullptr) return false;
    if (!v->is_number_unsigned() || (v->get<uint64_t>() == 0 && !zero_ok)) return Fail(key);
    const uint64_t n = v->get<uint64_t>();
    if (n > max) clamped_ = true;
    *out = static_cast<uint32_t>(std::min<uint64_t>(n, max));
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
  // A finite weight >= 0; past max: max.
  bool Weight(const char* key, double max, double* out) {
    const Json* v = Find(key);
    if (v == nullptr) return false;
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0) {
      return Fail(key);
    }
    if (v->get<double>() > max) clamped_ = true;
    *out = std::min(v->get<double>(), max);
    return true;
  }
  void Clamp() { clamped_ = true; }
  bool Fail(const char* what) {
    if (error_.empty()) error_ = where_ + ": '" + what + "' missing or invalid";
    return false;
  }
  const std::string& error() const { return error_; }
  bool clamped() const { return clamped_; }

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
  bool clamped_ = false;
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
    if (!counts.Count("count", w->count, &a.count) ||
        !counts.Weight("weight", a.count, &a.weight)) {
      return r->Fail("apps");
    }
    if (counts.clamped()) r->Clamp();
    w->apps.push_back(a);
  }
  // Only the five names: a misspelt one would drop its counts unnoticed.
  if (w->apps.size() != apps->size()) return r->Fail("apps");
  return true;
}

bool ReadWord(const Json& e, FieldReader* r, LearnedWord* w) {
  if (!e.is_object()) return r->Fail("entry");
  if (!(r->String("language", IsLanguageTag, &w->language) &&
        r->String("word", IsStorableWord, &w->word) && r->Count("count", kMaxCount, &w->count) &&
        r->Count("picks", w->count, &w->picks, /*zero_ok=*/true) &&
        r->Weight("weight", w->count, &w->weight) && r->Time("first_time", &w->first_time) &&
        r->Time("last_time", &w->last_time) &&
        r->OptionalString("reading", IsReading, &w->reading) && ReadApps(e, r, w))) {
    return false;
  }
  if (w->first_time > w->last_time) {
    w->first_time = w->last_time;
    r->Clamp();
  }
  return true;
}

bool ReadPair(const Json& e, FieldReader* r, LearnedPair* p) {
  if (!e.is_object()) return r->Fail("entry");
  return r->String("language", IsLanguageTag, &p->language) &&
         r->String("previous", IsStorableWord, &p->previous) &&
         r->String("word", IsStorableWord, &p->word) && r->Count("count", kMaxCount, &p->count) &&
         r->Weight("weight", p->count, &p->weight) && r->Time("last_time", &p->last_time);
}

bool ReadShortcut(const Json& e, FieldReader* r, Shortcut* sc) {
  if (!e.is_object()) return r->Fail("entry");
  return r->String("trigger", IsShortcutTrigger, &sc->trigger) &&
         r->String("expansion", IsShortcutExpansion, &sc->expansion) &&
         r->Time("created", &sc->created);
}

bool IsPreviousWord(std::string_view previous) {
  return previous.empty() || IsStorableWord(previous);
}

bool ReadRecent(const Json& e, FieldReader* f, RecentEntry* r) {
  if (!e.is_object()) return f->Fail("entry");
  return f->String("language", IsLanguageTag, &r->language) &&
         f->String("word", IsStorableWord, &r->word.word) &&
         f->String("previous", IsPreviousWord, &r->word.previous) &&
         f->Time("time", &r->word.unix_time);
}

enum class Section { kNone, kWords, kPairs, kShortcuts, kRecent };

const char* SectionName(Section s) {
  switch (s) {
    case Section::kWords:
      return "words";
    case Section::kPairs:
      return "pairs";
    case Section::kShortcuts:
      return "shortcuts";
    case Section::kRecent:
      return "recent";
    case Section::kNone:
      break;
  }
  return "";
}

// The SAX handler (nlohmann::json_sax's methods, without the virtual base). Depth 0 is outside
// everything, 1 inside the export's object, 2 inside a section's array, 3 and more inside an
// entry.
class ExportSax {
 public:
  ExportSax(ExportContents* out, TransferReport* report) : out_(out), report_(report) {}

  bool null() { return Value(Json()); }
  bool boolean(bool b) { return Value(Json(b)); }
  bool number_integer(Json::number_integer_t v) { return Value(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return Value(Json(v)); }
  bool number_float(Json::number_float_t v, const std::string&) { return Value(Json(v)); }
  bool string(std::string& s) {
    if (InEntry()) cost_ += s.size();  // counted before a copy is kept
    return Value(Json(std::move(s)));
  }
  bool binary(Json::binary_t&) { return Fail("export is not JSON"); }
  bool key(std::string& k) {
    if (depth_ == 1) {
      top_key_ = std::move(k);
      return true;
    }
    if (InEntry()) {
      cost_ += k.size() + 1;
      if (Keeping()) pending_key_ = std::move(k);
    }
    return true;
  }
  bool start_object(size_t) { return Open(/*object=*/true); }
  bool start_array(size_t) { return Open(/*object=*/false); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool parse_error(size_t position, const std::string&, const nlohmann::detail::exception&) {
    // The byte offset only: the token may be the person's text.
    return Fail("export is not JSON (at byte " + std::to_string(position) + ")");
  }

  // After the parse: the status of the whole file.
  Status Finish() {
    if (!status_.ok()) return status_;
    if (!saw_format_) return Status::InvalidArgument("'format' is not \"keydecide-user-store\"");
    if (!version_.has_value()) return Status::InvalidArgument("'version' missing");
    if (*version_ != UserStore::kExportVersion) {
      return Status::NotSupported("export version " + std::to_string(*version_) +
                                  " (this build reads version " +
                                  std::to_string(UserStore::kExportVersion) + ")");
    }
    if (!saw_words_) return Status::InvalidArgument("'words' is not an array");
    if (!saw_pairs_) return Status::InvalidArgument("'pairs' is not an array");
    return Status::OK();
  }

 private:
  bool Fail(std::string message) {
    if (status_.ok()) status_ = Status::InvalidArgument(message);
    return false;  // stops the parse
  }

  // Inside an entry of a section (not of an ignored value).
  bool InEntry() const { return depth_ >= 3 && section_ != Section::kNone; }
  // An entry's tree is being kept (not past its cost).
  bool Keeping() const { return cost_ <= kMaxEntryCost; }

  bool Open(bool object) {
    if (depth_ == 0 && !object) return Fail("export is not a JSON object");
    if (++depth_ > kMaxDepth) return Fail("export nested deeper than its format");
    if (depth_ == 2) return OpenSection(object);
    if (InEntry()) {
      ++cost_;
      if (Keeping()) stack_.push_back(Insert(object ? Json::object() : Json::array()));
    }
    // Otherwise inside a value no one reads (an unknown key at the top): skipped, not kept.
    return true;
  }

  bool OpenSection(bool object) {
    section_ = Section::kNone;
    Section s = Section::kNone;
    if (top_key_ == "words") s = Section::kWords;
    if (top_key_ == "pairs") s = Section::kPairs;
    if (top_key_ == "shortcuts") s = Section::kShortcuts;
    if (top_key_ == "recent") s = Section::kRecent;
    if (s == Section::kNone) return true;  // another key, of a later writer: ignored
    if (object) return Fail(std::string("'") + SectionName(s) + "' is not an array");
    section_ = s;
    if (s == Section::kWords) saw_words_ = true;
    if (s == Section::kPairs) saw_pairs_ = true;
    index_ = 0;
    return true;
  }

  bool Close() {
    const size_t depth = depth_--;
    if (depth == 2) {
      section_ = Section::kNone;
      return true;
    }
    if (depth >= 3 && section_ != Section::kNone) {
      if (Keeping() && !stack_.empty()) stack_.pop_back();
      if (depth == 3) return EndEntry();
    }
    return true;
  }

  // A scalar: a top-level field, a part of an entry, or an entry by itself (a bad one).
  bool Value(Json v) {
    if (depth_ == 0) return Fail("export is not a JSON object");
    if (depth_ == 1) return TopValue(std::move(v));
    if (section_ == Section::kNone) return true;  // inside an ignored value
    if (depth_ == 2) {  // a scalar where an entry belongs
      entry_ = std::move(v);
      return EndEntry();
    }
    ++cost_;
    if (Keeping()) Insert(std::move(v));
    return true;
  }

  bool TopValue(Json v) {
    // A section given as a scalar is not an array; other keys are read or ignored.
    if (top_key_ == "words" || top_key_ == "pairs" || top_key_ == "shortcuts" ||
        top_key_ == "recent") {
      return Fail("'" + top_key_ + "' is not an array");
    }
    if (top_key_ == "format") {
      if (!v.is_string() || v.get_ref<const std::string&>() != kExportFormatName) {
        return Fail("'format' is not \"keydecide-user-store\"");
      }
      saw_format_ = true;
    } else if (top_key_ == "version") {
      if (!v.is_number_integer()) return Fail("'version' missing");
      version_ = v.get<int64_t>();
    }
    return true;
  }

  // Puts v where the entry being read is: the entry itself, or into its innermost container.
  Json* Insert(Json v) {
    if (stack_.empty()) {
      entry_ = std::move(v);
      return &entry_;
    }
    Json* parent = stack_.back();
    if (parent->is_object()) {
      Json& slot = (*parent)[pending_key_];
      slot = std::move(v);
      return &slot;
    }
    parent->push_back(std::move(v));
    return &parent->back();
  }

  // One entry of a section ended: count it, read it, keep it or note why not.
  bool EndEntry() {
    if (++entries_ > kMaxExportEntries) return Fail("export has more than 2,000,000 entries");
    const size_t i = index_++;
    const std::string where = std::string(SectionName(section_)) + "[" + std::to_string(i) + "]";
    FieldReader r(entry_, where);
    bool ok = false;
    if (!Keeping()) {
      r.Fail("entry");  // larger than any valid entry: not kept, never read
    } else {
      switch (section_) {
        case Section::kWords: {
          LearnedWord w;
          ok = ReadWord(entry_, &r, &w);
          if (ok) out_->words.push_back(std::move(w));
          break;
        }
        case Section::kPairs: {
          LearnedPair p;
          ok = ReadPair(entry_, &r, &p);
          if (ok) out_->pairs.push_back(std::move(p));
          break;
        }
        case Section::kShortcuts: {
          Shortcut sc;
          ok = ReadShortcut(entry_, &r, &sc);
          if (ok) out_->shortcuts.push_back(std::move(sc));
          break;
        }
        case Section::kRecent: {
          RecentEntry e;
          ok = ReadRecent(entry_, &r, &e);
          if (ok) out_->recent.push_back(std::move(e));
          break;
        }
        case Section::kNone:
          break;
      }
    }
    if (ok) {
      ++report_->entries;
      if (r.clamped()) ++report_->clamped;
    } else {
      report_->Skip(r.error());
    }
    entry_ = Json();
    stack_.clear();
    cost_ = 0;
    return true;
  }

  ExportContents* out_;
  TransferReport* report_;
  Status status_;
  size_t depth_ = 0;
  std::string top_key_;      // the last key of the export's object
  Section section_ = Section::kNone;
  size_t index_ = 0;         // the entry's position in its section
  size_t entries_ = 0;       // entries of every section so far
  Json entry_;               // the entry being read
  std::vector<Json*> stack_;  // its open containers, innermost last
  std::string pending_key_;  // the key of the next value in an object of the entry
  size_t cost_ = 0;          // what the entry took so far (kMaxEntryCost)
  bool saw_format_ = false, saw_words_ = false, saw_pairs_ = false;
  std::optional<int64_t> version_;
};

}  // namespace

Status ParseExport(std::string_view json, ExportContents* out, TransferReport* report) {
  *out = ExportContents();
  TransferReport ignored;
  if (report == nullptr) report = &ignored;
  *report = TransferReport();
  if (json.size() > kMaxExportBytes) return Status::InvalidArgument("export larger than 256 MiB");
  ExportSax sax(out, report);
  Json::sax_parse(json.begin(), json.end(), &sax, nlohmann::detail::input_format_t::json,
                  /*strict=*/true);
  return sax.Finish();
}

}  // namespace keydecide::personal
