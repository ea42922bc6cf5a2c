#include "decide/shortcut_writer.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "decide/personal_ranking.h"
#include "keydecide/decision.h"
#include "lexicon/lexicon.h"

namespace keydecide {

StageResult ShortcutWriter::Write(DecideContext* context) {
  Decision* out = context->out;
  ShortcutDecision& sc = out->shortcut;
  sc.fire = false;
  sc.trigger.clear();
  sc.expansion.clear();
  const UserWords* words = context->personal ? context->personal->words().get() : nullptr;
  const std::string& typed = context->typed;
  const Shortcut* found = words != nullptr && !typed.empty() ? words->FindShortcut(typed) : nullptr;
  if (found == nullptr) return StageResult::kContinue;
  // A trigger that is also a word (the lexicon's, or one the person types as such) is only
  // offered: expanding it on every space would make the word impossible to type.
  const UserWords::Word* own = words->Find(typed);
  sc.fire =
      context->lexicon->Find(typed) == lexicon::kNoEntry && (own == nullptr || !own->offered());
  sc.trigger = found->trigger;
  sc.expansion = found->expansion;
  if (sc.fire) out->autocorrect.apply = false;
  const int max_candidates = context->max_candidates;
  if (max_candidates <= 0) return StageResult::kContinue;
  out->popup.show = true;  // the person asked for this expansion: worth the bar
  std::vector<Candidate>& c = out->candidates;
  std::erase_if(c, [&](const Candidate& x) { return x.text == found->expansion; });
  Candidate first;
  first.text = found->expansion;
  first.score = c.empty() ? 0 : c.front().score;
  first.kind = CandidateKind::kShortcut;
  c.insert(c.begin(), std::move(first));
  if (c.size() > static_cast<size_t>(max_candidates)) c.resize(max_candidates);
  return StageResult::kContinue;
}

}  // namespace keydecide
