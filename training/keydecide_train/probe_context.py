"""Next-word accuracy of an exported model on running text, by context length.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.probe_context \
      --model models/en/model.safetensors --text data/en/dev.txt --max-chars 3000 --context 12 30 50

For each lower-case letter word of the text's first --max-chars characters: the model sees
[BOS] [APP=chat], the previous N context tokens and [SEP]; is the word its top-1 / in its
top-3 among letter words? Shows how much context the model can use (docs/MODEL.md).
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import torch

from . import tokens as T
from .export import model_from_file


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--text", type=Path, required=True)
    ap.add_argument("--max-chars", type=int, default=3000)
    ap.add_argument("--context", type=int, nargs="+", default=[12, 30, 50])
    args = ap.parse_args()
    model, words = model_from_file(args.model)
    vocab = T.Vocab(words)
    toks = T.context_tokens(args.text.read_text(encoding="utf-8")[: args.max_chars])
    letter = torch.tensor([0.0 if i > 3 and any(c.isalpha() for c in w) else -1e9
                           for i, w in enumerate(words)])
    for n_ctx in args.context:
        hits1 = hits3 = n = 0
        with torch.no_grad():
            for i, t in enumerate(toks):
                if not re.fullmatch(r"[a-z]+", t):
                    continue
                ctx = [T.WORD_OFFSET + vocab.word_index(x) for x in toks[max(0, i - n_ctx):i]]
                ids = [T.BOS, T.app_id("chat")] + ctx + [T.SEP]
                zeros = torch.zeros(1, len(ids), dtype=torch.long)
                out = model.outputs(torch.tensor([ids]), zeros, zeros)
                top = torch.topk(out["word_logits"][0, -1] + letter, 3).indices.tolist()
                n += 1
                hits1 += words[top[0]] == t
                hits3 += t in (words[j] for j in top)
        print(f"context {n_ctx:3d}: {n} words, top-1 {hits1 / n:.4f}, top-3 {hits3 / n:.4f}")


if __name__ == "__main__":
    main()
