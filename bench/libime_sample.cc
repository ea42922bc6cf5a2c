// libime_sample: sentences sampled from libime's Chinese language model (Debian
// libime-data-language-model's zh_CN.lm, LGPL-2.1+), the text of the general-domain pinyin dev
// set (docs/history/BENCHMARKS-to-2026-12-07.md, "General-domain dev set"). No Chinese running text
// of a general kind may be used here; a model trained on such text may, and its samples stand in
// for it.
//
// The vocabulary is the --top words of --dict (libime's sc.dict dumped to text, "word pin'yin
// count" lines; words of 1 to 4 hanzi) with the highest unigram probability under the model.
// Each sentence starts at the model's sentence start; each next word is drawn from the model's
// probabilities after the words so far, over that vocabulary and the sentence end (renormalised),
// until the end is drawn or --max-words. Seeded: the same arguments give the same file. One
// sentence a line, hanzi only.
//
//   build/bin/libime_sample --dict data/zh/lexicon/sc.dict.txt --sentences 3000 --seed 1
//       --out data/zh/general/libime_sample.txt   (one command line)

#include <libime/core/languagemodel.h>
#include <libime/core/lattice.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

// Code points of UTF-8 text when every one of them is a CJK ideograph (the basic block or
// extension A), else 0.
size_t HanLength(const std::string& s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0xE0 || c >= 0xF0 || i + 2 >= s.size()) return 0;
    const uint32_t cp = (c & 0x0Fu) << 12 | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6 |
                        (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
    if (!((cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF))) return 0;
    i += 3;
    ++n;
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Sample Chinese sentences from libime's zh_CN.lm"};
  std::string dict, out;
  size_t sentences = 3000, top = 20000, max_words = 16;
  uint64_t seed = 1;
  app.add_option("--dict", dict, "sc.dict as text (word pin'yin count lines)")->required();
  app.add_option("--out", out, "Output text file")->required();
  app.add_option("--sentences", sentences, "Sentences to write")->capture_default_str();
  app.add_option("--top", top, "Vocabulary: the most probable words")->capture_default_str();
  app.add_option("--max-words", max_words, "Longest sentence, in words")->capture_default_str();
  app.add_option("--seed", seed, "Random seed")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  auto file =
      libime::DefaultLanguageModelResolver::instance().languageModelFileForLanguage("zh_CN");
  if (file == nullptr) {
    std::cerr << "libime_sample: no zh_CN.lm (Debian: libime-data-language-model)\n";
    return 1;
  }
  libime::LanguageModel lm(file);

  // The vocabulary: known words of the dictionary, by unigram probability.
  std::ifstream in(dict);
  if (!in) {
    std::cerr << "libime_sample: cannot read " << dict << "\n";
    return 1;
  }
  std::unordered_set<std::string> seen;
  std::vector<std::pair<float, std::string>> scored;
  libime::State state;
  for (std::string line; std::getline(in, line);) {
    const std::string word = line.substr(0, line.find(' '));
    const size_t chars = HanLength(word);
    if (chars == 0 || chars > 4 || !seen.insert(word).second) continue;
    const libime::WordIndex idx = lm.index(word);
    if (lm.isUnknown(idx, word)) continue;
    scored.emplace_back(lm.score(lm.nullState(), libime::WordNode(word, idx), state), word);
  }
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  scored.resize(std::min(scored.size(), top));
  std::vector<libime::WordNode> vocab;
  vocab.reserve(scored.size() + 1);
  for (const auto& [score, word] : scored) vocab.emplace_back(word, lm.index(word));
  vocab.emplace_back("", lm.endSentence());  // last: the sentence end
  std::cerr << "libime_sample: " << seen.size() << " dictionary words, " << vocab.size() - 1
            << " in the vocabulary\n";

  std::mt19937_64 rng(seed);
  std::ofstream output(out);
  std::vector<double> weights(vocab.size());
  libime::State next;
  for (size_t s = 0; s < sentences; ++s) {
    libime::State current = lm.beginState();
    std::string sentence;
    for (size_t w = 0; w < max_words; ++w) {
      double total = 0;
      for (size_t i = 0; i < vocab.size(); ++i) {
        weights[i] = std::pow(10.0, lm.score(current, vocab[i], next));  // scores are log10
        total += weights[i];
      }
      double u = static_cast<double>(rng() >> 11) * 0x1.0p-53 * total;
      size_t pick = 0;
      while (pick + 1 < vocab.size() && u >= weights[pick]) u -= weights[pick++];
      if (pick + 1 == vocab.size()) break;  // the sentence end
      lm.score(current, vocab[pick], next);
      current = next;
      sentence += vocab[pick].word();
    }
    if (!sentence.empty()) output << sentence << "\n";
  }
  return output ? 0 : 1;
}
