#!/usr/bin/env bash
# Builds the default English lexicon models/en/lexicon.kdlex from the training split made by
# scripts/fetch-data.sh: every prose source (the code blocks' *-code and *-command sources are
# left out) with the weight data/en/manifest.json gives it, then the word bigram beside it
# (OUT with .kdbg for .kdlex) from the same sources, and the known-words filter (.kdws) from
# Debian's wamerican-huge word list. Usage: scripts/build-lexicon.sh [OUT]

set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-models/en/lexicon.kdlex}
manifest=data/en/manifest.json
[[ -f $manifest ]] || { echo "build-lexicon: $manifest missing; run scripts/fetch-data.sh" >&2; exit 1; }
[[ -x build/bin/keydecide ]] || { echo "build-lexicon: build/bin/keydecide missing; run ./run.sh or cmake" >&2; exit 1; }

inputs=()
texts=()
# Each source counts at its training weight, capped at 1: the lexicon keeps a word seen twice,
# and a weight above 1 (the customers' reviews' 2) admitted every word a reviewer typed once,
# misspellings among them ("absolutly", "secrect"). The builder now also asks for two
# occurrences at any weight; the cap stays because the shipped files were built with it.
while read -r source weight; do
  inputs+=(--input "data/en/train/$source.txt:$weight")
  texts+=("data/en/train/$source.txt")
done < <(/usr/bin/python3 -c '
import json, sys
for name, info in json.load(open(sys.argv[1]))["sources"].items():
    if not name.endswith(("-code", "-command")):
        print(name, min(info["weight"], 1.0))' "$manifest")

mkdir -p "$(dirname "$out")"
set -x
build/bin/keydecide lexicon build "${inputs[@]}" --out "$out" --min-count 2 --max-words 100000 --lang en
build/bin/keydecide lexicon bigram --lexicon "$out" --input "${texts[@]}" --out "${out%.kdlex}.kdbg" \
  --min-count 2   # pairs seen twice: 5.1 MB instead of 12.2 (step 8's larger model took the room)
build/bin/keydecide lexicon words --input data/raw/deb/wamerican-huge/usr/share/dict/american-english-huge \
  --out "${out%.kdlex}.kdws"
# The general-language teacher (pocketsphinx-en-us's trigram as ARPA, data/en/teacher/en-us.arpa,
# BSD-2-Clause, written by scripts/fetch-teacher-en.sh), converted for this lexicon
# (models/en/lexicon.kdng; EngineOptions::teacher_weight; its licence beside it).
teacher=data/en/teacher/en-us.arpa
if [[ -f $teacher ]]; then
  build/bin/keydecide lexicon ngram --lexicon "$out" --arpa $teacher --out "${out%.kdlex}.kdng"
  cp data/en/teacher/pocketsphinx-en-us.copyright "${out%.kdlex}.kdng.copyright"
else
  echo "build-lexicon: $teacher missing (scripts/fetch-teacher-en.sh): no teacher converted" >&2
fi
