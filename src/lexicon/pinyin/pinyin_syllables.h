// Pinyin syllables: the table of valid toneless Mandarin syllables (Hanyu Pinyin, Simplified
// typing conventions: `ü` is typed `v`, so lv, lve, nv, nve), their initials and finals, and the
// lookups the pinyin lattice needs.
//
// Also accepted, as aliases of the canonical spelling, "lue" and "nue" (what many people type for
// lüe and nüe; most IMEs accept both). Aliases are not in Syllables(); IsSyllable() is false for
// them and CanonicalSyllable() maps them.
//
// All functions are thread-safe, never allocate after the first call, and every returned view
// points into static storage valid for the life of the program (SplitInitial returns views into
// its argument).

#ifndef KEYDECIDE_LEXICON_PINYIN_PINYIN_SYLLABLES_H_
#define KEYDECIDE_LEXICON_PINYIN_PINYIN_SYLLABLES_H_

#include <span>
#include <string>
#include <string_view>

namespace keydecide::pinyin {

// The longest syllable ("zhuang", "chuang", "shuang") in letters.
inline constexpr size_t kMaxSyllableLength = 6;

// Every canonical syllable, sorted byte-wise (so prefixes can be found by binary search).
std::span<const std::string_view> Syllables();

// The 23 initials in the order of the Hanyu Pinyin scheme: b p m f d t n l g k h j q x zh ch sh
// r z c s, then the semi-initials y w.
std::span<const std::string_view> Initials();

// The finals as spelled after an initial (e.g. "ui" as in gui, "un" as in lun, "v" as in lv):
// exactly the set SplitInitial() yields over Syllables().
std::span<const std::string_view> Finals();

// The syllables that start with `prefix`, a contiguous run of Syllables() ("zh": zha ... zhuo;
// empty for "v" and for ""). Constant time for prefixes of one or two letters (initials), the
// searches' innermost case.
std::span<const std::string_view> SyllablesStartingWith(std::string_view prefix);

// True when s is a canonical syllable ("xian", "lv"; false for "lue" and for "").
bool IsSyllable(std::string_view s);

// True when s is a non-empty prefix of a canonical syllable, a whole syllable included
// ("zh", "zho", "xia", "xian"; false for "", "zhv", "v").
bool IsSyllablePrefix(std::string_view s);

// True when some canonical syllable is strictly longer than s and starts with it ("xia": xian;
// "zh": zha; false for "zhuang", "er").
bool HasLongerSyllable(std::string_view s);

// True when s is one of Initials().
bool IsInitial(std::string_view s);

// The static copy of s when s is a syllable, the canonical syllable when s is an alias ("lue" →
// "lve"), or an empty view.
std::string_view CanonicalSyllable(std::string_view s);

// The static copy of s when s is an initial, or an empty view.
std::string_view StaticInitial(std::string_view s);

// The static copy of s when IsSyllablePrefix(s), or an empty view.
std::string_view StaticPrefix(std::string_view s);

// A syllable split into its initial and final, e.g. "zhuang" → {"zh", "uang"}, "yan" → {"y",
// "an"}, "ang" → {"", "ang"}. REQUIRES: IsSyllable(syllable). Views point into `syllable`.
struct SyllableParts {
  std::string_view initial;  // empty for the zero-initial syllables (a, e, o, ai, er ...)
  std::string_view final_part;
};
SyllableParts SplitInitial(std::string_view syllable);

// `letters` (a lexicon key: syllables concatenated, "zhongguo") split into exactly `count`
// canonical syllables and written joined by apostrophes ("zhong'guo") into *out: the reading a
// word of `count` hanzi has ("xian" with 2 is "xi'an"; with 1, "xian"). The first such split
// when several exist. False (and *out unspecified) when there is none or count > 64. Allocates
// only through *out.
bool SplitSyllables(std::string_view letters, size_t count, std::string* out);

}  // namespace keydecide::pinyin

#endif  // KEYDECIDE_LEXICON_PINYIN_PINYIN_SYLLABLES_H_
