#include "keydecide/lexicon_tool.h"

#include <cstdio>
#include <fstream>

#include "base/mapped_file.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/lexicon_format.h"

namespace keydecide {

namespace {

LexiconBuilder::Options BuilderOptions(uint32_t min_count, uint32_t max_words,
                                       const std::string& language) {
  LexiconBuilder::Options o;
  o.min_count = min_count;
  o.max_words = max_words;
  o.language = language;
  return o;
}

}  // namespace

Status BuildLexicon(const LexiconBuildOptions& options, LexiconBuildReport* report) {
  if (options.inputs.empty()) return Status::InvalidArgument("no input text files");
  if (options.output_path.empty()) return Status::InvalidArgument("no output path");
  if (options.language.empty() || options.language.size() > 7) {
    return Status::InvalidArgument("language code must be 1..7 bytes");
  }
  LexiconBuilder builder;
  *report = LexiconBuildReport();
  for (const auto& input : options.inputs) {
    if (!(input.weight > 0) || input.weight > 1e6) {
      return Status::InvalidArgument("weight of " + input.path + " must be in (0, 1e6]");
    }
    std::unique_ptr<MappedFile> file;
    KD_RETURN_IF_ERROR(MappedFile::Open(input.path, &file));
    builder.AddText(file->data(), input.weight);
    report->input_bytes += file->data().size();
  }
  std::string bytes;
  KD_RETURN_IF_ERROR(builder.Finish(
      BuilderOptions(options.min_count, options.max_words, options.language), &bytes));
  report->distinct_spellings = builder.distinct_spellings();

  const std::string tmp = options.output_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::IOError("cannot create " + tmp);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return Status::IOError("cannot write " + tmp);
    }
  }
  if (std::rename(tmp.c_str(), options.output_path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Status::IOError("cannot rename " + tmp + " to " + options.output_path);
  }
  report->output_bytes = bytes.size();
  lexicon::Header header;
  KD_RETURN_IF_ERROR(header.DecodeFrom(bytes));
  report->words = header.entry_count;
  return Status::OK();
}

Status BuildLexiconFromText(const std::string& text, uint32_t min_count, std::string* bytes) {
  LexiconBuilder builder;
  builder.AddText(text);
  return builder.Finish(BuilderOptions(min_count, 100000, "en"), bytes);
}

}  // namespace keydecide
