// libime_eval: the pinyin evaluation of `keydecide eval pinyin` run with libime (fcitx5's pinyin
// engine, Debian's libimepinyin with the shipped sc.dict and zh_CN.lm), so both engines are
// measured on the same TSV with the same metrics and JSON keys. Used by bench/libime_compare.sh.
//
//   libime_eval --tsv FILE [--max-lines N]
//
// FILE has lines `hanzi<TAB>letters<TAB>syllables` (the syllables are not used: libime segments
// the letters itself). Empty lines are skipped; any other malformed line is an error (FILE:LINE).
// The engine is set up as fcitx5-chinese-addons 5.0.x sets it up by default (im/pinyin/pinyin.cpp,
// pinyin.h): nbest 2, partial long word limit 4, score filter 1, max sentence length 35, fuzzy
// VE_UE|CommonTypo|Inner|InnerShort|PartialFinal, extb.dict as an extra dictionary. No user
// history, nothing learnt, no cloud pinyin, spell, emoji or chaizi candidates.
//
// Per line, the letters are typed one per keystroke into a cleared PinyinContext; each keystroke
// is timed with the candidate list fcitx5 builds from it (every candidate's text). The sentence
// time is a cleared context given all the letters in one call, plus the same candidate list.

#include <fcitx-utils/utf8.h>
#include <libime/core/languagemodel.h>
#include <libime/core/userlanguagemodel.h>
#include <libime/pinyin/pinyincontext.h>
#include <libime/pinyin/pinyindictionary.h>
#include <libime/pinyin/pinyinime.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "tools/proc_status.h"

#ifndef LIBIME_PKGDATADIR
#define LIBIME_PKGDATADIR "/usr/share/libime"
#endif
#ifndef LIBIME_VERSION
#define LIBIME_VERSION "unknown"
#endif

namespace {

struct Line {
  std::string hanzi, letters;
};

// Why a TSV line is malformed (nullptr: it is not); fills *line.
const char* Parse(const std::string& text, Line* line) {
  const size_t t1 = text.find('\t');
  const size_t t2 = t1 == std::string::npos ? t1 : text.find('\t', t1 + 1);
  if (t2 == std::string::npos || text.find('\t', t2 + 1) != std::string::npos) {
    return "expected hanzi<TAB>letters<TAB>syllables";
  }
  line->hanzi = text.substr(0, t1);
  line->letters = text.substr(t1 + 1, t2 - t1 - 1);
  if (line->hanzi.empty() || !fcitx::utf8::validate(line->hanzi)) return "hanzi empty or not UTF-8";
  if (line->letters.empty() ||
      line->letters.find_first_not_of("abcdefghijklmnopqrstuvwxyz'") != std::string::npos) {
    return "letters empty or not a-z and '";
  }
  if (t2 + 1 == text.size()) return "empty syllables";
  return nullptr;
}

// Reads the TSV; false (with a FILE:LINE message on stderr) on the first malformed line.
bool ReadTsv(const std::string& path, size_t max_lines, std::vector<Line>* out) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "libime_eval: cannot read " << path << "\n";
    return false;
  }
  std::string text;
  for (size_t n = 1; std::getline(in, text) && (max_lines == 0 || out->size() < max_lines); ++n) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty()) continue;
    Line line;
    if (const char* problem = Parse(text, &line)) {
      std::cerr << path << ":" << n << ": " << problem << "\n";
      return false;
    }
    out->push_back(std::move(line));
  }
  return true;
}

std::vector<uint32_t> CodePoints(const std::string& s) {
  std::vector<uint32_t> cps;
  for (auto it = s.begin(); it != s.end();) {
    uint32_t c = 0;
    it = fcitx::utf8::getNextChar(it, s.end(), &c);
    cps.push_back(c);
  }
  return cps;
}

size_t EditDistance(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

double Quantile(std::vector<float> v, double q) {  // as tools/cmd_bench.cc
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * (v.size() - 1) + 0.5)];
}

// The candidate list fcitx5's PinyinEngine::updateUI builds: every candidate's text, in order.
std::vector<std::string> CandidateList(const libime::PinyinContext& context) {
  std::vector<std::string> list;
  for (const libime::SentenceResult& c : context.candidatesToCursor()) list.push_back(c.toString());
  return list;
}

std::unique_ptr<libime::PinyinIME> MakeIme() {
  auto lm = libime::DefaultLanguageModelResolver::instance().languageModelFileForLanguage("zh_CN");
  if (lm == nullptr) throw std::runtime_error("no zh_CN.lm (Debian: libime-data-language-model)");
  auto ime = std::make_unique<libime::PinyinIME>(std::make_unique<libime::PinyinDictionary>(),
                                                 std::make_unique<libime::UserLanguageModel>(lm));
  ime->dict()->load(libime::PinyinDictionary::SystemDict, LIBIME_PKGDATADIR "/sc.dict",
                    libime::PinyinDictFormat::Binary);
  ime->dict()->addEmptyDict();
  ime->dict()->load(ime->dict()->dictSize() - 1, LIBIME_PKGDATADIR "/extb.dict",
                    libime::PinyinDictFormat::Binary);
  ime->setScoreFilter(1);
  ime->setNBest(2);
  ime->setPartialLongWordLimit(4);
  ime->setPreeditMode(libime::PinyinPreeditMode::RawText);
  using F = libime::PinyinFuzzyFlag;
  ime->setFuzzyFlags(libime::PinyinFuzzyFlags{F::VE_UE} | F::CommonTypo | F::Inner | F::InnerShort |
                     F::PartialFinal);
  return ime;
}

float MicrosSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Evaluate libime (fcitx5's pinyin engine) on a pinyin TSV"};
  std::string tsv;
  size_t max_lines = 0;
  app.add_option("--tsv", tsv, "Lines of hanzi<TAB>letters<TAB>syllables")->required();
  app.add_option("--max-lines", max_lines, "Evaluate only the first N lines (0: all)");
  CLI11_PARSE(app, argc, argv);

  std::vector<Line> lines;
  if (!ReadTsv(tsv, max_lines, &lines)) return 1;
  if (lines.empty()) {
    std::cerr << "libime_eval: no lines in " << tsv << "\n";
    return 1;
  }
  std::unique_ptr<libime::PinyinIME> ime;
  try {
    ime = MakeIme();
  } catch (const std::exception& e) {  // libime reports missing or bad data files by throwing
    std::cerr << "libime_eval: " << e.what() << "\n";
    return 1;
  }
  libime::PinyinContext context(ime.get());
  context.setMaxSentenceLength(35);  // fcitx5's PinyinState

  // Warm-up, untimed: a few conversions that are not in the file, typed both ways.
  for (int round = 0; round < 5; ++round) {
    for (const char* s : {"nihao", "womendezhongguo", "jintiantianqizhenhao", "zhshmydl"}) {
      context.clear();
      for (const char* c = s; *c != '\0'; ++c) context.type(std::string_view(c, 1));
      context.clear();
      context.type(s);
      CandidateList(context);
    }
  }

  std::vector<float> key_us, sentence_us;
  size_t top1 = 0, top5 = 0, distance = 0, chars = 0, rejected = 0;
  for (const Line& line : lines) {
    context.clear();
    std::vector<std::string> list;
    for (char c : line.letters) {
      const auto t0 = std::chrono::steady_clock::now();
      if (!context.type(std::string_view(&c, 1))) ++rejected;  // past the max sentence length
      list = CandidateList(context);
      key_us.push_back(MicrosSince(t0));
    }
    const std::string best = list.empty() ? "" : list[0];
    top1 += best == line.hanzi;
    const auto first5 = list.begin() + std::min<size_t>(5, list.size());
    top5 += std::find(list.begin(), first5, line.hanzi) != first5;
    const std::vector<uint32_t> want = CodePoints(line.hanzi);
    distance += EditDistance(CodePoints(best), want);
    chars += want.size();

    context.clear();
    const auto t0 = std::chrono::steady_clock::now();
    context.type(line.letters);
    CandidateList(context);
    sentence_us.push_back(MicrosSince(t0));
  }

  const double n = static_cast<double>(lines.size());
  const nlohmann::json out = {
      {"lines", lines.size()},
      {"sentence_top1", top1 / n},
      {"sentence_top5", top5 / n},
      {"char_accuracy", 1.0 - static_cast<double>(distance) / static_cast<double>(chars)},
      {"keystroke_p50_us", Quantile(key_us, 0.5)},
      {"keystroke_p95_us", Quantile(key_us, 0.95)},
      {"sentence_p50_us", Quantile(sentence_us, 0.5)},
      {"sentence_p95_us", Quantile(sentence_us, 0.95)},
      {"rss_mb", keydecide::ProcStatusKb("VmRSS") / 1024.0},
      {"engine", "libime " LIBIME_VERSION},
      {"keystrokes", key_us.size()},
      {"rejected_keystrokes", rejected},
  };
  std::cout << out.dump(2) << "\n";
  return 0;
}
