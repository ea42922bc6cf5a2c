// libFuzzer target for the user store's export format (src/personal/export_format.h), the
// one file a person may hand the engine from anywhere (keydecide personal import). Besides
// "never crashes, no undefined behaviour", it checks that what ParseExport accepts is what the
// store may hold (storable words, language tags, counts > 0, picks <= count, finite weights
// <= count, first_time <= last_time; shortcuts with lower-cased triggers and text expansions),
// and that writing it out and parsing it again gives the same entries.
//
//   build-fuzz/bin/personal_fuzzer -max_total_time=10 NEW_CORPUS_DIR fuzz/corpus/personal

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "personal/export_format.h"

namespace {

using namespace keydecide;

void CheckWord(const LearnedWord& w) {
  FUZZ_CHECK(personal::IsLanguageTag(w.language));
  FUZZ_CHECK(personal::IsStorableWord(w.word));
  FUZZ_CHECK(w.count > 0 && w.count <= personal::kMaxCount && w.picks <= w.count);
  FUZZ_CHECK(std::isfinite(w.weight) && w.weight >= 0 && w.weight <= w.count);
  FUZZ_CHECK(w.first_time >= 0 && w.first_time <= w.last_time);
  for (size_t i = 0; i < w.apps.size(); ++i) {
    const AppCount& a = w.apps[i];
    FUZZ_CHECK(a.app >= 0 && a.app < UserStore::kAppTypes && (i == 0 || a.app > w.apps[i - 1].app));
    FUZZ_CHECK(a.count > 0 && a.count <= w.count);
    FUZZ_CHECK(std::isfinite(a.weight) && a.weight >= 0 && a.weight <= a.count);
  }
}

void CheckPair(const LearnedPair& p) {
  FUZZ_CHECK(personal::IsLanguageTag(p.language));
  FUZZ_CHECK(personal::IsStorableWord(p.previous) && personal::IsStorableWord(p.word));
  FUZZ_CHECK(p.count > 0 && p.count <= personal::kMaxCount);
  FUZZ_CHECK(std::isfinite(p.weight) && p.weight >= 0 && p.weight <= p.count);
  FUZZ_CHECK(p.last_time >= 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  std::vector<LearnedWord> words, words2;
  std::vector<LearnedPair> pairs, pairs2;
  std::vector<Shortcut> shortcuts, shortcuts2;
  if (!personal::ParseExport(json, &words, &pairs, &shortcuts).ok()) return 0;
  for (const LearnedWord& w : words) CheckWord(w);
  for (const LearnedPair& p : pairs) CheckPair(p);
  for (const Shortcut& sc : shortcuts) {
    FUZZ_CHECK(personal::IsShortcutTrigger(sc.trigger));
    FUZZ_CHECK(personal::IsShortcutExpansion(sc.expansion));
    FUZZ_CHECK(sc.created >= 0);
  }
  const std::string again = personal::WriteExport(words, pairs, 0, shortcuts);
  FUZZ_CHECK(personal::ParseExport(again, &words2, &pairs2, &shortcuts2).ok());
  FUZZ_CHECK(words2.size() == words.size() && pairs2.size() == pairs.size());
  FUZZ_CHECK(shortcuts2.size() == shortcuts.size());
  for (size_t i = 0; i < shortcuts.size(); ++i) {
    FUZZ_CHECK(shortcuts2[i].trigger == shortcuts[i].trigger &&
               shortcuts2[i].expansion == shortcuts[i].expansion &&
               shortcuts2[i].created == shortcuts[i].created);
  }
  for (size_t i = 0; i < words.size(); ++i) {
    FUZZ_CHECK(words2[i].word == words[i].word && words2[i].count == words[i].count &&
               words2[i].picks == words[i].picks && words2[i].weight == words[i].weight &&
               words2[i].first_time == words[i].first_time &&
               words2[i].last_time == words[i].last_time &&
               words2[i].apps.size() == words[i].apps.size());
    for (size_t k = 0; k < words[i].apps.size(); ++k) {
      FUZZ_CHECK(words2[i].apps[k].app == words[i].apps[k].app &&
                 words2[i].apps[k].count == words[i].apps[k].count &&
                 words2[i].apps[k].weight == words[i].apps[k].weight);
    }
  }
  for (size_t i = 0; i < pairs.size(); ++i) {
    FUZZ_CHECK(pairs2[i].previous == pairs[i].previous && pairs2[i].word == pairs[i].word &&
               pairs2[i].count == pairs[i].count && pairs2[i].weight == pairs[i].weight);
  }
  return 0;
}
