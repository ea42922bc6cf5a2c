#!/usr/bin/python3
"""Where keydecide's completions lose keystrokes to another engine (issue 15).

Reads two `replay --trace` files of the same text (keydecide's, and Presage's from
bench/presage_replay --trace), joins them word by word and breaks the keystrokes each engine
saved down by word length, by how frequent the word is in the training text, by whether the
typing model's vocabulary has it, and by how many letters the other engine needed. For the
words the other engine got with fewer letters it says why keydecide did not: the word was not
among the candidates keydecide scored at all at that letter (missing from the search), or it
was there but ranked below the K the typist looks at.

    bench/completion_analysis.py --ours A.jsonl --theirs B.jsonl [--model M.safetensors]
        [--train data/en/train.txt] [--suggestions 3] [--json]

A pick saves the word's remaining letters and costs one key (the replay's rule, tools/replay.h);
the auto-space bonus is left out, so the totals are words' savings only.
"""

import argparse
import collections
import json
import re
import struct
import sys


def read_trace(path):
    with open(path, encoding="utf-8") as f:
        return {w["offset"]: w for w in map(json.loads, f)}


def model_words(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    return set(header["__metadata__"]["words"].split("\n"))


def train_ranks(path):
    counts = collections.Counter()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            counts.update(w.lower() for w in re.findall(r"[A-Za-z]+", line))
    return {w: i for i, (w, _) in enumerate(counts.most_common())}


def saved(w):
    return len(w["word"]) - w["typed"] - 1 if w["picked"] else 0


def length_bucket(n):
    return "1-2" if n <= 2 else "3-4" if n <= 4 else "5-7" if n <= 7 else "8+"


def freq_bucket(rank):
    if rank is None:
        return "unseen in training"
    for edge in (100, 1000, 8192, 20000, 50000):
        if rank < edge:
            return "top %d" % edge
    return "rarer"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--theirs", required=True)
    ap.add_argument("--model", default="models/en/model.q8.safetensors")
    ap.add_argument("--train", default="data/en/train.txt")
    ap.add_argument("--suggestions", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    ours, theirs = read_trace(args.ours), read_trace(args.theirs)
    common = sorted(set(ours) & set(theirs))
    vocab = model_words(args.model) if args.model else set()
    ranks = train_ranks(args.train) if args.train else {}
    k = args.suggestions

    tables = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0, 0]))
    losses = collections.Counter()
    loss_keys = collections.Counter()
    low_ranks = []
    for off in common:
        a, b = ours[off], theirs[off]
        word = a["word"].lower()
        keys = {
            "length": length_bucket(len(word)),
            "frequency": freq_bucket(ranks.get(word)),
            "model vocabulary": "in" if word in vocab else "out",
            "letters the other needed": ("%d" % b["typed"] if b["picked"] else "not picked")
            if b["typed"] < 4 or not b["picked"] else "4+",
            "word start": "yes" if a["word_start"] else "no (after ' or a non-ASCII letter)",
        }
        sa, sb = saved(a), saved(b)
        for table, key in keys.items():
            row = tables[table][key]
            row[0] += 1
            row[1] += sa
            row[2] += sb
            row[3] += len(word)
        if sb > sa:  # the other engine picked it with fewer letters
            i = b["typed"]
            r = a["ranks"][i] if i < len(a["ranks"]) else None
            if r is None:
                why = "not traced (past 12 letters)"
            elif r < 0:
                why = "missing from the candidates"
            elif r < k:
                why = "offered (engine looked at fewer)"  # cannot happen: then ours picks
            else:
                why = "present, ranked below %d" % k
                low_ranks.append(r)
            losses[why] += 1
            loss_keys[why] += sb - sa

    if args.json:
        print(json.dumps({
            "words": len(common),
            "tables": {t: {k2: dict(zip(["words", "ours_saved", "theirs_saved", "letters"], v))
                           for k2, v in rows.items()} for t, rows in tables.items()},
            "losses": {w: {"words": n, "keys": loss_keys[w]} for w, n in losses.items()},
            "low_rank_median": sorted(low_ranks)[len(low_ranks) // 2] if low_ranks else None,
        }, indent=2))
        return 0
    print("%d words in both traces (K = %d)" % (len(common), k))
    for table, rows in tables.items():
        print("\n%-34s %7s %9s %9s %8s %8s" % (table, "words", "ours", "theirs", "ours %",
                                              "theirs %"))
        for key in sorted(rows):
            n, sa, sb, letters = rows[key]
            print("%-34s %7d %9d %9d %8.3f %8.3f" % (key, n, sa, sb, sa / letters, sb / letters))
    print("\nwords the other engine completed with fewer letters, and why ours did not:")
    for why, n in losses.most_common():
        print("  %-40s %6d words, %6d keys" % (why, n, loss_keys[why]))
    if low_ranks:
        low_ranks.sort()
        print("  rank of those ranked low: median %d, 90th percentile %d" %
              (low_ranks[len(low_ranks) // 2], low_ranks[int(len(low_ranks) * 0.9)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
