#!/usr/bin/python3
"""Writes models/en/replay.txt: the general text that on-device fine-tuning replays beside the
person's own (docs/PERSONAL.md, "Fine-tuning"), so that the adapter does not forget how
everyone else writes.

A fixed sample of the English training split (never dev or evaluation text): every 37th
paragraph of at least 8 words of Jane Austen's novels (r-cran-janeaustenr; the novels are in the
public domain), until 6,000 words. Deterministic.

  scripts/make-replay-text.py [data/en/train/r-cran-janeaustenr.txt] [models/en/replay.txt]
"""
import sys

source = sys.argv[1] if len(sys.argv) > 1 else "data/en/train/r-cran-janeaustenr.txt"
out = sys.argv[2] if len(sys.argv) > 2 else "models/en/replay.txt"
lines, words = [], 0
with open(source, encoding="utf-8") as f:
    paragraphs = [p.strip() for p in f if len(p.split()) >= 8]
for p in paragraphs[::37]:
    lines.append(p)
    words += len(p.split())
    if words >= 6000:
        break
with open(out, "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
print(f"{out}: {len(lines)} paragraphs, {words} words")
