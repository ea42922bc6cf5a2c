"""Make the C++ fine-tuning parity fixture: the loss and gradients PyTorch's autograd computes
for a LogitAdapter (src/model/logit_adapter.h) on a few examples, which the C++ trainer
(src/model/adapter_trainer.h, AdapterLoss) must reproduce.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_adapter_fixture --out DIR

writes DIR/adapter_parity.json:

  {"rank", "d_model", "n_words", "a": [rank*d], "u": [n_words*rank], "bias": [n_words],
   "examples": [{"y": [d], "words": [target, others...], "base": [logits]}],
   "expected": {"loss": [per example], "grad_a", "grad_u", "grad_bias": summed over examples}}

The loss of an example: -log softmax(base + bias[w] + U[w] . (A y))[0] over its words.
Deterministic: seeded, float64 on CPU (the C++ side is float32; the test's tolerance says so).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch


def make_fixture(out: Path, seed: int = 20261203) -> dict:
    g = torch.Generator().manual_seed(seed)
    rank, d, n_words, n_examples, k = 3, 12, 20, 6, 7
    a = (torch.randn(rank, d, generator=g, dtype=torch.float64) * 0.3).requires_grad_()
    u = (torch.randn(n_words, rank, generator=g, dtype=torch.float64) * 0.3).requires_grad_()
    bias = (torch.randn(n_words, generator=g, dtype=torch.float64) * 0.3).requires_grad_()
    examples = []
    for _ in range(n_examples):
        y = torch.randn(d, generator=g, dtype=torch.float64)
        words = torch.randperm(n_words, generator=g)[:k]
        base = torch.randn(k, generator=g, dtype=torch.float64) * 2
        # float32 values, as the C++ side reads them
        y, base = y.float().double(), base.float().double()
        examples.append({"y": y.tolist(), "words": words.tolist(), "base": base.tolist()})
    # the adapter as float32, as the C++ side holds it; gradients at those values
    with torch.no_grad():
        for p in (a, u, bias):
            p.copy_(p.float().double())
    total = torch.zeros((), dtype=torch.float64)
    losses = []
    for ex in examples:
        y = torch.tensor(ex["y"], dtype=torch.float64)
        words = torch.tensor(ex["words"])
        base = torch.tensor(ex["base"], dtype=torch.float64)
        loss = -torch.log_softmax(base + bias[words] + u[words] @ (a @ y), dim=0)[0]
        losses.append(loss.item())
        total = total + loss
    total.backward()
    fixture = {"rank": rank, "d_model": d, "n_words": n_words,
               "a": a.detach().flatten().tolist(), "u": u.detach().flatten().tolist(),
               "bias": bias.detach().tolist(), "examples": examples,
               "expected": {"loss": losses, "grad_a": a.grad.flatten().tolist(),
                            "grad_u": u.grad.flatten().tolist(),
                            "grad_bias": bias.grad.tolist()},
               "made_by": "keydecide_train.make_adapter_fixture", "torch": torch.__version__}
    out.mkdir(parents=True, exist_ok=True)
    (out / "adapter_parity.json").write_text(json.dumps(fixture) + "\n")
    return fixture


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    make_fixture(ap.parse_args().out)


if __name__ == "__main__":
    main()
