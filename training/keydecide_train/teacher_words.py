"""The Chinese teacher's words that jieba's dictionary lacks, as jieba-style count lines.

The Chinese lexicon is built from jieba's word counts (scripts/build-lexicon-zh.sh). libime's
general-language model (zh_CN.lm, dumped to ARPA by kenlm_arpa.py) knows some 42,000 words jieba
does not count, common ones among them (梦到, 吾等, 无政府主义者): a sentence that needs one can
never be converted, and the teacher's n-grams of it are dropped. This writes "word count" lines
for them, the count being what the teacher's unigram probability gives in a text of jieba's size
(P(w) · Σ jieba counts, rounded), so that the lexicon build ranks them beside jieba's words.
Words of one hanzi (jieba has every common one) and those below --min-count are left out.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.teacher_words \\
      --arpa data/zh/teacher/libime_zh_CN.arpa --counts data/zh/lexicon/jieba.dict.utf8 \\
      --out data/zh/lexicon/teacher.counts.txt
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .zh_text import HAN_RUN


def jieba_counts(text: str) -> dict[str, int]:
    """WORD COUNT [TAG] lines → {word: count}; a malformed line is a ValueError naming it."""
    counts: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 2 or not fields[1].isdigit():
            raise ValueError(f"line {number}: expected 'word count [tag]'")
        counts[fields[0]] = counts.get(fields[0], 0) + int(fields[1])
    return counts


def arpa_unigrams(lines) -> dict[str, float]:
    """The \\1-grams section of an ARPA file → {word: log10 probability}."""
    unigrams: dict[str, float] = {}
    section = False
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if line.startswith("\\"):
            if section:
                break
            section = line == "\\1-grams:"
            continue
        if not section or not line.strip():
            continue
        fields = line.split()
        try:
            unigrams[fields[1]] = float(fields[0])
        except (IndexError, ValueError):
            raise ValueError(f"ARPA line {number}: expected 'log10p word [backoff]'") from None
    return unigrams


def teacher_words(unigrams: dict[str, float], counts: dict[str, int],
                  min_count: int) -> list[tuple[str, int]]:
    """The teacher's multi-hanzi words jieba lacks, with counts scaled to jieba's total, in the
    teacher's order."""
    total = sum(counts.values())
    out = []
    for word, log10_p in unigrams.items():
        if word in counts or len(word) < 2 or not HAN_RUN.fullmatch(word):
            continue
        count = round(10.0 ** log10_p * total)
        if count >= min_count:
            out.append((word, count))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arpa", type=Path, required=True)
    ap.add_argument("--counts", type=Path, required=True, help="jieba's dict.txt")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--min-count", type=int, default=5, help="as the lexicon build's --min-count")
    args = ap.parse_args(argv)
    try:
        counts = jieba_counts(args.counts.read_text(encoding="utf-8"))
        with args.arpa.open(encoding="utf-8") as f:
            unigrams = arpa_unigrams(f)
    except (OSError, ValueError) as e:
        print(f"teacher_words: {e}", file=sys.stderr)
        return 1
    words = teacher_words(unigrams, counts, args.min_count)
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text("".join(f"{w} {c}\n" for w, c in words), encoding="utf-8")
    os.replace(tmp, args.out)
    print(f"teacher_words: {len(words)} of the teacher's {len(unigrams)} words added "
          f"(jieba counts {len(counts)} words)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
