"""r-cran-janeaustenr: Jane Austen's novels from the package's R lazy-load database
(data/Rdata.rdx + data/Rdata.rdb), one document per chapter.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from ..text import Document
from .paragraphs import blocks_of
from .rdata import read_r_lazyload


_CHAPTER = re.compile(r"^(CHAPTER|Chapter)\s+([0-9]+|[IVXLC]+)\b\.?")
_ITALIC_UNDERSCORES = re.compile(r"(?<!\w)_([^_\n]+)_(?!\w)")


def austen_chapters(lines: list[str]) -> list[list[str]]:
    """Split a Gutenberg-style novel (one text line per element, blank lines
    between paragraphs) into chapters of paragraphs. Text before the first
    chapter heading (title page) is its own chapter."""
    chapters: list[list[str]] = [[]]
    for block in blocks_of(lines):
        if _CHAPTER.match(block[0].strip()):
            chapters.append([])
            block = block[1:]
            if not block:
                continue
        paragraph = " ".join(line.strip() for line in block)
        chapters[-1].append(_ITALIC_UNDERSCORES.sub(r"\1", paragraph))
    return [c for c in chapters if c]


def extract_janeausten(pkg: Path) -> Iterator[Document]:
    rdx = pkg / "usr/lib/R/site-library/janeaustenr/data/Rdata.rdx"
    for book, value in sorted(read_r_lazyload(rdx).items()):
        if not isinstance(value, list) or not all(isinstance(v, (str, type(None))) for v in value):
            continue
        lines = [v or "" for v in value]
        for number, paragraphs in enumerate(austen_chapters(lines)):
            yield Document("r-cran-janeaustenr", f"{book}/{number:03d}", paragraphs)
