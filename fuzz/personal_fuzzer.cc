// libFuzzer target for the user store's export format (src/personal/export_format.h), the
// one file a person may hand the engine from anywhere (keydecide personal import). Besides
// "never crashes, no undefined behaviour", it checks that what ParseExport accepts is what the
// store may hold (storable words, language tags, counts > 0, picks <= count, finite weights
// <= count, first_time <= last_time; shortcuts with lower-cased triggers and text expansions;
// recent words storable), and that writing it out and parsing it again gives the same entries.
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
  personal::ExportContents in, again;
  if (!personal::ParseExport(json, &in).ok()) return 0;
  const auto& words = in.words;
  const auto& words2 = again.words;
  for (const LearnedWord& w : words) CheckWord(w);
  for (const LearnedPair& p : in.pairs) CheckPair(p);
  for (const Shortcut& sc : in.shortcuts) {
    FUZZ_CHECK(personal::IsShortcutTrigger(sc.trigger));
    FUZZ_CHECK(personal::IsShortcutExpansion(sc.expansion));
    FUZZ_CHECK(sc.created >= 0);
  }
  for (const personal::RecentEntry& r : in.recent) {
    FUZZ_CHECK(personal::IsLanguageTag(r.language) && personal::IsStorableWord(r.word.word));
    FUZZ_CHECK(r.word.previous.empty() || personal::IsStorableWord(r.word.previous));
    FUZZ_CHECK(r.word.unix_time >= 0);
  }
  FUZZ_CHECK(personal::ParseExport(personal::WriteExport(in, 0), &again).ok());
  FUZZ_CHECK(words2.size() == words.size() && again.pairs.size() == in.pairs.size());
  FUZZ_CHECK(again.shortcuts.size() == in.shortcuts.size());
  for (size_t i = 0; i < in.shortcuts.size(); ++i) {
    FUZZ_CHECK(again.shortcuts[i].trigger == in.shortcuts[i].trigger &&
               again.shortcuts[i].expansion == in.shortcuts[i].expansion &&
               again.shortcuts[i].created == in.shortcuts[i].created);
  }
  FUZZ_CHECK(again.recent.size() == in.recent.size());
  for (size_t i = 0; i < in.recent.size(); ++i) {
    FUZZ_CHECK(again.recent[i].language == in.recent[i].language &&
               again.recent[i].word.word == in.recent[i].word.word &&
               again.recent[i].word.previous == in.recent[i].word.previous &&
               again.recent[i].word.unix_time == in.recent[i].word.unix_time);
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
  for (size_t i = 0; i < in.pairs.size(); ++i) {
    const LearnedPair &p = in.pairs[i], &p2 = again.pairs[i];
    FUZZ_CHECK(p2.previous == p.previous && p2.word == p.word && p2.count == p.count &&
               p2.weight == p.weight);
  }
  return 0;
}
