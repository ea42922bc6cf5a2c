#include "decide/en/apostrophe_words.h"

#include <algorithm>
#include <array>

#include "decide/word/keep_heaviest.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

ApostropheWords::ApostropheWords(const WordEnv& env) {
  env.context->scored.reserve(env.context->scored.capacity() + kCandidates);
}

void ApostropheWords::Gather(WordContext* context) {
  const std::string& typed = context->typed;
  if (!context->searchable || typed.empty() || typed.find('\'') != std::string::npos) return;
  const WordPack& pack = *context->pack;
  std::array<const ApostropheIndex::Word*, kCandidates> best{};
  size_t n = 0;
  for (const ApostropheIndex::Word& w : pack.apostrophes().WithPrefix(typed)) {
    KeepHeaviest(
        &w, [](const ApostropheIndex::Word& a) { return a.count; }, &best, &n);
  }
  std::vector<ScoredCandidate>& scored = context->scored;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t entry = best[i]->entry;
    auto it = std::find_if(scored.begin(), scored.end(),
                           [&](const ScoredCandidate& c) { return c.entry == entry; });
    if (it != scored.end()) {
      it->cost = 0;
    } else {
      scored.push_back(
          {entry, pack.WordOf(entry), {}, 0, context->session->history.CountOf(entry), 0});
    }
  }
}

}  // namespace keydecide
