#include "lexicon/pinyin/pinyin_syllables.h"

#include <algorithm>
#include <array>

namespace keydecide::pinyin {
namespace {

// The toneless syllables of Standard Mandarin as written in Hanyu Pinyin (the syllable table of
// the 汉语拼音方案, 1958, as tabulated e.g. in Wikipedia's "Pinyin table" and used by libpinyin,
// libime and Rime's luna_pinyin), with ü typed as v. Kept: the rare but real spellings that the
// common IMEs also accept (dei den dia kei lo nen nou pou rua yo zhei shei). Left out: the
// interjections written without a vowel (m n ng hm hng), ê, and one-character oddities (biang
// fiao nun tei cei sei eng), which the lexicon sources spell otherwise or not at all; they would
// only make the lattice ambiguous ("n" as a syllable vs. an initial). Grouped by initial here;
// Table() sorts a copy.
// clang-format off
constexpr std::string_view kSyllables[] = {
    // zero initial
    "a", "ai", "an", "ang", "ao", "e", "ei", "en", "er", "o", "ou",
    // b
    "ba", "bai", "ban", "bang", "bao", "bei", "ben", "beng", "bi", "bian", "biao", "bie", "bin",
    "bing", "bo", "bu",
    // p
    "pa", "pai", "pan", "pang", "pao", "pei", "pen", "peng", "pi", "pian", "piao", "pie", "pin",
    "ping", "po", "pou", "pu",
    // m
    "ma", "mai", "man", "mang", "mao", "me", "mei", "men", "meng", "mi", "mian", "miao", "mie",
    "min", "ming", "miu", "mo", "mou", "mu",
    // f
    "fa", "fan", "fang", "fei", "fen", "feng", "fo", "fou", "fu",
    // d
    "da", "dai", "dan", "dang", "dao", "de", "dei", "den", "deng", "di", "dia", "dian", "diao",
    "die", "ding", "diu", "dong", "dou", "du", "duan", "dui", "dun", "duo",
    // t
    "ta", "tai", "tan", "tang", "tao", "te", "teng", "ti", "tian", "tiao", "tie", "ting", "tong",
    "tou", "tu", "tuan", "tui", "tun", "tuo",
    // n
    "na", "nai", "nan", "nang", "nao", "ne", "nei", "nen", "neng", "ni", "nian", "niang", "niao",
    "nie", "nin", "ning", "niu", "nong", "nou", "nu", "nuan", "nuo", "nv", "nve",
    // l
    "la", "lai", "lan", "lang", "lao", "le", "lei", "leng", "li", "lia", "lian", "liang", "liao",
    "lie", "lin", "ling", "liu", "lo", "long", "lou", "lu", "luan", "lun", "luo", "lv", "lve",
    // g
    "ga", "gai", "gan", "gang", "gao", "ge", "gei", "gen", "geng", "gong", "gou", "gu", "gua",
    "guai", "guan", "guang", "gui", "gun", "guo",
    // k
    "ka", "kai", "kan", "kang", "kao", "ke", "kei", "ken", "keng", "kong", "kou", "ku", "kua",
    "kuai", "kuan", "kuang", "kui", "kun", "kuo",
    // h
    "ha", "hai", "han", "hang", "hao", "he", "hei", "hen", "heng", "hong", "hou", "hu", "hua",
    "huai", "huan", "huang", "hui", "hun", "huo",
    // j
    "ji", "jia", "jian", "jiang", "jiao", "jie", "jin", "jing", "jiong", "jiu", "ju", "juan", "jue",
    "jun",
    // q
    "qi", "qia", "qian", "qiang", "qiao", "qie", "qin", "qing", "qiong", "qiu", "qu", "quan", "que",
    "qun",
    // x
    "xi", "xia", "xian", "xiang", "xiao", "xie", "xin", "xing", "xiong", "xiu", "xu", "xuan", "xue",
    "xun",
    // zh
    "zha", "zhai", "zhan", "zhang", "zhao", "zhe", "zhei", "zhen", "zheng", "zhi", "zhong", "zhou",
    "zhu", "zhua", "zhuai", "zhuan", "zhuang", "zhui", "zhun", "zhuo",
    // ch
    "cha", "chai", "chan", "chang", "chao", "che", "chen", "cheng", "chi", "chong", "chou", "chu",
    "chua", "chuai", "chuan", "chuang", "chui", "chun", "chuo",
    // sh
    "sha", "shai", "shan", "shang", "shao", "she", "shei", "shen", "sheng", "shi", "shou", "shu",
    "shua", "shuai", "shuan", "shuang", "shui", "shun", "shuo",
    // r
    "ran", "rang", "rao", "re", "ren", "reng", "ri", "rong", "rou", "ru", "rua", "ruan", "rui",
    "run", "ruo",
    // z
    "za", "zai", "zan", "zang", "zao", "ze", "zei", "zen", "zeng", "zi", "zong", "zou", "zu",
    "zuan", "zui", "zun", "zuo",
    // c
    "ca", "cai", "can", "cang", "cao", "ce", "cen", "ceng", "ci", "cong", "cou", "cu", "cuan",
    "cui", "cun", "cuo",
    // s
    "sa", "sai", "san", "sang", "sao", "se", "sen", "seng", "si", "song", "sou", "su", "suan",
    "sui", "sun", "suo",
    // y
    "ya", "yan", "yang", "yao", "ye", "yi", "yin", "ying", "yo", "yong", "you", "yu", "yuan",
    "yue", "yun",
    // w
    "wa", "wai", "wan", "wang", "wei", "wen", "weng", "wo", "wu",
};
// clang-format on
constexpr size_t kNumSyllables = std::size(kSyllables);

// Spellings typed for a canonical syllable: {alias, canonical}.
constexpr std::string_view kAliases[][2] = {{"lue", "lve"}, {"nue", "nve"}};

constexpr std::string_view kInitials[] = {"b",  "p", "m", "f", "d", "t", "n",  "l",
                                          "g",  "k", "h", "j", "q", "x", "zh", "ch",
                                          "sh", "r", "z", "c", "s", "y", "w"};

constexpr std::string_view kFinals[] = {
    "a",  "o",  "e",   "ai", "ei",  "ao", "ou",   "an", "en",   "ang", "eng",  "ong",
    "er", "i",  "ia",  "ie", "iao", "iu", "ian",  "in", "iang", "ing", "iong", "u",
    "ua", "uo", "uai", "ui", "uan", "un", "uang", "ue", "v",    "ve"};

// The syllables sorted byte-wise, built once.
const std::array<std::string_view, kNumSyllables>& Sorted() {
  static const std::array<std::string_view, kNumSyllables> sorted = [] {
    std::array<std::string_view, kNumSyllables> a;
    std::copy(std::begin(kSyllables), std::end(kSyllables), a.begin());
    std::sort(a.begin(), a.end());
    return a;
  }();
  return sorted;
}

// The first sorted syllable not less than s.
const std::string_view* LowerBound(std::string_view s) {
  const auto& sorted = Sorted();
  return std::lower_bound(sorted.data(), sorted.data() + sorted.size(), s);
}

const std::string_view* SortedEnd() { return Sorted().data() + Sorted().size(); }

}  // namespace

std::span<const std::string_view> Syllables() { return {Sorted().data(), Sorted().size()}; }

std::span<const std::string_view> SyllablesStartingWith(std::string_view prefix) {
  const auto search = [](std::string_view p) -> std::span<const std::string_view> {
    const std::string_view* first = LowerBound(p);
    const std::string_view* last = first;
    while (last != SortedEnd() && last->starts_with(p)) ++last;
    return {first, last};
  };
  const auto letter = [](char c) { return c >= 'a' && c <= 'z'; };
  if (prefix.empty() || prefix.size() > 2 || !letter(prefix[0]) ||
      (prefix.size() == 2 && !letter(prefix[1]))) {
    return prefix.empty() ? std::span<const std::string_view>() : search(prefix);
  }
  // Runs for every one- and two-letter prefix, found once: index 27·a + b, b = 0 for one letter.
  static const std::array<std::span<const std::string_view>, 27 * 26> runs = [&] {
    std::array<std::span<const std::string_view>, 27 * 26> r;
    for (int a = 0; a < 26; ++a) {
      const char one[2] = {static_cast<char>('a' + a), static_cast<char>('a')};
      r[27 * a] = search(std::string_view(one, 1));
      for (int b = 0; b < 26; ++b) {
        const char two[2] = {static_cast<char>('a' + a), static_cast<char>('a' + b)};
        r[27 * a + 1 + b] = search(std::string_view(two, 2));
      }
    }
    return r;
  }();
  const size_t a = static_cast<size_t>(prefix[0] - 'a');
  return runs[27 * a + (prefix.size() == 1 ? 0 : 1 + static_cast<size_t>(prefix[1] - 'a'))];
}
std::span<const std::string_view> Initials() { return kInitials; }
std::span<const std::string_view> Finals() { return kFinals; }

bool IsSyllable(std::string_view s) {
  const std::string_view* it = LowerBound(s);
  return it != SortedEnd() && *it == s;
}

bool IsSyllablePrefix(std::string_view s) { return !StaticPrefix(s).empty(); }

bool HasLongerSyllable(std::string_view s) {
  if (s.empty()) return false;
  const std::string_view* it = LowerBound(s);
  if (it != SortedEnd() && *it == s) ++it;  // the syllable itself sorts first
  return it != SortedEnd() && it->starts_with(s);
}

bool IsInitial(std::string_view s) { return !StaticInitial(s).empty(); }

std::string_view CanonicalSyllable(std::string_view s) {
  const std::string_view* it = LowerBound(s);
  if (it != SortedEnd() && *it == s) return *it;
  for (const auto& alias : kAliases) {
    if (alias[0] == s) return CanonicalSyllable(alias[1]);
  }
  return {};
}

std::string_view StaticInitial(std::string_view s) {
  for (std::string_view initial : kInitials) {
    if (initial == s) return initial;
  }
  return {};
}

std::string_view StaticPrefix(std::string_view s) {
  if (s.empty()) return {};
  const std::string_view* it = LowerBound(s);
  if (it == SortedEnd() || !it->starts_with(s)) return {};
  return it->substr(0, s.size());
}

SyllableParts SplitInitial(std::string_view syllable) {
  size_t n = 0;
  if (syllable.size() >= 2 && syllable[1] == 'h' &&
      (syllable[0] == 'z' || syllable[0] == 'c' || syllable[0] == 's')) {
    n = 2;
  } else if (!syllable.empty() &&
             std::string_view("aeo").find(syllable[0]) == std::string_view::npos) {
    n = 1;
  }
  return {syllable.substr(0, n), syllable.substr(n)};
}

bool SplitSyllables(std::string_view letters, size_t count, std::string* out) {
  // can[i][k]: letters[i..] splits into k syllables. At most 64 syllables of 6 letters.
  constexpr size_t kMaxCount = 64, kMaxLetters = kMaxCount * kMaxSyllableLength;
  if (count == 0 || count > kMaxCount || letters.size() > kMaxLetters) return false;
  static thread_local std::array<std::array<bool, kMaxCount + 1>, kMaxLetters + 1> can;
  const size_t n = letters.size();
  for (size_t i = 0; i <= n; ++i) can[i].fill(false);
  can[n][0] = true;
  for (size_t i = n; i-- > 0;) {
    for (size_t len = 1; len <= kMaxSyllableLength && i + len <= n; ++len) {
      if (!IsSyllable(letters.substr(i, len))) continue;
      for (size_t k = 1; k <= count; ++k) can[i][k] = can[i][k] || can[i + len][k - 1];
    }
  }
  if (!can[0][count]) return false;
  out->clear();
  for (size_t i = 0, k = count; k > 0; --k) {
    size_t len = 1;
    while (!(i + len <= n && IsSyllable(letters.substr(i, len)) && can[i + len][k - 1])) ++len;
    if (!out->empty()) out->push_back('\'');
    out->append(letters.substr(i, len));
    i += len;
  }
  return true;
}

}  // namespace keydecide::pinyin
