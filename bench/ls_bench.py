#!/usr/bin/env python3
"""Latency of keydecide-ls end to end: a client on pipes types into a 50 KB document and asks
for completion after every key, as an editor does; prints P50/P95/P99 of each keystroke's round
trip (the didChange notification sent, the completion request sent, its reply read back whole)
and the server's CPU time per key.

  KEYDECIDE_SIMD=avx2 bench/ls_bench.py build/bin/keydecide-ls [--keys 2000] [--doc-kb 50]
      [--language-id markdown|c]

The document is models/en/replay.txt repeated to the size; the keys are typed at its end, taken
from the same text. With --language-id c the document is a C file and the typing happens in a
comment at its end (the code/comment scanner then reads the whole document on every key). The
person's store is not used (--no-personal). Not a timed test: run it on a quiet machine.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Client:
    def __init__(self, cmd: list[str]):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     bufsize=0)
        self.next_id = 0

    def send(self, method: str, params, request: bool) -> int | None:
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return msg.get("id")

    def read(self) -> dict:
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("keydecide-ls closed its output")
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = b""
        while len(body) < length:
            body += self.proc.stdout.read(length - len(body))
        return json.loads(body)

    def request(self, method: str, params) -> dict:
        rid = self.send(method, params, True)
        while True:
            reply = self.read()
            if reply.get("id") == rid:
                return reply


def server_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("server")
    ap.add_argument("--keys", type=int, default=2000)
    ap.add_argument("--doc-kb", type=int, default=50)
    ap.add_argument("--language-id", default="markdown")
    args = ap.parse_args()

    text = (ROOT / "models/en/replay.txt").read_text()
    doc = ""
    while len(doc.encode()) < args.doc_kb * 1024:
        doc += text
    doc = doc.encode()[: args.doc_kb * 1024].decode(errors="ignore")
    doc = doc[: doc.rfind("\n") + 1]
    uri = "file:///bench." + ("md" if args.language_id == "markdown" else "c")
    if args.language_id != "markdown":
        doc = "int main(void) { return 0; }\n/* " + doc.replace("*/", "* /") + "\n"
    keys = " ".join(text.split())[: args.keys]

    env_simd = os.environ.get("KEYDECIDE_SIMD", "(best)")
    client = Client([args.server, "--no-personal"])
    client.request("initialize", {"capabilities": {}})
    client.send("initialized", {}, False)
    client.send("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": args.language_id, "version": 1, "text": doc}}, False)
    lines = doc.split("\n")
    line, col = len(lines) - 1, utf16_len(lines[-1])
    pos = {"line": line, "character": col}
    for _ in range(50):  # warm-up
        client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": pos})

    times, items, version = [], 0, 1
    cpu_before = server_cpu_seconds(client.proc.pid)
    for ch in keys:
        version += 1
        start = time.perf_counter()
        client.send("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": pos, "end": pos}, "text": ch}]}, False)
        col += utf16_len(ch)
        pos = {"line": line, "character": col}
        reply = client.request("textDocument/completion",
                               {"textDocument": {"uri": uri}, "position": pos})
        times.append((time.perf_counter() - start) * 1e3)
        items += len(reply["result"]["items"])
    cpu_per_key = (server_cpu_seconds(client.proc.pid) - cpu_before) / len(keys) * 1e3
    client.request("shutdown", None)
    client.send("exit", None, False)
    client.proc.wait(timeout=30)

    times.sort()
    q = lambda p: times[min(len(times) - 1, int(p * len(times)))]
    print(f"keydecide-ls, {args.language_id}, {len(doc.encode()) / 1024:.0f} KB document, "
          f"{len(times)} keys (didChange + completion round trip), KEYDECIDE_SIMD={env_simd}")
    print(f"  P50 {q(0.50):.3f} ms  P95 {q(0.95):.3f} ms  P99 {q(0.99):.3f} ms  "
          f"mean {statistics.mean(times):.3f} ms  items/request {items / len(times):.1f}")
    # The server's own CPU time per key (user + system): what other load on the machine
    # inflates least.
    print(f"  server CPU {cpu_per_key:.3f} ms per key")
    return 0


if __name__ == "__main__":
    sys.exit(main())
