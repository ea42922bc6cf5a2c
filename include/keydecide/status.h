// Status: the result of an operation that can fail. A success carries no message and
// costs nothing to create or copy; a failure carries a code and a human-readable message.
//
// Thread-safety: a Status is a value; distinct objects may be used from distinct threads.

#ifndef KEYDECIDE_STATUS_H_
#define KEYDECIDE_STATUS_H_

#include <string>
#include <string_view>

#include "keydecide/export.h"

namespace keydecide {

class KD_API Status {
 public:
  // These values are printed in messages and returned through the C ABI: keep them stable.
  enum class Code : int {
    kOk = 0,
    kNotFound = 1,
    kCorruption = 2,         // a file exists but its content is malformed or truncated
    kInvalidArgument = 3,    // the caller passed something unusable (bad UTF-8, bad option)
    kIOError = 4,            // the operating system refused a read, write or map
    kNotSupported = 5,       // a valid request this build cannot serve (e.g. newer file version)
  };

  Status() = default;  // ok

  static Status OK() { return Status(); }
  static Status NotFound(std::string_view msg) { return Status(Code::kNotFound, msg); }
  static Status Corruption(std::string_view msg) { return Status(Code::kCorruption, msg); }
  static Status InvalidArgument(std::string_view msg) {
    return Status(Code::kInvalidArgument, msg);
  }
  static Status IOError(std::string_view msg) { return Status(Code::kIOError, msg); }
  static Status NotSupported(std::string_view msg) { return Status(Code::kNotSupported, msg); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // "OK" or "<Kind>: <message>", for logs and error output.
  std::string ToString() const;

  // The same status with "<context>: " before its message (e.g. the file it is about);
  // a success stays a success.
  Status Annotated(std::string_view context) const {
    return ok() ? *this : Status(code_, std::string(context) + ": " + message_);
  }

 private:
  Status(Code code, std::string_view msg) : code_(code), message_(msg) {}

  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace keydecide

// Returns from the enclosing function when `expr` yields a failed Status.
#define KD_RETURN_IF_ERROR(expr)              \
  do {                                        \
    ::keydecide::Status kd_status_ = (expr);  \
    if (!kd_status_.ok()) return kd_status_;  \
  } while (0)

#endif  // KEYDECIDE_STATUS_H_
