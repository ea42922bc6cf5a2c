// libFuzzer target for the pinyin searches and the word bigram loader, on the shipped Chinese
// lexicon (models/zh/lexicon.kdlex) and its bigram. Besides "never crashes, never reads out of
// bounds, no undefined behaviour", it checks what the session relies on:
//   - input other than a-z and apostrophes is refused, anything else is searched;
//   - every sentence's words cover the letters in order, its text is theirs joined, scores fall;
//   - the syllable breaks only add apostrophes; word candidates consume at most what was typed;
//   - the sentences over the word search's lattice are those over the search's own;
//   - words beyond the lexicon from a WordBonus (as ZhSession's learned names) join sentences
//     only where they fit: the bonus here also offers ones too long for the input, of a NaN
//     score, or of more hanzi than letters, which must be left out;
//   - a bigram file is either refused or every probability it gives is finite and at most 1;
//   - a long composition (PinyinWindow, up to 1024 letters) is refused past the cap or for other
//     bytes, else its fixed pieces cover the letters before a live part of at most a window, its
//     fixed words lie end to end in its fixed text, its breaks only add apostrophes, and
//     updating it from a prefix fixes what a fresh one fixes.
// The first input byte picks the case: 0 letters (each byte mapped to a-z or ', at most 66),
// 1 the same up to 1026 letters, 2 raw bytes,
// 3 a bigram file: a valid one for a small lexicon with the input's (position, byte) pairs
// written over it and the header's identity fields kept, then sealed, so that the checks past the
// checksum are reached.
//
//   build-fuzz/bin/pinyin_fuzzer -max_total_time=20 NEW_CORPUS_DIR fuzz/corpus/pinyin

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "base/byte_fields.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/pinyin/pinyin_candidates.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "lexicon/pinyin/pinyin_window.h"
#include "lexicon/word_bigram.h"
#include "lexicon/word_bigram_builder.h"

namespace {

using namespace keydecide;

void Check(bool ok) {
  if (!ok) std::abort();
}

// Offers, at every position, words beyond the lexicon shaped by the letters there: one that
// fits, one longer than the rest of the input, one of a NaN score and one of more hanzi than
// letters (the last three the search must leave out).
class FuzzBonus : public WordBonus {
 public:
  float Word(uint32_t variant) const override { return (variant % 5) * 0.25f; }
  float Pair(uint32_t, uint32_t) const override { return 0; }
  float max_word() const override { return 1; }
  float max_pair() const override { return 0; }
  size_t ExtraWords(std::string_view rest, std::span<ExtraWord> out) const override {
    if (rest.empty() || out.size() < 4) return 0;
    const uint32_t fits = 1 + static_cast<uint8_t>(rest[0]) % std::min<size_t>(rest.size(), 9);
    const uint64_t breaks = static_cast<uint64_t>(static_cast<uint8_t>(rest.back())) * 0x9E3779B9u;
    out[0] = {0, fits, breaks, -3.0f};
    out[1] = {1, static_cast<uint32_t>(rest.size()) + 1, breaks, -1.0f};
    out[2] = {0, fits, breaks, NAN};
    out[3] = {2, 1, 1, -0.5f};
    return 4;
  }
  std::string_view ExtraText(uint32_t id) const override {
    return id == 2 ? "太多字" : id == 1 ? "长" : "名";
  }
};

struct Searches {
  std::unique_ptr<Lexicon> lexicon;
  std::unique_ptr<WordBigram> bigram;
  std::unique_ptr<PinyinCandidateSearch> words;
  std::unique_ptr<PinyinSentenceSearch> sentences;
  std::unique_ptr<PinyinSentenceSearch> sentences_everything;  // fuzzy, slips, all initials,
  FuzzBonus bonus;                                             // ... and FuzzBonus
  std::unique_ptr<PinyinWindow> window, fresh_window;          // over `sentences`
  std::unique_ptr<Lexicon> small;                              // for the bigram files
  std::string small_bigram;                                    // a valid bigram of `small`
};

Searches* Open() {
  auto* s = new Searches;
  const std::string dir = KD_MODELS_DIR "/zh/";
  Check(Lexicon::Open(dir + "lexicon.kdlex", &s->lexicon).ok());
  Check(WordBigram::Open(dir + "lexicon.kdbg", *s->lexicon, &s->bigram).ok());
  s->words =
      std::make_unique<PinyinCandidateSearch>(s->lexicon.get(), PinyinCandidateSearch::Options());
  s->sentences = std::make_unique<PinyinSentenceSearch>(s->lexicon.get(), s->bigram.get(),
                                                        PinyinSentenceSearch::Options());
  PinyinSentenceSearch::Options everything;
  everything.lattice.fuzzy = kFuzzyAll;
  everything.lattice.typos = kTypoAll;
  everything.initials_beside_full_syllables = true;
  s->sentences_everything =
      std::make_unique<PinyinSentenceSearch>(s->lexicon.get(), s->bigram.get(), everything);
  s->sentences_everything->set_bonus(&s->bonus);
  s->window = std::make_unique<PinyinWindow>(s->sentences.get());
  s->fresh_window = std::make_unique<PinyinWindow>(s->sentences.get());

  LexiconBuilder builder;
  for (const auto& [key, word, count] : {std::tuple{"women", "我们", 600},
                                         {"wo", "我", 900},
                                         {"men", "们", 50},
                                         {"men", "门", 70},
                                         {"de", "的", 2000},
                                         {"zhongguo", "中国", 500},
                                         {"zhong", "中", 800}}) {
    builder.AddKeyedWord(key, word, count);
  }
  LexiconBuilder::Options options;
  options.min_count = 1;
  options.keep_all_keyed_variants = true;
  options.language = "zh";
  std::string lexicon_bytes;
  Check(builder.Finish(options, &lexicon_bytes).ok());
  Check(Lexicon::FromBytes(std::move(lexicon_bytes), &s->small).ok());
  WordBigramBuilder::Options bigram_options;
  bigram_options.min_pair_count = 1;
  WordBigramBuilder bigram(*s->small, bigram_options);
  bigram.AddText("我们的中国。我的门，中国的我们");
  WordBigramBuilder::Stats stats;
  Check(bigram.Finish(&s->small_bigram, &stats).ok());
  return s;
}

bool IsPinyinInput(std::string_view typed) {
  if (typed.size() > PinyinLattice::kMaxTyped) return false;
  for (const char c : typed) {
    if ((c < 'a' || c > 'z') && c != '\'') return false;
  }
  return true;
}

std::string WithoutApostrophes(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c != '\'') out.push_back(c);
  }
  return out;
}

void CheckSentences(const PinyinSentenceSearch& search, std::string_view typed) {
  size_t start = 0;
  while (start < typed.size() && typed[start] == '\'') ++start;
  float previous_score = INFINITY;
  for (const PinyinSentence& sentence : search.sentences()) {
    Check(!sentence.words.empty());
    Check(sentence.score <= previous_score);
    previous_score = sentence.score;
    std::string joined;
    size_t at = start;
    for (const PinyinSentenceWord& word : sentence.words) {
      Check(word.begin == at && word.end > word.begin && word.end <= typed.size());
      // A word beyond the lexicon: only the one that fits (FuzzBonus), "名".
      Check(word.extra == PinyinSentenceWord::kNoExtra ||
            (word.extra == 0 && word.text == "名" && word.entry == lexicon::kNoEntry));
      joined += word.text;
      at = word.end;
      while (at < typed.size() && typed[at] == '\'') ++at;
    }
    Check(at == typed.size());
    Check(joined == sentence.text);
  }
  std::string breaks;
  search.SyllableBreaks(typed, &breaks);
  Check(WithoutApostrophes(breaks) == WithoutApostrophes(typed));
}

void CheckWindow(Searches* s, std::string_view typed) {
  bool valid = typed.size() <= PinyinWindow::kMaxComposition;
  for (const char c : typed) valid = valid && ((c >= 'a' && c <= 'z') || c == '\'');
  const uint32_t context = typed.size() % 7;
  // From a prefix first, as a session typing on does, then the whole.
  (void)s->window->Update(typed.substr(0, typed.size() / 2), context);
  Check(s->window->Update(typed, context).ok() == valid);
  if (!valid) {
    Check(s->window->fixed_text().empty() && s->window->live_begin() == 0);
    return;
  }
  const size_t live = s->window->live_begin();
  Check(typed.size() - live <= PinyinWindow::kWindow);
  size_t at = 0;
  for (const PinyinWindow::Piece& piece : s->window->pieces()) {
    Check(piece.begin == at && piece.end > piece.begin && piece.end <= live);
    at = piece.end;
    while (at < typed.size() && typed[at] == '\'') ++at;
  }
  Check(at == live);
  // The fixed words (what a session learns of the fixed part) lie end to end inside the fixed
  // text, each piece's ending where the piece's text does (one fixed as typed has none).
  size_t text_at = 0, word = 0;
  const std::vector<PinyinWindow::FixedWord>& words = s->window->fixed_words();
  for (const PinyinWindow::Piece& piece : s->window->pieces()) {
    Check(piece.words_end >= word && piece.words_end <= words.size());
    Check(piece.text_begin == text_at);
    const bool has_words = piece.words_end > word;
    for (; word < piece.words_end; ++word) {
      Check(words[word].text_begin == text_at && words[word].text_end > text_at &&
            words[word].text_end <= piece.text_end);
      text_at = words[word].text_end;
    }
    Check(!has_words || text_at == piece.text_end);
    text_at = piece.text_end;
  }
  Check(word == words.size() && text_at == s->window->fixed_text().size());
  std::string breaks;
  s->window->WriteSyllableBreaks(typed, ~uint64_t{0}, &breaks);
  Check(WithoutApostrophes(breaks) == WithoutApostrophes(typed));
  Check(s->fresh_window->Update(typed, context).ok());
  Check(s->fresh_window->fixed_text() == s->window->fixed_text());
  Check(s->fresh_window->live_begin() == live);
  Check(s->fresh_window->fixed_words().size() == words.size());
  (void)s->fresh_window->Update("", 0);  // the next input starts it from nothing
}

void SearchAll(Searches* s, std::string_view typed) {
  CheckWindow(s, typed);
  const bool valid = IsPinyinInput(typed);
  for (PinyinSentenceSearch* search : {s->sentences.get(), s->sentences_everything.get()}) {
    const Status status = search->Search(typed, /*context_word=*/typed.size() % 7);
    Check(status.ok() == valid);
    if (status.ok()) CheckSentences(*search, typed);
    if (!status.ok()) Check(search->sentences().empty());
  }
  const Status status = s->words->Search(typed);
  Check(status.ok() == valid);
  for (const PinyinCandidate& c : s->words->candidates()) {
    Check(!c.text.empty() && c.consumed <= typed.size());
  }
  if (!status.ok()) return;
  // The word search's lattice, as the session shares it, gives the same sentences.
  std::vector<std::string> own;
  for (const PinyinSentence& sentence : s->sentences->sentences()) own.emplace_back(sentence.text);
  s->sentences->Search(s->words->lattice(), typed, typed.size() % 7);
  Check(s->sentences->sentences().size() == own.size());
  for (size_t i = 0; i < own.size(); ++i) Check(s->sentences->sentences()[i].text == own[i]);
}

void LoadBigram(Searches* s, std::string_view data) {
  std::string bytes = s->small_bigram;
  if (!data.empty() && data[0] == 'T') bytes.resize(bytes.size() / 2);  // truncated
  if (!data.empty() && data[0] == 'E') bytes.append(8, '\0');           // extended
  for (size_t i = 1; i + 1 < data.size(); i += 2) {
    bytes[static_cast<uint8_t>(data[i]) % bytes.size()] = data[i + 1];
  }
  std::memcpy(bytes.data(), bigram::kMagic, sizeof(bigram::kMagic));
  PutField<uint32_t>(&bytes, 8, bigram::kFormatVersion);
  PutField<uint32_t>(&bytes, 12, bigram::kHeaderSize);
  PutField<uint32_t>(&bytes, 16, static_cast<uint32_t>(s->small->variant_count()));
  PutField<uint32_t>(&bytes, 20, s->small->header().file_crc32);
  lexicon::SealFile(&bytes);
  std::unique_ptr<WordBigram> model;
  if (!WordBigram::FromBytes(std::move(bytes), *s->small, &model).ok()) return;
  Check(model != nullptr);
  const uint32_t n = static_cast<uint32_t>(model->word_count());
  for (uint32_t v = 0; v < n && v < 64; ++v) {
    for (uint32_t w = 0; w < n && w < 64; ++w) {
      const float log_p = model->LogProb(v, w, model->Unigram(w, 0.001f));
      Check(std::isfinite(log_p) && log_p <= 1e-4f);
    }
  }
  PinyinSentenceSearch search(s->small.get(), model.get(), PinyinSentenceSearch::Options());
  Check(search.Search("womendezhongguo").ok());
  CheckSentences(search, "womendezhongguo");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Searches* searches = Open();
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
    case 1: {
      static constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyz'";
      std::string typed;
      const size_t most =
          data[0] % 4 == 0 ? PinyinLattice::kMaxTyped + 2 : PinyinWindow::kMaxComposition + 2;
      for (const char c : rest.substr(0, most)) {
        typed.push_back(kLetters[static_cast<uint8_t>(c) % kLetters.size()]);
      }
      SearchAll(searches, typed);
      break;
    }
    case 2:
      SearchAll(searches, rest.substr(0, PinyinWindow::kMaxComposition + 2));
      break;
    default:
      LoadBigram(searches, rest);
  }
  return 0;
}
