#!/usr/bin/env bash
# `keydecide loadtest` end to end, small: every client's keys are answered through the
# socket and in-process, with no errors, and the report has the fields
# docs/history/BENCHMARKS-to-2026-12-07.md quotes. No timing is asserted.
# usage: service_loadtest_test.sh KEYDECIDE MODELS_DIR FIXTURE_TEXT
set -euo pipefail
KEYDECIDE=$1 MODELS=$2 TEXT=$3
out=$("$KEYDECIDE" loadtest --model-dir "$MODELS" --model none --clients 4 --keys 60 \
        --burst-rounds 10 --text "$TEXT" --json)
/usr/bin/python3 - "$out" <<'EOF_PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["scorer"] == "baseline-unigram+bigram+teacher", r  # the shipped pack's .kdbg and .kdng
for path in ("socket", "in_process", "engine_direct"):
    assert r[path]["decisions"] == 4 * 60, (path, r[path])
    assert r[path]["errors"] == 0, (path, r[path])
    assert r[path]["p50_us"] > 0 and r[path]["p99_us"] >= r[path]["p50_us"], (path, r[path])
assert set(r["ipc_overhead_us"]) == {"p50", "p95", "p99"}
assert r["daemon_rss_mib"]["with_sessions"] > 0
assert 1 <= r["burst"]["decisions_per_burst"] <= 10, r["burst"]
assert "lexicon_only" in r["in_process"]["tiers"], r["in_process"]
EOF_PY

# Pipelined bursts: every key is answered, decided or superseded, and at least the last
# key of each burst of 5 gets a decision.
out=$("$KEYDECIDE" loadtest --model-dir "$MODELS" --model none --clients 3 --keys 50 \
        --pipeline 5 --burst-rounds 0 --text "$TEXT" --json)
/usr/bin/python3 - "$out" <<'EOF_PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["pipeline"] == 5
for path in ("socket", "in_process"):
    p = r[path]
    assert p["keys"] == 150 and p["errors"] == 0, (path, p)
    assert p["decisions"] + p["superseded"] == 150, (path, p)
    assert p["decisions"] >= 30, (path, p)
print("service_loadtest_test: ok")
EOF_PY
