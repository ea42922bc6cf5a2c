#include "tools/cli_common.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "keydecide/user_store.h"
#include "tools/text_file.h"
#include "tools/typist.h"

namespace keydecide {

void EngineFlags::AddTo(CLI::App* cmd) {
  cmd->add_option("--model-dir", model_dir,
                  "Models folder (default: $KEYDECIDE_MODEL_DIR, else the first of the data "
                  "folders and the installed models that has the language: docs/INTEGRATION.md)");
  cmd->add_option("--lexicon", lexicon, "Lexicon file (default: <model-dir>/<lang>/lexicon.kdlex)");
  cmd->add_option("--model", model,
                  "Model file, or 'none' for the count baseline (default: <model-dir>/<lang>/"
                  "model.q8.safetensors, else model.safetensors, when present)");
  cmd->add_option("--small-model", small_model,
                  "Small model of the small_model rung, or 'none' (default: <model-dir>/<lang>/"
                  "model.small.q8.safetensors, when present)");
  cmd->add_option("--popup-net", popup_net,
                  "Popup network file, or 'none' for the popup head mixed with the candidates' "
                  "share (default: <model-dir>/<lang>/popup.json, when present and the model is "
                  "the pack's own)");
  cmd->add_option("--intent-ngrams", intent_ngrams,
                  "Intent n-grams file, or 'none' for the model's intent head alone (default: "
                  "<model-dir>/<lang>/intent_ngrams.safetensors, when present and the model is "
                  "the pack's own)");
  cmd->add_option("--tier", tier,
                  "Hold every session at this rung of the latency ladder: full_model, "
                  "no_vocab_proposals, small_model or lexicon_only")
      ->check(CLI::IsMember({"full_model", "no_vocab_proposals", "small_model", "lexicon_only"}))
      ->capture_default_str();
  cmd->add_option("--layout", layout, "Keyboard layout name or file")->capture_default_str();
  cmd->add_option("--lang", language, "Language pack: en, or zh (pinyin to hanzi)")
      ->capture_default_str();
  cmd->add_option("--max-candidates", max_candidates,
                  "Candidates searched and scored per key (0: the pack's default, en 64, zh 50)")
      ->check(CLI::Range(0, 200))
      ->capture_default_str();
  cmd->add_option("--bigram-weight", word_bigram_weight,
                  "en: weight of the word bigram's log(P(word | word before) / P(word)) in a "
                  "model-scored candidate's score (0: the bigram is not loaded)")
      ->check(CLI::Range(0.0f, 10.0f))
      ->capture_default_str();
  cmd->add_option("--teacher-weight", teacher_weight,
                  "en: weight of the general-language teacher's log(P(word | two words before) / "
                  "P(word)), whose expected words also join the candidates (0: not loaded)")
      ->check(CLI::Range(0.0f, 10.0f))
      ->capture_default_str();
  cmd->add_option("--pinyin-beam", pinyin_beam_width,
                  "zh: partial sentences kept per position by the sentence search")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--pinyin-fuzzy", pinyin_fuzzy,
                  "zh: fuzzy pairs read both ways, e.g. z/zh,n/l,in/ing, or all");
  cmd->add_flag("--pinyin-typos", pinyin_typos,
                "zh: also read letters through one slip per syllable (swap, neighbour key)");
  cmd->add_option(
         "--pinyin-model-weight", pinyin_model_weight,
         "zh: weight of the model's log P of a sentence beside the bigram (0: bigram only)")
      ->check(CLI::Range(0.0f, 10.0f))
      ->capture_default_str();
  cmd->add_option("--pinyin-teacher-weight", pinyin_teacher_weight,
                  "zh: share of the general-language teacher (lexicon.kdng) beside the bigram "
                  "in the sentence search (0 with the next: not loaded)")
      ->check(CLI::Range(0.0f, 1.0f))
      ->capture_default_str();
  cmd->add_option("--pinyin-teacher-weight-code", pinyin_teacher_weight_code,
                  "zh: the same in a code session (a terminal, code in an editor)")
      ->check(CLI::Range(0.0f, 1.0f))
      ->capture_default_str();
}

void EngineFlags::AddPersonalTo(CLI::App* cmd) {
  cmd->add_flag("--personal", personal,
                "Use the person's store (docs/PERSONAL.md): rank with their words, offer and "
                "fire their shortcuts, learn what is typed");
  cmd->add_option("--user-store", user_store,
                  "With --personal: the store's file (default: "
                  "$XDG_DATA_HOME/keydecide/user.db)");
  cmd->add_flag("--no-learn", no_learn, "With --personal: rank with the store, learn nothing");
}

EngineOptions EngineFlags::Options() const {
  EngineOptions options;
  options.model_dir = model_dir;
  options.lexicon_path = lexicon;
  options.keyboard_layout = layout;
  options.language = language;
  options.pinyin.beam_width = pinyin_beam_width;
  options.pinyin.fuzzy = pinyin_fuzzy;
  options.pinyin.typos = pinyin_typos;
  options.pinyin.model_weight = pinyin_model_weight;
  options.pinyin.teacher_weight = pinyin_teacher_weight;
  options.pinyin.teacher_weight_code = pinyin_teacher_weight_code;
  options.word_bigram_weight = word_bigram_weight;
  options.teacher_weight = teacher_weight;
  options.max_candidates = max_candidates;
  options.model_path = model;
  options.small_model_path = small_model;
  options.popup_net_path = popup_net;
  options.intent_ngrams_path = intent_ngrams;
  options.personal = personal;
  options.user_store_path = user_store;
  options.learn = !no_learn;
  return options;
}

std::unique_ptr<Session> EngineFlags::NewSession(const Engine& engine,
                                                 const SessionOptions& options) const {
  auto session = engine.NewSession(options);
  for (const Tier t :
       {Tier::kFullModel, Tier::kNoVocabProposals, Tier::kSmallModel, Tier::kLexiconOnly}) {
    if (tier == TierName(t)) session->SetTier(t);
  }
  return session;
}

std::unique_ptr<Engine> EngineFlags::OpenOrDie() const {
  std::unique_ptr<Engine> engine;
  CheckOrDie(Engine::Open(Options(), &engine), "cannot open the engine");
  return engine;
}

namespace {
bool g_json_errors = false;

const char* KindName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk:
      return "OK";
    case Status::Code::kNotFound:
      return "NotFound";
    case Status::Code::kCorruption:
      return "Corruption";
    case Status::Code::kInvalidArgument:
      return "InvalidArgument";
    case Status::Code::kIOError:
      return "IOError";
    case Status::Code::kNotSupported:
      return "NotSupported";
  }
  return "Error";
}
}  // namespace

void SetJsonErrors(bool on) { g_json_errors = on; }

void Die(int exit_code, std::string_view kind, const std::string& what,
         const std::string& message) {
  if (g_json_errors) {
    const nlohmann::json error = {
        {"error", {{"kind", kind}, {"what", what}, {"message", message}}}};
    // Invalid UTF-8 in a message (a path as given) is replaced, never a throw.
    std::cout << error.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  } else {
    std::cerr << "keydecide: " << what << ": " << message << "\n";
  }
  throw CLI::RuntimeError(exit_code);
}

int RunCli(CLI::App* app, int argc, char** argv) {
  try {
    app->parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a command failed; it said why (Die)
    return e.get_exit_code();
  } catch (const CLI::Success& e) {  // --help, --version
    return app->exit(e);
  } catch (const CLI::ParseError& e) {  // a usage error: a bad flag, value or subcommand
    try {
      Die(kUsageExit, "Usage", "usage", std::string(e.what()) + " (see --help)");
    } catch (const CLI::RuntimeError& d) {
      return d.get_exit_code();
    }
  }
  return 0;
}

const std::map<std::string, AppType>& AppTypeNames() {
  static const std::map<std::string, AppType> names = [] {
    std::map<std::string, AppType> m;
    for (int i = 0; i < UserStore::kAppTypes; ++i) {
      m.emplace(AppTypeName(static_cast<AppType>(i)), static_cast<AppType>(i));
    }
    return m;
  }();
  return names;
}

AutocorrectLevel ParseAutocorrectLevelOrDie(const std::string& name) {
  AutocorrectLevel level;
  CheckOrDie(ParseAutocorrectLevel(name, &level), "autocorrect level");
  return level;
}

void CheckOrDie(const Status& status, const std::string& what) {
  if (status.ok()) return;
  Die(1, KindName(status.code()), what, status.message());
}

std::string ReadOrDie(const std::string& path) {
  std::string text;
  // "-": standard input, through its /dev/stdin name (a pipe or a redirected file; a terminal
  // is refused as the character device it is).
  CheckOrDie(ReadTextFile(path == "-" ? "/dev/stdin" : path, &text), "cannot read a text input");
  // Nothing any command reads has meaning when empty; a FIFO that no one writes reads so.
  if (text.empty()) CheckOrDie(Status::InvalidArgument(path + " is empty"), "no text to read");
  return text;
}

void TypistFlags::AddTo(CLI::App* cmd) {
  cmd->add_flag("--timed", timed,
                "Time every key as the training simulator's typist (tools/typist.h)");
  cmd->add_option("--typist-seed", seed, "Seed of the simulated typist (with --timed)")
      ->capture_default_str();
}

std::unique_ptr<SimulatedTypist> TypistFlags::MakeOrDie(const EngineFlags& engine) const {
  if (!timed) return nullptr;
  std::string path = engine.layout;
  if (path.find('/') == std::string::npos && !path.ends_with(".txt")) {
    std::string dir = engine.model_dir;
    if (const char* env = std::getenv("KEYDECIDE_MODEL_DIR"); dir.empty() && env && *env) dir = env;
    if (dir.empty()) {  // the first folder of the search path that has the layout
      for (const std::string& d : ModelSearchPath()) {
        if (std::filesystem::exists(d + "/layouts/" + path + ".txt")) {
          dir = d;
          break;
        }
      }
    }
    path = dir + "/layouts/" + path + ".txt";
  }
  KeyboardLayout layout;
  CheckOrDie(KeyboardLayout::Load(path, &layout), "keyboard layout for --timed");
  return std::make_unique<SimulatedTypist>(std::move(layout), seed);
}

}  // namespace keydecide
