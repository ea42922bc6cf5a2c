#!/usr/bin/env bash
# The fast-runtime measurements of docs/history/BENCHMARKS-to-2026-12-07.md in one command: every
# figure is the median over RUNS runs (default 3) of the commands below, printed as tables.
#   bench/runtime_report.sh [OUT_DIR]     (needs build/ and data/en/dev.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-runs/runtime_report}
RUNS=${RUNS:-3}
KD=build/bin/keydecide
mkdir -p "$OUT"

for i in $(seq "$RUNS"); do
  for m in models/en/model.q8.safetensors models/en/model.safetensors; do
    name=$(basename "$m" .safetensors)
    $KD bench --text data/en/dev.txt --max-chars 200000 --decisions 20000 --model "$m" --json \
      > "$OUT/decide_${name}_$i.json"
  done
  $KD bench --text data/en/dev.txt --max-chars 200000 --decisions 20000 --model none --no-scaling \
    --json > "$OUT/decide_none_$i.json"
  for s in S1 S2 S3 S4; do
    for t in 1 2; do
      $KD bench --shape "$s" --weights q8 --threads "$t" --json > "$OUT/shape_${s}_q8_t${t}_$i.json"
    done
    $KD bench --shape "$s" --weights q4g64 --json > "$OUT/shape_${s}_q4g64_t1_$i.json"
  done
done

/usr/bin/python3 - "$OUT" "$RUNS" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
def load(pattern):
    return [json.load(open(f"{out}/{pattern}_{i}.json")) for i in range(1, runs + 1)]
med = lambda xs: statistics.median(xs)
print(f"## Per-decision latency, {runs} runs, median (bench --text, 20,000 decisions each)\n")
print("| model | P50 µs | P95 µs | P99 µs | P99.9 µs | model stage P50/P95 | candidates P50/P95 | cold start ms | RSS MB |")
print("|---|---|---|---|---|---|---|---|---|")
for name in ["model.q8", "model", "none"]:
    r = load(f"decide_{name}")
    q = lambda k: med([x["decision_us"][k] for x in r])
    st = lambda s, k: med([x["stages_us"][s][k] for x in r])
    print(f"| {name} | {q('p50'):.1f} | {q('p95'):.1f} | {q('p99'):.1f} | {q('p999'):.1f} | "
          f"{st('model','p50'):.1f} / {st('model','p95'):.1f} | {st('candidates','p50'):.1f} / {st('candidates','p95'):.1f} | "
          f"{med([x['cold_start_ms'] for x in r]):.1f} | {med([x['rss_mb'] for x in r]):.1f} |")
print("\n### Candidate-count scaling (int8 model; EngineOptions::max_candidates)\n")
print("| max_candidates | P50 µs | P95 µs |\n|---|---|---|")
r = load("decide_model.q8")
for j, n in enumerate([1, 8, 64, 200]):
    print(f"| {n} | {med([x['candidate_scaling'][j]['decision_us']['p50'] for x in r]):.1f} | "
          f"{med([x['candidate_scaling'][j]['decision_us']['p95'] for x in r]):.1f} |")
print(f"\n## Model alone, random weights (bench --shape), P50 µs, median of {runs} runs\n")
print("| shape | weights | threads | (a) 32-token forward | (b) decode step | (c) 64 x 32 |")
print("|---|---|---|---|---|---|")
for s in ["S1", "S2", "S3", "S4"]:
    for w, t in [("q8", 1), ("q8", 2), ("q4g64", 1)]:
        r = load(f"shape_{s}_{w}_t{t}")
        c = lambda k: med([x["scenarios"][k]["p50_us"] for x in r])
        print(f"| {s} | {w} | {t} | {c('a'):.0f} | {c('b'):.0f} | {c('c'):.0f} |")
PY
