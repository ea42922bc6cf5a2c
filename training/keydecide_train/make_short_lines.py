"""Make a label<TAB>text file of short prose lines, as chat messages are ("Yes. ", "Thank
you! ", "Not enough gin. "), for `keydecide eval intent` and the intent n-grams' grid.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_short_lines --data data/en \
      --out /tmp/short.tsv                                   # the dev split's prose sources
  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_short_lines \
      --text data/heldout/en/email.txt --out /tmp/short_email.tsv   # any text files

Why: the intent dev file's lines are 20 to 120 characters (make_intent_eval.py), so it cannot
see that a line of one to three words read as a URL. Each sentence of one to three words
(split after . ! ?, quotes stripped) of the prose text, once, in a seeded shuffle, with a
space after it (the text a person has typed when the next word starts), labelled prose.
"""
from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from .make_intent_eval import label_of

SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"'”’])\s+")  # a quote may close it
QUOTES = "\"'“”‘’"


def short_sentences(lines, max_words: int = 3) -> list[str]:
    """The sentences of 1..max_words words with a letter among `lines`, each once, in order."""
    seen: set[str] = set()
    out = []
    for line in lines:
        for sentence in SENTENCE_END.split(line.strip()):
            sentence = sentence.strip().strip(QUOTES)
            if (1 <= len(sentence.split()) <= max_words and re.search("[A-Za-z]", sentence)
                    and sentence not in seen):
                seen.add(sentence)
                out.append(sentence)
    return out


def read_lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise SystemExit(f"{path}: not UTF-8 text (byte {e.start}); "
                         "make_short_lines reads UTF-8 only") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path("data/en"))
    ap.add_argument("--config", type=Path, default=Path("training/config/en_reviews.json"))
    ap.add_argument("--split", choices=["dev", "train"], default="dev")
    ap.add_argument("--text", type=Path, nargs="+", help="read these files instead of a split")
    ap.add_argument("--max-words", type=int, default=3)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    if args.text:
        paths = args.text
    else:
        rules = json.loads(args.config.read_text())["data"]["intent_rules"]
        paths = [p for p in sorted((args.data / args.split).glob("*.txt"))
                 if label_of(p.stem, rules) == "prose"]
    lines = [line for p in paths for line in read_lines(p)]
    sentences = short_sentences(lines, args.max_words)
    if not sentences:
        raise SystemExit(f"no sentence of 1 to {args.max_words} words in {len(paths)} files")
    random.Random(0).shuffle(sentences)
    args.out.write_text("".join(f"prose\t{s} \n" for s in sentences), encoding="utf-8")
    print(f"{len(sentences)} short lines from {len(paths)} files -> {args.out}")


if __name__ == "__main__":
    main()
