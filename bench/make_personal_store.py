#!/usr/bin/python3
"""Writes a user-store export (docs/PERSONAL.md, "Export format") of what a person who typed
TEXT would have learned: every word with its count, and every pair of words in a row within a
sentence. For `keydecide bench --personal-store`: import it with `keydecide personal import`.

    bench/make_personal_store.py --text data/en/dev.txt --max-chars 200000 > person.json
"""

import argparse
import json
import re
import sys
import time
from collections import Counter

WORD = re.compile(r"[^\W\d_](?:[^\W_]|['’](?=[^\W\d_]))*")
SENTENCE_END = re.compile(r"[.!?\n]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--text", required=True)
    ap.add_argument("--max-chars", type=int, default=0, help="only the first N bytes (0: all)")
    args = ap.parse_args()
    with open(args.text, "rb") as f:
        raw = f.read(args.max_chars or -1)
    text = raw.decode("utf-8", errors="ignore")
    words, pairs = Counter(), Counter()
    for sentence in SENTENCE_END.split(text):
        previous = None
        for m in WORD.finditer(sentence):
            w = m.group(0)
            if len(w.encode()) > 64:
                previous = None
                continue
            words[w] += 1
            if previous is not None:
                pairs[(previous, w)] += 1
            previous = w
    now = int(time.time())
    out = {
        "format": "keydecide-user-store", "version": 1, "exported_at": now,
        "words": [{"language": "en", "word": w, "count": c, "picks": 0, "weight": c,
                   "first_time": now, "last_time": now} for w, c in words.items()],
        "pairs": [{"language": "en", "previous": p, "word": w, "count": c, "weight": c,
                   "last_time": now} for (p, w), c in pairs.items()],
        "shortcuts": [],
    }
    json.dump(out, sys.stdout)
    print(f"{len(words)} words, {len(pairs)} pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
