#!/usr/bin/python3
"""Rounds a float model's weight matrices as an int8 scheme would and writes them back in fp32,
so that `keydecide quantize FLOAT ROUNDED --compare-only --text ...` measures what the scheme's
weight rounding alone costs in agreement (activations stay fp32), before any kernel for it is
written (issue 18, "int8 that agrees").

Schemes: symmetric int8 per row (what `keydecide quantize --bits 8` stores) or per group of G
columns within a row (--group G); --skip NAME leaves a matrix as it is.

    /usr/bin/python3 bench/fake_quant.py models/en/model.safetensors /tmp/row.safetensors
    /usr/bin/python3 bench/fake_quant.py models/en/model.safetensors /tmp/g32.safetensors --group 32
    build/bin/keydecide quantize models/en/model.safetensors /tmp/g32.safetensors --compare-only \\
        --text data/en/dev.txt --max-chars 20000
"""

from __future__ import annotations

import argparse
import json
import struct
import zlib

import numpy as np

DTYPES = {"F16": np.float16, "F32": np.float32}


def read(path: str) -> tuple[dict, dict[str, np.ndarray]]:
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        tensors[name] = np.frombuffer(data[begin:end], DTYPES[info["dtype"]]).reshape(info["shape"])
    return header.get("__metadata__", {}), tensors


def write(path: str, metadata: dict, tensors: dict[str, np.ndarray]) -> None:
    header: dict = {}
    blobs = []
    offset = 0
    for name, t in tensors.items():
        b = np.ascontiguousarray(t, np.float32).tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    data = b"".join(blobs)
    header["__metadata__"] = {**metadata, "tensor_crc32": f"{zlib.crc32(data):08x}"}
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)) + raw + data)


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
    metadata, tensors = read(args.input)
    out = {}
    for name, t in tensors.items():
        matrix = t.ndim == 2 and name.endswith(".weight") and t.shape[0] > 64 and name not in args.skip
        out[name] = round_int8(t, args.group) if matrix else t.astype(np.float32)
    write(args.output, metadata, out)


if __name__ == "__main__":
    main()
