// The user store's export format: one JSON object, documented in docs/PERSONAL.md.
//
//   {"format": "keydecide-user-store", "version": 1, "exported_at": <unix seconds>,
//    "words": [{"language": "en", "word": "Darcy", "count": 3, "picks": 1, "weight": 2.9,
//               "first_time": <unix s>, "last_time": <unix s>,
//               "apps": {"chat": {"count": 2, "weight": 1.9}}}, ...,
//              {"language": "zh", "word": "张伟明", ..., "reading": "zhang'wei'ming"}],
//    "pairs": [{"language": "en", "previous": "Mr", "word": "Darcy", "count": 2,
//               "weight": 1.9, "last_time": <unix s>}, ...],
//    "shortcuts": [{"trigger": "omw", "expansion": "On my way!", "created": <unix s>}, ...],
//    "recent": [{"language": "en", "word": "Darcy", "previous": "Mr", "time": <unix s>}, ...]}
//
// `weight` is the decayed count as of the export. Keys not named here are ignored, so that a
// later writer of the same version may add some; every named key is required, except
// "shortcuts" (added within version 1: older builds ignore it, and an export without it has
// none), a word's "reading" (added within version 1 for Chinese; written only when not
// empty), a word's "apps" (added within version 1: its counts per app type, keyed chat,
// search, code, editor, url; written only when it has some) and "recent" (added within
// version 1: the recent text fine-tuning reads, each language's words oldest first; "previous"
// is "" where a sentence started).

#ifndef KEYDECIDE_PERSONAL_EXPORT_FORMAT_H_
#define KEYDECIDE_PERSONAL_EXPORT_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/user_store.h"

namespace keydecide::personal {

inline constexpr std::string_view kExportFormatName = "keydecide-user-store";
// Limits a valid export stays within (a person types far fewer distinct words).
inline constexpr size_t kMaxExportBytes = UserStore::kMaxExportBytes;
inline constexpr size_t kMaxExportEntries = 2'000'000;
inline constexpr uint32_t kMaxCount = 1'000'000'000;
inline constexpr size_t kMaxWordBytes = 64;
inline constexpr size_t kMaxLanguageBytes = 8;
inline constexpr size_t kMaxReadingBytes = 128;
inline constexpr size_t kMaxTriggerBytes = 32;
inline constexpr size_t kMaxExpansionBytes = 1024;

// A bidi control (U+202A..U+202E, U+2066..U+2069, U+200E, U+200F, U+061C): it changes the
// order text around it is shown in, so a list of words could show another word than is stored.
bool IsBidiControl(char32_t cp);
// A word the store accepts: valid UTF-8, 1..kMaxWordBytes bytes, no white space, control or
// bidi control characters.
bool IsStorableWord(std::string_view word);
// A reading (LearnEvent::reading): "", or at most kMaxReadingBytes of a-z and apostrophes,
// starting and ending with a letter, no two apostrophes together.
bool IsReading(std::string_view reading);
// A language tag: 1..kMaxLanguageBytes of a-z and '-'.
bool IsLanguageTag(std::string_view language);
// A shortcut's trigger: a word a session can have as the word being typed (letters, and
// straight apostrophes after a letter), at most kMaxTriggerBytes, already lower-cased.
bool IsShortcutTrigger(std::string_view trigger);
// A shortcut's expansion: 1..kMaxExpansionBytes of valid UTF-8 without control characters
// other than new line and tab, and without bidi controls.
bool IsShortcutExpansion(std::string_view expansion);

// One word of the recent text (UserStore::ListRecent) with its language.
struct RecentEntry {
  std::string language;
  RecentWord word;
};

// What an export holds.
struct ExportContents {
  std::vector<LearnedWord> words;  // weights as of the export
  std::vector<LearnedPair> pairs;
  std::vector<Shortcut> shortcuts;
  std::vector<RecentEntry> recent;  // each language's words oldest first
};

// Writes `contents` in the format above.
std::string WriteExport(const ExportContents& contents, int64_t exported_at);

// Parses and validates an export into *out (pairs' last_tick 0), as a stream (export_reader.cc):
// limits are checked while reading, and one entry at a time is held as a tree.
//   - An entry that is not valid is left out: *report (when not null) counts it and notes its
//     position and field, never its text. A count past kMaxCount, picks or a weight past the
//     count, a first use after the last are brought into range (report->clamped).
//   - The whole file is refused (InvalidArgument, *out unspecified) when it is not JSON, not an
//     object of this format, nested deeper than the format, over kMaxExportBytes, or has more
//     than kMaxExportEntries entries (refused at the first one past it); NotSupported for
//     another version.
Status ParseExport(std::string_view json, ExportContents* out, TransferReport* report = nullptr);

}  // namespace keydecide::personal

#endif  // KEYDECIDE_PERSONAL_EXPORT_FORMAT_H_
