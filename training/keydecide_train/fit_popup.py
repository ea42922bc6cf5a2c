"""Fit the popup network (popup.json) on the rows of `keydecide replay --popup-features`.

  build/bin/keydecide replay --text T.txt --popup-features T.tsv      # one per tuning text
  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.fit_popup \
      --rows A.tsv B.tsv --out models/en/popup.json [--eval C.tsv]

Each row is one decision the replay made with the model: its label (1 when the intended word
was among the bar's three with at least two letters left to type: the replay's popup label)
and the features the engine computes (src/decide/popup_features.h). The network is
features -> standardise -> H ReLU units -> one logit, trained full-batch with Adam on the
cross-entropy, from a fixed seed. The rows must come from tuning text, never from the texts
the popup AUC is reported on (docs/MODEL.md, "Popup network").

It prints the AUC of the fitted network and of the shipped mix (the popup head with the
candidates' share, read back from the first two features) on every file, with each --rows
file also scored by a network fitted without it (leave one file out), so the gain is
measured on text the fit did not see.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
import torch

FORMAT = "keydecide-popup"
VERSION = 1
HEAD_SHARE = 0.8  # src/decide/popup_estimate.h, kPopupHeadShare: the mix the network replaces


def read_rows(path: Path) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(feature names, features [N, F] float32, labels [N] float32) of one replay dump."""
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if not header or header[0] != "label":
            raise ValueError(f"{path}: not a popup-features file (its header must start 'label')")
        data = np.loadtxt(f, delimiter="\t", dtype=np.float64, ndmin=2)
    if data.size == 0:
        raise ValueError(f"{path}: no rows")
    if data.shape[1] != len(header):
        raise ValueError(f"{path}: rows of {data.shape[1]} columns under a header of {len(header)}")
    if not np.isfinite(data).all():
        raise ValueError(f"{path}: a value is not finite")
    return header[1:], data[:, 1:].astype(np.float32), data[:, 0].astype(np.float32)


def auc(score: np.ndarray, label: np.ndarray) -> float:
    """Area under the ROC curve, ties counted half (as the replay's ReplayResult::PopupAuc)."""
    order = np.argsort(score, kind="mergesort")
    s, y = score[order], label[order] > 0.5
    ranks = np.arange(1, len(s) + 1, dtype=np.float64)
    _, start, count = np.unique(s, return_index=True, return_counts=True)
    for a, c in zip(start, count):
        if c > 1:
            ranks[a:a + c] = ranks[a:a + c].mean()
    pos, neg = int(y.sum()), int((~y).sum())
    if pos == 0 or neg == 0:
        return float("nan")
    return float((ranks[y].sum() - pos * (pos + 1) / 2) / (pos * neg))


def mix_score(x: np.ndarray) -> np.ndarray:
    """The engine's estimate without a network, as a logit: head_logit and share_logit mixed."""
    return HEAD_SHARE * x[:, 0] + (1 - HEAD_SHARE) * x[:, 1]


class PopupNet(torch.nn.Module):
    def __init__(self, features: int, hidden: int) -> None:
        super().__init__()
        self.hidden = torch.nn.Linear(features, hidden)
        self.output = torch.nn.Linear(hidden, 1)

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return self.output(torch.relu(self.hidden(z))).squeeze(-1)


def fit(x: np.ndarray, y: np.ndarray, hidden: int = 32, epochs: int = 300, lr: float = 1e-2,
        weight_decay: float = 1e-4, seed: int = 0) -> dict:
    """The fitted network as popup.json's fields (without names and provenance)."""
    torch.manual_seed(seed)
    mean = x.mean(0)
    scale = x.std(0)
    scale = np.where(scale > 1e-6, scale, 1.0).astype(np.float32)  # a constant feature
    z = torch.from_numpy((x - mean) / scale)
    t = torch.from_numpy(y)
    net = PopupNet(x.shape[1], hidden)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    for _ in range(epochs):
        opt.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(net(z), t)
        loss.backward()
        opt.step()
    return {
        "mean": [float(v) for v in mean],
        "scale": [float(v) for v in scale],
        "hidden_weight": net.hidden.weight.detach().double().tolist(),
        "hidden_bias": net.hidden.bias.detach().double().tolist(),
        "output_weight": net.output.weight.detach().double()[0].tolist(),
        "output_bias": float(net.output.bias.detach()[0]),
    }


def predict(fields: dict, x: np.ndarray) -> np.ndarray:
    """The network's logit per row, as the engine computes it (model/popup_net.cc)."""
    z = (x - np.asarray(fields["mean"])) / np.asarray(fields["scale"])
    h = np.maximum(z @ np.asarray(fields["hidden_weight"]).T + np.asarray(fields["hidden_bias"]), 0)
    return h @ np.asarray(fields["output_weight"]) + fields["output_bias"]


def without(x: np.ndarray, dropped: list[int]) -> np.ndarray:
    """x with the dropped features' columns zero (constant: the fit cannot use them)."""
    if not dropped:
        return x
    x = x.copy()
    x[:, dropped] = 0
    return x


def load(paths: list[Path]) -> tuple[list[str], list[tuple[np.ndarray, np.ndarray]]]:
    names: list[str] | None = None
    parts = []
    for p in paths:
        n, x, y = read_rows(p)
        if names is not None and n != names:
            raise ValueError(f"{p}: its features are not those of {paths[0]}")
        names = n
        parts.append((x, y))
    assert names is not None
    return names, parts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=Path, nargs="+", required=True,
                    help="replay dumps of tuning text to fit on")
    ap.add_argument("--eval", type=Path, nargs="*", default=[],
                    help="dumps only scored, never fitted on")
    ap.add_argument("--out", type=Path, required=True, help="the popup.json to write")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--without", nargs="*", default=[], metavar="FEATURE",
                    help="fit as if these features did not exist (their weights zero): what "
                    "each feature buys")
    args = ap.parse_args(argv)
    torch.set_num_threads(max(1, min(2, torch.get_num_threads())))

    names, parts = load(args.rows)
    if any(n not in names for n in args.without):
        raise ValueError(f"--without names a feature that is not one of {names}")
    dropped = sorted({names.index(n) for n in args.without})
    parts = [(without(x, dropped), y) for x, y in parts]
    report: dict[str, dict] = {}
    if len(parts) > 1:
        for i, p in enumerate(args.rows):
            rest = [parts[j] for j in range(len(parts)) if j != i]
            held = fit(np.concatenate([r[0] for r in rest]), np.concatenate([r[1] for r in rest]),
                       args.hidden, args.epochs, seed=args.seed)
            x, y = parts[i]
            report[str(p)] = {"rows": len(y), "mix_auc": auc(mix_score(x), y),
                              "net_auc_left_out": auc(predict(held, x), y)}
    fields = fit(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                 args.hidden, args.epochs, seed=args.seed)
    for row in fields["hidden_weight"]:
        for i in dropped:
            row[i] = 0.0  # the engine computes the feature anyway: it must count for nothing
    for i, p in enumerate(args.rows):
        x, y = parts[i]
        report.setdefault(str(p), {"rows": len(y), "mix_auc": auc(mix_score(x), y)})
        report[str(p)]["net_auc"] = auc(predict(fields, x), y)
    if args.eval:
        eval_names, eval_parts = load(args.eval)
        if eval_names != names:
            raise ValueError("the --eval files' features are not the --rows files'")
        for p, (x, y) in zip(args.eval, eval_parts):
            x = without(x, dropped)
            report[str(p)] = {"rows": len(y), "mix_auc": auc(mix_score(x), y),
                              "net_auc": auc(predict(fields, x), y)}
    out = {"format": FORMAT, "version": VERSION, "features": names, **fields,
           "fitted_on": {p.name: len(y) for p, (_, y) in zip(args.rows, parts)},
           "hidden_units": args.hidden, "epochs": args.epochs, "seed": args.seed,
           "without": list(args.without)}
    if not all(math.isfinite(v) for v in np.asarray(fields["hidden_weight"]).ravel()):
        raise ValueError("the fit diverged (a weight is not finite)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
