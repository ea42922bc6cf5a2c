"""Shift a decision head's bias in an exported model (a threshold move, kept in the file).

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.shift_head_bias \
      IN.safetensors OUT.safetensors --head autocorrect --shift -0.5

A head's probability is sigmoid(w·y + b): lowering b by d makes the engine's fixed
threshold (0.5) act like a higher one, trading recall for precision without retraining. For
the intent head (a softmax), raising one class's bias by d multiplies its odds against every
other class by e^d: a change of that class's prior.
Choose the shift on the dev split or a tuning set, never on evaluation data (docs/MODEL.md says
which was used and why);
everything else in the file is copied unchanged (same dtype, vocabulary and config).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import json
import struct

import torch

from .export import export_model, model_from_file


def file_dtype(path: Path) -> str:
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    return "f16" if header["tok_emb.weight"]["dtype"] == "F16" else "f32"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--head", choices=["popup", "autocorrect", "intent"], required=True)
    ap.add_argument("--label", default=None,
                    help="intent: the class whose bias moves (e.g. code); its prior, in effect")
    ap.add_argument("--shift", type=float, required=True, help="added to the head's bias")
    args = ap.parse_args()
    dtype = file_dtype(args.src)
    model, words = model_from_file(args.src)
    head = getattr(model.heads, args.head)
    row = 0
    if args.head == "intent":
        labels = list(model.cfg.intent_labels)
        if args.label not in labels:
            raise SystemExit(f"--label must be one of {labels}")
        row = labels.index(args.label)
    elif args.label is not None:
        raise SystemExit("--label is for --head intent")
    with torch.no_grad():
        before = float(head.bias[row])
        head.bias[row] += args.shift
    size = export_model(model, words, args.out, dtype)
    name = f"{args.head}[{args.label}]" if args.label else args.head
    print(f"{name} bias {before:.4f} -> {float(head.bias[row]):.4f}, {size} bytes ({dtype}) "
          f"-> {args.out}")


if __name__ == "__main__":
    main()
