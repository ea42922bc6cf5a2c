"""fit_popup: reads the replay's rows, fits a network that ranks them, writes what the engine reads."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from keydecide_train import fit_popup

NAMES = ["head_logit", "share_logit", "passed_1"]


def write_rows(path: Path, n: int, seed: int) -> None:
    """Rows whose label needs both a feature and an interaction: a linear fit cannot rank them."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    x[:, 2] = rng.integers(0, 2, size=n)
    logit = 2 * x[:, 0] + 3 * np.abs(x[:, 1]) - 4 * x[:, 2] - 1
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    with open(path, "w") as f:
        f.write("label\t" + "\t".join(NAMES) + "\n")
        for label, row in zip(y, x):
            f.write(str(label) + "".join(f"\t{v:.6g}" for v in row) + "\n")


def test_fits_a_network_that_ranks_held_out_rows(tmp_path: Path) -> None:
    for i in range(2):
        write_rows(tmp_path / f"r{i}.tsv", 3000, i)
    write_rows(tmp_path / "e.tsv", 3000, 9)
    out = tmp_path / "popup.json"
    assert fit_popup.main(["--rows", str(tmp_path / "r0.tsv"), str(tmp_path / "r1.tsv"),
                           "--eval", str(tmp_path / "e.tsv"), "--out", str(out),
                           "--hidden", "8", "--epochs", "200"]) == 0
    net = json.loads(out.read_text())
    assert net["format"] == "keydecide-popup" and net["version"] == 1
    assert net["features"] == NAMES
    assert np.asarray(net["hidden_weight"]).shape == (8, 3)
    assert len(net["hidden_bias"]) == len(net["output_weight"]) == 8
    _, x, y = fit_popup.read_rows(tmp_path / "e.tsv")
    # Ranks unseen rows well, better than the linear mix of the first two features can.
    assert fit_popup.auc(fit_popup.predict(net, x), y) > 0.85
    assert fit_popup.auc(fit_popup.predict(net, x), y) > fit_popup.auc(fit_popup.mix_score(x), y)


def test_without_a_feature_its_weights_are_zero(tmp_path: Path) -> None:
    write_rows(tmp_path / "r.tsv", 2000, 1)
    out = tmp_path / "popup.json"
    fit_popup.main(["--rows", str(tmp_path / "r.tsv"), "--out", str(out), "--hidden", "4",
                    "--epochs", "50", "--without", "passed_1"])
    net = json.loads(out.read_text())
    assert all(row[2] == 0 for row in net["hidden_weight"])
    assert net["without"] == ["passed_1"]
    with pytest.raises(ValueError, match="not one of"):
        fit_popup.main(["--rows", str(tmp_path / "r.tsv"), "--out", str(out),
                        "--without", "nonesuch"])


def test_auc_counts_ties_half() -> None:
    assert fit_popup.auc(np.array([0.1, 0.2, 0.3]), np.array([0, 0, 1])) == 1.0
    assert fit_popup.auc(np.array([0.5, 0.5]), np.array([0, 1])) == 0.5


def test_refuses_rows_that_are_not_the_replays(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("x\ty\n1\t2\n")
    with pytest.raises(ValueError, match="header"):
        fit_popup.read_rows(bad)
    bad.write_text("label\ta\tb\n1\t2\n")
    with pytest.raises(ValueError):
        fit_popup.read_rows(bad)
    bad.write_text("label\ta\n1\tnan\n")
    with pytest.raises(ValueError, match="finite"):
        fit_popup.read_rows(bad)
