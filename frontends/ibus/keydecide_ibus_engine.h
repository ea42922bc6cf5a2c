// The IBus engine (an IBusEngine subclass, "IBusKeydecideEngine"): IBus's factory makes one per
// input context. It maps IBus's calls to a TypingState and draws what the state shows: preedit,
// lookup table, commits, deletions through the surrounding text; a property shows the language
// and switches it. Nothing decides here.
//
// Main thread (IBus's GLib main loop) only.

#ifndef KEYDECIDE_FRONTENDS_IBUS_KEYDECIDE_IBUS_ENGINE_H_
#define KEYDECIDE_FRONTENDS_IBUS_KEYDECIDE_IBUS_ENGINE_H_

#include <cstdio>
#include <string>

#include <glib-object.h>

#include "typing_state.h"

namespace keydecide::ibus {

// What every engine of the process shares. REQUIRES: set (SetEngineContext) before IBus
// creates the first engine; the worker outlives every engine.
struct EngineContext {
  DecisionWorker* worker = nullptr;
  TypingSettings settings;  // languages: of the engine named "keydecide"; "keydecide-pinyin"
                            // starts in its second
  FILE* log = nullptr;      // with --log: each key and each panel drawn, timed (latency)
};

void SetEngineContext(const EngineContext& context);

// The GType, registered at the first call.
GType KeydecideEngineGetType();

}  // namespace keydecide::ibus

#endif  // KEYDECIDE_FRONTENDS_IBUS_KEYDECIDE_IBUS_ENGINE_H_
