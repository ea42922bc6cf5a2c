#!/usr/bin/env python3
"""Same-author splits for `keydecide eval personal` (docs/PERSONAL.md): each Austen novel of
r-cran-janeaustenr (fetched into data/raw by scripts/fetch-data.sh) cut by chapters into a first
half, the history (OUT/<book>.a.txt), and a second half, the test text (OUT/<book>.b.txt).

  PYTHONPATH=training /usr/bin/python3 scripts/personal-split.py [OUT]   (default data/personal)
"""
import sys
from pathlib import Path

from keydecide_train.sources.austen import extract_janeausten

root = Path(__file__).resolve().parent.parent
out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "data/personal"
out.mkdir(parents=True, exist_ok=True)
books: dict[str, list[str]] = {}
for doc in extract_janeausten(root / "data/raw/deb/r-cran-janeaustenr"):
    books.setdefault(doc.doc_id.split("/")[0], []).append("\n".join(doc.lines))
for book, chapters in sorted(books.items()):
    half = len(chapters) // 2
    (out / f"{book}.a.txt").write_text("\n".join(chapters[:half]) + "\n")
    (out / f"{book}.b.txt").write_text("\n".join(chapters[half:]) + "\n")
    print(f"{book}: {len(chapters)} chapters, history {half}, test {len(chapters) - half}")
