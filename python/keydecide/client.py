"""keydecide.client: a client of the keydecided daemon in plain Python (standard library only).

    from keydecide.client import Client
    c = Client()                      # $XDG_RUNTIME_DIR/keydecided.sock
    s = c.open_session(app="chat")
    c.key(s, "see you tomo")["decision"]["candidates"]

The protocol is newline-delimited JSON (docs/PROTOCOL.md); this class is a thin wrapper that
checks who is listening before it sends anything.
"""

import json
import os
import socket
import stat
import struct


def default_socket_path():
    runtime_dir = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime_dir.startswith("/"):
        return os.path.join(runtime_dir, "keydecided.sock")
    return "/tmp/keydecide-%d/keydecided.sock" % os.geteuid()


class KeydecideError(Exception):
    def __init__(self, code, message):
        super().__init__("%s: %s" % (code, message))
        self.code = code


class Client:
    """One connection; one request in flight at a time.

    Before sending anything it checks that the socket file and the process listening on it
    belong to this user (SO_PEERCRED), so that a socket squatted by another local user never
    sees a key (PermissionError). Every answer is awaited at most `timeout` seconds."""

    def __init__(self, path=None, timeout=10.0):
        path = path or default_socket_path()
        st = os.lstat(path)
        if not stat.S_ISSOCK(st.st_mode) or st.st_uid != os.geteuid():
            raise PermissionError("%s is not a socket of this user (uid %d): refusing it"
                                  % (path, st.st_uid))
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        self._sock.connect(path)
        creds = self._sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                      struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", creds)
        if uid != os.geteuid():
            self._sock.close()
            raise PermissionError("the process on %s runs as uid %d, not this user: refusing it"
                                  % (path, uid))
        self._file = self._sock.makefile("rwb")
        self._next_id = 1

    def close(self):
        self._file.close()
        self._sock.close()

    def call(self, op, **fields):
        request = dict(fields, op=op, id=self._next_id)
        self._next_id += 1
        self._file.write(json.dumps(request).encode("utf-8") + b"\n")
        self._file.flush()
        while True:
            line = self._file.readline()
            if not line:
                raise ConnectionError("keydecided closed the connection")
            reply = json.loads(line)
            if reply.get("id") in (request["id"], None):
                break
        if not reply.get("ok"):
            error = reply.get("error", {})
            raise KeydecideError(error.get("code"), error.get("message"))
        return reply

    def hello(self):
        return self.call("hello")

    def open_session(self, app="chat", lang=None, autocorrect=None, no_learn=False):
        """lang: one of hello()["languages"]; None: the daemon's default. autocorrect: "off",
        "cautious", "normal" or "eager" (None: normal). no_learn: learn nothing from it."""
        fields = {"app": app}
        if lang is not None:
            fields["lang"] = lang
        if autocorrect is not None:
            fields["autocorrect"] = autocorrect
        if no_learn:
            fields["no_learn"] = True
        return self.call("open_session", **fields)["session"]

    def key(self, session, text, k=3, t_ms=None):
        """Types `text`; t_ms: when the key was pressed (time.monotonic() * 1000), or None."""
        fields = {"session": session, "text": text, "k": k}
        if t_ms is not None:
            fields["t_ms"] = int(t_ms)
        return self.call("key", **fields)

    def backspace(self, session, count=1, k=3):
        return self.call("backspace", session=session, count=count, k=k)

    def pick(self, session, candidate_id, k=3):
        """The person picked the candidate of the last decision whose "id" is `candidate_id`
        (docs/PROTOCOL.md, "Picking a candidate"); KeydecideError "unknown_op" from a daemon too
        old to pick, "invalid_text" for a stale id."""
        return self.call("pick", session=session, candidate=candidate_id, k=k)

    def commit(self, session, word, k=3):
        return self.call("commit", session=session, word=word, k=k)

    def autocorrect(self, session, word, k=3):
        """The host applied the decision's autocorrection `word` (undoable: docs/PROTOCOL.md)."""
        return self.call("commit", session=session, word=word, k=k, autocorrect=True)

    def set_context(self, session, text, k=3):
        return self.call("set_context", session=session, text=text, k=k)

    def close_session(self, session):
        return self.call("close_session", session=session)

    def stats(self):
        return self.call("stats")
