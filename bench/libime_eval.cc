// libime_eval: the pinyin evaluation of `keydecide eval pinyin` run with libime (fcitx5's pinyin
// engine, Debian's libimepinyin with the shipped sc.dict and zh_CN.lm), so both engines are
// measured on the same TSV with the same metrics and JSON keys. Used by bench/libime_compare.sh.
//
//   libime_eval --tsv FILE [--max-lines N]
//
// FILE has lines `hanzi<TAB>letters<TAB>syllables` (the syllables are not used: libime segments
// the letters itself), read and checked by the same code as keydecide's (tools/pinyin_eval.h,
// with its edit distance and tools/quantile.h): a malformed line is an error naming it.
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
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "tools/pinyin_eval.h"
#include "tools/proc_status.h"
#include "tools/quantile.h"

#ifndef LIBIME_PKGDATADIR
#define LIBIME_PKGDATADIR "/usr/share/libime"
#endif
#ifndef LIBIME_VERSION
#define LIBIME_VERSION "unknown"
#endif

namespace {

// The whole file, or false with a message on stderr.
bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "libime_eval: cannot read " << path << "\n";
    return false;
  }
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
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

  std::string text;
  if (!ReadFile(tsv, &text)) return 1;
  std::vector<keydecide::PinyinEvalLine> lines;
  if (const keydecide::Status s = keydecide::ParsePinyinEval(text, &lines); !s.ok()) {
    std::cerr << "libime_eval: " << tsv << ": " << s.ToString() << "\n";
    return 1;
  }
  if (max_lines > 0 && lines.size() > max_lines) lines.resize(max_lines);
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
  for (const keydecide::PinyinEvalLine& line : lines) {
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
    distance += keydecide::CodePointEditDistance(best, line.hanzi);
    chars += fcitx::utf8::length(line.hanzi);

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
      {"keystroke_p50_us", keydecide::Quantile(key_us, 0.5)},
      {"keystroke_p95_us", keydecide::Quantile(key_us, 0.95)},
      {"sentence_p50_us", keydecide::Quantile(sentence_us, 0.5)},
      {"sentence_p95_us", keydecide::Quantile(sentence_us, 0.95)},
      {"rss_mb", keydecide::ProcStatusKb("VmRSS") / 1024.0},
      {"engine", "libime " LIBIME_VERSION},
      {"keystrokes", key_us.size()},
      {"rejected_keystrokes", rejected},
  };
  std::cout << out.dump(2) << "\n";
  return 0;
}
