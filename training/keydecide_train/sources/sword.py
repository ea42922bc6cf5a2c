"""sword-text-web: the World English Bible, a SWORD zText module (OSIS markup), one document
per block (a book or part of one).
"""

from __future__ import annotations

import html.parser
import re
import struct
import zlib
from pathlib import Path
from typing import Iterator

from ..text import Document


NOTE_GAP = "\x00"


class OsisTextParser(html.parser.HTMLParser):
    """Verse text without notes; paragraph, title, line and chapter markers
    start a new line."""

    BREAKS = {"title", "l", "lg", "p", "chapter", "lb", "list", "item", "head"}

    def __init__(self, book: str = "") -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.paragraphs: list[str] = []
        self.text: list[str] = []
        self.book = book  # OSIS id of the book being read ("Gen", "Matt", ...)

    def _break(self) -> None:
        text = "".join(self.text)
        # A removed note leaves NOTE_GAP; it separates words where the note
        # stood between two of them, and disappears before punctuation.
        text = re.sub(NOTE_GAP + r"(?=\w)", " ", text).replace(NOTE_GAP, "")
        paragraph = " ".join(text.split())
        if paragraph:
            self.paragraphs.append(paragraph)
        self.text = []

    def _is_break(self, tag: str, attrs: dict[str, str | None]) -> bool:
        paragraph_div = tag == "div" and attrs.get("type") in ("x-p", "paragraph", "book")
        return tag in self.BREAKS or paragraph_div

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "div" and a.get("type") == "book" and a.get("osisid"):
            self.book = a["osisid"] or ""
        if tag == "note":
            self.skip += 1
        elif self._is_break(tag, a):
            self._break()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "div" and a.get("type") == "book" and a.get("osisid"):
            self.book = a["osisid"] or ""
        if self._is_break(tag, a):
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag == "note":
            self.skip = max(0, self.skip - 1)
            self.text.append(NOTE_GAP)
        elif tag in self.BREAKS:
            self._break()

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.text.append(data)

    def close(self) -> None:
        super().close()
        self._break()


def read_ztext_blocks(module_dir: Path) -> Iterator[tuple[str, list[str]]]:
    """Yield (block name, verse entries) for each compressed block, in canon
    order. With BlockType=BOOK a block holds one book or part of one.

    zText files: <t>.bzs holds 12-byte block records (offset, compressed size,
    uncompressed size), <t>.bzv 10-byte verse records (block number, offset
    in block, size), <t>.bzz the zlib-compressed blocks; little endian."""
    for testament in ("ot", "nt"):
        bzs = (module_dir / f"{testament}.bzs").read_bytes()
        bzv = (module_dir / f"{testament}.bzv").read_bytes()
        bzz = (module_dir / f"{testament}.bzz").read_bytes()
        blocks = [struct.unpack_from("<III", bzs, i) for i in range(0, len(bzs) - 11, 12)]
        verses_by_block: dict[int, list[tuple[int, int]]] = {}
        for i in range(0, len(bzv) - 9, 10):
            block, offset, size = struct.unpack_from("<IIH", bzv, i)
            if size:
                verses_by_block.setdefault(block, []).append((offset, size))
        for number, (offset, csize, _usize) in enumerate(blocks):
            text = zlib.decompress(bzz[offset:offset + csize])
            yield f"{testament}{number:03d}", [text[o:o + s].decode("utf-8", errors="replace")
                                                for o, s in verses_by_block.get(number, [])]


def osis_paragraphs(verses: list[str], book: str = "") -> tuple[str, list[str]]:
    """Return (book id at the end, paragraphs) of a run of OSIS verses."""
    parser = OsisTextParser(book)
    # Verses are stored back to back; a space keeps their words apart.
    parser.feed(" ".join(verses))
    parser.close()
    return parser.book, parser.paragraphs


def extract_sword(pkg: Path) -> Iterator[Document]:
    module = pkg / "usr/share/sword/modules/texts/ztext/engWEB2015eb"
    book = ""
    for block, verses in read_ztext_blocks(module):
        # A book name carries over into the blocks that continue it.
        book, paragraphs = osis_paragraphs(verses, book)
        if paragraphs:
            yield Document("sword-text-web", f"{block}-{book}", paragraphs)
