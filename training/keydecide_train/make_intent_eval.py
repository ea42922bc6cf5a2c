"""Make the intent evaluation file for `keydecide eval intent` from the DEV split:
label<TAB>text lines, at most --per-class lines per label, deterministic.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_intent_eval --data data/en \
      --config training/config/en_intent.json --out data/en/intent_dev.tsv

With `--split train`, the same lines from the training split: what fit_intent_head.py fits
the intent head on.

Labels follow the training config's intent_rules (by source name). Texts are the start of
a dev line cut at a word boundary (20..120 characters). The "url" class is the URLs and
e-mail addresses found in the dev text (there is no other URL corpus in reach), each
typed alone as in an address bar.
"""
from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import re
from pathlib import Path

URL_RE = re.compile(r"(?:https?://|ftp://|www\.)[^\s<>\"]+|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def label_of(source: str, rules: list[list[str]]) -> str:
    for pattern, label in rules:
        if fnmatch.fnmatch(source, pattern):
            return label
    return "prose"


def stable_key(text: str) -> int:
    return int(hashlib.md5(text.encode("utf-8")).hexdigest(), 16)


def cut(line: str, limit: int = 120) -> str:
    if len(line) <= limit:
        return line
    space = line.rfind(" ", 20, limit)
    return line[: space if space > 0 else limit]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path("data/en"))
    ap.add_argument("--config", type=Path, default=Path("training/config/en_intent.json"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--per-class", type=int, default=500)
    ap.add_argument("--split", choices=["dev", "train"], default="dev")
    args = ap.parse_args()
    rules = json.loads(args.config.read_text())["data"]["intent_rules"]
    by_label: dict[str, list[str]] = {}
    for path in sorted((args.data / args.split).glob("*.txt")):
        label = label_of(path.stem, rules)
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            for url in URL_RE.findall(line):
                by_label.setdefault("url", []).append(url.rstrip(".,;:!?)]'\""))
            if len(line) >= 20 and "\t" not in line:
                by_label.setdefault(label, []).append(cut(line))
    with args.out.open("w", encoding="utf-8") as out:
        for label in sorted(by_label):
            texts = sorted(set(by_label[label]), key=stable_key)[: args.per_class]
            for text in texts:
                out.write(f"{label}\t{text}\n")
            print(f"{label}: {len(texts)} lines")


if __name__ == "__main__":
    main()
