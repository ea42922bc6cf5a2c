#include "decide/word/apostrophe_index.h"

#include <algorithm>

#include "lexicon/lexicon.h"

namespace keydecide {

ApostropheIndex::ApostropheIndex(const Lexicon& lexicon) {
  for (uint32_t e = 0; e < lexicon.entry_count(); ++e) {
    const std::string_view key = lexicon.Key(e);
    if (key.find('\'') == std::string_view::npos) continue;
    Word w{std::string(), e, lexicon.Count(e)};
    for (char c : key) {
      if (c != '\'') w.letters.push_back(c);
    }
    if (w.letters.size() >= 2) words_.push_back(std::move(w));
  }
  std::sort(words_.begin(), words_.end(), [](const Word& a, const Word& b) {
    return a.letters != b.letters ? a.letters < b.letters : a.count > b.count;
  });
}

std::span<const ApostropheIndex::Word> ApostropheIndex::WithPrefix(std::string_view typed) const {
  const auto first = std::lower_bound(
      words_.begin(), words_.end(), typed,
      [](const Word& w, std::string_view t) { return std::string_view(w.letters) < t; });
  auto last = first;
  while (last != words_.end() && std::string_view(last->letters).starts_with(typed)) ++last;
  return {first, last};
}

const ApostropheIndex::Word* ApostropheIndex::Exact(std::string_view typed) const {
  const std::span<const Word> words = WithPrefix(typed);
  return !words.empty() && words.front().letters == typed ? &words.front() : nullptr;
}

}  // namespace keydecide
