#!/usr/bin/env python3
"""The model alone in keydecide and in PyTorch, same shape and same random weights, in one run.

For each shape: `keydecide bench --shape S --save-model FILE` builds the random float model
and times keydecide (fp32 and int8 weights); this script then loads that very file into
training/keydecide_train/model.py's TypingModel and times PyTorch eager fp32 and dynamic int8
(torch.quantization.quantize_dynamic on every nn.Linear; the tied word-logit matmul stays
fp32 there), for the scenarios of docs/history/BENCHMARKS-to-2026-12-07.md:
  (a) one 32-token forward + the word logits of its last position
  (b) one decode step with 31 tokens cached (a KV cache written here, as keydecide has)
  (c) 64 sequences x 32 tokens (PyTorch: one [64, 32] batch)
and prints P50s and keydecide's speed-up.

Usage: /usr/bin/python3 bench/compare_torch.py [--keydecide build/bin/keydecide]
       [--shapes S1 S2 S3 S4] [--threads 1] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

# The training package (training/keydecide_train), found from here so that the documented
# command `/usr/bin/python3 bench/compare_torch.py` needs no PYTHONPATH.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "training"))
from keydecide_train.model import ModelConfig, TypingModel  # noqa: E402

SEQ, SEQS = 32, 64


def load_model(path: str) -> TypingModel:
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    meta = header.pop("__metadata__")
    cfg = ModelConfig.from_dict(json.loads(meta["config"]))
    model = TypingModel(cfg)
    state = {}
    for name, t in header.items():
        assert t["dtype"] == "F32", name
        b, e = t["data_offsets"]
        state[name] = torch.from_numpy(np.frombuffer(data[b:e], dtype=np.float32).copy()
                                       .reshape(t["shape"]))
    model.load_state_dict(state, strict=False)
    return model.eval()


@torch.no_grad()
def forward_last_logits(model: TypingModel, tokens, buckets, backspace):
    y = model(tokens, buckets, backspace)
    return model.word_logits(y[:, -1])


@torch.no_grad()
def decode_step(model: TypingModel, tok: int, bucket: int, pos: int, kc, vc):
    """One token at `pos` over cached keys/values kc[i][:pos] ([max_len, d] per layer)."""
    cfg = model.cfg
    d, h = cfg.d_model, cfg.n_heads
    hd = d // h
    x = (model.tok_emb.weight[tok] + model.pos_emb.weight[pos] + model.ivl_emb.weight[bucket]
         + model.bs_emb.weight[0])[None]
    for i, layer in enumerate(model.layers):
        q, k, v = layer.attn.qkv(layer.ln1(x)).split(d, dim=-1)
        kc[i][pos] = k[0]
        vc[i][pos] = v[0]
        keys = kc[i][: pos + 1].view(pos + 1, h, hd).transpose(0, 1)   # [h, L, hd]
        vals = vc[i][: pos + 1].view(pos + 1, h, hd).transpose(0, 1)
        att = torch.softmax(q.view(h, 1, hd) @ keys.transpose(1, 2) / math.sqrt(hd), dim=-1)
        x = x + layer.attn.out((att @ vals).reshape(1, d))
        x = x + layer.mlp(layer.ln2(x))
    return model.word_logits(model.ln_f(x))


def timed(fn, iterations: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(iterations):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e6)
    return out


def p50(v: list[float]) -> float:
    return float(np.percentile(v, 50))


def bench_torch(model: TypingModel, iters: dict[str, int], skip_c: bool = False) -> dict[str, float]:
    cfg = model.cfg
    g = torch.Generator().manual_seed(1)
    tokens = torch.randint(0, cfg.vocab_size, (1, SEQ), generator=g)
    buckets = torch.randint(0, 8, (1, SEQ), generator=g)
    zeros = torch.zeros_like(tokens)
    a = timed(lambda: forward_last_logits(model, tokens, buckets, zeros), iters["a"])
    kc = [torch.zeros(cfg.max_len, cfg.d_model) for _ in model.layers]
    vc = [torch.zeros(cfg.max_len, cfg.d_model) for _ in model.layers]
    for pos in range(SEQ - 1):
        decode_step(model, int(tokens[0, pos]), int(buckets[0, pos]), pos, kc, vc)
    b = timed(lambda: decode_step(model, int(tokens[0, -1]), 3, SEQ - 1, kc, vc), iters["b"])
    batch = torch.randint(0, cfg.vocab_size, (SEQS, SEQ), generator=g)
    bb = torch.randint(0, 8, (SEQS, SEQ), generator=g)
    if skip_c:
        return {"a": p50(a), "b": p50(b), "c": float("nan")}
    c = timed(lambda: forward_last_logits(model, batch, bb, torch.zeros_like(batch)), iters["c"], 1)
    return {"a": p50(a), "b": p50(b), "c": p50(c)}


def bench_keydecide(exe: str, shape: str, weights: str, threads: int, save: str | None) -> dict:
    cmd = [exe, "bench", "--shape", shape, "--weights", weights, "--threads", str(threads), "--json"]
    if save:
        cmd += ["--save-model", save]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return {k: v["p50_us"] for k, v in out["scenarios"].items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keydecide", default="build/bin/keydecide")
    ap.add_argument("--shapes", nargs="+", default=["S1", "S2", "S3", "S4"])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--json", help="write all P50s here")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes:
            path = os.path.join(tmp, f"{shape}.safetensors")
            big = shape in ("S3", "S4")
            iters = {"a": 10 if big else 100, "b": 100 if big else 500, "c": 2 if big else 3}
            row = {"keydecide_q8": bench_keydecide(args.keydecide, shape, "q8", args.threads, path),
                   "keydecide_f32": bench_keydecide(args.keydecide, shape, "f32", args.threads, None)}
            model = load_model(path)
            # Debian's torch links the generic reference BLAS: fp32 (c) of S3/S4 takes minutes.
            row["torch_f32"] = bench_torch(model, iters, skip_c=shape in ("S3", "S4"))
            qmodel = torch.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
            row["torch_int8"] = bench_torch(qmodel, iters)
            results[shape] = row
            print(f"{shape} ({args.threads} thread(s)), P50 in µs:")
            print(f"  {'scenario':<9}{'kd int8':>12}{'kd fp32':>12}{'torch fp32':>12}{'torch int8':>12}"
                  f"{'torch fp32/kd int8':>20}{'torch int8/kd int8':>20}")
            for s in "abc":
                kd = row["keydecide_q8"][s]
                print(f"  ({s}){'':<6}{kd:>12.1f}{row['keydecide_f32'][s]:>12.1f}"
                      f"{row['torch_f32'][s]:>12.1f}{row['torch_int8'][s]:>12.1f}"
                      f"{row['torch_f32'][s] / kd:>19.1f}x{row['torch_int8'][s] / kd:>19.1f}x")
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"threads": args.threads, "p50_us": results}, f, indent=2)


if __name__ == "__main__":
    main()
