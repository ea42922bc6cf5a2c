// The daemon's listening Unix socket: created with mode 0600 (never briefly open to
// others), in a private fallback folder when $XDG_RUNTIME_DIR is not set, replacing the
// file of a daemon that died but never the socket of a live one (docs/PROTOCOL.md).

#ifndef KEYDECIDE_SERVICE_UNIX_LISTENER_H_
#define KEYDECIDE_SERVICE_UNIX_LISTENER_H_

#include <sys/types.h>

#include <string>

#include "keydecide/status.h"

namespace keydecide::service {

struct UnixListener {
  int fd = -1;    // non-blocking, close-on-exec; the caller closes it
  dev_t dev = 0;  // identity of the socket file, to remove only our own at stop
  ino_t ino = 0;
};

// Binds and listens on `path`. With `private_parent`, first creates the parent folder
// with mode 0700 and refuses it unless it is a folder owned by this user and closed to
// others. Any path: every folder above the socket must belong to root or this user, and
// one that others may write must be sticky (/tmp is; a 0777 folder is not). On failure
// returns the reason (InvalidArgument: a path that is too long, not a socket, served by a
// live daemon, or in a folder another user could replace it in; IOError: the system
// refused) and leaves no socket file behind.
Status ListenUnix(const std::string& path, bool private_parent, int backlog, UnixListener* out);

// Whether the file at `path` is still the socket `l` created (not removed or replaced).
bool SocketFileIsOurs(const std::string& path, const UnixListener& l);

// Removes the socket file at `path` if it is still the one `l` created.
void RemoveSocketFile(const std::string& path, const UnixListener& l);

}  // namespace keydecide::service

#endif  // KEYDECIDE_SERVICE_UNIX_LISTENER_H_
