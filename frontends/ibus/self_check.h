// The engine's headless check (`ibus-engine-keydecide --check`): the typing logic over the
// engine as configured, without IBus or a display, so that an installed package can be seen to
// work (scripts/test-debs.sh). Types "see you tomo" and Tab, switches to the second language
// and types "nihao" and Space, and prints what was committed.

#ifndef KEYDECIDE_FRONTENDS_IBUS_SELF_CHECK_H_
#define KEYDECIDE_FRONTENDS_IBUS_SELF_CHECK_H_

#include <ostream>

#include "decision_worker.h"

namespace keydecide::ibus {

// 0 when both commits are the expected ones ("see you tomorrow ", "你好"), else 1; the
// transcript goes to `out`.
int RunSelfCheck(const frontend::EngineSetup& setup, std::ostream& out);

}  // namespace keydecide::ibus

#endif  // KEYDECIDE_FRONTENDS_IBUS_SELF_CHECK_H_
