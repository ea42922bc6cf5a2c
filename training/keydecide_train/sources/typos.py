"""cspell-dict-en-common-misspellings: (misspelling, correction) pairs -> typos_train.tsv and
typos_reserved_eval.tsv (about 10% of the misspellings, by hash, reserved for evaluation).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Iterable


def typo_slice(misspelling: str) -> int:
    """0..9, by hash: slice 0 is reserved (DATA.md), the others are allowed."""
    return int(hashlib.md5(misspelling.encode("utf-8")).hexdigest(), 16) % 10


def is_reserved_typo(misspelling: str) -> bool:
    """DATA.md: these pairs are for evaluation only (about 10%)."""
    return typo_slice(misspelling) == 0


# The allowed slice a training run may leave out (data.heldout_typo_slice), so that
# autocorrect's generalisation to misspellings it never saw is measured on allowed data,
# typos_heldout_dev.tsv, rather than on the reserved pairs.
HELDOUT_TYPO_SLICE = 1


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
    heldout = [p for p in train if typo_slice(p[0]) == HELDOUT_TYPO_SLICE]
    for name, rows in (("typos_train.tsv", train), ("typos_reserved_eval.tsv", reserved),
                       ("typos_heldout_dev.tsv", heldout)):
        with open(out / name, "w", encoding="utf-8") as f:
            for wrong, right in rows:
                f.write(f"{wrong}\t{right}\n")
    return len(train), len(reserved)
