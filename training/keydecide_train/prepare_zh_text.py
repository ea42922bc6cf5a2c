"""Turn the fetched Chinese (Simplified) text sources (scripts/fetch-data-zh.sh) into plain text.

Input:  data/zh/raw/deb/<package>/...  and  data/zh/raw/local-mo/*.mo
Output: data/zh/train/<source>.txt, data/zh/dev/<source>.txt, data/zh/manifest.json

Text format (as prepare_text.py): documents separated by one blank line, one
paragraph per line. Pipeline: extract documents per source (groff renders the man pages,
HTML/Mallard pages go through prepare_text's DocTextParser, .mo catalogues give their
msgstr) -> normalise lines (NFC, full-width letters/digits/symbols to ASCII, Chinese
punctuation kept full-width, no spaces between Han characters) -> keep lines with Han
characters -> drop duplicate lines across and within sources (fixed source order, first
occurrence wins) -> split whole documents into train/dev with prepare_text's md5 rule
(md5(source NUL document path) % 100 < 2, and at least one dev document per source with
two or more).

Sources (/work/shared/DATA.md, Chinese table); one that was not fetched is reported missing.
Never reads fortunes-zh or the nodejieba / @node-rs/jieba test texts (reserved for evaluation).

Python 3.11 standard library only, plus groff for the man pages.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import struct
import subprocess
import sys
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .prepare_text import (Document, DocTextParser, man_text_to_lines, mark_roff_code,
                           render, split_documents)

# ---------------------------------------------------------------------------
# Han characters and normalisation
# ---------------------------------------------------------------------------

# Unified ideographs (extension A, the basic block, extensions B onwards) and 〇. The CJK
# compatibility ideographs (U+F900..) become unified ones under NFC.
HAN_CLASS = "\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
HAN = re.compile(f"[{HAN_CLASS}]")
HAN_RUN = re.compile(f"[{HAN_CLASS}]+")

# Chinese punctuation that stays full-width (what a Chinese keyboard types); every other
# full-width ASCII variant (letters, digits, ＃％＋／…) becomes its ASCII character.
KEEP_FULL_WIDTH = set("！，：；？（）")
_WIDTH = {cp: chr(cp - 0xFEE0) for cp in range(0xFF01, 0xFF5F) if chr(cp) not in KEEP_FULL_WIDTH}
_WIDTH.update({
    0xFF61: "。", 0xFF62: "「", 0xFF63: "」", 0xFF64: "、",  # half-width CJK punctuation
    # Unicode spaces (the ideographic space U+3000 included) -> space.
    0x00A0: " ", 0x2002: " ", 0x2003: " ", 0x2009: " ", 0x202F: " ", 0x3000: " ", 0x0009: " ",
    # Invisible characters.
    0x00AD: None, 0x200B: None, 0x200C: None, 0x200D: None, 0x2060: None, 0xFEFF: None,
})
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_SPACES = re.compile(r" {2,}")
# Characters between which a space is only a line-joining artefact: Han, CJK punctuation
# (、。〈〉《》「」『』【】…), full-width forms, curly quotes.
_CJK = f"{HAN_CLASS}\u3001-\u303f\uff01-\uff60\u201c\u201d\u2018\u2019"
_CJK_SPACE = re.compile(f"(?<=[{_CJK}]) +(?=[{_CJK}])")


def han_count(text: str) -> int:
    return len(HAN.findall(text))


def normalize_zh_line(text: str) -> str:
    """One paragraph of Chinese text: NFC, full-width ASCII variants to ASCII (Chinese
    punctuation kept), single spaces, no space between CJK characters."""
    text = unicodedata.normalize("NFC", text.replace("\n", " ")).translate(_WIDTH)
    text = _CONTROL.sub("", text)
    text = _SPACES.sub(" ", text).strip()
    return _CJK_SPACE.sub("", text)


def normalize_zh_document(doc: Document) -> Document:
    """Normalised lines of `doc` that contain at least one Han character."""
    lines = (normalize_zh_line(line) for line in doc.lines)
    return Document(doc.source, doc.doc_id, [line for line in lines if HAN.search(line)])


# ---------------------------------------------------------------------------
# Dedup
# ---------------------------------------------------------------------------

def dedup_lines(docs: Iterable[Document], dropped: dict[str, int] | None = None) -> Iterator[Document]:
    """Drop every line seen before in any earlier document or earlier in the same one
    (exact match after normalisation; unlike prepare_text.dedup_documents short lines are
    not exempt: in this technical text a short repeated line is a heading or a UI label).
    Documents left empty are dropped. `dropped` counts the dropped lines per source."""
    seen: set[str] = set()
    for doc in docs:
        kept = []
        for line in doc.lines:
            if line in seen:
                if dropped is not None:
                    dropped[doc.source] = dropped.get(doc.source, 0) + 1
                continue
            seen.add(line)
            kept.append(line)
        if kept:
            yield Document(doc.source, doc.doc_id, kept)


# ---------------------------------------------------------------------------
# HTML (DocBook output, LibreOffice help) and Mallard pages
# ---------------------------------------------------------------------------

class ZhPageParser(DocTextParser):
    """prepare_text's page parser, also skipping the page chrome of the LibreOffice help
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


# ---------------------------------------------------------------------------
# Man pages (zh_CN only): groff with preconv (-k) for the UTF-8 input
# ---------------------------------------------------------------------------

def render_roff_utf8(roff: str) -> str:
    """prepare_text.render_roff for UTF-8 input (preconv) and mdoc pages as well (-mandoc):
    one filled paragraph per line."""
    result = subprocess.run(
        ["groff", "-k", "-Kutf8", "-t", "-mandoc", "-Tutf8", "-rLL=8000n", "-rHY=0", "-dAD=l",
         "-P-c", "-P-b", "-P-o", "-P-u"],
        input=roff.encode("utf-8"), capture_output=True, check=False)
    return result.stdout.decode("utf-8", errors="replace")


# Section headings of the zh_CN pages ("总览 SYNOPSIS", "参见 (SEE ALSO)", "跋", ...) are
# renamed to the English ones prepare_text.man_text_to_lines knows: the synopsis is syntax
# (code), "see also" is only references, and the translation credits ("跋", "[中文版维护人]",
# "《中国 Linux 论坛 man 手册页翻译计划》") are boilerplate.
_SH = re.compile(r"^\.SH\s+(.*)$", re.M)
_SYNOPSIS_ZH = {"概述", "总览", "总缆", "总揽", "概要"}
_SEE_ALSO_ZH = {"参见", "另见", "参阅", "参看", "又见", "参考", "另外请参考"}
_CREDITS_ZH = ("译者", "翻译计划", "维护人", "中文维护", "最新更新", "中文更新")


def canonical_sections(roff: str) -> str:
    def rename(m: re.Match) -> str:
        heading = m.group(1)
        upper = heading.upper()
        bare = re.sub(r"[\s\"“”'(),:：（）\[\]]", "", heading)
        if "SYNOPSIS" in upper or "SYNPSIS" in upper or bare in _SYNOPSIS_ZH:
            return ".SH SYNOPSIS"
        if ("SEE ALSO" in upper or bare in _SEE_ALSO_ZH or bare == "跋"
                or any(c in heading for c in _CREDITS_ZH)):
            return '.SH "SEE ALSO"'
        return m.group(0)
    return _SH.sub(rename, roff)


def man_prose(roff: str) -> list[str]:
    """Prose lines of one man page (section headings, synopsis, "see also" and translation
    credits dropped); an alias page (.so) has none."""
    body = [l for l in roff.split("\n") if l.strip() and not l.startswith(('.\\"', "'\\\""))]
    if body and body[0].startswith(".so "):
        return []
    prose, _code = man_text_to_lines(render_roff_utf8(mark_roff_code(canonical_sections(roff))))
    return prose


def _read_man(path: Path) -> list[str]:
    return man_prose(gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace"))


def extract_manpages_zh(pkg: Path) -> Iterator[Document]:
    root = pkg / "usr/share/man/zh_CN"
    paths = [p for p in sorted(root.glob("man*/*.gz")) if not p.is_symlink()]
    # groff is the slow part; two workers match the machine this runs on.
    with ThreadPoolExecutor(max_workers=2) as pool:
        for path, prose in zip(paths, pool.map(_read_man, paths)):
            yield Document("manpages-zh", f"{path.parent.name}/{path.name.removesuffix('.gz')}",
                           prose)


# ---------------------------------------------------------------------------
# Translation catalogues (.mo): msgstr only
# ---------------------------------------------------------------------------

MO_MAGIC = 0x950412DE


def read_mo(data: bytes) -> list[str]:
    """The translations (msgstr) of a GNU .mo file, in table order; plural forms are
    separate strings; the header entry (empty msgid) and empty msgstrs are left out.
    Raises ValueError on a file that is not a well-formed .mo."""
    if len(data) < 20:
        raise ValueError("too short for a .mo header")
    for order in ("<", ">"):
        if struct.unpack(order + "I", data[:4])[0] == MO_MAGIC:
            break
    else:
        raise ValueError("bad .mo magic")
    _rev, count, orig_at, trans_at = struct.unpack(order + "4I", data[4:20])

    def entry(table: int, i: int) -> bytes:
        at = table + 8 * i
        if at + 8 > len(data):
            raise ValueError("string table outside the file")
        length, offset = struct.unpack(order + "2I", data[at:at + 8])
        if offset + length > len(data):
            raise ValueError("string outside the file")
        return data[offset:offset + length]

    out = []
    for i in range(count):
        if not entry(orig_at, i):
            continue  # header: Project-Id-Version, Content-Type, ...
        for form in entry(trans_at, i).split(b"\0"):
            if form:
                out.append(form.decode("utf-8", errors="replace"))
    return out


# Keyboard accelerators: "打开(_O)", "(&F)", "确定(~O)", "_文件", "~确定".
_ACCEL = re.compile(f"[(（][_&~][A-Za-z0-9][)）]|[_~&](?=[{HAN_CLASS}])")
# Pango / XML markup inside UI strings (tag names are ASCII).
_TAG = re.compile(r"</?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>")


def mo_lines(data: bytes) -> list[str]:
    """Lines of text in a catalogue: each msgstr split at newlines, accelerators and
    markup tags removed."""
    lines = []
    for msg in read_mo(data):
        for line in msg.split("\n"):
            lines.append(_TAG.sub("", _ACCEL.sub("", line)))
    return lines


def mo_documents(source: str, root: Path, pattern: str, prefix: str) -> Iterator[Document]:
    for path in sorted(root.glob(pattern)):
        try:
            lines = mo_lines(path.read_bytes())
        except ValueError as e:
            print(f"prepare_zh_text: {path}: {e}, skipped", file=sys.stderr)
            continue
        yield Document(source, f"{prefix}{path.relative_to(root)}", lines)


# ---------------------------------------------------------------------------
# Sources
# ---------------------------------------------------------------------------

# GNOME help and translation catalogues are read from every unpacked package that has
# them, so the package lists live in one place: scripts/fetch-data-zh.sh.
GNOME_HELP_DIR = "usr/share/help/zh_CN"
GNOME_HELP_PAGES = GNOME_HELP_DIR + "/*/*.page"
MO_GLOB = "usr/**/zh_CN/LC_MESSAGES/*.mo"


def _deb(raw: Path, pkg: str) -> Path:
    return raw / "deb" / pkg


def packages_with(raw: Path, pattern: str) -> list[str]:
    """Unpacked packages (name order) that have a file matching `pattern`."""
    return sorted(d.name for d in (raw / "deb").glob("*")
                  if (d / ".done").exists() and next(d.glob(pattern), None) is not None)


@dataclass
class Source:
    name: str
    extract: Callable[[Path], Iterator[Document]]  # raw -> documents
    packages: tuple[str, ...] = ()  # what it reads under raw/deb (reported when missing) ...
    discover: Callable[[Path], list[str]] | None = None  # ... or: raw -> what it finds there

    def found(self, raw: Path) -> list[str]:
        """The packages (and local-mo) this source reads that are present in raw."""
        if self.discover:
            return self.discover(raw)
        return [p for p in self.packages if (_deb(raw, p) / ".done").exists()]


def pages(name: str, pkg: str, subdir: str, pattern: str, xml: bool = False) -> Source:
    """A source of one package's HTML (or Mallard) pages, one document each."""
    return Source(name, lambda raw: page_documents(name, _deb(raw, pkg) / subdir, pattern, xml),
                  (pkg,))


def _gnome_help(raw: Path) -> Iterator[Document]:
    for pkg in packages_with(raw, GNOME_HELP_PAGES):
        root = _deb(raw, pkg) / GNOME_HELP_DIR
        for doc in page_documents("gnome-help", root, "*/*.page", xml=True):
            yield Document(doc.source, f"{pkg}/{doc.doc_id}", doc.lines)


def _catalogues(raw: Path) -> Iterator[Document]:
    for pkg in packages_with(raw, MO_GLOB):
        yield from mo_documents("mo-catalogues", _deb(raw, pkg), MO_GLOB, f"{pkg}/")
    yield from mo_documents("mo-catalogues", raw / "local-mo", "*.mo", "local/")


def _catalogue_packages(raw: Path) -> list[str]:
    local = ["local-mo"] if any((raw / "local-mo").glob("*.mo")) else []
    return packages_with(raw, MO_GLOB) + local


# Fixed order: for duplicate lines the first source wins.
SOURCES = (
    Source("manpages-zh", lambda raw: extract_manpages_zh(_deb(raw, "manpages-zh")),
           ("manpages-zh",)),
    pages("debian-reference-zh-cn", "debian-reference-zh-cn", "usr/share/debian-reference",
          "*.zh-cn.html"),
    pages("debian-handbook", "debian-handbook", "usr/share/doc/debian-handbook/html/zh-CN",
          "*.html"),
    pages("installation-guide", "installation-guide-amd64",
          "usr/share/doc/installation-guide-amd64/zh_CN", "*.html"),
    pages("debian-faq-zh-cn", "debian-faq-zh-cn", "usr/share/doc/debian/FAQ/zh-cn", "*.html"),
    pages("maint-guide-zh-cn", "maint-guide-zh-cn", "usr/share/doc/maint-guide-zh-cn/html",
          "*.html"),
    Source("debian-edu-doc-zh-cn",
           lambda raw: chapter_documents("debian-edu-doc-zh-cn", _deb(raw, "debian-edu-doc-zh-cn")
                                         / "usr/share/doc/debian-edu-doc-zh-cn", "*.html"),
           ("debian-edu-doc-zh-cn",)),
    Source("gnome-help", _gnome_help, discover=lambda raw: packages_with(raw, GNOME_HELP_PAGES)),
    pages("libreoffice-help-zh-cn", "libreoffice-help-zh-cn", "usr/share/libreoffice/help/zh-CN",
          "text/**/*.html"),
    Source("mo-catalogues", _catalogues, discover=_catalogue_packages),
)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def stats(docs: list[Document]) -> dict[str, int]:
    return {
        "documents": len(docs),
        "lines": sum(len(d.lines) for d in docs),
        "han_chars": sum(han_count(line) for d in docs for line in d.lines),
    }


def format_row(name: str, train: dict[str, int], dev: dict[str, int]) -> str:
    return (f"{name:24} {train['documents']:>6}/{dev['documents']:<5}"
            f" {train['lines']:>7}/{dev['lines']:<6} {train['han_chars']:>9}/{dev['han_chars']:<7}")


def prepare(data: Path, log: Callable[[str], None] = print) -> dict:
    """Extract, normalise, dedup and split everything under data/raw into data/{train,dev};
    returns the manifest (also written to data/manifest.json)."""
    raw = data / "raw"
    missing: list[str] = []
    present: list[Source] = []
    packages: dict[str, list[str]] = {}
    for source in SOURCES:
        found = source.found(raw)
        missing += [p for p in source.packages if p not in found]
        if found:
            present.append(source)
            packages[source.name] = found
            log(f"{source.name}: reads {' '.join(found)}")
        else:
            log(f"{source.name}: MISSING, not fetched (scripts/fetch-data-zh.sh), skipped")

    def documents() -> Iterator[Document]:
        for source in present:
            t = time.time()
            n = 0
            for doc in source.extract(raw):
                n += 1
                yield normalize_zh_document(doc)
            log(f"{source.name}: {n} documents read in {time.time() - t:.1f} s")

    by_source: dict[str, list[Document]] = {s.name: [] for s in present}
    dropped: dict[str, int] = {}
    for doc in dedup_lines(documents(), dropped):
        by_source[doc.source].append(doc)

    for split in ("train", "dev"):
        (data / split).mkdir(parents=True, exist_ok=True)
        for stale in (data / split).glob("*.txt"):
            stale.unlink()
    sources: dict[str, dict] = {}
    total = {split: {"documents": 0, "lines": 0, "han_chars": 0} for split in ("train", "dev")}
    log(f"{'source':24} {'docs':>12} {'lines':>14} {'Han characters':>17}")
    log(f"{'':24} {'train/dev':>12} {'train/dev':>14} {'train/dev':>17}")
    for name, docs in by_source.items():
        entry: dict = {"packages": packages[name], "duplicate_lines_dropped": dropped.get(name, 0)}
        for split, part in zip(("train", "dev"), split_documents(docs)):
            if part:
                (data / split / f"{name}.txt").write_text(render(part), encoding="utf-8")
            entry[split] = stats(part)
            for k, v in entry[split].items():
                total[split][k] += v
        sources[name] = entry
        log(format_row(name, entry["train"], entry["dev"]))
    log(format_row("TOTAL", total["train"], total["dev"]))
    log("duplicate lines dropped: " + ", ".join(f"{s} {n}" for s, n in dropped.items()))

    manifest = {
        "sources": sources,
        "total": total,
        "missing_packages": missing,
        "split": "whole documents; dev if md5(source + NUL + document path) % 100 < 2 "
                 "(prepare_text.split_documents)",
    }
    (data / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    return manifest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "data/zh",
                    help="data/zh: reads raw/, writes train/, dev/, manifest.json")
    args = ap.parse_args()
    start = time.time()
    if not (args.data / "raw").is_dir():
        sys.exit(f"prepare_zh_text: {args.data / 'raw'} is missing; run scripts/fetch-data-zh.sh")
    prepare(args.data)
    print(f"prepare_zh_text: wrote {args.data} in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
