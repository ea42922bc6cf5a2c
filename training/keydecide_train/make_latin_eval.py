"""Write the latin dev file for `keydecide eval pinyin`: English words and code typed in
pinyin mode, which the engine should offer as typed.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_latin_eval --dev data/zh/dev \\
      --out data/zh/latin_dev.tsv [--max-lines 2000] [--seed 1]

Output lines in the pinyin dev file's format, the word as its own conversion:
  python	python	python

- Runs of 2 to 24 ASCII letters (bounded by anything else) on lines of the dev split that
  hold a Han character (latin typed among Chinese, as the zh model's "latin" sessions are),
  lower-cased; each distinct word once, in corpus order.
- A seeded sample of --max-lines words (all of them when fewer), written in corpus order.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import unicodedata
from pathlib import Path

from .make_pinyin_eval import _open_lines, dev_files, write_eval_file
from .zh_text import HAN

LATIN_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,24}(?![A-Za-z])")


def latin_words(files: list[Path]) -> list[str]:
    """Distinct lower-cased latin words of lines with Han characters, in corpus order."""
    words: dict[str, None] = {}
    for path in files:
        for _, line in _open_lines(path):
            line = unicodedata.normalize("NFC", line)
            if not HAN.search(line):
                continue
            for m in LATIN_WORD.finditer(line):
                words.setdefault(m.group().lower(), None)
    return list(words)


def make_latin_eval(dev: Path, max_lines: int, seed: int) -> list[str]:
    words = latin_words(dev_files(dev))
    if len(words) > max_lines:
        picked = sorted(random.Random(seed).sample(range(len(words)), max_lines))
        words = [words[i] for i in picked]
    return [f"{w}\t{w}\t{w}" for w in words]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dev", type=Path, required=True, help="data/zh/dev (or one .txt file)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--max-lines", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.max_lines < 1:
        ap.error("--max-lines must be at least 1")
    return write_eval_file("make_latin_eval", args.out,
                           lambda: make_latin_eval(args.dev, args.max_lines, args.seed))


if __name__ == "__main__":
    sys.exit(main())
