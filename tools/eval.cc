#include "tools/eval.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "keydecide/engine.h"
#include "tools/text_util.h"
#include "tools/typist.h"

namespace keydecide {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsSimpleWord(std::string_view w) {
  if (w.empty() || !IsAsciiLetter(w.front()) || !IsAsciiLetter(w.back())) return false;
  for (char c : w) {
    if (!IsAsciiLetter(c) && c != '\'') return false;
  }
  return true;
}

// Calls fn(line) for each line without its newline (and a trailing '\r').
template <typename Fn>
Status ForEachLine(std::string_view text, Fn fn) {
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    KD_RETURN_IF_ERROR(fn(line));
  }
  return Status::OK();
}

constexpr std::string_view kCurlyApostrophe = "\u2019";  // what many keyboards send

// The length of the apostrophe at text[pos] followed by a letter (a straight one, 1 byte, or a
// curly one, 3), else 0: a word goes on through it ("don't", "isn’t").
size_t ApostropheInWord(std::string_view text, size_t pos) {
  const size_t n = text[pos] == '\'' ? 1 : text.substr(pos).starts_with(kCurlyApostrophe) ? 3 : 0;
  return n > 0 && pos + n < text.size() && IsAsciiLetter(text[pos + n]) ? n : 0;
}

// The key a word is paired by: lower case, straight apostrophes (as the pairs are written).
std::string PairKey(std::string_view word) {
  std::string key;
  for (size_t i = 0; i < word.size();) {
    if (word.substr(i).starts_with(kCurlyApostrophe)) {
      key += '\'';
      i += kCurlyApostrophe.size();
    } else {
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(word[i++])));
    }
  }
  return key;
}

}  // namespace

double AutocorrectEvalResult::corrected_rate() const {
  return typos ? static_cast<double>(corrected) / static_cast<double>(typos) : 0.0;
}

double AutocorrectEvalResult::false_correction_rate() const {
  return correct_words ? static_cast<double>(false_corrections) / static_cast<double>(correct_words)
                       : 0.0;
}

double AutocorrectEvalResult::unpaired_false_correction_rate() const {
  return unpaired_words
             ? static_cast<double>(unpaired_false_corrections) / static_cast<double>(unpaired_words)
             : 0.0;
}

Status ParseTypoPairs(std::string_view tsv, std::unordered_map<std::string, std::string>* typo_of,
                      size_t* skipped) {
  *skipped = 0;
  int line_no = 0;
  return ForEachLine(tsv, [&](std::string_view line) {
    ++line_no;
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos) {
      return Status::InvalidArgument("typo pairs line " + std::to_string(line_no) + " has no tab");
    }
    const std::string_view typo = line.substr(0, tab), fix = line.substr(tab + 1);
    if (!IsSimpleWord(typo) || !IsSimpleWord(fix) || Lower(typo) == Lower(fix)) {
      ++*skipped;
    } else {
      typo_of->emplace(Lower(fix), std::string(typo));
    }
    return Status::OK();
  });
}

Status EvalAutocorrect(std::string_view text,
                       const std::unordered_map<std::string, std::string>& typo_of,
                       Session* session, AutocorrectEvalResult* result, SimulatedTypist* typist,
                       std::vector<AutocorrectTrace>* trace) {
  *result = AutocorrectEvalResult();
  Decision d;
  auto type = [&](std::string_view keys) {
    return typist ? session->Type(keys, typist->Press(keys)) : session->Type(keys);
  };
  size_t pos = 0;
  while (pos < text.size()) {
    if (!IsAsciiLetter(text[pos])) {
      const size_t end = BoundaryAtOrAfter(text, pos + 1);  // one whole UTF-8 character
      KD_RETURN_IF_ERROR(type(text.substr(pos, end - pos)));
      pos = end;
      continue;
    }
    size_t end = pos;
    while (end < text.size()) {
      if (IsAsciiLetter(text[end])) {
        ++end;
      } else if (const size_t n = ApostropheInWord(text, end); n > 0) {
        end += n;
      } else {
        break;
      }
    }
    const std::string_view word = text.substr(pos, end - pos);
    auto it = typo_of.find(PairKey(word));
    std::string typed(it != typo_of.end() ? it->second : std::string(word));
    if (it != typo_of.end() && std::isupper(static_cast<unsigned char>(word[0]))) {
      typed[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(typed[0])));
    }
    KD_RETURN_IF_ERROR(type(typed));
    KD_RETURN_IF_ERROR(session->Decide(3, &d));
    const bool apply = d.autocorrect.apply;
    if (it != typo_of.end()) {
      ++result->typos;
      if (apply && Lower(d.autocorrect.replacement) == Lower(word)) {
        ++result->corrected;
      } else if (apply) {
        ++result->wrongly_corrected;
      }
      if (trace != nullptr) {
        trace->push_back(
            {std::string(word), typed, d.autocorrect.replacement, d.autocorrect.confidence, apply});
      }
      for (size_t i = 0; i < typed.size(); ++i) KD_RETURN_IF_ERROR(session->Backspace());
      KD_RETURN_IF_ERROR(type(word));  // the text goes on as written
      KD_RETURN_IF_ERROR(session->Decide(3, &d));
    } else {
      ++result->unpaired_words;
      result->unpaired_false_corrections += apply;
    }
    ++result->correct_words;
    result->false_corrections += d.autocorrect.apply;
    if (trace != nullptr && d.autocorrect.apply) {
      trace->push_back({std::string(word), std::string(word), d.autocorrect.replacement,
                        d.autocorrect.confidence, true, false});
    }
    pos = end;
  }
  return Status::OK();
}

Status ParseLabeledLines(std::string_view tsv, std::vector<LabeledLine>* out) {
  int line_no = 0;
  return ForEachLine(tsv, [&](std::string_view line) {
    ++line_no;
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) {
      return Status::InvalidArgument("intent line " + std::to_string(line_no) +
                                     " is not label<TAB>text");
    }
    out->push_back({line.substr(0, tab), line.substr(tab + 1)});
    return Status::OK();
  });
}

Status EvalIntent(std::string_view tsv, const Engine& engine, IntentEvalResult* result,
                  const SessionOptions& options) {
  *result = IntentEvalResult();
  if (engine.info().intent_labels.empty()) {
    return Status::NotSupported("intent needs a model; the engine runs the count baseline");
  }
  std::vector<LabeledLine> lines;
  KD_RETURN_IF_ERROR(ParseLabeledLines(tsv, &lines));
  Decision d;
  for (const LabeledLine& line : lines) {
    auto session = engine.NewSession(options);
    KD_RETURN_IF_ERROR(session->SetContext(line.text));
    KD_RETURN_IF_ERROR(session->Decide(1, &d));
    auto& per = result->labels[std::string(line.label)];
    const bool ok = d.intent.label == line.label;
    ++per.total;
    per.correct += ok;
    ++result->total;
    result->correct += ok;
  }
  return Status::OK();
}

Status EvalAgreement(std::string_view text, int max_candidates, Session* reference,
                     Session* candidate, AgreementResult* result) {
  *result = AgreementResult();
  Decision a, b;
  for (size_t pos = 0; pos < text.size();) {
    const size_t next = BoundaryAtOrAfter(text, pos + 1);
    const std::string_view key = text.substr(pos, next - pos);
    pos = next;
    KD_RETURN_IF_ERROR(reference->Type(key));
    KD_RETURN_IF_ERROR(candidate->Type(key));
    KD_RETURN_IF_ERROR(reference->Decide(max_candidates, &a));
    KD_RETURN_IF_ERROR(candidate->Decide(max_candidates, &b));
    AgreementResult& r = *result;
    ++r.decisions;
    if (!a.candidates.empty() && !b.candidates.empty()) {
      ++r.ranked;
      r.ranking_top1 += a.candidates[0].text == b.candidates[0].text;
    }
    r.popup += a.popup.show == b.popup.show;
    r.autocorrect +=
        a.autocorrect.apply == b.autocorrect.apply &&
        (!a.autocorrect.apply || a.autocorrect.replacement == b.autocorrect.replacement);
    r.intent += a.intent.label == b.intent.label;
    for (const Candidate& ca : a.candidates) {
      for (const Candidate& cb : b.candidates) {
        if (ca.text != cb.text) continue;
        const double err = std::abs(static_cast<double>(ca.score) - cb.score);
        r.max_score_error = std::max(r.max_score_error, err);
        r.sum_score_error += err;
        ++r.scores_compared;
      }
    }
  }
  return Status::OK();
}

}  // namespace keydecide
