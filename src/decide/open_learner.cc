#include "decide/open_learner.h"

#include <cstdio>

#include "keydecide/user_store.h"

namespace keydecide {

void OpenLearner(const EngineOptions& options, const std::string& language,
                 UserWords::Tagger tagger, std::unique_ptr<Learner>* out, std::string* info) {
  if (!options.personal) return;
  UserStoreOptions store_options;
  store_options.path = options.user_store_path;
  std::unique_ptr<UserStore> store;
  const Status s = UserStore::Open(store_options, &store);
  if (!s.ok()) {
    // Bad configuration is logged and typing goes on (the message names the file, never a word).
    *info = "unavailable: " + s.ToString();
    std::fprintf(stderr, "keydecide: typing without personalisation: %s\n", s.ToString().c_str());
    return;
  }
  if (!store->set_aside_path().empty()) {
    std::fprintf(stderr, "keydecide: the user store was damaged; kept as %s, starting afresh\n",
                 store->set_aside_path().c_str());
  }
  const std::string path = store->path();
  *out = std::make_unique<Learner>(std::move(store), language, options.learn_flush_ms,
                                   std::move(tagger));
  *info = (options.learn ? "on: " : "on, not learning: ") + path;
}

}  // namespace keydecide
