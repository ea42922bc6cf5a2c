// keydecide lexicon build: count the words of text files into a lexicon file.

#include <iostream>

#include "lexicon/lexicon_tool.h"
#include "tools/cli_common.h"
#include "tools/commands.h"

namespace keydecide {

void AddLexiconCommand(CLI::App* app) {
  struct Args {
    std::vector<std::string> inputs;
    std::string out;
    uint32_t min_count = 2;
    uint32_t max_words = 100000;
    std::string language = "en";
    std::string zh_counts;
    std::string zh_readings;
    uint32_t zh_max_malformed = 0;
  };
  auto args = std::make_shared<Args>();
  auto* lexicon = app->add_subcommand("lexicon", "Lexicon tools");
  lexicon->require_subcommand(1);
  auto* build = lexicon->add_subcommand(
      "build",
      "Build a lexicon from text files (--input), or from --zh-counts and --zh-readings a "
      "pinyin-keyed Simplified "
      "Chinese lexicon from a jieba dictionary and libime readings (--zh-counts, --zh-readings)");
  build->add_option("--input", args->inputs,
                    "Text file, optionally FILE:WEIGHT (repeatable; required unless --zh-counts "
                    "and --zh-readings)");
  build->add_option("--out", args->out, "Output lexicon file")->required();
  build->add_option("--min-count", args->min_count, "Drop words seen fewer times")
      ->capture_default_str();
  build
      ->add_option("--max-words", args->max_words,
                   "Keep the most frequent words (pinyin-keyed: keys)")
      ->capture_default_str();
  build
      ->add_option("--lang", args->language,
                   "Language code stored in the file (the pack that loads it checks it)")
      ->capture_default_str();
  build->add_option("--zh-counts", args->zh_counts,
                    "Pinyin-keyed build: word counts, jieba dictionary lines 'WORD COUNT [TAG]'");
  build->add_option(
      "--zh-readings", args->zh_readings,
      "Pinyin-keyed build: readings, libime sc.dict as text (libime_pinyindict -d), lines "
      "'WORD PIN'YIN [SCORE]'; words without one are skipped");
  build
      ->add_option("--zh-max-malformed", args->zh_max_malformed,
                   "Pinyin-keyed build: fail when more input lines than this are malformed")
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
    options.zh_counts_path = args->zh_counts;
    options.zh_readings_path = args->zh_readings;
    options.zh_max_malformed = args->zh_max_malformed;
    LexiconBuildReport report;
    const Status status = BuildLexicon(options, &report);
    if (options.keyed_by_reading() && status.ok()) {
      if (report.zh_malformed_lines > 0) {  // allowed by --zh-max-malformed
        std::cerr << report.zh_malformed_lines << " malformed line(s) skipped";
        for (const std::string& e : report.zh_errors) std::cerr << "\n  " << e;
        std::cerr << "\n";
      }
      std::cout << "zh: " << report.zh_words << " words with counts, " << report.zh_words_added
                << " with a reading, " << report.zh_skipped_no_reading
                << " skipped without a reading, " << report.zh_skipped_long_key
                << " skipped for a too long key, " << report.zh_skipped_mojibake
                << " skipped as punctuation read as GBK, " << report.zh_readings_bad_syllable
                << " readings dropped for a syllable outside the table\n";
    }
    CheckOrDie(status, "lexicon build");
    std::cout << "read " << report.input_bytes << " bytes, " << report.distinct_spellings
              << " distinct spellings\n"
              << "wrote " << args->out << ": " << report.words << " words, " << report.variants
              << " spellings, " << report.output_bytes << " bytes\n";
  });

  struct BigramArgs {
    std::string lexicon, out;
    std::vector<std::string> inputs;
    uint32_t min_count = WordBigramBuildOptions().min_pair_count;
    float discount = WordBigramBuildOptions().discount;
    float unigram_weight = WordBigramBuildOptions().unigram_weight;
    std::string teacher;
    double teacher_weight = WordBigramBuildOptions().teacher_weight;
    bool teacher_split = false;
  };
  auto bargs = std::make_shared<BigramArgs>();
  auto* bigram = lexicon->add_subcommand(
      "bigram", "Build the word bigram model of a lexicon (zh or en) from text in its language");
  bigram->add_option("--lexicon", bargs->lexicon, "The lexicon (zh: pinyin-keyed; en)")->required();
  bigram->add_option("--input", bargs->inputs, "UTF-8 text files")->required();
  bigram->add_option("--out", bargs->out, "Output file (.kdbg)")->required();
  bigram->add_option("--min-count", bargs->min_count, "Drop word pairs seen fewer times")
      ->capture_default_str();
  bigram->add_option("--discount", bargs->discount, "Absolute discount, in (0, 1)")
      ->capture_default_str();
  bigram
      ->add_option("--unigram-weight", bargs->unigram_weight,
                   "Weight of the text's word counts against the lexicon's, in [0, 1]")
      ->capture_default_str();
  bigram->add_option("--teacher", bargs->teacher,
                     "A teacher model's expected counts (left<TAB>right<TAB>count lines, "
                     "training/keydecide_train/sunpinyin_teacher.py)");
  bigram->add_option("--teacher-weight", bargs->teacher_weight, "Factor on the teacher's counts")
      ->capture_default_str();
  bigram->add_flag("--teacher-split-words", bargs->teacher_split,
                   "Read a teacher's word the lexicon lacks as the lexicon words it splits into");
  bigram->callback([bargs] {
    WordBigramBuildOptions options;
    options.lexicon_path = bargs->lexicon;
    options.inputs = bargs->inputs;
    options.output_path = bargs->out;
    options.min_pair_count = bargs->min_count;
    options.discount = bargs->discount;
    options.unigram_weight = bargs->unigram_weight;
    options.teacher_path = bargs->teacher;
    options.teacher_weight = bargs->teacher_weight;
    options.teacher_split_words = bargs->teacher_split;
    WordBigramBuildReport r;
    CheckOrDie(BuildWordBigram(options, &r), "lexicon bigram");
    std::cout << "read " << r.input_bytes << " bytes: " << r.han_chars << " hanzi, "
              << r.unknown_chars << " without a word, " << r.tokens << " words, " << r.unknown_words
              << " words not in the lexicon\n"
              << "wrote " << bargs->out << ": " << r.pairs_kept << " of " << r.pairs_seen
              << " word pairs, " << r.output_bytes << " bytes\n";
    if (!bargs->teacher.empty()) {
      std::cout << "teacher " << bargs->teacher << ": " << r.teacher_lines << " lines used, "
                << r.teacher_skipped << " dropped\n";
    }
  });

  struct NgramArgs {
    std::string lexicon, arpa, out;
  };
  auto nargs = std::make_shared<NgramArgs>();
  auto* ngram = lexicon->add_subcommand(
      "ngram", "Convert a teacher's ARPA language model (up to trigrams) for a lexicon (zh or en)");
  ngram->add_option("--lexicon", nargs->lexicon, "The lexicon (zh: pinyin-keyed; en)")->required();
  ngram->add_option("--arpa", nargs->arpa, "The teacher, an ARPA file")->required();
  ngram->add_option("--out", nargs->out, "Output file (.kdng)")->required();
  ngram->callback([nargs] {
    WordNgramBuilder::Stats s;
    uint64_t bytes = 0;
    CheckOrDie(BuildWordNgram(nargs->lexicon, nargs->arpa, nargs->out, &s, &bytes),
               "lexicon ngram");
    std::cout << "read " << nargs->arpa << ": " << s.listed[0] << " / " << s.listed[1] << " / "
              << s.listed[2] << " n-grams\n"
              << "wrote " << nargs->out << ": " << s.kept[0] << " of the lexicon's " << s.words - 1
              << " words known, " << s.kept[1] << " bigrams, " << s.kept[2] << " trigrams, "
              << bytes << " bytes\n";
  });

  struct WordsArgs {
    std::vector<std::string> inputs;
    std::string out;
  };
  auto wargs = std::make_shared<WordsArgs>();
  auto* words = lexicon->add_subcommand(
      "words",
      "Build the known-words filter beside an English lexicon (autocorrect) from word lists");
  words->add_option("--input", wargs->inputs, "Word lists, one word a line (wamerican-huge)")
      ->required();
  words->add_option("--out", wargs->out, "Output file (.kdws)")->required();
  words->callback([wargs] {
    uint64_t n = 0;
    CheckOrDie(BuildWordSet(wargs->inputs, wargs->out, &n), "lexicon words");
    std::cout << "wrote " << wargs->out << ": " << n << " words\n";
  });
}

}  // namespace keydecide
