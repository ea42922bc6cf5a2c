// ShortcutWriter: the person's shortcut for the word being typed (UserStore::SetShortcut), the
// last decision writer of every pack: its expansion first among at most max_candidates, the bar
// shown, and whether it fires (Decision::shortcut) — which overrides autocorrect.apply, so it
// runs after the heads.

#ifndef KEYDECIDE_DECIDE_SHORTCUT_WRITER_H_
#define KEYDECIDE_DECIDE_SHORTCUT_WRITER_H_

#include "decide/decide_context.h"
#include "decide/decision_writer.h"

namespace keydecide {

class ShortcutWriter : public DecisionWriter<DecideContext> {
 public:
  const char* name() const override { return "shortcut"; }

 protected:
  StageResult Write(DecideContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_SHORTCUT_WRITER_H_
