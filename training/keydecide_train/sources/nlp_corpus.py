"""nlp-corpus: builds/doc-N.json, each a list of 1000 shuffled sentences.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from ..text import Document


def extract_nlp_corpus(pkg: Path) -> Iterator[Document]:
    files = sorted((pkg / "builds").glob("doc-*.json"),
                   key=lambda p: int(p.stem.split("-")[1]))
    for path in files:
        sentences = json.loads(path.read_text(encoding="utf-8"))
        lines = [line for s in sentences for line in str(s).split("\n")]
        yield Document("nlp-corpus", path.stem, lines)
