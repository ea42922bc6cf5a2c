#include "decide/word/session_words.h"

#include <algorithm>

#include "decide/surface_form.h"
#include "decide/word/keep_heaviest.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"

namespace keydecide {

SessionWords::SessionWords(const WordEnv& env) {
  // Capitalising one letter adds at most a few bytes (a UTF-8 sequence of up to 4).
  for (std::string& s : spelling_) s.reserve(SessionHistory::kMaxWordBytes + 4);
  env.context->scored.reserve(env.context->scored.capacity() + kCandidates);
}

void SessionWords::Gather(WordContext* context) {
  if (!context->searchable) return;
  const WordPack& pack = *context->pack;
  const Lexicon& lex = pack.lexicon();
  auto weight = [&](const SessionHistory::Word& w) {
    const uint32_t count = w.entry != lexicon::kNoEntry ? lex.Count(w.entry) : 1;
    return static_cast<float>(w.count) / static_cast<float>(std::max<uint32_t>(count, 1));
  };
  size_t n = 0;
  for (const SessionHistory::Word& w : context->session->history) {
    if (w.count > 0 && w.key().starts_with(context->typed)) KeepHeaviest(&w, weight, &best_, &n);
  }
  const auto& hits = context->hits;
  for (size_t i = 0; i < n; ++i) {
    const SessionHistory::Word& w = *best_[i];
    const bool known = w.entry != lexicon::kNoEntry;
    if (known && std::any_of(hits.begin(), hits.end(),
                             [&](const SearchHit& h) { return h.entry == w.entry; })) {
      continue;
    }
    std::string_view text;  // an unknown word's spelling: a name keeps its capital
    if (!known) {
      WriteSurfaceForm(w.key(), w.capitalized, &spelling_[i]);
      text = spelling_[i];
    }
    context->scored.push_back({w.entry, known ? pack.WordOf(w.entry) : -1, text, 0, w.count, 0});
  }
}

}  // namespace keydecide
