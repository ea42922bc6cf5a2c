"""Shared helpers of the extractors: blank-line blocks, hard-wrapped lines joined back into
paragraphs, table debris told from text.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator


def blocks_of(lines: Iterable[str]) -> Iterator[list[str]]:
    """Group lines into blank-line separated blocks."""
    block: list[str] = []
    for line in lines:
        if line.strip():
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block


WRAPPED_LINE_CHARS = 50  # a line this long was most likely wrapped by the author
WRAP_WIDTH = 64  # a line plus the next word past this width would have wrapped
_NEW_LINE_STARTS = ("--", "\u2022", "* ", "- ", ">")  # attributions, bullets, quoted mail


def reflow(block: list[str]) -> list[str]:
    """Join hard-wrapped lines back into paragraphs. A line joins the previous
    one when that one looks wrapped: it is long, or the line's first word
    would not have fitted after it. After a short line (poems, lists,
    signatures) a new line starts, as it does for attributions and bullets."""
    out: list[str] = []
    prev_len = 0
    for raw in block:
        line = raw.strip()
        first_word = line.split()[0] if line else ""
        wrapped = prev_len >= WRAPPED_LINE_CHARS or prev_len + 1 + len(first_word) > WRAP_WIDTH
        if out and wrapped and not line.startswith(_NEW_LINE_STARTS):
            out[-1] += " " + line
        else:
            out.append(line)
        prev_len = len(line)
    return out


BOX_DRAWING = re.compile(r"[\u2500-\u257f]")  # box-drawing characters of rendered tables


def looks_like_text(line: str) -> bool:
    """False for table debris such as '12.3 MB' or 'V:12, I:345'."""
    chars = [c for c in line if not c.isspace()]
    letters = sum(c.isalpha() for c in chars)
    return letters >= 2 and letters >= 0.5 * len(chars)
