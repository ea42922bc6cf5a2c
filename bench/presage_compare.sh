#!/usr/bin/env bash
# keydecide against Presage (Debian's smoothed n-gram predictor) in the same run: Presage's
# n-grams are trained on the same training split (prose sources, as the lexicon), then both
# replay the same dev text under the same rules (tools/replay.h) and the KSRs are printed
# side by side. Needs scripts/fetch-data.sh to have run.
#
# Usage: bench/presage_compare.sh [--text FILE] [--max-chars N] [--suggestions K]
#   (default: data/en/dev.txt, 50000 bytes, K=3; Presage needs ~14 ms a decision). The held-out
#   texts (scripts/fetch-heldout-en.sh) are typed with --text data/heldout/en/email.txt etc.

set -euo pipefail
cd "$(dirname "$0")/.."

dev=data/en/dev.txt
max_chars=50000
suggestions=3
while (($#)); do
  case $1 in
    --text) dev=$2; shift 2 ;;
    --max-chars) max_chars=$2; shift 2 ;;
    --suggestions) suggestions=$2; shift 2 ;;
    *) echo "usage: $0 [--text FILE] [--max-chars N] [--suggestions K]" >&2; exit 2 ;;
  esac
done

for pkg in presage libpresage-dev; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"
  fi
done
[[ -f data/en/manifest.json ]] || { echo "run scripts/fetch-data.sh first" >&2; exit 1; }

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target keydecide presage_replay >/dev/null

work=build/presage
mkdir -p "$work"
db=$work/ngrams_en.db
# The tables are built again whenever the prose training split changes (a source added), so
# that Presage always learns from the same text as keydecide.
/usr/bin/python3 -c '
import json
for name in json.load(open("data/en/manifest.json"))["sources"]:
    if not name.endswith(("-code", "-command")):
        print(f"data/en/train/{name}.txt")' | xargs cat >"$work/train_prose.txt"
split_md5=$(md5sum <"$work/train_prose.txt" | cut -d' ' -f1)
if [[ ! -f $db || $(cat "$db.split-md5" 2>/dev/null) != "$split_md5" ]]; then
  echo "building Presage's 1..3-gram tables from the prose training sources" >&2
  rm -f "$db" "$db.split-md5"
  for n in 1 2 3; do
    text2ngram -n "$n" -l -f sqlite -o "$db" "$work/train_prose.txt" >/dev/null
  done
  echo "$split_md5" >"$db.split-md5"
fi

run() { "$@" --text "$dev" --max-chars "$max_chars" --suggestions "$suggestions"; }
run build/bin/keydecide replay --model none --json >"$work/baseline.json"
models=(baseline)
if [[ -f models/en/model.safetensors ]]; then
  run build/bin/keydecide replay --json >"$work/model.json"
  models+=(model)
fi
run build/bin/presage_replay --db "$db" >"$work/presage.json"

/usr/bin/python3 - "$work" "${models[@]}" presage <<'PY'
import json, sys
work, names = sys.argv[1], sys.argv[2:]
rows = [(n, json.load(open(f"{work}/{n}.json"))) for n in names]
print(f"{'engine':10} {'ksr':>7} {'ksr_word':>9} {'nw_top1':>8} {'nw_top3':>8} {'p50_us':>8} {'p95_us':>8}")
for n, r in rows:
    lat = r["latency_us"]
    print(f"{n:10} {r['ksr']:7.4f} {r['ksr_word_only']:9.4f} {r['next_word_top1']:8.4f} "
          f"{r['next_word_top3']:8.4f} {lat['p50']:8.1f} {lat['p95']:8.1f}")
PY
