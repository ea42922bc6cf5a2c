"""Dev metrics of a zh model file, overall and per kind of session.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.zh_eval \\
      --model runs/zh/model.safetensors --config training/config/zh.json --data data/zh \\
      [--examples 4096] [--out FILE.json]

Simulated sessions of the dev split (zh_data.eval_examples, the config's data settings, a
fixed seed), scored with train.evaluate: all of them, then by group: "prose" (Chinese
words typed as pinyin) split by plan (full / abbrev / mixed / unfinished, with or
without slips) and "latin" (runs typed verbatim). Needs the cache of the same config
(data/zh/cache; the text is not needed).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from . import dataset as D
from . import train as TR
from . import zh_data
from .export import model_from_file
from .typing_sim import batch_arrays

KEYS = ("dev_word_ce", "sep_top1", "sep_top3", "key_top1", "key_top3", "popup_auc",
        "autocorrect_precision", "autocorrect_recall", "intent_acc")


def group_of(kind: str) -> str:
    plan = kind.split("+")[0]
    return plan if plan == "latin" else f"prose/{plan}" + ("+slips" if "+" in kind else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=Path("data/zh"))
    ap.add_argument("--examples", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=None, help="default: the config's train.seed")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    cfg = D.load_config(args.config)
    model, words = model_from_file(args.model)
    cache = zh_data.ensure_cache(args.data, cfg, log=lambda s: None)
    corpus = zh_data.Corpus(cache, "dev", cfg)
    if corpus.words != words:
        raise SystemExit(f"{args.model}: its vocabulary is not this cache's")
    seed = cfg["train"]["seed"] if args.seed is None else args.seed
    examples = zh_data.eval_examples(corpus, cfg, args.examples, seed)
    letter = TR.letter_word_mask(words)
    first_hit = cfg["train"].get("popup_label", "all") == "first_hit"
    labels = model.cfg.intent_labels

    def score(exs) -> dict:
        batches = [{k: torch.from_numpy(v) for k, v in batch_arrays(exs[i:i + 512],
                                                                     model.cfg.max_len).items()}
                   for i in range(0, len(exs), 512)]
        m = TR.evaluate(model, batches, torch.device("cpu"), letter, first_hit, labels)
        return {k: round(m[k], 4) for k in KEYS if k in m} | {"sessions": len(exs)}

    groups: dict[str, list] = {}
    for ex in examples:
        groups.setdefault(group_of(ex.kind), []).append(ex)
        if ex.kind.split("+")[0] != "latin":
            groups.setdefault("prose", []).append(ex)
    result = {"model": str(args.model), "all": score(examples)}
    for name in sorted(groups):
        result[name] = score(groups[name])
    for name, m in result.items():
        if isinstance(m, dict):
            print(f"{name:24s} " + " ".join(f"{k}={v}" for k, v in m.items()))
    if args.out:
        TR.write_json(args.out, result)


if __name__ == "__main__":
    main()
