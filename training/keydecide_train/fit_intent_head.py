"""Fit the intent head again on the shipped model's own hidden states, on a CPU, and print how
each fit reads the dev and tuning lines (an analysis: it writes no model).

  build/bin/keydecide eval context-states --model models/en/model.q8.safetensors \
      --labeled TRAIN.tsv --out /tmp/train.f32          # and the same for DEV and TUNE
  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.fit_intent_head \
      --model models/en/model.q8.safetensors --train TRAIN.tsv /tmp/train.f32 \
      --eval dev data/en/intent_dev.tsv /tmp/dev.f32 --eval tune TUNE.tsv /tmp/tune.f32

TRAIN.tsv comes from the training split (`make_intent_eval --split train`). The fit is a
multinomial logistic regression from the shipped head with its `--code-bias` taken off,
pulled towards it by an L2 penalty, with each class weighted by --class-weights (per label,
normalised by the class's line count); then `code` is shifted by each of --shifts, as
shift_head_bias does. docs/history/BENCHMARKS-to-2026-12-07.md ("Intent: the head fitted again")
says what it showed.
"""
from __future__ import annotations

import argparse
import json
import struct
from pathlib import Path

import numpy as np


def read_head(model: Path) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(intent labels, weight [n, d], bias [n]) of an exported model file (F16 or F32 heads)."""
    with open(model, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        body = f.read()
    labels = json.loads(header["__metadata__"]["config"])["intent_labels"]

    def tensor(name: str) -> np.ndarray:
        e = header[name]
        start, end = e["data_offsets"]
        dtype = {"F16": np.float16, "F32": np.float32}[e["dtype"]]
        return np.frombuffer(body[start:end], dtype=dtype).astype(np.float32).reshape(e["shape"])

    return labels, tensor("heads.intent.weight"), tensor("heads.intent.bias")


def load_states(tsv: Path, states: Path, labels: list[str], d: int) -> tuple[np.ndarray, np.ndarray]:
    """The hidden states `eval context-states` wrote for `tsv`, and the lines' label indices."""
    y = [labels.index(line.split("\t", 1)[0])
         for line in tsv.read_text(encoding="utf-8").splitlines() if line.strip()]
    x = np.fromfile(states, dtype=np.float32)
    if x.size != len(y) * d:
        raise ValueError(f"{states}: {x.size} floats for {len(y)} lines of {d}")
    return x.reshape(len(y), d), np.array(y)


def fit_head(x: np.ndarray, y: np.ndarray, w0: np.ndarray, b0: np.ndarray, l2: float,
             class_weights: np.ndarray, steps: int = 400, lr: float = 0.05
             ) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression by Adam from (w0, b0), penalised by l2 * |w - w0|^2 / 2."""
    n_classes = w0.shape[0]
    counts = np.maximum(np.bincount(y, minlength=n_classes), 1)
    sample_w = (class_weights / counts)[y]
    sample_w = sample_w / sample_w.sum()
    onehot = np.eye(n_classes)[y]
    w, b = w0.copy(), b0.copy()
    moments = [(np.zeros_like(w), np.zeros_like(w)), (np.zeros_like(b), np.zeros_like(b))]
    for t in range(1, steps + 1):
        z = x @ w.T + b
        z -= z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        g = (p - onehot) * sample_w[:, None]
        grads = (g.T @ x + l2 * (w - w0), g.sum(0))
        for param, grad, (m, v) in zip((w, b), grads, moments):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            param -= lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return w, b


def per_class_accuracy(w: np.ndarray, b: np.ndarray, x: np.ndarray, y: np.ndarray,
                       shift: np.ndarray | None = None) -> list[float | None]:
    z = x @ w.T + b + (0 if shift is None else shift)
    pred = z.argmax(1)
    return [float((pred[y == c] == c).mean()) if (y == c).any() else None
            for c in range(w.shape[0])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--train", nargs=2, type=Path, required=True, metavar=("TSV", "STATES"))
    ap.add_argument("--eval", nargs=3, action="append", default=[],
                    metavar=("NAME", "TSV", "STATES"))
    ap.add_argument("--code-bias", type=float, default=5.0,
                    help="the shift the shipped head carries on `code` (docs/MODEL.md)")
    ap.add_argument("--l2", type=float, nargs="+", default=[1e-2, 1e-3, 1e-4])
    ap.add_argument("--class-weights", nargs="+", default=["1,1,1,1", "0.6,0.14,0.12,0.14"],
                    help="per label, in the model's label order")
    ap.add_argument("--shifts", type=float, nargs="+", default=[0, 1, 2, 3, 5])
    args = ap.parse_args()
    labels, w0, b0 = read_head(args.model)
    code = labels.index("code")
    b0 = b0.copy()
    b0[code] -= args.code_bias
    d = w0.shape[1]
    x, y = load_states(args.train[0], args.train[1], labels, d)
    sets = [(name, *load_states(Path(tsv), Path(st), labels, d)) for name, tsv, st in args.eval]

    def report(tag: str, w: np.ndarray, b: np.ndarray) -> None:
        for s in args.shifts:
            shift = np.zeros(len(labels))
            shift[code] = s
            parts = [f"{name} " + " / ".join("-" if a is None else f"{a:.3f}"
                                             for a in per_class_accuracy(w, b, ex, ey, shift))
                     for name, ex, ey in sets]
            print(f"{tag} code+{s:g}: " + "; ".join(parts))

    print("labels: " + " / ".join(labels))
    report("shipped head", w0, b0)
    for l2 in args.l2:
        for cw in args.class_weights:
            weights = np.array([float(v) for v in cw.split(",")])
            w, b = fit_head(x, y, w0, b0, l2, weights)
            report(f"l2 {l2:g} weights {cw}", w, b)


if __name__ == "__main__":
    main()
