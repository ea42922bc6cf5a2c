// Helpers shared by the tests: a lexicon built from the fixture text, and an engine on it.

#ifndef KEYDECIDE_TESTS_TEST_UTIL_H_
#define KEYDECIDE_TESTS_TEST_UTIL_H_

#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "keydecide/engine.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/lexicon_tool.h"
#include "model/quantize.h"

namespace keydecide::testing {

inline std::string ReadFixture(const std::string& name) {
  std::ifstream in(std::string(KD_TEST_FIXTURES) + "/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/kd_test_" + std::to_string(::getpid()) + "_" +
         name;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Lexicon bytes of the fixture corpus, every word kept (min_count 1).
inline std::string FixtureLexiconBytes() {
  std::string bytes;
  const Status s = BuildLexiconFromText(ReadFixture("tiny_corpus.txt"), 1, &bytes);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return bytes;
}

// The engine of the bundled models (KD_MODELS_DIR) with `options`' other settings; null, and a
// failed expectation, when it does not open.
inline std::unique_ptr<Engine> OpenBundled(EngineOptions options) {
  options.model_dir = KD_MODELS_DIR;
  std::unique_ptr<Engine> engine;
  const Status s = Engine::Open(options, &engine);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return engine;
}

// An engine on the fixture lexicon and the bundled QWERTY layout; with `model_bytes`, on
// that model too (else the count baseline).
inline std::unique_ptr<Engine> FixtureEngine(const std::string& model_bytes = "") {
  const std::string path = TempPath("fixture.kdlex");
  WriteFile(path, FixtureLexiconBytes());
  EngineOptions options;
  options.model_dir = KD_MODELS_DIR;
  options.lexicon_path = path;
  options.model_path = "none";
  const std::string model_path = TempPath("fixture.safetensors");
  if (!model_bytes.empty()) {
    WriteFile(model_path, model_bytes);
    options.model_path = model_path;
  }
  std::unique_ptr<Engine> engine;
  const Status s = Engine::Open(options, &engine);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::remove(path.c_str());  // mapped: the engine keeps it alive
  std::remove(model_path.c_str());
  return engine;
}

// The bytes of `model_bytes` quantized by QuantizeModel (ASSERTs inside via EXPECT).
inline std::string QuantizedModelBytes(const std::string& model_bytes, const QuantizeOptions& o) {
  const std::string in = TempPath("float.safetensors"), out = TempPath("quantized.safetensors");
  WriteFile(in, model_bytes);
  QuantizeReport report;
  const Status s = QuantizeModel(in, out, o, &report);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::string bytes;
  std::ifstream f(out, std::ios::binary);
  bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  std::remove(in.c_str());
  std::remove(out.c_str());
  return bytes;
}

// A word of a pinyin-keyed (zh) lexicon: its toneless pinyin key, hanzi spelling and count.
struct KeyedWord {
  std::string_view key, spelling;
  double count;
};

// The bytes of a zh lexicon holding `words` (every spelling of a key kept, most frequent first).
inline std::string PinyinLexiconBytes(std::initializer_list<KeyedWord> words) {
  LexiconBuilder builder;
  for (const KeyedWord& w : words) builder.AddKeyedWord(w.key, w.spelling, w.count);
  LexiconBuilder::Options options;
  options.min_count = 1;
  options.keep_all_keyed_variants = true;
  options.language = "zh";
  std::string bytes;
  const Status built = builder.Finish(options, &bytes);
  EXPECT_TRUE(built.ok()) << built.ToString();
  return bytes;
}

}  // namespace keydecide::testing

#endif  // KEYDECIDE_TESTS_TEST_UTIL_H_
