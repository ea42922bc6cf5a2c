#include <iterator>

#include "keydecide/options.h"
#include "keydecide/user_store.h"

namespace keydecide {
namespace {

// By AppType value.
constexpr const char* kNames[] = {"chat", "search", "code", "editor", "url"};
static_assert(std::size(kNames) == UserStore::kAppTypes);
static_assert(static_cast<int>(AppType::kUrl) + 1 == UserStore::kAppTypes);

}  // namespace

const char* AppTypeName(AppType app) {
  const int i = static_cast<int>(app);
  return i >= 0 && i < UserStore::kAppTypes ? kNames[i] : kNames[0];
}

Status ParseAppType(std::string_view name, AppType* out) {
  for (int i = 0; i < UserStore::kAppTypes; ++i) {
    if (name == kNames[i]) {
      *out = static_cast<AppType>(i);
      return Status::OK();
    }
  }
  return Status::InvalidArgument("app type '" + std::string(name) +
                                 "' (chat, search, code, editor or url)");
}

}  // namespace keydecide
