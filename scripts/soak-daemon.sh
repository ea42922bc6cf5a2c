#!/usr/bin/env bash
# Soak test of the daemon (issue 51): keydecided --personal --fine-tune on a store of its own,
# 20 clients typing real text, learning, and dropping their connections at random (half close
# properly, half vanish as a crashed client does), one fine-tuning round forced early
# (`keydecide personal finetune` is another process; the daemon's own rounds run every 2,000
# learned words). The daemon's RSS is sampled every 10 s; after the warm-up the least-squares
# slope of RSS over time is reported in MB per 10 minutes (flat: under 1).
#
#   scripts/soak-daemon.sh [--time SECONDS] [--warmup SECONDS] [--build DIR] [--text FILE]
#                          [--out CSV] [--prefill PAIRS]
#
# --prefill PAIRS: the store starts with every distinct word of the text and PAIRS random pairs
# of them (an export imported before the daemon starts), as a person's store after a long time;
# past the learner's snapshot limits (src/personal/learner.h), what a flat RSS must then show is
# that nothing else grows.
#
# Defaults: 3600 s, warm-up 600 s, build/, the English dev text (data/en/dev.txt, else the test
# fixture), the samples in soak-rss.csv. Long: the lead runs it; docs/BENCHMARKS.md records it.
set -euo pipefail
TIME=3600 WARMUP=600 BUILD=build TEXT="" OUT=soak-rss.csv CLIENTS=20 PREFILL=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --time) TIME=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    --text) TEXT=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --clients) CLIENTS=$2; shift 2 ;;
    --prefill) PREFILL=$2; shift 2 ;;
    *) echo "usage: $0 [--time S] [--warmup S] [--build DIR] [--text FILE] [--out CSV]" \
            "[--prefill PAIRS]" >&2; exit 2 ;;
  esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[[ -n $TEXT ]] || TEXT=$ROOT/data/en/dev.txt
[[ -f $TEXT ]] || TEXT=$ROOT/tests/fixtures/tiny_corpus.txt
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
chmod 0700 "$WORK"
SOCK=$WORK/kd.sock STORE=$WORK/user.db
if ((PREFILL > 0)); then
  /usr/bin/python3 - "$TEXT" "$PREFILL" >"$WORK/prefill.json" <<'PY'
import json, random, re, sys, time
words = sorted(set(re.findall(r"[A-Za-z]+", open(sys.argv[1], encoding="utf-8", errors="replace").read())))
rng, now, n_pairs = random.Random(7), int(time.time()), int(sys.argv[2])
pairs = {(rng.choice(words), rng.choice(words)) for _ in range(n_pairs)}
json.dump({"format": "keydecide-user-store", "version": 1, "exported_at": now,
           "words": [{"language": "en", "word": w, "count": 2, "picks": 0, "weight": 2.0,
                      "first_time": now, "last_time": now} for w in words],
           "pairs": [{"language": "en", "previous": p, "word": w, "count": 1, "weight": 1.0,
                      "last_time": now} for p, w in pairs],
           "recent": []}, sys.stdout)
PY
  "$BUILD/bin/keydecide" personal import --store "$STORE" "$WORK/prefill.json"
fi
"$BUILD/bin/keydecided" --socket "$SOCK" --lang en --model-dir "$ROOT/models" --personal \
  --fine-tune --store "$STORE" --quiet &
DAEMON=$!
trap 'kill $DAEMON 2>/dev/null; wait $DAEMON 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 600); do [[ -S $SOCK ]] && break; sleep 0.1; done
[[ -S $SOCK ]] || { echo "keydecided did not start" >&2; exit 1; }

/usr/bin/python3 - "$SOCK" "$DAEMON" "$TEXT" "$TIME" "$WARMUP" "$OUT" "$CLIENTS" \
  "$BUILD/bin/keydecide" "$STORE" "$ROOT/models" <<'PY'
import json, os, random, socket, subprocess, sys, threading, time

sock, pid, text_path, duration, warmup, out, clients, kd, store, models = sys.argv[1:]
pid, duration, warmup, clients = int(pid), float(duration), float(warmup), int(clients)
words = open(text_path, encoding="utf-8", errors="replace").read().split()
stop = time.monotonic() + duration
counts = {"keys": 0, "sessions": 0, "drops": 0, "vanished": 0, "errors": 0}
lock = threading.Lock()

def rss_mb():
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return float("nan")

def client(seed):
    rng = random.Random(seed)
    while time.monotonic() < stop:
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect(sock)
            f = s.makefile("rwb")
            def call(**req):
                f.write(json.dumps(req).encode() + b"\n"); f.flush()
                return json.loads(f.readline())
            sessions = []
            for _ in range(rng.randint(1, 4)):
                a = call(op="open_session", app=rng.choice(["chat", "editor", "search"]))
                if a.get("ok"):
                    sessions.append(a["session"])
            with lock:
                counts["sessions"] += len(sessions)
            # Type a few hundred keys of real text, then drop the connection.
            for _ in range(rng.randint(50, 400)):
                if not sessions or time.monotonic() >= stop:
                    break
                sid = rng.choice(sessions)
                w = rng.choice(words)
                for ch in w + " ":
                    call(op="key", session=sid, text=ch, decide=rng.random() < 0.7)
                with lock:
                    counts["keys"] += len(w) + 1
            if rng.random() < 0.5:  # vanish as a crashed client: no close_session, no goodbye
                with lock:
                    counts["vanished"] += 1
            else:
                for sid in sessions:
                    call(op="close_session", session=sid)
            with lock:
                counts["drops"] += 1
            f.close()
        except Exception:
            with lock:
                counts["errors"] += 1
            time.sleep(0.2)
        finally:
            s.close()

threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
for t in threads:
    t.start()
start = time.monotonic()
samples = []
tuner = None  # the fine-tuning round, another process, beside the sampling
with open(out, "w") as csv:
    csv.write("seconds,rss_mb\n")
    while time.monotonic() < stop:
        t = time.monotonic() - start
        samples.append((t, rss_mb()))
        csv.write("%.0f,%.1f\n" % samples[-1]); csv.flush()
        if tuner is None and t >= min(60.0, duration / 4):  # one round, early
            tuner = subprocess.Popen([kd, "personal", "finetune", "--store", store,
                                      "--model-dir", models],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(min(10.0, max(0.0, stop - time.monotonic())))
for t in threads:
    t.join(timeout=30)
if tuner is not None:
    print("fine-tuning round: exit %s" % tuner.wait())
time.sleep(2)  # the clients gone: their sessions freed, trimmed at the daemon's next tick
final = rss_mb()
after = [(t, r) for t, r in samples if t >= warmup]  # under load only
print("samples %d, keys %d, sessions %d, connections dropped %d (%d vanished), errors %d"
      % (len(samples), counts["keys"], counts["sessions"], counts["drops"], counts["vanished"],
         counts["errors"]))
print("RSS MB: first %.1f, peak %.1f, last under load %.1f, 2 s after the clients left %.1f"
      % (samples[0][1], max(r for _, r in samples), samples[-1][1], final))
if len(after) >= 2:
    n = len(after)
    mt = sum(t for t, _ in after) / n
    mr = sum(r for _, r in after) / n
    slope = (sum((t - mt) * (r - mr) for t, r in after) /
             max(1e-9, sum((t - mt) ** 2 for t, _ in after)))
    print("slope after %.0f s of warm-up: %.3f MB per 10 minutes over %d samples"
          % (warmup, slope * 600, n))
else:
    print("too few samples after the warm-up for a slope")
PY
