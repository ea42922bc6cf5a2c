#!/usr/bin/env bash
# The general-domain pinyin dev sets (docs/history/BENCHMARKS-to-2026-12-07.md, "General text"):
#
# data/zh/pinyin_narrative.tsv: 2,000 lines of 4-16 hanzi from The Battle for Wesnoth's held-out
# campaigns (data/zh/general/wesnoth.txt, written by scripts/fetch-data.sh --zh; prepare_zh_text.py,
# WESNOTH_GENERAL_DEV), read as the technical dev file is (make_pinyin_eval.py, seed 1): real
# narrative prose and dialogue from campaigns no model trained on (the other campaigns are
# training text).
#
# data/zh/pinyin_general.tsv: 3,000 sentences sampled from libime's language model (Debian
# libime-data-language-model, zh_CN.lm, LGPL-2.1+) by bench/libime_sample.cc (vocabulary: the 20,000 most probable words of
# sc.dict; at most 7 words a sentence; seed 1), then read as the technical dev file is
# (training/keydecide_train/make_pinyin_eval.py: runs of 4-16 hanzi, jieba's segmentation,
# sc.dict's most frequent readings; 2,000 lines, seed 1). Lines 1001-2000 are the tuning half,
# lines 1-1000 the reported one.
#
# Needs scripts/fetch-data.sh --zh (sc.dict.txt, jieba's counts; readings.txt from
# scripts/build-lexicon-zh.sh when there) and libime's development packages, which
# bench/libime_compare.sh installs. Usage: scripts/make-pinyin-general-zh.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
lex=data/zh/lexicon
[[ -f $lex/sc.dict.txt ]] || { echo "$lex/sc.dict.txt missing: scripts/fetch-data.sh --zh" >&2; exit 1; }
readings=$lex/readings.txt
[[ -f $readings ]] || readings=$lex/sc.dict.txt
[[ -f data/zh/general/wesnoth.txt ]] ||
  { echo "data/zh/general/wesnoth.txt missing: scripts/fetch-data.sh --zh" >&2; exit 1; }
PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_pinyin_eval \
  --dev data/zh/general/wesnoth.txt --readings "$readings" \
  --counts $lex/jieba.dict.utf8 --out data/zh/pinyin_narrative.tsv --max-lines 2000 --seed 1
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target libime_sample >/dev/null ||
  { echo "cannot build libime_sample (libime's dev packages: bench/libime_compare.sh)" >&2; exit 1; }

mkdir -p data/zh/general
"$build/bin/libime_sample" --dict $lex/sc.dict.txt --sentences 3000 --top 20000 --max-words 7 \
  --seed 1 --out data/zh/general/libime_sample.txt
PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_pinyin_eval \
  --dev data/zh/general/libime_sample.txt --readings "$readings" \
  --counts $lex/jieba.dict.utf8 --out data/zh/pinyin_general.tsv --max-lines 2000 --seed 1
