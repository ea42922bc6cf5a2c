#!/usr/bin/env python3
"""Issue 51 item 1: open N connections x S sessions with one key each, drop them without
close_session, and print the daemon's VmRSS / RssAnon before, right after and 5 s later.
Usage: drop_repro.py SOCKET PID [connections] [sessions]"""
import json, socket, sys, time

sock, pid = sys.argv[1], int(sys.argv[2])
nconn = int(sys.argv[3]) if len(sys.argv) > 3 else 10
nsess = int(sys.argv[4]) if len(sys.argv) > 4 else 32

def rss():
    out = {}
    for line in open(f"/proc/{pid}/status"):
        k, _, v = line.partition(":")
        if k in ("VmRSS", "RssAnon"):
            out[k] = int(v.split()[0]) / 1024
    return out

def stats():
    s = socket.socket(socket.AF_UNIX); s.connect(sock); f = s.makefile("rwb")
    f.write(b'{"op":"stats"}\n'); f.flush(); r = json.loads(f.readline()); s.close()
    return r["sessions"], r["session_memory_bytes"]

print("before", rss(), stats())
conns = []
opened = 0
for i in range(nconn):
    s = socket.socket(socket.AF_UNIX); s.connect(sock); f = s.makefile("rwb")
    for k in range(nsess):
        f.write(b'{"op":"open_session"}\n'); f.flush()
        a = json.loads(f.readline())
        if not a.get("ok"):
            continue
        opened += 1
        f.write(json.dumps({"op": "key", "session": a["session"], "text": "a"}).encode() + b"\n")
        f.flush(); f.readline()
    conns.append((s, f))
print("opened", opened, "peak", rss(), stats())
for s, f in conns:
    f.close()  # the file holds the socket open too
    s.close()
time.sleep(1.5)
print("after 1.5 s", rss(), stats())
time.sleep(5)
print("after 6.5 s", rss(), stats())
