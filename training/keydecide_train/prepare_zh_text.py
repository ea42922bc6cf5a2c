"""Turn the fetched Chinese (Simplified) text sources (scripts/fetch-data-zh.sh) into plain text.

Input:  data/zh/raw/deb/<package>/...  and  data/zh/raw/local-mo/*.mo
Output: data/zh/train/<source>.txt, data/zh/dev/<source>.txt, data/zh/general/wesnoth.txt (held-out
narrative text, see WESNOTH_GENERAL_DEV), data/zh/manifest.json

Text format (as prepare_text.py): documents separated by one blank line, one
paragraph per line. Pipeline: extract documents per source (sources/, one module each;
groff renders the man pages, HTML/Mallard pages go through sources.doc_pages'
DocTextParser, .mo catalogues give their msgstr) -> normalise lines (zh_text.py: NFC,
full-width letters/digits/symbols to ASCII, Chinese punctuation kept full-width, no spaces
between Han characters) -> keep lines with Han characters -> drop duplicate lines across
and within sources (fixed source order, first occurrence wins) -> split whole documents into train/dev with prepare_text's md5 rule
(md5(source NUL document path) % 100 < 2, and at least one dev document per source with
two or more).

Sources (/work/shared/DATA.md, Chinese table); one that was not fetched is reported missing.
Never reads fortunes-zh or the nodejieba / @node-rs/jieba test texts (reserved for evaluation).

Python 3.11 standard library only, plus groff for the man pages.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .sources.mo_catalogues import mo_documents
from .sources.zh_manpages import extract_manpages_zh
from .sources.zh_pages import chapter_documents, page_documents
from .text import Document, render, split_documents
from .zh_text import han_count, normalize_zh_document


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


# documents -> (train, dev, general dev text)
Splitter = Callable[[list[Document]], tuple[list[Document], list[Document], list[Document]]]


@dataclass
class Source:
    name: str
    extract: Callable[[Path], Iterator[Document]]  # raw -> documents
    packages: tuple[str, ...] = ()  # what it reads under raw/deb (reported when missing) ...
    discover: Callable[[Path], list[str]] | None = None  # ... or: raw -> what it finds there
    split: Splitter | None = None  # None: the md5 rule (split_train_dev), no general dev text

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


def _is_wesnoth(pkg: str) -> bool:
    return pkg.startswith(WESNOTH_PREFIX)


def _catalogues(raw: Path) -> Iterator[Document]:
    for pkg in _catalogue_packages(raw):
        if pkg != "local-mo":
            yield from mo_documents("mo-catalogues", _deb(raw, pkg), MO_GLOB, f"{pkg}/")
    yield from mo_documents("mo-catalogues", raw / "local-mo", "*.mo", "local/")


def _catalogue_packages(raw: Path) -> list[str]:
    local = ["local-mo"] if any((raw / "local-mo").glob("*.mo")) else []
    return [p for p in packages_with(raw, MO_GLOB) if not _is_wesnoth(p)] + local


# The Battle for Wesnoth's zh_CN catalogues (Debian wesnoth-1.16-data and its campaign packages,
# GPL-2+): the story campaigns' narration and dialogue, the only modern narrative prose here, one
# document per catalogue (text domain). The campaigns in WESNOTH_GENERAL_DEV are held out whole as
# the general dev text (data/zh/general/wesnoth.txt, docs/history/BENCHMARKS-to-2026-12-07.md
# "Narrative text"); the others are training text. None goes to data/zh/dev, whose pinyin file stays
# the technical one.
WESNOTH_PREFIX = "wesnoth-"
WESNOTH_GENERAL_DEV = ("wesnoth-httt.mo", "wesnoth-nr.mo")


def _wesnoth(raw: Path) -> Iterator[Document]:
    for pkg in _wesnoth_packages(raw):
        yield from mo_documents("wesnoth", _deb(raw, pkg), MO_GLOB, f"{pkg}/")


def _wesnoth_packages(raw: Path) -> list[str]:
    return [p for p in packages_with(raw, MO_GLOB) if _is_wesnoth(p)]


def split_held_out(docs: list[Document]) -> tuple[list[Document], list[Document], list[Document]]:
    """(train, dev, general) for Wesnoth: the held-out campaigns are general dev text."""
    general = [d for d in docs if Path(d.doc_id).name in WESNOTH_GENERAL_DEV]
    return [d for d in docs if d not in general], [], general


def split_train_dev(docs: list[Document]) -> tuple[list[Document], list[Document], list[Document]]:
    train, dev = split_documents(docs)
    return train, dev, []


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
    Source("wesnoth", _wesnoth, discover=_wesnoth_packages, split=split_held_out),
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
    (data / "general").mkdir(parents=True, exist_ok=True)
    for source in SOURCES:  # only the sources' files: the folder holds other dev text too
        (data / "general" / f"{source.name}.txt").unlink(missing_ok=True)
    split_of = {source.name: source.split or split_train_dev for source in present}
    sources: dict[str, dict] = {}
    total = {split: {"documents": 0, "lines": 0, "han_chars": 0} for split in ("train", "dev")}
    log(f"{'source':24} {'docs':>12} {'lines':>14} {'Han characters':>17}")
    log(f"{'':24} {'train/dev':>12} {'train/dev':>14} {'train/dev':>17}")
    for name, docs in by_source.items():
        entry: dict = {"packages": packages[name], "duplicate_lines_dropped": dropped.get(name, 0)}
        train, dev, general = split_of[name](docs)
        for split, part in (("train", train), ("dev", dev)):
            if part:
                (data / split / f"{name}.txt").write_text(render(part), encoding="utf-8")
            entry[split] = stats(part)
            for k, v in entry[split].items():
                total[split][k] += v
        if general:  # held-out dev text: not in the totals of the split
            (data / "general" / f"{name}.txt").write_text(render(general), encoding="utf-8")
            entry["general"] = stats(general)
        sources[name] = entry
        log(format_row(name, entry["train"], entry["dev"]))
    log(format_row("TOTAL", total["train"], total["dev"]))
    log("duplicate lines dropped: " + ", ".join(f"{s} {n}" for s, n in dropped.items()))

    manifest = {
        "sources": sources,
        "total": total,
        "missing_packages": missing,
        "split": "whole documents; dev if md5(source + NUL + document path) % 100 < 2 "
                 "(prepare_text.split_documents); wesnoth: the campaigns of WESNOTH_GENERAL_DEV "
                 "are general dev text (data/zh/general/wesnoth.txt), the rest train",
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
