// libime_score: libime's own log10 score of each word of given sentences, under its Chinese
// language model (Debian libime-data-language-model's zh_CN.lm, LGPL-2.1+) or another KenLM
// QUANT_ARRAY_TRIE file, to check training/keydecide_train/kenlm_arpa.py's ARPA dump against.
//
//   libime_score [--lm FILE] [--null-start] < sentences.txt
//
// Each input line is one sentence, words separated by spaces. For each, one output line: the
// score libime::LanguageModel::score gives each word after the ones before it, starting from
// beginState() (KenLM's begin-sentence state, context "<s>"; nullState() with --null-start),
// then the score of endSentence() ("</s>"), which libime's decoder adds at the end of every
// sentence; "%.6f" separated by spaces. An unknown word scores <unk>'s probability plus libime's
// unknown penalty (log10(1/60000000)); zh_CN.lm has no "<s>" or "</s>", so KenLM maps both to
// <unk> (word id 0) and the sentence end is scored as an unknown word. Prints the penalty and
// the special word ids to stderr. The same lines from the dumped ARPA:
//   PYTHONPATH=training python3 -m keydecide_train.kenlm_arpa --arpa FILE.arpa --score FILE
//
// Build by hand (Debian: libimecore-dev, libfcitx5utils-dev; libime ships no pkg-config file):
//   g++ -std=c++17 -O2 -I/usr/include/LibIME $(pkg-config --cflags Fcitx5Utils)
//       bench/libime_score.cc -o build/libime_score -lIMECore $(pkg-config --libs Fcitx5Utils)

#include <libime/core/languagemodel.h>
#include <libime/core/lattice.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string path;
  bool null_start = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--lm") && i + 1 < argc) {
      path = argv[++i];
    } else if (!std::strcmp(argv[i], "--null-start")) {
      null_start = true;
    } else {
      std::cerr << "usage: libime_score [--lm FILE] [--null-start] < sentences\n";
      return 2;
    }
  }
  std::shared_ptr<const libime::StaticLanguageModelFile> file;
  try {
    if (path.empty()) {
      file = libime::DefaultLanguageModelResolver::instance().languageModelFileForLanguage("zh_CN");
      if (file == nullptr) {
        std::cerr << "libime_score: no zh_CN.lm (Debian: libime-data-language-model)\n";
        return 1;
      }
    } else {
      file = std::make_shared<libime::StaticLanguageModelFile>(path.c_str());
    }
  } catch (const std::exception& e) {
    std::cerr << "libime_score: cannot load " << (path.empty() ? "zh_CN.lm" : path) << ": "
              << e.what() << "\n";
    return 1;
  }
  libime::LanguageModel lm(file);
  std::cerr << "libime_score: unknown penalty " << lm.unknownPenalty() << ", <s> id "
            << lm.beginSentence() << ", </s> id " << lm.endSentence() << ", <unk> id "
            << lm.unknown() << "\n";

  const libime::WordNode end("", lm.endSentence());
  for (std::string line; std::getline(std::cin, line);) {
    std::istringstream in(line);
    std::vector<libime::WordNode> words;
    for (std::string word; in >> word;) words.emplace_back(word, lm.index(word));
    libime::State state = null_start ? lm.nullState() : lm.beginState();
    libime::State next;
    for (const libime::WordNode& word : words) {
      std::printf("%.6f ", lm.score(state, word, next));
      state = next;
    }
    std::printf("%.6f\n", lm.score(state, end, next));
  }
  return std::cout.good() ? 0 : 1;
}
