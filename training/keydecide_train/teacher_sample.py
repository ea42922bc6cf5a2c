"""Text sampled from sunpinyin's open-gram trigram, as one more Chinese training source
(issue 14: the Chinese model sees general-domain word sequences beside the technical text).

Reads the model as `tslminfo -v -p lm_sc.t3g` prints it (ARPA form by word id, plain
probabilities and back-off weights; data/zh/teacher/lm_sc.arpa from scripts/fetch-data.sh --zh)
and the words of `pydict_sc.bin` (sunpinyin_teacher.read_words). Id 0 is the sentence boundary
(<s> as a history, </s> as a word).

Sampling is the model's own distribution, back-off included:

    P(w | u v) = p3(u v w)                       when (u v w) is listed
               = bow(u v) * P(w | v)             otherwise
    P(w | v)   = p2(v w)                         when (v w) is listed
               = bow(v) * p1(w)                  otherwise

A history's listed words carry mass M = sum p; its back-off mass is B = bow * (1 - S), S the
lower order's probability of the listed words. A draw takes a listed word with probability
M / (M + B) (by its p), else a word of the lower order's distribution, drawn again while it is a
listed one (exact, as the back-off mass is the lower order restricted to the unlisted words;
after MAX_REJECT draws the last is kept). A sentence starts at <s> and ends at </s> (not
written) or after a sentence-end mark (。？！, written); one longer than --max-words is dropped,
as is one with a word that is neither Han nor Chinese punctuation (the teacher's few latin
words and symbols). Output: prepare_text's format (one paragraph a line: 1-4 sentences
joined, ending early after a sentence that ended at </s> without a mark; documents of
--paragraphs-per-doc lines, a blank line between them), so that zh_data reads it as a source
like any other.

    PYTHONPATH=training python3 -m keydecide_train.teacher_sample \
        --dict data/zh/raw/deb/sunpinyin-data/usr/lib/x86_64-linux-gnu/sunpinyin/data/pydict_sc.bin \
        --arpa data/zh/teacher/lm_sc.arpa --han-chars 3000000 --seed 1 --out teacher_sampled.txt

The text carries the teacher's licence (CC BY-SA 3.0) as far as it is a work derived from it;
it is training data only, not shipped.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from .sunpinyin_teacher import is_han, read_words

BOUNDARY = 0
SENTENCE_END = frozenset("。？！")
PUNCT = frozenset("，。；？！：“”、…‘’（）《》")
MAX_REJECT = 64


def _parse(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    order = -1
    for line in lines:
        if line.startswith("\\"):
            order = int(line[1:line.index("-")])
            continue
        fields = line.split()
        if order >= 1 and len(fields) >= order + 1:
            yield order, fields


@dataclass
class _Level:
    """The listed words of one order's histories: rows sorted by (history, word); a history's
    rows are [start, end); cum is the global running sum of p (a history's draw searches its
    slice); mass the listed p of a history and backoff its B."""
    hist: np.ndarray  # int64 history key per row
    word: np.ndarray  # int64
    p: np.ndarray
    cum: np.ndarray
    keys: np.ndarray  # distinct history keys, sorted
    start: np.ndarray
    end: np.ndarray
    mass: np.ndarray
    backoff: np.ndarray


def _level(hist: np.ndarray, word: np.ndarray, p: np.ndarray, bow_of_hist: np.ndarray,
           lower_p: np.ndarray) -> _Level:
    """bow_of_hist: the history's back-off weight, per row; lower_p: the lower order's
    probability of the row's word after the shorter history."""
    order = np.lexsort((word, hist))
    hist, word, p = hist[order], word[order], p[order]
    bow_of_hist, lower_p = bow_of_hist[order], lower_p[order]
    keys, start = np.unique(hist, return_index=True)
    end = np.append(start[1:], len(hist))
    mass = np.add.reduceat(p, start)
    covered = np.add.reduceat(lower_p, start)
    backoff = bow_of_hist[start] * np.clip(1.0 - covered, 0.0, None)
    return _Level(hist, word, p, np.cumsum(p), keys, start, end, mass, backoff)


class TrigramSampler:
    def __init__(self, words: list[str], arpa_lines: Iterable[str]):
        self.words = words
        n = max(len(words), 1)
        self.n = n
        uni: list[tuple[int, float, float]] = []
        bi: list[tuple[int, int, float, float]] = []
        tri: list[tuple[int, int, int, float]] = []
        for order, f in _parse(arpa_lines):
            if order == 1:
                uni.append((int(f[0]), float(f[1]), float(f[2])))
            elif order == 2:
                bi.append((int(f[0]), int(f[1]), float(f[2]), float(f[3])))
            elif order == 3:
                tri.append((int(f[0]), int(f[1]), int(f[2]), float(f[3])))
        n = max([n] + [u[0] + 1 for u in uni])
        self.n = n
        self.uni_p = np.zeros(n)
        self.uni_bow = np.ones(n)
        for wid, p, bow in uni:
            self.uni_p[wid] = p
            self.uni_bow[wid] = bow
        self.uni_cum = np.cumsum(self.uni_p)

        b = np.asarray([(v, w) for v, w, _, _ in bi], np.int64).reshape(-1, 2)
        bp = np.asarray([x[2] for x in bi], float)
        self.bi_bow_key = b[:, 0] * n + b[:, 1]
        order = np.argsort(self.bi_bow_key)
        self.bi_bow_key = self.bi_bow_key[order]
        self.bi_p_sorted = bp[order]
        self.bi_bow = np.asarray([x[3] for x in bi], float)[order]
        self.bi = _level(b[:, 0], b[:, 1], bp, self.uni_bow[b[:, 0]], self.uni_p[b[:, 1]])

        t = np.asarray([(u, v, w) for u, v, w, _ in tri], np.int64).reshape(-1, 3)
        tp = np.asarray([x[3] for x in tri], float)
        hist2 = t[:, 0] * n + t[:, 1]
        lower = self._bigram_p_vec(t[:, 1], t[:, 2])
        self.tri = _level(hist2, t[:, 2], tp, self._bigram_bow_vec(hist2), lower)
        # History key -> index of its group, as dicts (one lookup a draw).
        self.bi_index = {int(k): i for i, k in enumerate(self.bi.keys)}
        self.tri_index = {int(k): i for i, k in enumerate(self.tri.keys)}
        self.rejections = 0

    def _bigram_bow_vec(self, key: np.ndarray) -> np.ndarray:
        i = np.clip(np.searchsorted(self.bi_bow_key, key), 0, max(len(self.bi_bow_key) - 1, 0))
        found = self.bi_bow_key[i] == key if len(self.bi_bow_key) else np.zeros(len(key), bool)
        return np.where(found, self.bi_bow[i] if len(self.bi_bow) else 1.0, 1.0)

    def _bigram_p_vec(self, v: np.ndarray, w: np.ndarray) -> np.ndarray:
        key = v * self.n + w
        i = np.clip(np.searchsorted(self.bi_bow_key, key), 0, max(len(self.bi_bow_key) - 1, 0))
        found = self.bi_bow_key[i] == key if len(self.bi_bow_key) else np.zeros(len(key), bool)
        listed = self.bi_p_sorted[i] if len(self.bi_p_sorted) else 0.0
        return np.where(found, listed, self.uni_bow[v] * self.uni_p[w])

    def prob(self, u: int | None, v: int, w: int) -> float:
        """P(w | u v) (u None: P(w | v)), for tests."""
        if u is not None:
            g = self.tri_index.get(u * self.n + v)
            if g is not None:
                lv = self.tri
                s, e = int(lv.start[g]), int(lv.end[g])
                j = s + int(np.searchsorted(lv.word[s:e], w))
                if j < e and lv.word[j] == w:
                    return float(lv.p[j])
            bow = float(self._bigram_bow_vec(np.asarray([u * self.n + v]))[0])
            return bow * self.prob(None, v, w)
        return float(self._bigram_p_vec(np.asarray([v]), np.asarray([w]))[0])

    # --- drawing ---------------------------------------------------------------------------

    def _unigram(self, rng: random.Random) -> int:
        x = rng.random() * float(self.uni_cum[-1])
        return int(min(np.searchsorted(self.uni_cum, x, side="right"), self.n - 1))

    @staticmethod
    def _listed(lv: _Level, g: int, w: int) -> bool:
        s, e = int(lv.start[g]), int(lv.end[g])
        j = s + int(np.searchsorted(lv.word[s:e], w))
        return j < e and int(lv.word[j]) == w

    @staticmethod
    def _pick_listed(lv: _Level, g: int, rng: random.Random) -> int:
        s, e = int(lv.start[g]), int(lv.end[g])
        base = float(lv.cum[s - 1]) if s else 0.0
        x = base + rng.random() * float(lv.mass[g])
        j = s + int(np.searchsorted(lv.cum[s:e], x, side="right"))
        return int(lv.word[min(j, e - 1)])

    def _draw(self, lv: _Level, g: int | None, lower, rng: random.Random) -> int:
        if g is None:
            return lower()
        m, b = float(lv.mass[g]), float(lv.backoff[g])
        if rng.random() * (m + b) < m:
            return self._pick_listed(lv, g, rng)
        w = lower()
        for _ in range(MAX_REJECT):
            if not self._listed(lv, g, w):
                return w
            self.rejections += 1
            w = lower()
        return w

    def _bigram(self, v: int, rng: random.Random) -> int:
        return self._draw(self.bi, self.bi_index.get(v), lambda: self._unigram(rng), rng)

    def next_word(self, u: int | None, v: int, rng: random.Random) -> int:
        g = self.tri_index.get(u * self.n + v) if u is not None else None
        return self._draw(self.tri, g, lambda: self._bigram(v, rng), rng)

    def sentence(self, rng: random.Random, max_words: int) -> list[str] | None:
        """One sentence's words, or None (too long, or a word that is not Han/punctuation)."""
        u: int | None = None
        v = BOUNDARY
        out: list[str] = []
        while True:
            w = self.next_word(u, v, rng)
            if w == BOUNDARY:
                break
            word = self.words[w] if w < len(self.words) else ""
            if not (is_han(word) or (word and all(c in PUNCT for c in word))):
                return None
            out.append(word)
            if len(out) > max_words:
                return None
            if word in SENTENCE_END:
                break
            u, v = v, w
        while out and out[0] in PUNCT:  # a sentence that starts with a comma reads oddly
            out.pop(0)
        return out or None


def han_count(text: str) -> int:
    return sum(1 for c in text if is_han(c))


def sample_text(sampler: TrigramSampler, han_chars: int, seed: int, max_words: int,
                paragraphs_per_doc: int) -> tuple[list[list[str]], dict[str, int]]:
    """Documents of paragraph lines, until han_chars Han characters are written."""
    rng = random.Random(seed)
    docs: list[list[str]] = []
    stats = {"sentences": 0, "dropped": 0, "han_chars": 0, "words": 0}
    doc: list[str] = []
    while stats["han_chars"] < han_chars:
        parts = []
        for _ in range(rng.randint(1, 4)):
            words = None
            while words is None:
                words = sampler.sentence(rng, max_words)
                if words is None:
                    stats["dropped"] += 1
            stats["sentences"] += 1
            stats["words"] += len(words)
            parts.append("".join(words))
            if words[-1] not in SENTENCE_END:  # ended at </s>: the paragraph ends with it
                break
        line = "".join(parts)
        stats["han_chars"] += han_count(line)
        doc.append(line)
        if len(doc) >= paragraphs_per_doc:
            docs.append(doc)
            doc = []
    if doc:
        docs.append(doc)
    return docs, stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dict", type=Path, required=True, help="pydict_sc.bin")
    ap.add_argument("--arpa", type=Path, required=True, help="tslminfo -v -p output")
    ap.add_argument("--han-chars", type=int, default=3_000_000, help="stop after this many")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-words", type=int, default=40, help="longer sentences are dropped")
    ap.add_argument("--paragraphs-per-doc", type=int, default=50)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    start = time.time()
    words = read_words(args.dict)
    with args.arpa.open(encoding="ascii", errors="replace") as f:
        sampler = TrigramSampler(words, f)
    print(f"teacher_sample: {len(sampler.bi.keys)} bigram and {len(sampler.tri.keys)} trigram "
          f"histories ({time.time() - start:.0f} s)", file=sys.stderr)
    docs, stats = sample_text(sampler, args.han_chars, args.seed, args.max_words,
                              args.paragraphs_per_doc)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as out:
        out.write("\n\n".join("\n".join(d) for d in docs) + "\n")
    print(f"teacher_sample: {stats['sentences']} sentences ({stats['dropped']} dropped), "
          f"{stats['words']} words, {stats['han_chars']} Han characters, {len(docs)} documents, "
          f"{sampler.rejections} back-off redraws, {time.time() - start:.0f} s -> {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
