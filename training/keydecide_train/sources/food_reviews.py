"""r-cran-modeldata's `small_fine_foods`: 5,000 Amazon reviews of fine foods (its
training_data and testing_data, one review per product), written by customers in the first
person, with their own contractions, capitals and misspellings: the closest to e-mail and
chat among the allowed sources. One document a review (its id the product's), `<br />`
breaks as paragraphs, other markup dropped and HTML entities read.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Iterator

from ..text import Document
from .rdata import read_r_lazyload


SOURCE = "food-reviews"
_BREAK = re.compile(r"<br\s*/?>|</?p>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_SPACES = re.compile(r"\s+")


def review_paragraphs(review: str) -> list[str]:
    """One review's paragraphs: split at line breaks, markup removed, entities read,
    runs of spaces (the reviews often have two after a full stop) made one."""
    out = []
    for part in _BREAK.split(review):
        text = _SPACES.sub(" ", html.unescape(_TAG.sub("", part))).strip()
        if text:
            out.append(text)
    return out


def extract_food_reviews(pkg: Path) -> Iterator[Document]:
    rdx = pkg / "usr/lib/R/site-library/modeldata/data/Rdata.rdx"
    tables = read_r_lazyload(rdx, only={"training_data", "testing_data"})
    for name in ("training_data", "testing_data"):
        table = tables.get(name)
        if not isinstance(table, dict) or not {"product", "review"} <= table.keys():
            raise ValueError(f"{rdx}: {name} is not the reviews table")
        for product, review in zip(table["product"], table["review"]):
            paragraphs = review_paragraphs(review or "")
            if product and paragraphs:
                yield Document(SOURCE, product, paragraphs)
