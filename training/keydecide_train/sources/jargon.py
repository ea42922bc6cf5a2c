"""jargon-text: the Jargon File rendered as plain text (jargon.txt.gz), one document per
section and, in the glossary, per initial letter.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Iterator

from ..text import Document
from .paragraphs import BOX_DRAWING, blocks_of, reflow


_ENTRY_HEAD = re.compile(r"^:([^:]+):")
_XREF = re.compile(r"\{([^{}]*)\}")


def jargon_documents(text: str) -> list[tuple[str, list[str]]]:
    """Split the Jargon File into documents: each chapter/appendix section
    (headed by a line at column 0) and, in the glossary, one document per
    initial letter. Index lists (runs of short title-only lines) and tables
    are dropped; entry head lines (':word: pronunciation, n.') become the
    head word alone; {cross-references} lose their braces."""
    sections: list[tuple[str, list[list[str]]]] = [("front", [])]
    for block in blocks_of(text.split("\n")):
        if any(BOX_DRAWING.search(line) for line in block):
            continue
        first = block[0]
        if not first[0].isspace():  # heading at column 0: a new section
            sections.append((first.strip(), []))
            block = block[1:]
            if not block:
                continue
        elif (head := _ENTRY_HEAD.match(first.strip())) and sections[-1][0].startswith("Glossary"):
            letter = head.group(1)[0].upper()
            section_id = f"Glossary/{letter if letter.isalpha() else '0'}"
            if section_id != sections[-1][0]:
                sections.append((section_id, []))
            block = [head.group(1)] + block[1:]
        sections[-1][1].append(block)
    docs = []
    for section_id, blocks in sections:
        paragraphs = [p for block in drop_index_runs(blocks) for p in reflow_jargon(block)]
        if paragraphs:
            docs.append((section_id, paragraphs))
    return docs


def drop_index_runs(blocks: list[list[str]]) -> list[list[str]]:
    """Drop runs of three or more index-like blocks (tables of contents and
    the glossary's word lists); shorter runs are ordinary short paragraphs."""
    kept: list[list[str]] = []
    run: list[list[str]] = []
    for block in blocks:
        if is_index_block(block):
            run.append(block)
            continue
        if len(run) < 3:
            kept += run
        run = []
        kept.append(block)
    if len(run) < 3:
        kept += run
    return kept


def is_index_block(block: list[str]) -> bool:
    line = block[0].strip()
    return len(block) == 1 and len(line.split()) <= 8 and not re.search(r"[.!?:]\"?$", line)


def reflow_jargon(block: list[str]) -> list[str]:
    # The text is rendered with a 3-space indent; deeper indents are quotes
    # or examples that keep their lines.
    paragraphs = []
    for para in reflow([line[3:] if line.startswith("   ") else line for line in block]):
        paragraphs.append(_XREF.sub(r"\1", para))
    return paragraphs


def extract_jargon(pkg: Path) -> Iterator[Document]:
    path = pkg / "usr/share/doc/jargon-text/jargon.txt.gz"
    text = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    seen: dict[str, int] = {}
    for doc_id, paragraphs in jargon_documents(text):
        # Section names can repeat ("Glossary"); keep ids unique and stable.
        seen[doc_id] = seen.get(doc_id, 0) + 1
        unique = doc_id if seen[doc_id] == 1 else f"{doc_id}#{seen[doc_id]}"
        yield Document("jargon-text", unique, paragraphs)
