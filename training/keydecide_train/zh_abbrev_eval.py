"""Abbreviated pinyin and 联想 on a pinyin dev file (issue 14: measured, not tuned).

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.zh_abbrev_eval abbrev \\
      --tsv data/zh/pinyin_general.tsv --lines 1000 --counts data/zh/lexicon/jieba.dict.utf8 \\
      --out-dir /tmp/abbrev
  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.zh_abbrev_eval next \\
      --tsv data/zh/pinyin_general.tsv --lines 1000 --counts data/zh/lexicon/jieba.dict.utf8 \\
      --keydecide build/bin/keydecide

Each of the first --lines lines (after --skip) (hanzi<TAB>letters<TAB>syllables) is split into jieba words by
the most probable segmentation under jieba's counts (as make_pinyin_eval.py reads it).

`abbrev` writes three pinyin TSVs for `keydecide eval pinyin` / `libime_eval`, one item per line
whose first word has 2 to 4 hanzi:
  initials.tsv  that word typed as its syllables' first letters ("nh" for 你好);
  mixed.tsv     its first syllable in full, the others as first letters ("nih");
  phrase.tsv    its first two words (when both have 1 to 4 hanzi), all first letters ("wmdd").
`next` types each line's first word (its full letters, then Space: the first candidate is
committed) into `keydecide type --lang zh` and reads the 联想 candidates shown after the commit:
an item counts when the committed text is the first word, a hit when the second word is among
the first 1 / 5 candidates. Items are separated by "。" (a new context).
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from pathlib import Path

from .make_pinyin_eval import load_counts


def read_lines(path: Path, limit: int, skip: int = 0) -> list[tuple[str, list[str]]]:
    out = []
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f):
            if number < skip:
                continue
            hanzi, _letters, syllables = line.rstrip("\n").split("\t")
            out.append((hanzi, syllables.split()))
            if len(out) == limit:
                break
    return out


def segment(text: str, counts: dict[str, int]) -> list[str]:
    """Most probable split into words of `counts` (an unknown single character counts 1)."""
    log_total = math.log(sum(counts.values()))
    best = [0.0] + [-math.inf] * len(text)
    start = [0] * (len(text) + 1)
    for i in range(1, len(text) + 1):
        for j in range(max(0, i - 8), i):
            word = text[j:i]
            c = counts.get(word, 1 if i - j == 1 else 0)
            if c and best[j] + math.log(c) - log_total > best[i]:
                best[i] = best[j] + math.log(c) - log_total
                start[i] = j
    words = []
    i = len(text)
    while i > 0:
        words.append(text[start[i]:i])
        i = start[i]
    return words[::-1]


def tsv_line(hanzi: str, syllables: list[str], typed: list[str]) -> str:
    return f"{hanzi}\t{''.join(typed)}\t{' '.join(typed)}\n"


def cmd_abbrev(args, lines, counts) -> int:
    out = {name: [] for name in ("initials", "mixed", "phrase")}
    for hanzi, syllables in lines:
        words = segment(hanzi, counts)
        first = words[0]
        n = len(first)
        if 2 <= n <= 4:
            syl = syllables[:n]
            out["initials"].append(tsv_line(first, syl, [s[0] for s in syl]))
            out["mixed"].append(tsv_line(first, syl, [syl[0]] + [s[0] for s in syl[1:]]))
        if len(words) >= 2 and len(words[0]) <= 4 and len(words[1]) <= 4:
            m = len(words[0]) + len(words[1])
            syl = syllables[:m]
            out["phrase"].append(tsv_line(words[0] + words[1], syl, [s[0] for s in syl]))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for name, rows in out.items():
        (args.out_dir / f"{name}.tsv").write_text("".join(rows), encoding="utf-8")
        print(f"{args.out_dir / name}.tsv: {len(rows)} items")
    return 0


def cmd_next(args, lines, counts) -> int:
    items = []
    for hanzi, syllables in lines:
        words = segment(hanzi, counts)
        if len(words) >= 2:
            items.append((words[0], words[1], "".join(syllables[:len(words[0])])))
    keys = "".join(f"{letters} 。" for _, _, letters in items)
    extra = ["--model-dir", args.model_dir] if args.model_dir else []
    run = subprocess.run([args.keydecide, "type", "--lang", "zh", *extra], input=keys,
                         capture_output=True, text=True, check=True)
    # Per item: the decision after its Space (the 联想 list); the text committed is the candidate
    # list's first entry just before it.
    shown, committed, last_first = [], [], ""
    for line in run.stdout.splitlines():
        if not line.startswith("key="):
            continue
        fields = dict(f.split("=", 1) for f in line.split(" ") if "=" in f)
        cands = fields.get("candidates", "")
        if line.startswith("key=  "):
            shown.append(line.split("candidates=", 1)[1].split(" ")[0].split(","))
            committed.append(last_first)
        elif not line.startswith("key=。"):
            last_first = cands.split(",")[0] if cands else ""
    if len(shown) != len(items):
        print(f"zh_abbrev_eval: {len(items)} items, {len(shown)} commits read", file=sys.stderr)
        return 1
    counted = [(w2, s) for (w1, w2, _), s, c in zip(items, shown, committed) if c == w1]
    top1 = sum(1 for w2, s in counted if s[:1] == [w2])
    top5 = sum(1 for w2, s in counted if w2 in s[:5])
    print(f"items {len(items)}, first word committed {len(counted)}; "
          f"next word top-1 {top1 / max(len(counted), 1):.3f}, top-5 {top5 / max(len(counted), 1):.3f}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=("abbrev", "next"))
    ap.add_argument("--tsv", type=Path, required=True)
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--skip", type=int, default=0,
                    help="lines skipped first (--skip 1000 reads the tuning half, lines 1001-2000)")
    ap.add_argument("--counts", type=Path, required=True, help="jieba.dict.utf8")
    ap.add_argument("--out-dir", type=Path, default=Path("/tmp/abbrev"))
    ap.add_argument("--keydecide", default="build/bin/keydecide")
    ap.add_argument("--model-dir", help="passed to keydecide type")
    args = ap.parse_args(argv)
    lines = read_lines(args.tsv, args.lines, args.skip)
    counts = load_counts(args.counts)
    return (cmd_abbrev if args.command == "abbrev" else cmd_next)(args, lines, counts)


if __name__ == "__main__":
    sys.exit(main())
