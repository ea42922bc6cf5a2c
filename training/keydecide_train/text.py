"""The plain-text format every text source is turned into, and the train/dev split.

Text format: documents separated by one blank line, one paragraph per line (`render`).
The split keeps whole documents: dev if md5(source NUL document id) % 100 < DEV_PERCENT, and
a source with two documents or more always has one in dev (`split_documents`). Both are
shared by the English and Chinese text (prepare_text.py, prepare_zh_text.py) and the code
corpus (make_code_corpus.py). English lines are normalised to what a person types on an
ASCII keyboard (`normalize_line`; `normalize_code_line` keeps the indentation of code; the
Chinese rules are zh_text.py's).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field


# ---------------------------------------------------------------------------
# Documents
# ---------------------------------------------------------------------------

@dataclass
class Document:
    source: str
    doc_id: str
    lines: list[str] = field(default_factory=list)


def render(docs: list[Document]) -> str:
    """Documents separated by one blank line, one paragraph per line."""
    return "".join("\n".join(d.lines) + "\n\n" for d in docs).removesuffix("\n")


# ---------------------------------------------------------------------------
# Normalisation
# ---------------------------------------------------------------------------

# Typographic punctuation -> what a person types on an ASCII keyboard.
_TRANSLATE = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u00b4": "'", "\u02bc": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-",
    "\u2014": "-", "\u2015": "-",
    "\u2026": "...",
    "\t": " ",
    # Unicode spaces -> space.
    "\u00a0": " ", "\u2000": " ", "\u2001": " ", "\u2002": " ", "\u2003": " ",
    "\u2004": " ", "\u2005": " ", "\u2006": " ", "\u2007": " ", "\u2008": " ",
    "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u205f": " ", "\u3000": " ",
    # Invisible characters that only get in the way of word matching.
    "\u00ad": None, "\u200b": None, "\u2060": None, "\ufeff": None,
})

# An em dash glued between two words ("this—that") would read as a hyphenated
# compound once it becomes "-", so give it spaces first.
_GLUED_EM_DASH = re.compile(r"(?<=\w)[\u2014\u2015](?=\w)")
# Overstrike sequences ("_\bx", "x\bx") as used by old fortune files and nroff.
_OVERSTRIKE = re.compile(r".\x08")
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_SPACES = re.compile(r"[ ]{2,}")


def _clean_chars(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    text = _OVERSTRIKE.sub("", text)
    text = _GLUED_EM_DASH.sub(" - ", text)
    text = text.translate(_TRANSLATE)
    return _CONTROL.sub("", text)


_LEADING_BULLET = re.compile(r"^[\u2022\u25cf\u25e6\u2023]\s*")


def normalize_line(text: str) -> str:
    """Normalise one paragraph of prose: NFC, ASCII punctuation, single spaces,
    no list bullet in front (nobody types one)."""
    text = _clean_chars(text.replace("\n", " "))
    text = _SPACES.sub(" ", text).strip()
    return _LEADING_BULLET.sub("", text)


def normalize_code_line(text: str) -> str:
    """Like normalize_line but keeps the leading indentation of code."""
    text = _clean_chars(text.replace("\t", "    ").replace("\n", " "))
    return text.rstrip()


def is_code_source(source: str) -> bool:
    return source.endswith("-code")


def is_code_block_source(source: str) -> bool:
    """Lines of code blocks: `<source>-code` and, after the split, `<source>-command`."""
    return source.endswith(("-code", "-command"))


def normalize_document(doc: Document) -> Document:
    norm = normalize_code_line if is_code_source(doc.source) else normalize_line
    lines = [norm(line) for line in doc.lines]
    return Document(doc.source, doc.doc_id, [line for line in lines if line.strip()])


# ---------------------------------------------------------------------------
# Train/dev split
# ---------------------------------------------------------------------------

DEV_PERCENT = 2


def doc_hash(source: str, doc_id: str) -> int:
    return int(hashlib.md5((source + "\0" + doc_id).encode("utf-8")).hexdigest(), 16)


def is_dev(source: str, doc_id: str) -> bool:
    return doc_hash(source, doc_id) % 100 < DEV_PERCENT


def split_documents(docs: list[Document]) -> tuple[list[Document], list[Document]]:
    """Split one source's documents into (train, dev) by whole document.

    A source with at least two documents always gets one dev document: if the
    hash picks none, the document with the smallest hash goes to dev."""
    train = [d for d in docs if not is_dev(d.source, d.doc_id)]
    dev = [d for d in docs if is_dev(d.source, d.doc_id)]
    if not dev and len(docs) >= 2:
        chosen = min(docs, key=lambda d: doc_hash(d.source, d.doc_id))
        dev = [chosen]
        train = [d for d in docs if d is not chosen]
    return train, dev
