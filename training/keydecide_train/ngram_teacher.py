"""A general-language n-gram model as a teacher of the typing model (issue 47, "the teacher in
the model"): its next-word distribution, given the two words before, as soft targets beside the
true next word.

The teacher is an ARPA trigram (data/en/teacher/en-us.arpa: pocketsphinx-en-us's, written by
scripts/fetch-teacher-en.sh). `build` restricts it to the model's vocabulary and writes compact
arrays (an .npz of some 20 MB, small enough to travel to a GPU machine beside the token cache):

  context ids  0..V-1 the model's words, S = V the sentence start (also what a punctuation
               token or the start of the context reads as: the teacher, a model of speech, has
               no punctuation), U = V + 1 a word the teacher does not know (no context)
  unigram[V]        log P(w), natural log; -inf for a word the teacher lacks (punctuation, <num>)
  backoff[V + 2]    b(v) of a context word (0 for U)
  bigram_ptr[V + 3] the bigrams (v w) of context v: [bigram_ptr[v], bigram_ptr[v + 1])
  bigram_word, bigram_logp, bigram_backoff   w (ascending in a row), s(v w), b(v w)
  trigram_key       the bigram index of (u v) of each trigram (u v w), ascending
  trigram_word, trigram_logp                 w, t(u v w)

`NgramTeacher` holds them as tensors and gives, for a batch of positions with their two words
before, the teacher's log-distribution over the words it knows (back-off as ARPA files say,
renormalised over the model's vocabulary). `contexts` reads those words off a batch's tokens.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.ngram_teacher \\
      --arpa data/en/teacher/en-us.arpa --model models/en/model.safetensors \\
      --out data/en/cache/teacher.npz
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

import numpy as np
import torch

from . import tokens as T

LN10 = math.log(10.0)


def read_arpa(lines) -> tuple[dict, dict, dict]:
    """An ARPA file's n-grams: ({w: (logp, bo)}, {(v, w): (logp, bo)}, {(u, v, w): logp}), log10.
    A malformed line is a ValueError naming it."""
    grams = ({}, {}, {})
    order = 0
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("\\"):
            if line == "\\end\\":
                break
            if line.endswith("-grams:"):
                order = int(line[1])
                if not 1 <= order <= 3:
                    raise ValueError(f"ARPA line {number}: only up to trigrams")
            continue
        if order == 0:
            continue
        f = line.split()
        if len(f) not in (order + 1, order + 2):
            raise ValueError(f"ARPA line {number}: expected a score, {order} words, a back-off")
        try:
            logp = float(f[0])
            bo = float(f[order + 1]) if len(f) == order + 2 else 0.0
        except ValueError:
            raise ValueError(f"ARPA line {number}: not a number") from None
        key = f[1] if order == 1 else tuple(f[1:order + 1])
        grams[order - 1][key] = logp if order == 3 else (logp, bo)
    return grams


def build(arpa_lines, words: list[str]) -> dict[str, np.ndarray]:
    """The teacher restricted to `words` (the model's vocabulary, index order) as arrays."""
    uni, bi, tri = read_arpa(arpa_lines)
    V = len(words)
    S, U = V, V + 1
    index = {w: i for i, w in enumerate(words)}
    unigram = np.full(V, -np.inf, np.float32)
    backoff = np.zeros(V + 2, np.float32)
    for w, i in index.items():
        if w in uni:
            unigram[i] = uni[w][0] * LN10
            backoff[i] = uni[w][1] * LN10
    if "<s>" in uni:
        backoff[S] = uni["<s>"][1] * LN10

    def ctx(w: str) -> int | None:
        if w == "<s>":
            return S
        i = index.get(w)
        return i if i is not None and np.isfinite(unigram[i]) else None

    rows: list[list[tuple[int, float, float]]] = [[] for _ in range(V + 2)]
    for (v, w), (logp, bo) in bi.items():
        cv, cw = ctx(v), index.get(w)
        if cv is None or cw is None or not np.isfinite(unigram[cw]):
            continue
        rows[cv].append((cw, logp * LN10, bo * LN10))
    bigram_ptr = np.zeros(V + 3, np.int64)
    cols, logps, bos = [], [], []
    for v, row in enumerate(rows):
        row.sort()
        bigram_ptr[v + 1] = bigram_ptr[v] + len(row)
        for w, lp, bo in row:
            cols.append(w), logps.append(lp), bos.append(bo)
    bigram_word = np.asarray(cols, np.uint16 if V <= 65536 else np.int32)
    where = {}  # (v, w) -> bigram index
    for v in range(V + 2):
        for k in range(bigram_ptr[v], bigram_ptr[v + 1]):
            where[(v, int(bigram_word[k]))] = k
    tris = []
    for (u, v, w), logp in tri.items():
        cu, cv, cw = ctx(u), ctx(v), index.get(w)
        if cu is None or cv is None or cw is None or not np.isfinite(unigram[cw]):
            continue
        k = where.get((cu, cv))
        if k is not None:
            tris.append((k, cw, logp * LN10))
    tris.sort()
    return {
        "unigram": unigram,
        "backoff": backoff,
        "bigram_ptr": bigram_ptr.astype(np.int32),
        "bigram_word": bigram_word,
        "bigram_logp": np.asarray(logps, np.float16),
        "bigram_backoff": np.asarray(bos, np.float16),
        "trigram_key": np.asarray([t[0] for t in tris], np.int32),
        "trigram_word": np.asarray([t[1] for t in tris], bigram_word.dtype),
        "trigram_logp": np.asarray([t[2] for t in tris], np.float16),
    }


def reference_logp(arrays: dict[str, np.ndarray], older: int, last: int, word: int) -> float:
    """log P(word | older last) by ARPA back-off over the arrays, one word at a time (tests)."""
    V = len(arrays["unigram"])
    ptr, bw = arrays["bigram_ptr"], arrays["bigram_word"]
    if last == V + 1:
        return float(arrays["unigram"][word])
    pair_bo = 0.0
    if older != V + 1:
        row = bw[ptr[older]:ptr[older + 1]]
        k = np.searchsorted(row, last)
        if k < len(row) and row[k] == last:
            pair = ptr[older] + k
            keys = arrays["trigram_key"]
            lo, hi = np.searchsorted(keys, pair), np.searchsorted(keys, pair, side="right")
            tw = arrays["trigram_word"][lo:hi]
            j = np.searchsorted(tw, word)
            if j < len(tw) and tw[j] == word:
                return float(arrays["trigram_logp"][lo + j])
            pair_bo = float(arrays["bigram_backoff"][pair])
    row = bw[ptr[last]:ptr[last + 1]]
    k = np.searchsorted(row, word)
    if k < len(row) and row[k] == word:
        return pair_bo + float(arrays["bigram_logp"][ptr[last] + k])
    return pair_bo + float(arrays["backoff"][last]) + float(arrays["unigram"][word])


class NgramTeacher:
    """The arrays of `build` as tensors on a device; log_probs for a batch of contexts."""

    def __init__(self, arrays: dict[str, np.ndarray], device: torch.device | str = "cpu"):
        t = {k: torch.from_numpy(np.asarray(v).astype(np.int64) if v.dtype in (np.uint16,)
                                 else np.asarray(v)) for k, v in arrays.items()}
        self.V = len(arrays["unigram"])
        self.S, self.U = self.V, self.V + 1
        self.unigram = t["unigram"].float().to(device)
        self.known = torch.isfinite(self.unigram)
        self.backoff = t["backoff"].float().to(device)
        self.ptr = t["bigram_ptr"].long().to(device)
        self.bword = t["bigram_word"].long().to(device)
        self.blogp = t["bigram_logp"].float().to(device)
        self.bbo = t["bigram_backoff"].float().to(device)
        self.tkey = t["trigram_key"].long().to(device)
        self.tword = t["trigram_word"].long().to(device)
        self.tlogp = t["trigram_logp"].float().to(device)
        # Each bigram's context word, so that (v, w) is one sortable key v * (V + 2) + w.
        rows = torch.arange(self.V + 2, device=device)
        self.bkey = torch.repeat_interleave(rows, self.ptr[1:] - self.ptr[:-1]) * (self.V + 2) \
            + self.bword

    @classmethod
    def load(cls, path: str | Path, device: torch.device | str = "cpu") -> "NgramTeacher":
        with np.load(path) as z:
            return cls({k: z[k] for k in z.files}, device)

    def _rows(self, owners: torch.Tensor, begin: torch.Tensor, end: torch.Tensor):
        """The flat indices [begin[i], end[i]) of every owner i, and each one's owner."""
        n = (end - begin).clamp(min=0)
        who = torch.repeat_interleave(owners, n)
        first = torch.repeat_interleave(begin - torch.cumsum(n, 0) + n, n)
        return who, first + torch.arange(int(n.sum()), device=begin.device)

    def log_probs(self, older: torch.Tensor, last: torch.Tensor) -> torch.Tensor:
        """[N, V] log P(w | older last) over the words the teacher knows (-inf elsewhere),
        renormalised over them. older, last: [N] context ids."""
        N = last.shape[0]
        dev = last.device
        idx = torch.arange(N, device=dev)
        # The pair (older last) as a listed bigram, if it is one.
        key = older.clamp(max=self.U) * (self.V + 2) + last
        at = torch.searchsorted(self.bkey, key).clamp(max=max(len(self.bkey) - 1, 0))
        listed = (older != self.U) & (last != self.U) & (len(self.bkey) > 0)
        if len(self.bkey) > 0:
            listed = listed & (self.bkey[at] == key)
        pair_bo = torch.where(listed, self.bbo[at] if len(self.bbo) else torch.zeros_like(key,
                              dtype=torch.float), torch.zeros(N, device=dev))
        out = self.unigram.expand(N, -1).clone()
        out += (pair_bo + torch.where(last == self.U, torch.zeros(N, device=dev),
                                      self.backoff[last]))[:, None]
        # Bigrams of the last word: pair_bo + s(last w).
        has = last != self.U
        who, flat = self._rows(idx[has], self.ptr[last[has]], self.ptr[last[has] + 1])
        out[who, self.bword[flat]] = pair_bo[who] + self.blogp[flat]
        # Trigrams of the listed pair: t(older last w).
        if len(self.tkey) > 0 and bool(listed.any()):
            p = at[listed]
            lo = torch.searchsorted(self.tkey, p)
            hi = torch.searchsorted(self.tkey, p, right=True)
            who, flat = self._rows(idx[listed], lo, hi)
            out[who, self.tword[flat]] = self.tlogp[flat]
        out = out.masked_fill(~self.known, -math.inf)
        return torch.log_softmax(out, dim=-1)

    def contexts(self, tokens: torch.Tensor, ctx_of_word: torch.Tensor) -> tuple[torch.Tensor,
                                                                                  torch.Tensor]:
        """[B, L] tokens → the (older, last) context ids of the word after each position: the
        token at the position and the one before it, a word as its context id, anything else
        (BOS, APP, punctuation) the sentence start; the one before a sentence start U."""
        last = self._ctx(tokens, ctx_of_word)
        older = torch.full_like(last, self.U)
        older[:, 1:] = last[:, :-1]
        older = torch.where(last == self.S, torch.full_like(older, self.U), older)
        return older, last

    def _ctx(self, tokens: torch.Tensor, ctx_of_word: torch.Tensor) -> torch.Tensor:
        word = tokens - T.WORD_OFFSET
        is_word = word >= 0
        return torch.where(is_word, ctx_of_word[word.clamp(min=0)], torch.full_like(word, self.S))

    def ctx_of_word(self, words: list[str], device: torch.device | str = "cpu") -> torch.Tensor:
        """Per model word: its context id (itself when the teacher knows it; the sentence start
        for punctuation; U for a word the teacher lacks)."""
        out = []
        for i, w in enumerate(words):
            if bool(self.known[i]):
                out.append(i)
            elif not any(c.isalnum() for c in w) and not w.startswith("<"):
                out.append(self.S)
            else:
                out.append(self.U)
        return torch.tensor(out, dtype=torch.long, device=device)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arpa", type=Path, required=True)
    ap.add_argument("--model", type=Path, required=True, help="a model file: its vocabulary")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    from .export import verify_model_file
    try:
        words = verify_model_file(args.model)[2]
        with args.arpa.open(encoding="utf-8") as f:
            arrays = build(f, words)
    except (OSError, ValueError) as e:
        print(f"ngram_teacher: {e}", file=sys.stderr)
        return 1
    tmp = args.out.with_name(args.out.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, args.out)
    print(f"ngram_teacher: {int(np.isfinite(arrays['unigram']).sum())} of {len(words)} words "
          f"known, {len(arrays['bigram_word'])} bigrams, {len(arrays['trigram_word'])} trigrams, "
          f"{args.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
