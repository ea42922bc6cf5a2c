"""fortunes, fortunes-min: '%'-separated entries, FORTUNES_PER_DOC entries a document.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from ..text import Document
from .paragraphs import blocks_of, reflow


FORTUNES_PER_DOC = 50
SKIPPED_FORTUNE_FILES = {"ascii-art"}  # pictures, not text


def fortune_entries(text: str) -> list[list[str]]:
    """Split a fortune file into entries, each a list of paragraphs."""
    entries = []
    for raw_entry in re.split(r"^%\s*$", text, flags=re.M):
        paragraphs = []
        for block in blocks_of(raw_entry.split("\n")):
            paragraphs += reflow(block)
        if paragraphs:
            entries.append(paragraphs)
    return entries


def extract_fortunes(pkg: Path, source: str) -> Iterator[Document]:
    directory = pkg / "usr/share/games/fortunes"
    for path in sorted(directory.iterdir()):
        if path.suffix in (".dat", ".u8") or path.is_symlink() \
                or path.name in SKIPPED_FORTUNE_FILES:
            continue
        entries = fortune_entries(path.read_text(encoding="utf-8", errors="replace"))
        for start in range(0, len(entries), FORTUNES_PER_DOC):
            group = entries[start:start + FORTUNES_PER_DOC]
            yield Document(source, f"{path.name}/{start // FORTUNES_PER_DOC:03d}",
                           [p for entry in group for p in entry])
