"""Expected word-pair counts from sunpinyin's open-gram language model, as a teacher for the
Chinese word bigram (docs/MODEL.md, "General-domain teacher").

sunpinyin-data ships `lm_sc.t3g` (a back-off trigram over word ids; CC BY-SA 3.0) and
`pydict_sc.bin` (its pinyin trie, whose string table holds the words in id order).
`tslminfo -v -p lm_sc.t3g` (sunpinyin-utils) prints the model in ARPA form by id with plain
probabilities. This reads both and writes, for every explicit bigram (v, w) of the model,

    left<TAB>right<TAB>count      count = round(tokens * P(v) * P(w | v))

the count of the pair expected in `tokens` words of text the model generates (P(v) its unigram,
id 0 the sentence boundary written "<s>"; a left word that is punctuation or not Han also becomes
"<s>", as a run of hanzi starts after it in `keydecide lexicon bigram`; pairs whose right word is
not all Han are dropped), then one line per word `<unigram><TAB>word<TAB>count` with
round(tokens * P(w)). Pairs below --min-count are dropped. Only probabilities are taken: no
text of the corpus behind the model exists in it.

    tslminfo -v -p lm_sc.t3g > lm_sc.arpa
    PYTHONPATH=training python3 -m keydecide_train.sunpinyin_teacher \
        --dict pydict_sc.bin --arpa lm_sc.arpa --tokens 20000000 --out teacher.tsv
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

SENTENCE = "<s>"
UNIGRAM = "<unigram>"


def read_words(path: Path) -> list[str]:
    """The words of a sunpinyin pinyin trie (pydict_sc.bin), indexed by word id.

    The header's first u32 is the word count, its third the byte offset of the string table:
    NUL-terminated UCS-4 little-endian strings, one per id in order (sunpinyin's
    CPinyinTrie::load reads them the same way).
    """
    data = path.read_bytes()
    count, _, offset = struct.unpack_from("<3I", data, 0)
    words = []
    pos = offset
    for _ in range(count):
        end = pos
        while struct.unpack_from("<I", data, end)[0] != 0:
            end += 4
        words.append(data[pos:end].decode("utf-32-le"))
        pos = end + 4
    if pos != len(data):
        raise ValueError(f"{path}: string table ends at {pos}, file at {len(data)}")
    return words


def is_han(word: str) -> bool:
    return bool(word) and all(
        0x3400 <= ord(c) <= 0x9FFF or 0x20000 <= ord(c) <= 0x3134F or 0xF900 <= ord(c) <= 0xFAFF
        for c in word)


def read_arpa(lines, max_order: int = 2):
    """Yields (order, ids, probability) for the n-grams up to max_order of `tslminfo -v -p`."""
    order = 0
    for line in lines:
        if line.startswith("\\"):
            order = int(line[1:line.index("-")])
            if order > max_order:
                return
            continue
        fields = line.split()
        if order == 0 or len(fields) < order + 1:
            continue
        yield order, tuple(int(f) for f in fields[:order]), float(fields[order])


def teacher_counts(words: list[str], arpa_lines, tokens: float, min_count: int):
    unigram: dict[int, float] = {}
    pairs: list[tuple[str, str, int]] = []
    for order, ids, prob in read_arpa(arpa_lines):
        if order == 1:
            unigram[ids[0]] = prob
            continue
        v, w = ids
        right = words[w] if w < len(words) else ""
        if not is_han(right):
            continue
        left = words[v] if v < len(words) else ""
        count = round(tokens * unigram.get(v, 0.0) * prob)
        if count >= min_count:
            pairs.append((left if is_han(left) else SENTENCE, right, count))
    # Several left words may become "<s>": add their counts.
    merged: dict[tuple[str, str], int] = {}
    for left, right, count in pairs:
        merged[(left, right)] = merged.get((left, right), 0) + count
    unigrams = []
    for wid, prob in unigram.items():
        word = words[wid] if wid < len(words) else ""
        count = round(tokens * prob)
        if is_han(word) and count >= 1:
            unigrams.append((word, count))
    return merged, unigrams


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dict", type=Path, required=True, help="pydict_sc.bin")
    ap.add_argument("--arpa", type=Path, required=True, help="tslminfo -v -p output")
    ap.add_argument("--tokens", type=float, default=20e6, help="words of text simulated")
    ap.add_argument("--min-count", type=int, default=2, help="drop rarer pairs")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    words = read_words(args.dict)
    with args.arpa.open(encoding="ascii", errors="replace") as f:
        pairs, unigrams = teacher_counts(words, f, args.tokens, args.min_count)
    with args.out.open("w", encoding="utf-8") as out:
        for (left, right), count in sorted(pairs.items()):
            out.write(f"{left}\t{right}\t{count}\n")
        for word, count in sorted(unigrams):
            out.write(f"{UNIGRAM}\t{word}\t{count}\n")
    print(f"{args.out}: {len(pairs)} pairs, {len(unigrams)} words, from {len(words)} ids",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
