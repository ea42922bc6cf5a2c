#include "keydecide/status.h"

namespace keydecide {

std::string Status::ToString() const {
  const char* kind = "OK";
  switch (code_) {
    case Code::kOk:
      return "OK";
    case Code::kNotFound:
      kind = "Not found";
      break;
    case Code::kCorruption:
      kind = "Corruption";
      break;
    case Code::kInvalidArgument:
      kind = "Invalid argument";
      break;
    case Code::kIOError:
      kind = "IO error";
      break;
    case Code::kNotSupported:
      kind = "Not supported";
      break;
  }
  return std::string(kind) + ": " + message_;
}

}  // namespace keydecide
