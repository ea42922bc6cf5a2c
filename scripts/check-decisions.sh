#!/usr/bin/env bash
# Proves that a change made no decision differ: runs the same replays, evaluations and
# predictions with the keydecide CLI and compares their JSON, latency, time and memory fields
# aside (they change from run to run).
#
#   scripts/check-decisions.sh BEFORE_DIR AFTER_DIR
#
# BEFORE_DIR is written first when it does not exist (with $KEYDECIDE_BEFORE, default
# $KEYDECIDE), so the first run records the baseline of the tree as it is; AFTER_DIR is written
# on every run (with $KEYDECIDE, default build/bin/keydecide). Exit 0 when every file is the
# same, 1 with the differences otherwise. Models: $MODEL_DIR (default models/). Inputs:
# tests/fixtures/decisions/ (pinyin.tsv was made from models/zh/replay.txt by
# training/keydecide_train/make_pinyin_eval.py; typos.tsv is the first 400 pairs of
# data/en/typos_heldout_dev.tsv, the dev share of the misspellings).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BEFORE_DIR AFTER_DIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
before=$1 after=$2
kd=${KEYDECIDE:-$root/build/bin/keydecide}
kd_before=${KEYDECIDE_BEFORE:-$kd}
models=${MODEL_DIR:-$root/models}
fixtures=$root/tests/fixtures/decisions
en_text=$models/en/replay.txt

# produce KD OUT_DIR: every file the comparison reads.
produce() {
  local kd=$1 out=$2
  mkdir -p "$out"
  local tmp
  tmp=$(mktemp -d)
  # The person's earlier and later text, for the learned ranking.
  head -c 12000 "$en_text" > "$tmp/history.txt"
  tail -c +12001 "$en_text" > "$tmp/rest.txt"  # (no pipe: head would close it early)
  head -c 8000 "$tmp/rest.txt" > "$tmp/test.txt"
  head -n 150 "$fixtures/pinyin.tsv" > "$tmp/history.tsv"
  tail -n +151 "$fixtures/pinyin.tsv" > "$tmp/test.tsv"
  local -a m=(--model-dir "$models")
  run() {  # run NAME ARGS...: the command's stdout into NAME.json
    local name=$1
    shift
    # The engine flags (m) go after the subcommand's words: "eval pinyin --model-dir D".
    local -a words=()
    while [[ $# -gt 0 && $1 != --* ]]; do words+=("$1"); shift; done
    if ! "$kd" "${words[@]}" "${m[@]}" "$@" > "$out/$name.json" 2> "$out/$name.err"; then
      echo "check-decisions: $name failed:" >&2
      cat "$out/$name.err" >&2
      return 1
    fi
  }
  run replay_en replay --text "$en_text" --max-chars 30000 --json \
    --trace "$out/replay_en.trace.jsonl"
  run replay_en_tiny replay --text "$root/tests/fixtures/tiny_corpus.txt" --json \
    --trace "$out/replay_en_tiny.trace.jsonl"
  run replay_en_exact replay --text "$en_text" --max-chars 15000 --json \
    --contractions --exact-case --timed --trace "$out/replay_en_exact.trace.jsonl"
  for tier in no_vocab_proposals small_model lexicon_only; do
    run "replay_en_$tier" replay --text "$en_text" --max-chars 8000 --json \
      --tier "$tier" --trace "$out/replay_en_$tier.trace.jsonl"
  done
  run replay_en_baseline replay --model none --text "$en_text" --max-chars 8000 \
    --json --trace "$out/replay_en_baseline.trace.jsonl"
  run pinyin eval pinyin --tsv "$fixtures/pinyin.tsv" --max-lines 300 --json \
    --errors "$out/pinyin.errors.tsv"
  run pinyin_code eval pinyin --tsv "$fixtures/pinyin.tsv" --max-lines 300 --json \
    --app code --errors "$out/pinyin_code.errors.tsv"
  run autocorrect eval autocorrect --typos "$fixtures/typos.tsv" --text "$en_text" \
    --max-chars 30000 --json --trace "$out/autocorrect.trace.jsonl"
  run predict_en predict --contexts "$fixtures/contexts_en.txt" --json -k 5
  run predict_zh predict --lang zh --contexts "$fixtures/contexts_zh.txt" --json -k 8
  run personal_en eval personal --history "$tmp/history.txt" --test "$tmp/test.txt" \
    --json
  run personal_zh eval personal --lang zh --history "$tmp/history.tsv" \
    --test "$tmp/test.tsv" --json
  rm -rf "$tmp"
}

if [[ ! -d $before ]]; then
  echo "check-decisions: recording the baseline in $before" >&2
  produce "$kd_before" "$before"
fi
produce "$kd" "$after"

python3 - "$before" "$after" <<'PY'
import json, pathlib, re, sys

# Keys whose values are measurements of this run, not decisions.
VOLATILE = re.compile(r"(latency|_us$|^us$|_ms$|time|rss|seconds|per_sec|p50|p95|p99|mean_us)")

def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if not VOLATILE.search(k)}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v

def load(path):
    if path.suffix == ".json":  # one object (pretty or not), or one a line
        text = path.read_text(encoding="utf-8")
        try:
            return [clean(json.loads(text))]
        except json.JSONDecodeError:
            pass
    if path.suffix in (".json", ".jsonl"):
        rows = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.append(clean(json.loads(line)))
        return rows
    return path.read_text(encoding="utf-8").splitlines()

before, after = map(pathlib.Path, sys.argv[1:3])
names = sorted(p.name for p in before.iterdir() if not p.name.endswith(".err"))
bad = 0
for name in names:
    a, b = before / name, after / name
    if not b.exists():
        print(f"missing: {b}")
        bad += 1
        continue
    x, y = load(a), load(b)
    if x != y:
        bad += 1
        diffs = [i for i, (p, q) in enumerate(zip(x, y)) if p != q]
        first = diffs[0] if diffs else min(len(x), len(y))
        print(f"DIFFERENT: {name} ({len(x)} vs {len(y)} rows; first at row {first})")
        if first < len(x) and first < len(y):
            print("  before:", json.dumps(x[first], ensure_ascii=False)[:600])
            print("  after: ", json.dumps(y[first], ensure_ascii=False)[:600])
    else:
        print(f"identical: {name}")
print(f"{len(names) - bad} of {len(names)} files identical")
sys.exit(1 if bad else 0)
PY
