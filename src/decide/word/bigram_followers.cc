#include "decide/word/bigram_followers.h"

#include <algorithm>
#include <array>

#include "decide/word/keep_heaviest.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

void AddEntryOnce(WordContext* context, uint32_t entry) {
  std::vector<ScoredCandidate>& scored = context->scored;
  const bool present = std::any_of(scored.begin(), scored.end(),
                                   [&](const ScoredCandidate& c) { return c.entry == entry; });
  if (!present) {
    scored.push_back(
        {entry, context->pack->WordOf(entry), {}, 0, context->session->history.CountOf(entry), 0});
  }
}

BigramFollowers::BigramFollowers(const WordEnv& env) {
  env.context->scored.reserve(env.context->scored.capacity() + kFollowers);
}

void BigramFollowers::Gather(WordContext* context) {
  const WordPack& pack = *context->pack;
  if (!context->searchable || pack.bigram() == nullptr || context->typed.empty()) return;
  const WordBigram& bigram = *pack.bigram();
  const auto [first, last] = pack.BigramWordsWithPrefix(context->typed);
  const std::span<const uint32_t> followers = bigram.Followers(context->previous_word);
  const std::span<const uint32_t> counts = bigram.FollowerCounts(context->previous_word);
  const size_t begin =
      std::lower_bound(followers.begin(), followers.end(), first) - followers.begin();
  const size_t end =
      std::lower_bound(followers.begin() + begin, followers.end(), last) - followers.begin();
  std::array<const uint32_t*, kFollowers> best{};
  size_t n = 0;
  for (size_t i = begin; i < end; ++i) {
    KeepHeaviest(
        &counts[i], [](uint32_t count) { return count; }, &best, &n);
  }
  for (size_t i = 0; i < n; ++i) {
    AddEntryOnce(context, pack.EntryOfBigramWord(followers[best[i] - counts.data()]));
  }
}

}  // namespace keydecide
