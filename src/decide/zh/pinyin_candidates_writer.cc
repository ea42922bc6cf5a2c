#include "decide/zh/pinyin_candidates_writer.h"

#include <algorithm>
#include <cmath>

#include "decide/personal_ranking.h"
#include "decide/text_limits.h"
#include "decide/zh/pinyin_limits.h"
#include "decide/zh/zh_state.h"

namespace keydecide {

PinyinCandidatesWriter::PinyinCandidatesWriter(const PinyinEnv& env) {
  ZhState& session = *env.session;
  if (session.personal == nullptr) return;
  session.first_offered.reserve(kMaxSentenceBytes);
  session.first_offered_for.reserve(kMaxComposition);
}

void PinyinCandidatesWriter::WriteTop(PinyinContext* context, size_t k) {
  ZhState& session = *context->session;
  const std::span<const PinyinCandidate> found = context->found;
  const std::span<const PinyinSentence> sentences = context->sentences;
  Decision* out = context->out;
  slots_.Resize(k, &out->candidates);
  size_t filled = 0;
  using Source = PinyinOrigin::Source;
  // Each candidate is tagged with where it came from, for Pick (offered_candidates.h).
  auto next = [&](float score, CandidateKind kind, const PinyinOrigin& origin) -> std::string& {
    Candidate& c = out->candidates[filled++];
    c.score = score;
    c.typing_cost = 0;
    c.kind = kind;
    c.id = session.offered_candidates.Tag(origin);
    return c.text;
  };
  auto user = [&](const ZhState::UserCandidate& c) {
    const UserWords::Word& w = session.user_words()->word(c.word);
    next(std::log1p(w.weight), CandidateKind::kCompletion,
         {.source = Source::kUser, .index = c.word, .consumed = c.consumed})
        .assign(w.spelling);
  };
  for (size_t i = 0; i < session.user_first.size() && filled < k; ++i) {
    user(session.user_first[i]);
  }
  if (context->latin && filled < k) {  // the letters as typed
    next(std::log(context->intent[session.model.latin_label]), CandidateKind::kCompletion,
         {.source = Source::kLetters})
        .assign(session.composition());
  }
  const std::string_view fixed = session.window.live_begin() > 0 ? session.window.fixed_text() : "";
  for (size_t i = 0; i < sentences.size() && filled < k; ++i) {
    if (!session.user_first.empty() && session.IsUserCandidate(sentences[i].text) &&
        fixed.empty()) {
      continue;
    }
    std::string& text = next(sentences[i].score, CandidateKind::kSentence,
                             {.source = Source::kSentence, .index = static_cast<uint32_t>(i)});
    text.assign(fixed);
    text.append(sentences[i].text);
  }
  // Words for all the letters (a one-word conversion is offered here, not as a sentence), then
  // the person's words for a start of them, then the search's.
  const auto words = [&](bool full) {
    for (size_t i = 0; i < found.size() && filled < k; ++i) {
      const PinyinCandidate& p = found[i];
      if (p.full != full || session.IsUserCandidate(p.text)) continue;
      // A word that is a sentence is offered once.
      if (p.full && session.IsOffered(sentences, p.text)) continue;
      next(
          p.score, CandidateKind::kCompletion,
          {.source = Source::kWord, .consumed = p.consumed, .entry = p.entry, .variant = p.variant})
          .assign(p.text);
    }
  };
  words(true);
  for (size_t i = 0; i < session.user_prefix.size() && filled < k; ++i) {
    user(session.user_prefix[i]);
  }
  words(false);
  for (size_t i = 0; i < session.next.size() && filled < k; ++i) {
    next(session.next[i].score, CandidateKind::kNextWord,
         {.source = Source::kNextWord, .index = static_cast<uint32_t>(i)})
        .assign(session.next[i].text);
  }
  slots_.Resize(filled, &out->candidates);
}

StageResult PinyinCandidatesWriter::Write(PinyinContext* context) {
  ZhState& session = *context->session;
  const size_t offered = context->latin + context->found.size() + context->sentences.size() +
                         session.next.size() + session.user_first.size() +
                         session.user_prefix.size();
  const size_t k = std::min<size_t>(
      {static_cast<size_t>(context->max_candidates), offered, kMaxCandidatesLimit});
  WriteTop(context, k);
  if (context->personal != nullptr && context->personal->learn()) {  // what Accept compares with
    const std::vector<Candidate>& candidates = context->out->candidates;
    session.first_offered_for.assign(context->typed);
    session.first_offered.assign(candidates.empty() ? std::string_view() : candidates[0].text);
  }
  return StageResult::kContinue;
}

}  // namespace keydecide
