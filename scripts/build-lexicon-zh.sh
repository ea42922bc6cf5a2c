#!/usr/bin/env bash
# Builds the Chinese (Simplified) lexicon models/zh/lexicon.kdlex from the sources fetched by
# `scripts/fetch-data.sh --zh`: jieba word counts, readings from libime's sc.dict, and npm
# pinyin-pro readings for the jieba words sc.dict lacks (scripts/zh-readings-pinyin-pro.js).
# Usage: scripts/build-lexicon-zh.sh [OUT]   (KEYDECIDE=path/to/keydecide to pick the binary)

set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-models/zh/lexicon.kdlex}
bin=${KEYDECIDE:-build/bin/keydecide}
lex=data/zh/lexicon
for f in $lex/jieba.dict.utf8 $lex/sc.dict.txt; do
  [[ -f $f ]] || { echo "build-lexicon-zh: $f missing; run scripts/fetch-data.sh --zh" >&2; exit 1; }
done
[[ -x $bin ]] || { echo "build-lexicon-zh: $bin missing; build first (or set KEYDECIDE)" >&2; exit 1; }

readings=$lex/sc.dict.txt
pro=data/zh/raw/npm/pinyin-pro/package
if [[ -f $pro/package.json ]] && command -v node >/dev/null; then
  node scripts/zh-readings-pinyin-pro.js "$pro" $lex/jieba.dict.utf8 $lex/sc.dict.txt \
    $lex/pinyin-pro.readings.txt
  # sc.dict first; pinyin-pro only covers words sc.dict has no reading for.
  cat $lex/sc.dict.txt $lex/pinyin-pro.readings.txt > $lex/readings.txt
  readings=$lex/readings.txt
else
  echo "build-lexicon-zh: pinyin-pro or node missing: sc.dict readings only" >&2
fi

# The general-language teacher (libime's zh_CN.lm as ARPA, data/zh/teacher/libime_zh_CN.arpa,
# LGPL-2.1+, written by scripts/fetch-data.sh --zh): its words jieba lacks join the counts, at the
# count its unigram gives in a text of jieba's size (training/keydecide_train/teacher_words.py).
teacher_arpa=data/zh/teacher/libime_zh_CN.arpa
counts=$lex/jieba.dict.utf8
if [[ -f $teacher_arpa ]]; then
  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.teacher_words --arpa $teacher_arpa \
    --counts $lex/jieba.dict.utf8 --out $lex/teacher.counts.txt --min-count ${MIN_COUNT:-5}
  cat $lex/jieba.dict.utf8 $lex/teacher.counts.txt > $lex/counts.txt
  counts=$lex/counts.txt
else
  echo "build-lexicon-zh: $teacher_arpa missing (scripts/fetch-data.sh --zh): jieba's words only" >&2
fi

mkdir -p "$(dirname "$out")"
set -x
"$bin" lexicon build --lang zh --zh-counts $counts --zh-readings "$readings" \
  --out "$out" --min-count ${MIN_COUNT:-5} --max-words 1000000
set +x

# The word bigram of the sentence search (models/zh/lexicon.kdbg, beside the lexicon), from the
# Chinese training split (data/zh/train, made by scripts/fetch-data.sh --zh) and the expected
# counts of sunpinyin's open-gram model (data/zh/teacher/sunpinyin.tsv, CC BY-SA 3.0: the .kdbg
# is then CC BY-SA 3.0 too, models/zh/README.md) at weight 0.25 (docs/MODEL.md, "Chinese word
# bigram"). It names the lexicon by its checksum, so it is rebuilt whenever the lexicon is.
teacher=data/zh/teacher/sunpinyin.tsv
teacher_args=()
if [[ -f $teacher ]]; then
  teacher_args=(--teacher "$teacher" --teacher-weight ${TEACHER_WEIGHT:-0.1} --teacher-split-words)
else
  echo "build-lexicon-zh: $teacher missing (scripts/fetch-data.sh --zh): bigram without teacher" >&2
fi
if compgen -G "data/zh/train/*.txt" >/dev/null; then
  set -x
  "$bin" lexicon bigram --lexicon "$out" --input data/zh/train/*.txt --out "${out%.kdlex}.kdbg" \
    --min-count ${BIGRAM_MIN_COUNT:-1} "${teacher_args[@]}"
else
  echo "build-lexicon-zh: data/zh/train missing (scripts/fetch-data.sh --zh): no bigram built" >&2
fi

# The teacher itself, converted for this lexicon (models/zh/lexicon.kdng, LGPL-2.1+ as the model
# it comes from: models/zh/README.md), which the sentence search mixes with the bigram
# (EngineOptions::pinyin.teacher_weight).
if [[ -f $teacher_arpa ]]; then
  set -x
  "$bin" lexicon ngram --lexicon "$out" --arpa $teacher_arpa --out "${out%.kdlex}.kdng"
  set +x
  cp data/zh/teacher/libime_zh_CN.copyright "${out%.kdlex}.kdng.copyright"
fi
