#!/usr/bin/env bash
# Chinese (Simplified) general-prose dev sets, each from a whole source that no training file reads
# (/work/shared/DATA.md, "Development sets"): the figures to choose settings by, beside the
# technical in-domain dev file (data/zh/pinyin_dev.tsv) and the Wesnoth narrative one
# (data/zh/pinyin_narrative.tsv, whose world, names and translator the trained campaigns share).
#
#   data/zh/raw-heldout/deb/<pkg>/               the packages, only the members read (below)
#   data/zh/heldout/cataclysm_dialogue.txt       what Cataclysm: DDA's characters say (zh_CN)
#   data/zh/heldout/cataclysm_prose.txt          its notes, diaries, news pieces, books, dreams
#   data/zh/heldout/stellarium.txt               Stellarium's sky-culture descriptions (zh_CN)
#   data/zh/pinyin_heldout_<name>.tsv            2,000 runs of 4-16 hanzi of each (all when fewer)
#
# Sources, licences and why they are held out: training/keydecide_train/sources/zh_heldout.py.
# The text step drops every line that occurs in data/zh/train/*.txt or shares 8 Han characters in
# a row with it (and says how many), so run scripts/fetch-data.sh --zh first. What it runs:
#
#   PYTHONPATH=training /usr/bin/python3 -m keydecide_train.sources.zh_heldout \
#       --raw data/zh/raw-heldout/deb --out data/zh/heldout --train data/zh/train
#   PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_pinyin_eval \
#       --dev data/zh/heldout/<name>.txt --readings data/zh/lexicon/readings.txt \
#       --counts data/zh/lexicon/jieba.dict.utf8 --out data/zh/pinyin_heldout_<name>.tsv \
#       --max-lines 2000 --seed 1
#
# (make_pinyin_eval reads sc.dict.txt when readings.txt, which scripts/build-lexicon-zh.sh writes
# after a C++ build, is missing, and says so.) Then, as for the narrative file:
#   build/bin/keydecide eval pinyin --tsv data/zh/pinyin_heldout_<name>.tsv --max-lines 1000 --json
#   bench/libime_compare.sh --tsv data/zh/pinyin_heldout_<name>.tsv --max-lines 1000 --no-build
#
# The packages are unpacked under data/zh/raw-heldout, never data/zh/raw/deb: prepare_zh_text.py
# reads the zh_CN .mo catalogues of every package unpacked there as TRAINING text. Never add these
# packages to scripts/fetch-data-zh.sh either.
#
# Idempotent: each package is downloaded and unpacked once (a ".done" marker; the .deb is then
# deleted), the text and the dev files are rewritten. Needs apt-get, dpkg-deb, tar, python3.
# Usage: scripts/fetch-heldout-zh.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ZH="$ROOT/data/zh"
RAW="$ZH/raw-heldout"
OUT="$ZH/heldout"
LEX="$ZH/lexicon"
SETS=(cataclysm_dialogue cataclysm_prose stellarium)

apt_updated=0

# fetch_deb PKG PATTERN...: download PKG and unpack the members matching the tar wildcards into
# raw-heldout/deb/PKG.
fetch_deb() {
  local pkg="$1" dir="$RAW/deb/$1"
  shift
  if [[ -f "$dir/.done" ]]; then
    echo "deb  $pkg: present"
    return
  fi
  mkdir -p "$RAW/deb"
  rm -f "$RAW/deb/${pkg}"_*.deb
  if ! (cd "$RAW/deb" && apt-get download -q "$pkg" >/dev/null 2>&1); then
    if [[ $apt_updated -eq 0 ]]; then
      echo "deb  $pkg: download failed, running apt-get update and retrying"
      apt-get update -q >/dev/null
      apt_updated=1
    fi
    (cd "$RAW/deb" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
      { echo "deb  $pkg: NOT AVAILABLE" >&2; exit 1; }
  fi
  local deb
  deb=$(ls "$RAW/deb/${pkg}"_*.deb | head -n 1)
  rm -rf "$dir"
  mkdir -p "$dir"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" --wildcards "$@"
  rm -f "$deb"
  touch "$dir/.done"
  echo "deb  $pkg: fetched $(basename "$deb") ($(du -sh "$dir" | cut -f1) extracted)"
}

# Cataclysm: the zh_CN catalogue, and the English JSON that tells speech from written text.
fetch_deb cataclysm-dda-data './usr/share/locale/zh_CN/LC_MESSAGES/cataclysm-dda.mo' \
  './usr/share/games/cataclysm-dda/json/*.json' './usr/share/games/cataclysm-dda/mods/*.json' \
  './usr/share/doc/cataclysm-dda-data/copyright'
# Stellarium: the zh_CN descriptions, and each sky culture's info.ini (its licence).
fetch_deb stellarium-data '*/description.zh_CN.utf8' './usr/share/stellarium/skycultures/*/info.ini' \
  './usr/share/doc/stellarium-data/copyright'

[[ -n $(ls "$ZH/train/"*.txt 2>/dev/null) ]] ||
  { echo "data/zh/train missing: run scripts/fetch-data.sh --zh first" >&2; exit 1; }
(cd "$ROOT" && PYTHONPATH="$ROOT/training" /usr/bin/python3 -m keydecide_train.sources.zh_heldout \
  --raw "$RAW/deb" --out "$OUT" --train "$ZH/train")

[[ -f $LEX/jieba.dict.utf8 && ( -f $LEX/readings.txt || -f $LEX/sc.dict.txt ) ]] ||
  { echo "data/zh/lexicon incomplete: run scripts/fetch-data.sh --zh first" >&2; exit 1; }
for name in "${SETS[@]}"; do
  (cd "$ROOT" && PYTHONPATH="$ROOT/training" /usr/bin/python3 -m keydecide_train.make_pinyin_eval \
    --dev "$OUT/$name.txt" --readings "$LEX/readings.txt" --counts "$LEX/jieba.dict.utf8" \
    --out "$ZH/pinyin_heldout_$name.tsv" --max-lines 2000 --seed 1)
done
