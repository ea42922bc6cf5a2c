#include "decide/offered_candidates.h"

#include <string>

namespace keydecide {

Status StaleCandidateId(uint32_t id) {
  return Status::InvalidArgument(
      "candidate id " + std::to_string(id) +
      " is stale: not offered by the session's last Decide, or an edit came since; pick from "
      "the newest decision");
}

}  // namespace keydecide
