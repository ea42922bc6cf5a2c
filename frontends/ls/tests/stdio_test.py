#!/usr/bin/env python3
"""keydecide-ls as a program on stdin/stdout: its command line (--version, usage errors exit 2,
an engine that cannot open exits 1), the lifecycle's exit codes, and hostile streams through the
real binary and engine: a 10 MB document, a message over the size limit cut by the end of input,
bad headers, all answered with JSON-RPC errors and stderr notes without the person's text.

  stdio_test.py KEYDECIDE_LS MODELS_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

LS, MODELS = sys.argv[1], sys.argv[2]
ENV = dict(os.environ, KEYDECIDE_MODEL_DIR=MODELS)


def frame(o) -> bytes:
    b = o if isinstance(o, bytes) else json.dumps(o).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


def run(stream: bytes, *flags: str):
    p = subprocess.run([LS, "--no-personal", *flags], input=stream, capture_output=True,
                       timeout=60, env=ENV)
    replies = []
    out = p.stdout
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        n = int(re.search(rb"Content-Length: (\d+)", head).group(1))
        replies.append(json.loads(rest[:n]))
        out = rest[n:]
    return p.returncode, replies, p.stderr.decode()


def check(ok: bool, what: str) -> None:
    if not ok:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


INIT = frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
END = frame({"jsonrpc": "2.0", "id": 99, "method": "shutdown"}) + frame(
    {"jsonrpc": "2.0", "method": "exit"})

v = subprocess.run([LS, "--version"], capture_output=True, text=True)
check(v.returncode == 0 and re.fullmatch(r"keydecide-ls \d+\.\d+\.\d+\n", v.stdout) is not None,
      "--version: " + v.stdout.strip())
check(subprocess.run([LS, "--no-such-flag"], capture_output=True).returncode == 2,
      "an unknown flag exits 2")
with tempfile.TemporaryDirectory() as empty:
    p = subprocess.run([LS, "--model-dir", empty], input=b"", capture_output=True, timeout=60)
    check(p.returncode == 1 and b"cannot open the engine" in p.stderr,
          "a models folder without models exits 1 and says why")

rc, replies, _ = run(INIT + END)
check(rc == 0 and [r["id"] for r in replies] == [1, 99], "shutdown then exit: exit code 0")
rc, _, _ = run(INIT)
check(rc == 1, "end of input without shutdown: exit code 1")

secret = "zyxwvutsecret"
big = ("lorem ipsum " + secret + " ") * (10_000_000 // 26)
stream = (INIT
          + b"Content-Length: nonsense\r\n\r\n"
          + frame(b"{not json")
          + frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
              "textDocument": {"uri": "file:///" + secret + ".txt", "languageId": "plaintext",
                               "version": 1, "text": big}}})
          + frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": {
              "textDocument": {"uri": "file:///" + secret + ".txt"},
              "position": {"line": 0, "character": 3}}})
          + frame({"jsonrpc": "2.0", "id": 3, "method": "textDocument/definition", "params": {}})
          + b"Content-Length: 30000000\r\n\r\n" + b"x" * 100000)
rc, replies, err = run(stream)
codes = [(r.get("id"), r.get("error", {}).get("code")) for r in replies]
check(codes == [(1, None), (None, -32700), (None, -32700), (2, -32803), (3, -32601),
                (None, -32700)], f"hostile stream answered in order: {codes}")
check(rc == 1, "and the server ended with the input")
check(secret not in err and "lorem" not in err, "stderr holds none of the text or file names")
check("9999" in err and "30000000" in err, "stderr says what was refused, in sizes")
print("stdio_test: passed")
