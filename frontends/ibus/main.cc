// ibus-engine-keydecide: the IBus engine process (docs/INTEGRATION.md, "IBus"). ibus-daemon
// starts it with --ibus as the component XML (keydecide.xml) says; run by hand it registers
// the component itself. --check types headlessly, without IBus (self_check.h).
//
// Options come from the command line or, because ibus-daemon starts the engine with a fixed
// command line, from the environment the daemon runs in (KEYDECIDE_IBUS_*).

#include <ibus.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <utility>

#include "decision_worker.h"
#include "keydecide_ibus_engine.h"
#include "self_check.h"

namespace {

using keydecide::frontend::DecisionWorker;
using keydecide::frontend::EngineSetup;

constexpr char kComponentName[] = "org.keydecide.IBus";

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// Runs `f` on the GLib main loop (the worker's answers, which the engines wait for only
// briefly).
void PostToMainLoop(std::function<void()> f) {
  g_idle_add_full(
      G_PRIORITY_DEFAULT,
      [](gpointer p) -> gboolean {
        (*static_cast<std::function<void()>*>(p))();
        return G_SOURCE_REMOVE;
      },
      new std::function<void()>(std::move(f)),
      [](gpointer p) { delete static_cast<std::function<void()>*>(p); });
}

void RegisterComponent(IBusBus* bus) {  // run by hand: what keydecide.xml says for ibus-daemon
  IBusComponent* component =
      ibus_component_new(kComponentName, "keydecide", KEYDECIDE_VERSION, "see the package",
                         "keydecide", "", "", "ibus-keydecide");
  ibus_component_add_engine(
      component, ibus_engine_desc_new("keydecide", "keydecide (English prediction)",
                                      "English completions, next words, autocorrect", "en",
                                      "see the package", "keydecide", "", "us"));
  ibus_component_add_engine(component,
                            ibus_engine_desc_new("keydecide-pinyin", "keydecide (Pinyin)",
                                                 "Pinyin to hanzi, with English one key away", "zh",
                                                 "see the package", "keydecide", "", "us"));
  ibus_bus_register_component(bus, component);
}

}  // namespace

int main(int argc, char** argv) {
  gboolean by_ibus = FALSE, version = FALSE, check = FALSE, learn = FALSE;
  // GOption hands these over, allocated; g_autofree frees them on every return.
  g_autofree gchar* backend = nullptr;
  g_autofree gchar* socket = nullptr;
  g_autofree gchar* model_dir = nullptr;
  g_autofree gchar* layout = nullptr;
  g_autofree gchar* user_store = nullptr;
  g_autofree gchar* log_path = nullptr;
  gint wait_ms = -1;
  const GOptionEntry entries[] = {
      {"ibus", 'i', 0, G_OPTION_ARG_NONE, &by_ibus, "Started by ibus-daemon (the component XML)",
       nullptr},
      {"version", 'V', 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", nullptr},
      {"check", 0, 0, G_OPTION_ARG_NONE, &check,
       "Type headlessly (no IBus): English and pinyin; exit 0 when both commit as expected",
       nullptr},
      {"backend", 0, 0, G_OPTION_ARG_STRING, &backend,
       "in-process (default), daemon (keydecided), or auto (the daemon when one answers at "
       "the start, else in process) [KEYDECIDE_IBUS_BACKEND]",
       "NAME"},
      {"socket", 0, 0, G_OPTION_ARG_FILENAME, &socket,
       "The daemon's socket (default: its own) [KEYDECIDE_IBUS_SOCKET]", "PATH"},
      {"model-dir", 0, 0, G_OPTION_ARG_FILENAME, &model_dir,
       "Models folder (default: $KEYDECIDE_MODEL_DIR, else the installed models)", "DIR"},
      {"layout", 0, 0, G_OPTION_ARG_STRING, &layout,
       "Keyboard layout for typing slips: qwerty, azerty, dvorak [KEYDECIDE_IBUS_LAYOUT]", "NAME"},
      {"learn", 0, 0, G_OPTION_ARG_NONE, &learn,
       "Learn the person's words, kept on this computer [KEYDECIDE_IBUS_LEARN=1]", nullptr},
      {"user-store", 0, 0, G_OPTION_ARG_FILENAME, &user_store,
       "With --learn: the user store (default: $XDG_DATA_HOME/keydecide/user.db) "
       "[KEYDECIDE_IBUS_USER_STORE]",
       "PATH"},
      {"wait-ms", 0, 0, G_OPTION_ARG_INT, &wait_ms,
       "Longest wait for a decision before a key is drawn without it (default 30) "
       "[KEYDECIDE_IBUS_WAIT_MS]",
       "MS"},
      {"log", 0, 0, G_OPTION_ARG_FILENAME, &log_path,
       "Debug: append the time (µs) of each key (not which) and each panel drawn "
       "[KEYDECIDE_IBUS_LOG]",
       "FILE"},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  GOptionContext* options = g_option_context_new("- keydecide input method engine for IBus");
  g_option_context_add_main_entries(options, entries, nullptr);
  GError* error = nullptr;
  if (!g_option_context_parse(options, &argc, &argv, &error)) {
    std::fprintf(stderr, "ibus-engine-keydecide: %s\n", error->message);
    g_error_free(error);
    g_option_context_free(options);
    return 2;
  }
  g_option_context_free(options);
  if (version) {
    std::printf("ibus-engine-keydecide %s\n", KEYDECIDE_VERSION);
    return 0;
  }

  auto pick = [](gchar* flag, const char* env) { return flag != nullptr ? flag : Env(env); };
  EngineSetup setup;
  const std::string backend_name = pick(backend, "KEYDECIDE_IBUS_BACKEND");
  if (!backend_name.empty() && backend_name != "in-process" && backend_name != "daemon" &&
      backend_name != "auto") {
    std::fprintf(stderr, "ibus-engine-keydecide: unknown backend '%s' (in-process, daemon, auto)\n",
                 backend_name.c_str());
    return 2;
  }
  setup.daemon = backend_name == "daemon" || backend_name == "auto";
  setup.fall_back_in_process = backend_name == "auto";
  setup.socket_path = pick(socket, "KEYDECIDE_IBUS_SOCKET");
  setup.model_dir = model_dir != nullptr ? model_dir : "";
  setup.layout = pick(layout, "KEYDECIDE_IBUS_LAYOUT");
  setup.personal = learn || Env("KEYDECIDE_IBUS_LEARN") == "1";
  setup.user_store = pick(user_store, "KEYDECIDE_IBUS_USER_STORE");
  if (check) return keydecide::ibus::RunSelfCheck(setup, std::cout);

  keydecide::ibus::EngineContext context;
  if (wait_ms < 0 && !Env("KEYDECIDE_IBUS_WAIT_MS").empty()) {
    wait_ms = std::atoi(Env("KEYDECIDE_IBUS_WAIT_MS").c_str());
  }
  if (wait_ms >= 0) context.settings.wait = std::chrono::milliseconds(wait_ms);
  const std::string log = pick(log_path, "KEYDECIDE_IBUS_LOG");
  if (!log.empty() && (context.log = std::fopen(log.c_str(), "a")) == nullptr) {
    std::fprintf(stderr, "ibus-engine-keydecide: cannot write %s; not logging\n", log.c_str());
  }

  ibus_init();
  IBusBus* bus = ibus_bus_new();
  g_object_ref_sink(bus);
  if (!ibus_bus_is_connected(bus)) {
    std::fprintf(stderr, "ibus-engine-keydecide: cannot connect to ibus-daemon\n");
    return 1;
  }
  g_signal_connect(bus, "disconnected", G_CALLBACK(+[](IBusBus*, gpointer) { ibus_quit(); }),
                   nullptr);
  DecisionWorker worker(setup, PostToMainLoop);  // starts loading the engine now
  context.worker = &worker;
  keydecide::ibus::SetEngineContext(context);

  IBusFactory* factory = ibus_factory_new(ibus_bus_get_connection(bus));
  g_object_ref_sink(factory);
  for (const char* name : {"keydecide", "keydecide-pinyin"}) {
    ibus_factory_add_engine(factory, name, keydecide::ibus::KeydecideEngineGetType());
  }
  if (by_ibus) {
    ibus_bus_request_name(bus, kComponentName, 0);
  } else {
    RegisterComponent(bus);
  }
  ibus_main();
  g_object_unref(factory);  // the engines, and their sessions, before the worker
  g_object_unref(bus);
  if (context.log != nullptr) std::fclose(context.log);
  return 0;
}
