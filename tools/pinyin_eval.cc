#include "tools/pinyin_eval.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include "keydecide/engine.h"

namespace keydecide {

namespace {

using Clock = std::chrono::steady_clock;

// The pinyin session's longest convertible composition (PinyinWindow::kMaxComposition; a longer
// run is committed as typed, so such a line could not be scored).
constexpr size_t kMaxLetters = 1024;
constexpr int kCandidates = 5;

float MicrosSince(Clock::time_point start) {
  return std::chrono::duration<float, std::micro>(Clock::now() - start).count();
}

// Code points of `s`, or false for invalid UTF-8 (overlong forms and surrogates included).
bool DecodeUtf8(std::string_view s, std::u32string* out) {
  out->clear();
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    char32_t cp = n == 1 ? b : b & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = cp << 6 | (c & 0x3F);
    }
    static constexpr char32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    out->push_back(cp);
    i += n;
  }
  return true;
}

Status LineError(size_t line, const std::string& what) {
  return Status::InvalidArgument("line " + std::to_string(line) + ": " + what);
}

Status ParseLine(std::string_view line, size_t number, PinyinEvalLine* out) {
  std::u32string decoded;
  if (!DecodeUtf8(line, &decoded)) return LineError(number, "invalid UTF-8");
  const size_t tab1 = line.find('\t');
  const size_t tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
  if (tab2 == std::string_view::npos) {
    return LineError(number, "expected hanzi<TAB>letters<TAB>syllables");
  }
  const std::string_view hanzi = line.substr(0, tab1);
  const std::string_view letters = line.substr(tab1 + 1, tab2 - tab1 - 1);
  std::string_view syllables = line.substr(tab2 + 1);
  if (hanzi.empty() || letters.empty()) return LineError(number, "empty hanzi or letters");
  if (letters.size() > kMaxLetters) {
    return LineError(number, "more than " + std::to_string(kMaxLetters) + " letters");
  }
  std::string bare;  // the letters without apostrophes
  for (const char c : letters) {
    if (c == '\'') continue;
    if (c < 'a' || c > 'z') return LineError(number, "letters must be a-z and apostrophes");
    bare.push_back(c);
  }
  std::string spelled;
  out->syllables.clear();
  for (size_t i = 0; i < syllables.size(); ++i) {
    if (syllables[i] == ' ') continue;
    if (i == 0 || syllables[i - 1] == ' ') out->syllables.emplace_back();
    out->syllables.back().push_back(syllables[i]);
    spelled.push_back(syllables[i]);
  }
  if (spelled != bare) return LineError(number, "the syllables do not spell the letters");
  out->hanzi.assign(hanzi);
  out->letters.assign(letters);
  return Status::OK();
}

}  // namespace

Status ParsePinyinEval(std::string_view tsv, std::vector<PinyinEvalLine>* out) {
  out->clear();
  size_t number = 0;
  while (!tsv.empty()) {
    const size_t nl = tsv.find('\n');
    std::string_view line = tsv.substr(0, nl);
    tsv = nl == std::string_view::npos ? std::string_view() : tsv.substr(nl + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    PinyinEvalLine parsed;
    KD_RETURN_IF_ERROR(ParseLine(line, number, &parsed));
    out->push_back(std::move(parsed));
  }
  return Status::OK();
}

size_t CodePointEditDistance(std::string_view a, std::string_view b) {
  std::u32string x, y;
  DecodeUtf8(a, &x);
  DecodeUtf8(b, &y);
  std::vector<size_t> row(y.size() + 1);
  for (size_t j = 0; j <= y.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= x.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= y.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (x[i - 1] != y[j - 1])});
      diagonal = up;
    }
  }
  return row[y.size()];
}

Status EvalPinyin(const std::vector<PinyinEvalLine>& lines, const Engine& engine,
                  PinyinEvalResult* result, const SessionOptions& session_options) {
  // Two sessions, so that the whole-sentence conversion is not served from the letter-by-letter
  // session's last search of the same letters.
  const std::unique_ptr<Session> session = engine.NewSession(session_options);
  const std::unique_ptr<Session> sentence_session = engine.NewSession(session_options);
  Decision d;
  std::u32string hanzi;
  for (const PinyinEvalLine& line : lines) {
    KD_RETURN_IF_ERROR(session->SetContext(""));
    for (size_t i = 0; i < line.letters.size(); ++i) {
      const Clock::time_point start = Clock::now();
      KD_RETURN_IF_ERROR(session->Type(std::string_view(line.letters).substr(i, 1)));
      KD_RETURN_IF_ERROR(session->Decide(kCandidates, &d));
      result->keystroke_us.push_back(MicrosSince(start));
    }
    ++result->lines;
    DecodeUtf8(line.hanzi, &hanzi);
    result->chars += hanzi.size();
    std::string_view top;  // (a conditional with "" would make a temporary std::string)
    if (!d.candidates.empty()) top = d.candidates[0].text;
    result->top1 += top == line.hanzi;
    result->top5 += std::any_of(d.candidates.begin(), d.candidates.end(),
                                [&](const Candidate& c) { return c.text == line.hanzi; });
    result->char_errors += CodePointEditDistance(top, line.hanzi);
    result->first.emplace_back(top);

    KD_RETURN_IF_ERROR(sentence_session->SetContext(""));
    const Clock::time_point start = Clock::now();
    KD_RETURN_IF_ERROR(sentence_session->Type(line.letters));
    KD_RETURN_IF_ERROR(sentence_session->Decide(kCandidates, &d));
    result->sentence_us.push_back(MicrosSince(start));
  }
  return Status::OK();
}

}  // namespace keydecide
