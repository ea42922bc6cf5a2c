"""Write the pinyin dev file for `keydecide eval pinyin` from the Chinese dev split.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_pinyin_eval --dev data/zh/dev \\
      --readings data/zh/lexicon/readings.txt --counts data/zh/lexicon/jieba.dict.utf8 \\
      --out data/zh/pinyin_dev.tsv [--max-lines 2000] [--seed 1]

Output lines: hanzi TAB letters TAB space-separated syllables, e.g.
  我们的中国	womendezhongguo	wo men de zhong guo

- Runs of Han characters (split at anything that is not Han) of 4 to 16 characters, from
  the dev split only (data/zh/dev/*.txt written by prepare_zh_text.py); each distinct run
  once.
- Each run is segmented into lexicon words by the most probable segmentation under the
  jieba counts ("word count tag" lines): the product of count(word) / total, as jieba
  does, over words that have a reading; a single character with a reading but no count
  counts 1. Ties go to the longer word.
- Each word is read with its most frequent reading: the largest third field among its
  "word pin'yin count" lines of --readings (readings.txt of scripts/build-lexicon-zh.sh:
  sc.dict plus pinyin-pro; sc.dict's field is a log-probability for the readings of one
  character, 0 for a word with one reading; the first line wins a tie). Readings whose
  syllable count differs from the word's length are not used. Toneless, ü written as v.
- If --readings does not exist and sc.dict.txt sits beside it, sc.dict.txt is used (say
  so): build-lexicon-zh.sh writes readings.txt only once the C++ binary is built. Words
  without an sc.dict reading are then read character by character.
- A run with a character that has no reading is skipped (counted), and so is one whose
  letters are more than 64 (what `keydecide eval pinyin` accepts).
- A seeded sample of --max-lines runs (all of them when fewer), written in corpus order.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import unicodedata
from pathlib import Path

from .zh_text import HAN_RUN

MIN_RUN, MAX_RUN = 4, 16
MAX_LETTERS = 64  # what `keydecide eval pinyin` accepts (kMaxLetters, tools/pinyin_eval.cc)
_SYLLABLE = re.compile(r"^[a-z]+$")
_TONE_DIGIT = re.compile(r"[1-5]$")


class InputError(Exception):
    """A missing or malformed input file; the message names FILE or FILE:LINE."""


def _open_lines(path: Path):
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 ({e})") from None
    return enumerate(text.split("\n"), 1)


def toneless(syllable: str) -> str:
    """'Lǚ' / 'lu:3' / 'lü' -> 'lv'; tone marks and a trailing tone digit dropped."""
    s = unicodedata.normalize("NFD", syllable.strip().lower())
    s = s.replace("u\u0308", "v").replace("u:", "v")  # ü, ǖ, ǘ, ǚ, ǜ decompose to u + ¨
    s = "".join(c for c in s if not unicodedata.combining(c))
    return _TONE_DIGIT.sub("", s)


def load_counts(path: Path) -> dict[str, int]:
    """jieba "word count [tag]" lines -> {word: count} (a repeated word: counts added)."""
    counts: dict[str, int] = {}
    for n, line in _open_lines(path):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) not in (2, 3) or not fields[1].isdigit():
            raise InputError(f"{path}:{n}: expected 'word count tag', got {line[:60]!r}")
        counts[fields[0]] = counts.get(fields[0], 0) + int(fields[1])
    if not counts:
        raise InputError(f"{path}: no entries")
    return counts


def load_readings(path: Path) -> tuple[dict[str, list[str]], int]:
    """ "word pin'yin count" lines -> ({word: syllables of its most frequent reading},
    number of readings left out because their syllable count is not the word's length)."""
    best: dict[str, tuple[float, list[str]]] = {}
    unusable = 0
    for n, line in _open_lines(path):
        if not line.strip():
            continue
        fields = line.split()
        try:
            if len(fields) != 3:
                raise ValueError
            score = float(fields[2])
        except ValueError:
            raise InputError(f"{path}:{n}: expected 'word pin'yin count', got {line[:60]!r}") from None
        word = unicodedata.normalize("NFC", fields[0])
        syllables = [toneless(s) for s in fields[1].split("'")]
        if not all(_SYLLABLE.match(s) for s in syllables):
            raise InputError(f"{path}:{n}: reading {fields[1]!r} is not pinyin")
        if len(syllables) != len(word):
            unusable += 1
            continue
        if word not in best or score > best[word][0]:
            best[word] = (score, syllables)
    if not best:
        raise InputError(f"{path}: no readings")
    return {w: s for w, (_, s) in best.items()}, unusable


class Segmenter:
    """Most probable segmentation of a Han run into words that have a reading."""

    def __init__(self, counts: dict[str, int], readings: dict[str, list[str]]):
        self.readings = readings
        self.log_total = math.log(sum(counts.values()))
        # log P(word) for every counted word with a reading, and every readable character.
        self.logp = {w: math.log(c) - self.log_total for w, c in counts.items()
                     if c > 0 and w in readings}
        for w in readings:
            if len(w) == 1 and w not in self.logp:
                self.logp[w] = -self.log_total  # count 1
        self.max_len = max(map(len, self.logp))

    def readable(self, run: str) -> bool:
        return all(c in self.logp for c in run)

    def segment(self, run: str) -> list[str]:
        """REQUIRES: readable(run). Words of the best segmentation, in order."""
        n = len(run)
        best = [0.0] + [-math.inf] * n
        back = [0] * (n + 1)
        for end in range(1, n + 1):
            for length in range(min(self.max_len, end), 0, -1):  # longest first: wins ties
                lp = self.logp.get(run[end - length:end])
                if lp is not None and best[end - length] + lp > best[end]:
                    best[end] = best[end - length] + lp
                    back[end] = length
        words = []
        end = n
        while end:
            words.append(run[end - back[end]:end])
            end -= back[end]
        return words[::-1]

    def syllables(self, run: str) -> list[str]:
        return [s for w in self.segment(run) for s in self.readings[w]]


def dev_files(dev: Path) -> list[Path]:
    if dev.is_file():
        return [dev]
    files = sorted(dev.glob("*.txt")) if dev.is_dir() else []
    if not files:
        raise InputError(f"{dev}: no such file, or a directory without *.txt")
    return files


def han_runs(files: list[Path], stats: dict[str, int]) -> list[str]:
    """Distinct Han runs of MIN_RUN..MAX_RUN characters in corpus order."""
    runs: dict[str, None] = {}
    for path in files:
        for _, line in _open_lines(path):
            for m in HAN_RUN.finditer(unicodedata.normalize("NFC", line)):
                run = m.group()
                if len(run) < MIN_RUN:
                    stats["runs_too_short"] += 1
                elif len(run) > MAX_RUN:
                    stats["runs_too_long"] += 1
                elif run in runs:
                    stats["runs_duplicate"] += 1
                else:
                    runs[run] = None
    return list(runs)


def make_eval(dev: Path, readings_path: Path, counts_path: Path, max_lines: int, seed: int,
              log=print) -> list[str]:
    """The TSV lines (without newline) of the pinyin dev file."""
    if not readings_path.exists() and (readings_path.parent / "sc.dict.txt").is_file():
        fallback = readings_path.parent / "sc.dict.txt"
        log(f"make_pinyin_eval: {readings_path} missing (scripts/build-lexicon-zh.sh writes it "
            f"after a C++ build): using {fallback}")
        readings_path = fallback
    files = dev_files(dev)
    readings, unusable = load_readings(readings_path)
    counts = load_counts(counts_path)
    seg = Segmenter(counts, readings)
    log(f"make_pinyin_eval: {len(readings)} words with a reading ({unusable} readings not "
        f"one syllable per character, unused), {len(counts)} counted words, "
        f"{len(seg.logp)} segmentation words")

    stats = {"runs_too_short": 0, "runs_too_long": 0, "runs_duplicate": 0}
    runs = han_runs(files, stats)
    readable = [(r, seg.syllables(r)) for r in runs if seg.readable(r)]
    usable = [(r, s) for r, s in readable if sum(map(len, s)) <= MAX_LETTERS]
    chosen = usable
    if len(usable) > max_lines:
        picked = sorted(random.Random(seed).sample(range(len(usable)), max_lines))
        chosen = [usable[i] for i in picked]
    lines = [f"{run}\t{''.join(syl)}\t{' '.join(syl)}" for run, syl in chosen]
    log(f"make_pinyin_eval: {len(files)} dev files; Han runs of {MIN_RUN}-{MAX_RUN} characters: "
        f"{len(runs)} distinct ({stats['runs_duplicate']} repeats, {stats['runs_too_short']} "
        f"shorter, {stats['runs_too_long']} longer left out); {len(runs) - len(readable)} "
        f"skipped for a character without a reading, {len(readable) - len(usable)} for more "
        f"than {MAX_LETTERS} letters; {len(usable)} usable; {len(lines)} written (seed {seed})")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dev", type=Path, required=True, help="data/zh/dev (or one .txt file)")
    ap.add_argument("--readings", type=Path, required=True,
                    help="\"word pin'yin count\" lines (readings.txt; sc.dict.txt beside it "
                         "is used when it is missing)")
    ap.add_argument("--counts", type=Path, required=True, help="jieba.dict.utf8")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--max-lines", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.max_lines < 1:
        ap.error("--max-lines must be at least 1")
    return write_eval_file(
        "make_pinyin_eval", args.out,
        lambda: make_eval(args.dev, args.readings, args.counts, args.max_lines, args.seed))


def write_eval_file(tool: str, out: Path, make) -> int:
    """Writes the lines make() returns to `out`; an InputError is reported as `tool: ...`
    with exit status 1."""
    try:
        lines = make()
    except InputError as e:
        print(f"{tool}: {e}", file=sys.stderr)
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"{tool}: wrote {len(lines)} lines to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
