#!/usr/bin/env bash
# keydecide against libime (fcitx5's pinyin engine, Debian's libimepinyin with its shipped sc.dict
# and zh_CN.lm, fcitx5-chinese-addons' default settings) in the same run: both type the letters of
# the same pinyin TSV (hanzi<TAB>letters<TAB>syllables) one key at a time, and the metrics of
# `keydecide eval pinyin --json` and bench/libime_eval.cc are printed side by side.
#
# Usage: bench/libime_compare.sh [--tsv FILE] [--max-lines N] [--build-dir DIR] [--no-build]
#   (default FILE data/zh/pinyin_dev.tsv, all lines, DIR build; --no-build uses DIR/bin as it is)

set -euo pipefail
cd "$(dirname "$0")/.."

tsv=data/zh/pinyin_dev.tsv
max_lines=0
build=build
do_build=1
usage="usage: $0 [--tsv FILE] [--max-lines N] [--build-dir DIR] [--no-build]"
while (($#)); do
  case $1 in
    --tsv) tsv=$2; shift 2 ;;
    --max-lines) max_lines=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
[[ -f $tsv ]] || { echo "no TSV at $tsv (hanzi<TAB>letters<TAB>syllables lines)" >&2; exit 1; }

# Debian's libimepinyin-dev needs libimecore-dev and libfcitx5utils-dev but does not depend on them;
# libime-data pulls in libime-data-language-model (zh_CN.lm).
for pkg in libimepinyin-dev libimecore-dev libfcitx5utils-dev libime-data; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"
  fi
done

if ((do_build)); then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j"$(nproc)" --target libime_eval >/dev/null ||
    { echo "cannot build libime_eval (is libime found by CMake?)" >&2; exit 1; }
  cmake --build "$build" -j"$(nproc)" --target keydecide >/dev/null ||
    echo "warning: keydecide did not build; showing libime alone" >&2
fi

work=$build/libime
mkdir -p "$work"
input=$work/input.tsv
if ((max_lines > 0)); then head -n "$max_lines" "$tsv" >"$input"; else cp "$tsv" "$input"; fi

kd=$build/bin/keydecide
rm -f "$work/keydecide.json"
if [[ -x $kd ]] && "$kd" eval pinyin --help >/dev/null 2>&1; then
  "$kd" eval pinyin --lang zh --tsv "$input" --json >"$work/keydecide.json" ||
    { echo "warning: keydecide eval pinyin failed; showing libime alone" >&2; rm -f "$work/keydecide.json"; }
else
  echo "note: $kd has no 'eval pinyin' yet; showing libime alone" >&2
fi
"$build/bin/libime_eval" --tsv "$input" >"$work/libime.json"

/usr/bin/python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
def load(name):
    path = f"{work}/{name}.json"
    return json.load(open(path)) if os.path.exists(path) else {}
kd, lib = load("keydecide"), load("libime")
def cell(r, key):
    v = r.get(key)
    if v is None: return "-"
    if isinstance(v, float): return f"{v:.1f}" if key.endswith(("_us", "_mb")) else f"{v:.4f}"
    return str(v)
keys = ["engine", "lines", "sentence_top1", "sentence_top5", "char_accuracy", "keystroke_p50_us",
        "keystroke_p95_us", "sentence_p50_us", "sentence_p95_us", "rss_mb"]
print(f"{'metric':18} {'keydecide':>22} {'libime':>22}")
for k in keys:
    print(f"{k:18} {cell(kd, k):>22} {cell(lib, k):>22}")
PY
