#!/usr/bin/python3
"""Rounds a float model's weight matrices as an int8 scheme would and writes them back in fp32,
so that `keydecide quantize FLOAT ROUNDED --compare-only --text ...` measures what the scheme's
weight rounding alone costs in agreement (activations stay fp32), before any kernel for it is
written (issue 18, "int8 that agrees").

Schemes: symmetric int8 per row (what `keydecide quantize --bits 8` stores) or per group of G
columns within a row (--group G); --skip NAME leaves a matrix as it is.

    PYTHONPATH=training /usr/bin/python3 bench/fake_quant.py models/en/model.safetensors /tmp/row.safetensors
    PYTHONPATH=training /usr/bin/python3 bench/fake_quant.py models/en/model.safetensors \
        /tmp/g32.safetensors --group 32
    build/bin/keydecide quantize models/en/model.safetensors /tmp/g32.safetensors --compare-only \\
        --text data/en/dev.txt --max-chars 20000
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from keydecide_train.export import META_TENSOR_CRC32, read_safetensors, write_safetensors


def round_int8(w: np.ndarray, group: int) -> np.ndarray:
    """Symmetric int8 per row, or per `group` columns of a row (0: the whole row)."""
    w = w.astype(np.float32)
    rows, cols = w.shape
    g = group if group and cols % group == 0 else cols
    blocks = w.reshape(rows, cols // g, g)
    scale = np.abs(blocks).max(axis=2, keepdims=True) / 127.0
    scale[scale == 0] = 1.0
    return (np.clip(np.rint(blocks / scale), -127, 127) * scale).reshape(rows, cols)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--group", type=int, default=0, help="columns per scale (0: one per row)")
    ap.add_argument("--skip", action="append", default=[], help="a matrix to leave as it is")
    args = ap.parse_args()
    tensors, metadata = read_safetensors(args.input)
    out = {}
    for name, t in tensors.items():
        matrix = t.ndim == 2 and name.endswith(".weight") and t.shape[0] > 64 and name not in args.skip
        out[name] = round_int8(t, args.group) if matrix else t
    # The writer sets these itself; other entries (a zh model's language, pinyin) pass through.
    contract = ("format", "format_version", "config", "words", META_TENSOR_CRC32)
    write_safetensors(args.output, out, json.loads(metadata["config"]), metadata["words"].split("\n"),
                      dtype="f32", metadata={k: v for k, v in metadata.items() if k not in contract})


if __name__ == "__main__":
    main()
