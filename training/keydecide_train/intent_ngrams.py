"""The intent n-grams: a linear classifier of the line being typed, read through hashed byte
n-grams, whose logits the engine adds to the typing model's intent log-probabilities
(src/model/intent_ngrams.h, models/en/intent_ngrams.safetensors).

Why beside the model: in the model's hidden states, shell commands lie among code and the code
of languages it never trained on lies near prose, so no head on those states separates them
(docs/history/BENCHMARKS-to-2026-12-07.md, "The head fitted again on the model's own states"). The
characters of a line do: a `$ ` or `# ` before a command, `--flags`, braces, sigils, `::`, `:=`,
indentation.
A linear model of hashed byte n-grams learns them from the training split's lines in minutes
on a CPU, and reads them the same way in any language.

The features, which src/model/intent_ngrams.cc computes the same way: the line is the last
line of the text before the cursor that holds more than spaces, at most its last
`max_bytes` bytes; it is framed by 0x02 (only when its start is within those bytes) and 0x03;
every run of 1 to `max_order` bytes is hashed by 32-bit FNV-1a, started from the offset basis
xor the run's length, into `buckets` (a power of two) by the hash's low bits. A line's
features are its runs' counts per bucket divided by the square root of the number of runs.
The file holds `weight` [buckets, labels] and `bias` [labels] with the blend scale folded in
(and the code shift added to the bias): the engine adds weight . x + bias to log P_model.

  build/bin/keydecide eval context-states --model models/en/model.q8.safetensors \\
      --labeled TRAIN.tsv --out /tmp/train.f32            # the same for DEV and TUNE
  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.intent_ngrams \\
      --model models/en/model.q8.safetensors --train TRAIN.tsv \\
      --eval dev data/en/intent_dev.tsv /tmp/dev.f32 --eval tune TUNE.tsv /tmp/tune.f32 \\
      --scales 1 2 4 8 --shifts 0 -2 -4 [--out models/en/intent_ngrams.safetensors \\
      --scale S --shift D]

TRAIN.tsv comes from the training split (`make_intent_eval --split train`), whole lines; with
--prefixes K each line also gives K of its prefixes, cut at random characters, under its label:
while a line is typed the engine reads only its beginning, and a chat message is a short line,
which among whole training lines only URLs are ("Yes. " read as a URL without them). Each fit is
printed per eval set and class for every (scale, code shift); with --out, the fit is written
with the --scale and --shift chosen from that table.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Sequence

import numpy as np
import torch

from .export import write_tensor_file
from .fit_intent_head import load_states, read_head

FORMAT = "keydecide-intent-ngrams"
FORMAT_VERSION = "1"
FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193


def intent_line(text: bytes, max_bytes: int) -> tuple[bytes, bool]:
    """The last line of `text` with more than spaces (b"" when none), at most its last
    `max_bytes` bytes, and whether its start is among them."""
    end = len(text)
    while True:
        start = text.rfind(b"\n", 0, end) + 1
        line = text[start:end]
        if line.strip(b" \t\r") or start == 0:
            break
        end = start - 1
    if not line.strip(b" \t\r"):
        return b"", True
    if len(line) > max_bytes:
        return line[-max_bytes:], False
    return line, True


def line_buckets(text: bytes, buckets: int, max_order: int, max_bytes: int) -> list[int]:
    """The bucket of every byte run of the framed line (a bucket once per run)."""
    line, whole = intent_line(text, max_bytes)
    framed = (b"\x02" if whole else b"") + line + b"\x03"
    mask = buckets - 1
    out = []
    for n in range(1, max_order + 1):
        for i in range(len(framed) - n + 1):
            h = FNV_OFFSET ^ n
            for byte in framed[i:i + n]:
                h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFF
            out.append(h & mask)
    return out


def read_labeled(tsv: Path) -> tuple[list[str], list[bytes]]:
    """The labels and the texts (as UTF-8) of a label<TAB>text file, the lines
    fit_intent_head reads."""
    rows = [line.split("\t", 1)
            for line in tsv.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [label for label, _ in rows], [text.encode("utf-8") for _, text in rows]


def with_prefixes(labels: Sequence[str], texts: Sequence[bytes], k: int,
                  seed: int = 0) -> tuple[list[str], list[bytes]]:
    """The lines and, for each line of two characters or more, `k` of its prefixes (the
    line as typed so far, cut after a random character, never inside one), with its label."""
    rng = np.random.default_rng(seed)
    out_labels, out_texts = list(labels), list(texts)
    for label, text in zip(labels, texts):
        chars = text.decode("utf-8")
        if len(chars) < 2:
            continue
        for cut in rng.integers(1, len(chars), size=k):
            out_labels.append(label)
            out_texts.append(chars[:cut].encode("utf-8"))
    return out_labels, out_texts


def feature_matrix(texts: Sequence[bytes], buckets: int, max_order: int,
                   max_bytes: int) -> torch.Tensor:
    """Sparse [len(texts), buckets]: counts per bucket / sqrt(runs), as the engine reads."""
    rows, cols, vals = [], [], []
    for r, text in enumerate(texts):
        b = line_buckets(text, buckets, max_order, max_bytes)
        u, c = np.unique(np.array(b, dtype=np.int64), return_counts=True)
        rows.append(np.full(len(u), r))
        cols.append(u)
        vals.append(c / np.sqrt(len(b)))
    idx = torch.from_numpy(np.stack([np.concatenate(rows), np.concatenate(cols)]))
    val = torch.from_numpy(np.concatenate(vals).astype(np.float32))
    return torch.sparse_coo_tensor(idx, val, (len(texts), buckets)).coalesce()


def fit(x: torch.Tensor, y: np.ndarray, n_labels: int, l2: float, epochs: int = 300,
        lr: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression, classes weighted equally, by full-batch Adam: (weight [B, L], bias)."""
    torch.manual_seed(0)
    counts = np.maximum(np.bincount(y, minlength=n_labels), 1)
    sample_w = torch.from_numpy((1.0 / counts)[y] / (1.0 / counts)[y].sum()).float()
    target = torch.from_numpy(y)
    w = torch.zeros(x.shape[1], n_labels, requires_grad=True)
    b = torch.zeros(n_labels, requires_grad=True)
    opt = torch.optim.Adam([w, b], lr=lr)
    for _ in range(epochs):
        opt.zero_grad()
        z = torch.sparse.mm(x, w) + b
        loss = (torch.nn.functional.cross_entropy(z, target, reduction="none") * sample_w).sum()
        (loss + l2 * (w * w).sum()).backward()
        opt.step()
    return w.detach().numpy(), b.detach().numpy()


def per_class(z: np.ndarray, y: np.ndarray, n_labels: int) -> list[float | None]:
    pred = z.argmax(1)
    return [float((pred[y == c] == c).mean()) if (y == c).any() else None
            for c in range(n_labels)]


def write(path: Path, weight: np.ndarray, bias: np.ndarray, labels: Sequence[str], *,
          max_order: int, max_bytes: int, provenance: dict) -> int:
    """The engine's file: F16 weight [buckets, labels], F32 bias [labels]."""
    meta = {"format": FORMAT, "format_version": FORMAT_VERSION,
            "labels": json.dumps(list(labels)), "max_order": str(max_order),
            "max_bytes": str(max_bytes), "fitted": json.dumps(provenance, sort_keys=True)}
    w16 = np.ascontiguousarray(weight, dtype="<f2")
    if not np.isfinite(w16).all() or not np.isfinite(bias).all():
        raise ValueError("weights out of F16's range")
    return write_tensor_file(path, {"weight": w16, "bias": np.asarray(bias, dtype="<f4")}, meta)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True, help="the model whose head it joins")
    ap.add_argument("--train", type=Path, required=True, help="label<TAB>line training file")
    ap.add_argument("--eval", nargs=3, action="append", default=[],
                    metavar=("NAME", "TSV", "STATES"))
    ap.add_argument("--buckets-log2", type=int, default=15)
    ap.add_argument("--max-order", type=int, default=4)
    ap.add_argument("--max-bytes", type=int, default=160)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--prefixes", type=int, default=0,
                    help="prefixes of each training line added under its label")
    ap.add_argument("--scales", type=float, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--shifts", type=float, nargs="+", default=[0, -2, -4])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--scale", type=float, help="with --out: the blend scale written")
    ap.add_argument("--shift", type=float, help="with --out: the code shift written")
    args = ap.parse_args()
    if args.out is not None and (args.scale is None or args.shift is None):
        ap.error("--out needs --scale and --shift")
    labels, head_w, head_b = read_head(args.model)
    code = labels.index("code")
    buckets = 1 << args.buckets_log2
    geometry = (buckets, args.max_order, args.max_bytes)
    train_labels, train_texts = with_prefixes(*read_labeled(args.train), args.prefixes)
    train_y = np.array([labels.index(label) for label in train_labels])
    x = feature_matrix(train_texts, *geometry)
    w, b = fit(x, train_y, len(labels), args.l2, args.epochs)
    print("labels: " + " / ".join(labels))
    sets = []
    for name, tsv, states in args.eval:
        s, y = load_states(Path(tsv), Path(states), labels, head_w.shape[1])
        model_z = s @ head_w.T + head_b
        model_z -= model_z.max(1, keepdims=True)
        log_p = model_z - np.log(np.exp(model_z).sum(1, keepdims=True))
        texts = read_labeled(Path(tsv))[1]
        z = torch.sparse.mm(feature_matrix(texts, *geometry), torch.from_numpy(w)).numpy() + b
        sets.append((name, log_p, z, y))

    def show(z_of, tag: str) -> None:
        parts = [f"{name} " + " / ".join("-" if a is None else f"{a:.3f}"
                                         for a in per_class(z_of(lp, nz), y, len(labels)))
                 for name, lp, nz, y in sets]
        print(f"{tag}: " + "; ".join(parts), flush=True)

    show(lambda lp, nz: lp, "model alone")
    show(lambda lp, nz: nz, "n-grams alone")
    for scale in args.scales:
        for shift in args.shifts:
            d = np.zeros(len(labels))
            d[code] = shift
            show(lambda lp, nz: lp + scale * nz + d, f"scale {scale:g} code{shift:+g}")
    if args.out is not None:
        d = np.zeros(len(labels), dtype=np.float32)
        d[code] = args.shift
        n = write(args.out, args.scale * w, args.scale * b + d, labels, max_order=args.max_order,
                  max_bytes=args.max_bytes,
                  provenance={"train": args.train.name, "lines": int(len(train_y)),
                              "prefixes": args.prefixes,
                              "l2": args.l2, "epochs": args.epochs, "scale": args.scale,
                              "code_shift": args.shift, "model": args.model.name})
        print(f"{n} bytes -> {args.out}")


if __name__ == "__main__":
    main()
