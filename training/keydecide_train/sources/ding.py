"""trans-de-en (Debian; the TU Chemnitz "Ding" German-English dictionary, GPL-2+): the example
sentences of its English side, everyday and business speech written as people write to each
other ("Thanks for your help.", "Let me know what suits you best.", "See you soon!"): the
register of e-mail and chat that the other allowed sources lack. Only whole sentences are
kept; headwords, phrases and templates are not text anyone types as it stands.

File format (usr/share/trans/de-en): `German :: English`, one entry a line, `#` comments;
each side lists alternatives separated by ` | ` (inflections) and `; ` (synonyms), with
labels in braces and brackets ({n}, [coll.]) and optional words in parentheses.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from ..text import Document

SOURCE = "ding-sentences"
DICTIONARY = "usr/share/trans/de-en"
SENTENCES_PER_DOCUMENT = 20  # the dev split takes whole documents: about 2% of them

_ALTERNATIVES = re.compile(r"\s*\|\s*|;\s+")
_LABELS = re.compile(r"\s*(\{[^}]*\}|\[[^\]]*\]|\([^)]*\))")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.!?])")  # left where a label was: "me (then), please"
# A sentence: a capital or an opening quote first, a full stop, ! or ? last (a closing quote
# may follow), at least three words.
_SENTENCE = re.compile(r"^[\"'\u2018\u201cA-Z].*[.!?][\"'\u2019\u201d]?$")
# Templates and alternatives, not sentences: "sb/sth" placeholders, "bother / trouble",
# a cut-off "...".
_TEMPLATE = re.compile(r"\b(sb|sth|sb's)\b|/|\u2026|\.\.\.")


def english_sentences(line: str) -> list[str]:
    """The whole English sentences of one dictionary line, labels and optional words
    removed, in the order the line gives them."""
    if line.startswith("#") or "::" not in line:
        return []
    out = []
    for part in _ALTERNATIVES.split(line.split("::", 1)[1]):
        text = " ".join(_LABELS.sub("", part).split())
        text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
        if _SENTENCE.match(text) and not _TEMPLATE.search(text) and len(text.split()) >= 3:
            out.append(text)
    return out


def extract_ding(pkg: Path) -> Iterator[Document]:
    path = pkg / DICTIONARY
    seen: set[str] = set()
    sentences: list[str] = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            for s in english_sentences(line.rstrip("\n")):
                if s not in seen:
                    seen.add(s)
                    sentences.append(s)
    if not sentences:
        raise ValueError(f"{path}: no English sentences (not the Ding dictionary?)")
    for i in range(0, len(sentences), SENTENCES_PER_DOCUMENT):
        yield Document(SOURCE, f"{i // SENTENCES_PER_DOCUMENT:05d}",
                       sentences[i:i + SENTENCES_PER_DOCUMENT])
