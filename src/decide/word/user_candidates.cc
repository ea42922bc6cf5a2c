#include "decide/word/user_candidates.h"

#include <algorithm>

#include "decide/personal_ranking.h"
#include "decide/word/keep_heaviest.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

UserCandidates::UserCandidates(const WordEnv& env) {
  env.context->scored.reserve(env.context->scored.capacity() + kCandidates);
}

void UserCandidates::Gather(WordContext* context) {
  const UserWords* words = context->personal ? context->personal->words().get() : nullptr;
  if (!context->searchable || words == nullptr) return;
  const std::string& typed = context->typed;
  size_t n = 0;
  if (typed.empty()) {
    if (context->previous_key.empty()) return;
    // The heaviest pairs first: the first few offered words will do (a common previous word
    // has hundreds of pairs, and each is a lookup).
    for (const UserWords::Pair& p : words->Following(context->previous_key)) {
      const UserWords::Word* w = words->Find(p.word);
      if (w == nullptr || !w->offered()) continue;
      best_[n++] = w;
      if (n == best_.size()) break;
    }
  } else {
    for (const UserWords::Word& w : words->WithPrefix(typed)) {
      if (!w.offered()) continue;
      KeepHeaviest(
          &w, [](const UserWords::Word& u) { return u.weight; }, &best_, &n);
    }
  }
  const WordPack& pack = *context->pack;
  std::vector<ScoredCandidate>& scored = context->scored;
  for (size_t i = 0; i < n; ++i) {
    const UserWords::Word& w = *best_[i];
    const uint32_t entry = pack.lexicon().Find(w.key);
    const bool present = std::any_of(scored.begin(), scored.end(), [&](const auto& c) {
      return entry != lexicon::kNoEntry ? c.entry == entry
                                        : (c.entry == lexicon::kNoEntry && c.text == w.key);
    });
    if (present) continue;
    const bool known = entry != lexicon::kNoEntry;
    scored.push_back({entry, known ? pack.WordOf(entry) : -1,
                      known ? std::string_view() : std::string_view(w.spelling), 0,
                      known ? context->session->history.CountOf(entry) : uint16_t{0}, 0});
  }
}

}  // namespace keydecide
