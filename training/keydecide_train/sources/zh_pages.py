"""Chinese HTML (DocBook output, LibreOffice help) and Mallard pages: debian-reference-zh-cn,
debian-handbook, installation-guide, debian-faq-zh-cn, maint-guide-zh-cn, debian-edu-doc-zh-cn
(one-page manuals: a document per chapter), GNOME help, libreoffice-help-zh-cn. Prose only:
the code blocks are dropped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from ..text import Document
from .doc_pages import DocTextParser


class ZhPageParser(DocTextParser):
    """doc_pages' page parser, also skipping the page chrome of the LibreOffice help
    (header, side bars with index and search, buttons)."""
    SKIP = DocTextParser.SKIP | {"header", "aside", "nav", "footer", "noscript", "button",
                                 "label", "input", "select"}


def page_paragraphs(text: str, xml: bool) -> list[str]:
    """Prose paragraphs of one HTML or Mallard page (code blocks are dropped)."""
    parser = ZhPageParser(xml)
    parser.feed(text)
    parser.close()
    return parser.paragraphs


def page_documents(source: str, root: Path, pattern: str, xml: bool = False) -> Iterator[Document]:
    """One document per page under `root`, named by its path relative to `root`."""
    for path in sorted(root.glob(pattern)):
        text = path.read_text(encoding="utf-8", errors="replace")
        yield Document(source, str(path.relative_to(root)), page_paragraphs(text, xml))


# A one-page DocBook manual: its chapters are the documents.
_CHAPTER = re.compile(r'(?=<h2 class="title")')


def chapter_documents(source: str, root: Path, pattern: str) -> Iterator[Document]:
    for path in sorted(root.glob(pattern)):
        text = path.read_text(encoding="utf-8", errors="replace")
        for i, part in enumerate(_CHAPTER.split(text)):
            name = f"{path.relative_to(root)}#{i:02d}"
            yield Document(source, name, page_paragraphs(part, xml=False))
