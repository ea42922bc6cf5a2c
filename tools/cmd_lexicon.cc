// keydecide lexicon build: count the words of text files into a lexicon file.

#include <iostream>

#include "keydecide/lexicon_tool.h"
#include "tools/commands.h"

namespace keydecide {

void AddLexiconCommand(CLI::App* app) {
  struct Args {
    std::vector<std::string> inputs;
    std::string out;
    uint32_t min_count = 2;
    uint32_t max_words = 100000;
    std::string language = "en";
  };
  auto args = std::make_shared<Args>();
  auto* lexicon = app->add_subcommand("lexicon", "Lexicon tools");
  lexicon->require_subcommand(1);
  auto* build = lexicon->add_subcommand("build", "Build a lexicon from text files");
  build->add_option("--input", args->inputs, "Text file, optionally FILE:WEIGHT (repeatable)")
      ->required();
  build->add_option("--out", args->out, "Output lexicon file")->required();
  build->add_option("--min-count", args->min_count, "Drop words seen fewer times")
      ->capture_default_str();
  build->add_option("--max-words", args->max_words, "Keep the most frequent words")
      ->capture_default_str();
  build->add_option("--lang", args->language, "Language code stored in the file")
      ->capture_default_str();
  build->callback([args] {
    LexiconBuildOptions options;
    for (const std::string& spec : args->inputs) {
      LexiconBuildOptions::Input input;
      input.path = spec;
      const size_t colon = spec.rfind(':');
      if (colon != std::string::npos) {
        try {
          size_t used = 0;
          input.weight = std::stod(spec.substr(colon + 1), &used);
          if (used != spec.size() - colon - 1) throw std::invalid_argument("trailing");
          input.path = spec.substr(0, colon);
        } catch (const std::exception&) {
          input.weight = 1.0;  // the colon is part of the file name
        }
      }
      options.inputs.push_back(input);
    }
    options.output_path = args->out;
    options.min_count = args->min_count;
    options.max_words = args->max_words;
    options.language = args->language;
    LexiconBuildReport report;
    CheckOrDie(BuildLexicon(options, &report), "lexicon build");
    std::cout << "read " << report.input_bytes << " bytes, " << report.distinct_spellings
              << " distinct spellings\n"
              << "wrote " << args->out << ": " << report.words << " words, "
              << report.output_bytes << " bytes\n";
  });
}

}  // namespace keydecide
