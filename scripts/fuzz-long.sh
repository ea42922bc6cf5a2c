#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -DKEYDECIDE_FUZZ=ON) and runs each for a while, one
# after the other, from its committed seeds (fuzz/corpus/<name>); then prints, per fuzzer, the
# executions, the corpus it grew and its findings. docs/FUZZING.md records the runs.
#
#   scripts/fuzz-long.sh [--time SECONDS] [--runs N] [--build DIR] [--fresh-corpus]
#                        [--keep-going] [NAME[:SECONDS] ...]
#
#   --time SECONDS   per fuzzer (default 10800: three hours each)
#   --runs N         stop each fuzzer after N executions, if that comes before its time
#   --build DIR      build folder (default build-fuzz-long)
#   --fresh-corpus   start from the seeds in a temporary folder (default: keep growing
#                    DIR/fuzz-corpus/<name> across runs)
#   --keep-going     run on after a finding (libFuzzer -fork=1, crashes/timeouts/ooms kept)
#   NAME[:SECONDS]   fuzzers to run (default all): protocol pinyin text layout lexicon bigram
#                    ngram weight personal import adapter wordset popup intent_ngrams capi ls; a
#                    time after the colon overrides --time for that one
#
# Findings (crash-*, leak-*, timeout-*, oom-* inputs) go to DIR/fuzz-findings/<name>/; replay
# one with DIR/bin/<name>_fuzzer FILE. Exits 1 when any fuzzer found something.

set -euo pipefail
cd "$(dirname "$0")/.."

TIME=10800
RUNS_CAP=""
BUILD=build-fuzz-long
FRESH=0
KEEP_GOING=0
ALL="protocol pinyin text layout lexicon bigram ngram weight personal import adapter wordset"
ALL+=" popup intent_ngrams capi ls"
RUNS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --time) TIME=$2; shift 2 ;;
    --runs) RUNS_CAP=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    --fresh-corpus) FRESH=1; shift ;;
    --keep-going) KEEP_GOING=1; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) echo "fuzz-long.sh: unknown option $1" >&2; exit 2 ;;
    *) RUNS+=("$1"); shift ;;
  esac
done
if [[ ${#RUNS[@]} == 0 ]]; then read -r -a RUNS <<<"$ALL"; fi

TARGETS=()
for run in "${RUNS[@]}"; do
  name=${run%%:*}
  [[ " $ALL " == *" $name "* ]] || { echo "fuzz-long.sh: no fuzzer '$name' ($ALL)" >&2; exit 2; }
  TARGETS+=("${name}_fuzzer")
done

JOBS=$(nproc 2>/dev/null || echo 2)
CC=clang CXX=clang++ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKEYDECIDE_FUZZ=ON -DKEYDECIDE_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j"$JOBS" --target "${TARGETS[@]}" >/dev/null

SUMMARY=()
FOUND=0
for run in "${RUNS[@]}"; do
  name=${run%%:*}
  seconds=$TIME
  if [[ $run == *:* ]]; then seconds=${run##*:}; fi
  findings="$BUILD/fuzz-findings/$name"
  mkdir -p "$findings"
  if [[ $FRESH == 1 ]]; then
    corpus=$(mktemp -d)
  else
    corpus="$BUILD/fuzz-corpus/$name"
    mkdir -p "$corpus"
  fi
  log="$BUILD/fuzz-$name.log"
  before=$(find "$findings" -type f | wc -l)
  flags=(-max_total_time="$seconds" -print_final_stats=1 -timeout=25 -rss_limit_mb=2048
         -artifact_prefix="$findings/")
  if [[ -n $RUNS_CAP ]]; then flags+=(-runs="$RUNS_CAP"); fi
  if [[ $KEEP_GOING == 1 ]]; then
    flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  echo "== $name: ${seconds} s (log $log)"
  rc=0
  "$BUILD/bin/${name}_fuzzer" "${flags[@]}" "$corpus" "fuzz/corpus/$name" >"$log" 2>&1 || rc=$?
  # Executions: the final stats, or in fork mode the last status line's count.
  execs=$( (grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" || true) |
    awk '{s += $2} END {print s + 0}')
  if [[ $execs == 0 ]]; then
    execs=$( (grep -oE '^#[0-9]+' "$log" || true) | tail -1 | tr -d '#')
  fi
  new=$(( $(find "$findings" -type f | wc -l) - before ))
  inputs=$(find "$corpus" -type f | wc -l)
  if [[ $rc != 0 || $new != 0 ]]; then
    FOUND=1
    grep -E 'check failed|ERROR: |SUMMARY: |Test unit written' "$log" | head -8 || true
  fi
  SUMMARY+=("$(printf '%-9s %8s s %14s executions %6s corpus inputs %3s findings (exit %s)' \
    "$name" "$seconds" "${execs:-0}" "$inputs" "$new" "$rc")")
  if [[ $FRESH == 1 ]]; then rm -rf "$corpus"; fi
done

echo "== fuzz-long.sh summary ($BUILD)"
printf '%s\n' "${SUMMARY[@]}"
if [[ $FOUND == 1 ]]; then
  echo "findings in $BUILD/fuzz-findings/ (replay: $BUILD/bin/<name>_fuzzer FILE)"
  exit 1
fi
