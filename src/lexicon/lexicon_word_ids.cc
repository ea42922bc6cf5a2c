#include "lexicon/lexicon_word_ids.h"

#include <algorithm>
#include <string>

#include "lexicon/lexicon.h"
#include "text/letter_case.h"

namespace keydecide {

namespace {

// Whether the lexicon is keyed by its words, lower-cased (English, German: "the" for "The"), not
// by their readings (pinyin for hanzi): most spellings are then their key in another case. Read
// from the lexicon itself, whatever its language.
bool KeyedBySpelling(const Lexicon& lexicon) {
  size_t same = 0, all = 0;
  for (uint32_t e = 0; e < lexicon.entry_count(); ++e) {
    for (const lexicon::Variant& v : lexicon.Variants(e)) {
      same += ToLowerUtf8(lexicon.VariantText(v)) == lexicon.Key(e);
      ++all;
    }
  }
  return all > 0 && 2 * same > all;
}

}  // namespace

LexiconWordIds::LexiconWordIds(const Lexicon& lexicon)
    : lexicon_(lexicon), by_entry_(KeyedBySpelling(lexicon)) {
  word_of_variant_.resize(lexicon.variant_count());
  if (by_entry_) {
    std::vector<uint32_t> by_key(lexicon.entry_count());
    for (uint32_t e = 0; e < by_key.size(); ++e) by_key[e] = e;
    std::sort(by_key.begin(), by_key.end(),
              [&](uint32_t a, uint32_t b) { return lexicon.Key(a) < lexicon.Key(b); });
    id_of_entry_.resize(lexicon.entry_count());
    for (const uint32_t e : by_key) id_of_entry_[e] = word_count_++;
  }
  for (uint32_t e = 0; e < lexicon.entry_count(); ++e) {
    const std::span<const lexicon::Variant> variants = lexicon.Variants(e);
    for (size_t v = 0; v < variants.size(); ++v) {
      uint32_t id = 0;
      if (by_entry_) {
        id = id_of_entry_[e];
      } else {
        const auto [it, added] = id_of_text_.emplace(lexicon.VariantText(variants[v]), word_count_);
        if (added) ++word_count_;
        id = it->second;
      }
      word_of_variant_[lexicon.VariantIndex(e, v)] = id;
    }
  }
}

uint32_t LexiconWordIds::Find(std::string_view text) const {
  if (by_entry_) {
    const uint32_t entry = lexicon_.Find(ToLowerUtf8(text));
    return entry == lexicon::kNoEntry ? 0 : id_of_entry_[entry];
  }
  const auto it = id_of_text_.find(text);
  return it == id_of_text_.end() ? 0 : it->second;
}

}  // namespace keydecide
