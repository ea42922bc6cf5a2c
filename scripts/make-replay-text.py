#!/usr/bin/python3
"""Writes a language's replay text: the general text that on-device fine-tuning replays beside
the person's own (docs/PERSONAL.md, "Fine-tuning"), so that the adapter does not forget how
everyone else writes. Deterministic; only training-split text (never dev or evaluation text).

English (models/en/replay.txt): every 37th paragraph of at least 8 words of Jane Austen's novels
(r-cran-janeaustenr; the novels are in the public domain), until 6,000 words.

Chinese (models/zh/replay.txt): lines of at least 12 Han characters from every file of the
Chinese training split (Debian's zh_CN manuals, help, catalogues and Wesnoth's campaign text;
their licences in docs/MODEL.md), taken evenly spread over all of them, until 10,000 Han
characters (about 6,000 words).

  scripts/make-replay-text.py [data/en/train/r-cran-janeaustenr.txt] [models/en/replay.txt]
  scripts/make-replay-text.py --zh [data/zh/train] [models/zh/replay.txt]
"""
import pathlib
import re
import sys

HAN = re.compile(r"[\u3400-\u9fff]")


def english(source: str, out: str) -> str:
    lines, words = [], 0
    with open(source, encoding="utf-8") as f:
        paragraphs = [p.strip() for p in f if len(p.split()) >= 8]
    for p in paragraphs[::37]:
        lines.append(p)
        words += len(p.split())
        if words >= 6000:
            break
    write(out, lines)
    return f"{out}: {len(lines)} paragraphs, {words} words"


def chinese(source_dir: str, out: str, want_han: int = 10000) -> str:
    candidates = []
    for path in sorted(pathlib.Path(source_dir).glob("*.txt")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            line = line.strip()
            # Template and markup lines (Wesnoth's $variables|, man pages' options) are no prose.
            if len(HAN.findall(line)) >= 12 and "$" not in line and "|" not in line:
                candidates.append(line)
    total = sum(len(HAN.findall(c)) for c in candidates)
    step = max(1, total // want_han)
    lines, han = [], 0
    for line in candidates[::step]:
        lines.append(line)
        han += len(HAN.findall(line))
        if han >= want_han:
            break
    write(out, lines)
    return f"{out}: {len(lines)} lines of {len(candidates)}, {han} Han characters"


def write(out: str, lines: list[str]) -> None:
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--zh"]:
        print(chinese(args[1] if len(args) > 1 else "data/zh/train",
                      args[2] if len(args) > 2 else "models/zh/replay.txt"))
    else:
        print(english(args[0] if args else "data/en/train/r-cran-janeaustenr.txt",
                      args[1] if len(args) > 1 else "models/en/replay.txt"))
