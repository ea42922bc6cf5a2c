#include "lexicon/lexicon_tool.h"

#include <algorithm>

#include "base/mapped_file.h"
#include "base/text_lines.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/pinyin/zh_lexicon_source.h"
#include "lexicon/word_bigram_builder.h"
#include "lexicon/word_set.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

// About 1% false positives (word_set.h).
constexpr uint32_t kWordSetBitsPerWord = 10;
constexpr uint32_t kWordSetHashes = 7;

LexiconBuilder::Options BuilderOptions(uint32_t min_count, uint32_t max_words,
                                       const std::string& language) {
  LexiconBuilder::Options o;
  o.min_count = min_count;
  o.max_words = max_words;
  o.language = language;
  return o;
}

LexiconBuilder::Options ReadingBuilderOptions(uint32_t min_count, uint32_t max_words,
                                              const std::string& language) {
  LexiconBuilder::Options o = BuilderOptions(min_count, max_words, language);
  o.keep_all_keyed_variants = true;  // every homophone of a key
  return o;
}

void CopyZhStats(const ZhLexiconStats& s, LexiconBuildReport* r) {
  r->zh_words = s.words;
  r->zh_words_added = s.words_added;
  r->zh_skipped_no_reading = s.skipped_no_reading;
  r->zh_skipped_long_key = s.skipped_long_key;
  r->zh_skipped_mojibake = s.skipped_mojibake;
  r->zh_readings_bad_syllable = s.readings_bad_syllable;
  r->zh_malformed_lines = s.malformed_lines;
  r->zh_errors = s.errors;
}

// The build fails when a word of the lexicon starts as UTF-8 punctuation read as GBK
// (GbkMisreadPunctuation): what the sources' filter must have left out.
Status CheckNoMojibake(const std::string& bytes) {
  std::unique_ptr<Lexicon> lexicon;
  KD_RETURN_IF_ERROR(Lexicon::FromBytes(bytes, &lexicon));
  for (uint32_t v = 0; v < lexicon->header().variant_count; ++v) {
    const std::string_view word = lexicon->VariantTextAt(v);
    if (StartsWithGbkMisread(word)) {
      return Status::InvalidArgument("the lexicon holds '" + std::string(word) +
                                     "', UTF-8 punctuation read as GBK (mojibake)");
    }
  }
  return Status::OK();
}

// Builds a pinyin-keyed lexicon's bytes from the two source files.
Status BuildZhBytes(const LexiconBuildOptions& options, LexiconBuildReport* report,
                    std::string* bytes) {
  if (!options.inputs.empty()) {
    return Status::InvalidArgument("--zh-counts and --zh-readings are read instead of --input");
  }
  if (options.zh_counts_path.empty() || options.zh_readings_path.empty()) {
    return Status::InvalidArgument("a pinyin-keyed lexicon needs --zh-counts and --zh-readings");
  }
  std::unique_ptr<MappedFile> counts;
  std::unique_ptr<MappedFile> readings;
  KD_RETURN_IF_ERROR(MappedFile::Open(options.zh_counts_path, &counts));
  KD_RETURN_IF_ERROR(MappedFile::Open(options.zh_readings_path, &readings));
  report->input_bytes = counts->data().size() + readings->data().size();
  LexiconBuilder builder;
  ZhLexiconStats stats;
  const Status added =
      AddZhLexiconWords(counts->data(), options.zh_counts_path, readings->data(),
                        options.zh_readings_path, options.zh_max_malformed, &builder, &stats);
  CopyZhStats(stats, report);
  KD_RETURN_IF_ERROR(added);
  report->distinct_spellings = builder.distinct_spellings();
  KD_RETURN_IF_ERROR(builder.Finish(
      ReadingBuilderOptions(options.min_count, options.max_words, options.language), bytes));
  return CheckNoMojibake(*bytes);
}

// The whole file at once, atomically.
Status WriteFileAtomically(const std::string& path, const std::string& bytes) {
  const std::string_view parts[] = {bytes};
  return keydecide::WriteFileAtomically(path, parts);
}

}  // namespace

Status BuildLexicon(const LexiconBuildOptions& options, LexiconBuildReport* report) {
  if (options.output_path.empty()) return Status::InvalidArgument("no output path");
  if (options.language.empty() || options.language.size() > 7) {
    return Status::InvalidArgument("language code must be 1..7 bytes");
  }
  *report = LexiconBuildReport();
  std::string bytes;
  if (options.keyed_by_reading()) {
    KD_RETURN_IF_ERROR(BuildZhBytes(options, report, &bytes));
  } else {
    if (options.inputs.empty()) return Status::InvalidArgument("no input text files");
    LexiconBuilder builder;
    for (const auto& input : options.inputs) {
      if (!(input.weight > 0) || input.weight > 1e6) {
        return Status::InvalidArgument("weight of " + input.path + " must be in (0, 1e6]");
      }
      std::unique_ptr<MappedFile> file;
      KD_RETURN_IF_ERROR(MappedFile::Open(input.path, &file));
      builder.AddText(file->data(), input.weight);
      builder.EndSource();  // each file votes on spellings as one source
      report->input_bytes += file->data().size();
    }
    KD_RETURN_IF_ERROR(builder.Finish(
        BuilderOptions(options.min_count, options.max_words, options.language), &bytes));
    report->distinct_spellings = builder.distinct_spellings();
  }

  KD_RETURN_IF_ERROR(WriteFileAtomically(options.output_path, bytes));
  report->output_bytes = bytes.size();
  lexicon::Header header;
  KD_RETURN_IF_ERROR(header.DecodeFrom(bytes));
  report->words = header.entry_count;
  report->variants = header.variant_count;
  return Status::OK();
}

Status BuildZhLexiconFromText(const std::string& counts, const std::string& readings,
                              uint32_t min_count, std::string* bytes, LexiconBuildReport* report) {
  LexiconBuilder builder;
  ZhLexiconStats stats;
  const Status added =
      AddZhLexiconWords(counts, "counts", readings, "readings", 0, &builder, &stats);
  if (report != nullptr) {
    *report = LexiconBuildReport();
    CopyZhStats(stats, report);
    report->input_bytes = counts.size() + readings.size();
  }
  KD_RETURN_IF_ERROR(added);
  KD_RETURN_IF_ERROR(builder.Finish(ReadingBuilderOptions(min_count, 100000, "zh"), bytes));
  return CheckNoMojibake(*bytes);
}

Status BuildLexiconFromText(const std::string& text, uint32_t min_count, std::string* bytes) {
  LexiconBuilder builder;
  builder.AddText(text);
  return builder.Finish(BuilderOptions(min_count, 100000, "en"), bytes);
}

Status BuildWordBigram(const WordBigramBuildOptions& options, WordBigramBuildReport* report) {
  *report = WordBigramBuildReport();
  if (options.output_path.empty()) return Status::InvalidArgument("no output path");
  if (options.inputs.empty()) return Status::InvalidArgument("no input text files");
  std::unique_ptr<Lexicon> lexicon;
  KD_RETURN_IF_ERROR(Lexicon::Open(options.lexicon_path, &lexicon));
  WordBigramBuilder::Options builder_options;
  builder_options.min_pair_count = options.min_pair_count;
  builder_options.discount = options.discount;
  builder_options.unigram_weight = options.unigram_weight;
  builder_options.split_teacher_words = options.teacher_split_words;
  WordBigramBuilder builder(*lexicon, builder_options);
  for (const std::string& path : options.inputs) {
    std::unique_ptr<MappedFile> file;
    KD_RETURN_IF_ERROR(MappedFile::Open(path, &file));
    builder.AddText(file->data());
    report->input_bytes += file->data().size();
  }
  if (!options.teacher_path.empty()) {
    std::unique_ptr<MappedFile> file;
    KD_RETURN_IF_ERROR(MappedFile::Open(options.teacher_path, &file));
    const Status added = builder.AddTeacherCounts(file->data(), options.teacher_weight);
    if (!added.ok()) return Status::InvalidArgument(options.teacher_path + ": " + added.message());
  }
  std::string bytes;
  WordBigramBuilder::Stats stats;
  KD_RETURN_IF_ERROR(builder.Finish(&bytes, &stats));
  KD_RETURN_IF_ERROR(WriteFileAtomically(options.output_path, bytes));
  report->han_chars = stats.han_chars;
  report->unknown_chars = stats.unknown_chars;
  report->unknown_words = stats.unknown_words;
  report->tokens = stats.tokens;
  report->pairs_seen = stats.pairs_seen;
  report->pairs_kept = stats.pairs_kept;
  report->teacher_lines = stats.teacher_lines;
  report->teacher_skipped = stats.teacher_skipped;
  report->output_bytes = bytes.size();
  return Status::OK();
}

Status BuildWordNgram(const std::string& lexicon_path, const std::string& arpa_path,
                      const std::string& output_path, WordNgramBuilder::Stats* stats,
                      uint64_t* output_bytes) {
  if (output_path.empty()) return Status::InvalidArgument("no output path");
  std::unique_ptr<Lexicon> lexicon;
  KD_RETURN_IF_ERROR(Lexicon::Open(lexicon_path, &lexicon));
  std::unique_ptr<MappedFile> file;
  KD_RETURN_IF_ERROR(MappedFile::Open(arpa_path, &file));
  WordNgramBuilder builder(*lexicon);
  const Status read = builder.ReadArpa(file->data());
  if (!read.ok()) return Status::InvalidArgument(arpa_path + ": " + read.message());
  std::string bytes;
  builder.Finish(&bytes);
  KD_RETURN_IF_ERROR(WriteFileAtomically(output_path, bytes));
  if (stats != nullptr) *stats = builder.stats();
  if (output_bytes != nullptr) *output_bytes = bytes.size();
  return Status::OK();
}

Status BuildWordSet(const std::vector<std::string>& inputs, const std::string& output_path,
                    uint64_t* words) {
  if (output_path.empty()) return Status::InvalidArgument("no output path");
  if (inputs.empty()) return Status::InvalidArgument("no word lists");
  std::vector<std::string> lower;
  for (const std::string& path : inputs) {
    std::unique_ptr<MappedFile> file;
    KD_RETURN_IF_ERROR(MappedFile::Open(path, &file));
    std::string_view text = file->data();
    if (!utf8::Validate(text).ok()) return Status::InvalidArgument(path + ": not UTF-8");
    ForEachLine(text, [&](size_t, std::string_view line) {
      while (line.back() == ' ') line.remove_suffix(1);  // not blank: a letter stays
      lower.push_back(ToLowerUtf8(line));
    });
  }
  std::sort(lower.begin(), lower.end());
  lower.erase(std::unique(lower.begin(), lower.end()), lower.end());
  const std::vector<std::string_view> views(lower.begin(), lower.end());
  std::string bytes;
  KD_RETURN_IF_ERROR(WordSet::Build(views, kWordSetBitsPerWord, kWordSetHashes, &bytes));
  KD_RETURN_IF_ERROR(WriteFileAtomically(output_path, bytes));
  if (words != nullptr) *words = lower.size();
  return Status::OK();
}

}  // namespace keydecide
