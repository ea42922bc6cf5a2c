"""HTML (DocBook output) and Mallard (.page XML) documentation: debian-reference-en,
debian-handbook, installation-guide-amd64, gnome-user-docs. One document per page, its
code blocks in `<source>-code`.
"""

from __future__ import annotations

import html.parser
from pathlib import Path
from typing import Iterator

from ..text import Document
from .paragraphs import looks_like_text


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
