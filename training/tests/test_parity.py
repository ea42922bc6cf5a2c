"""make_parity_fixture.py, and the contract itself: a plain numpy forward pass written
from docs/MODEL.md alone reproduces the fixture's PyTorch outputs from the file."""

import json
import math

import pytest

from conftest import need_torch

need_torch()
np = pytest.importorskip("numpy")

from keydecide_train import export  # noqa: E402
from keydecide_train import make_parity_fixture  # noqa: E402

_erf = np.vectorize(math.erf)


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def numpy_forward(t, cfg, tokens, intervals, backspace):
    """docs/MODEL.md "Architecture", in float64, one sequence."""
    d, H = cfg["d_model"], cfg["n_heads"]
    hd, L, eps = d // H, len(tokens), cfg["norm_eps"]
    t = {k: v.astype(np.float64) for k, v in t.items()}
    x = (t["tok_emb.weight"][tokens] + t["pos_emb.weight"][:L]
         + t["ivl_emb.weight"][intervals] + t["bs_emb.weight"][backspace])
    causal = np.triu(np.ones((L, L), bool), 1)
    for i in range(cfg["n_layers"]):
        p = f"layers.{i}."
        h = layer_norm(x, t[p + "ln1.weight"], t[p + "ln1.bias"], eps)
        qkv = h @ t[p + "attn.qkv.weight"].T + t[p + "attn.qkv.bias"]
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]  # rows: all q, all k, all v
        heads = []
        for j in range(H):
            s = slice(j * hd, (j + 1) * hd)
            att = q[:, s] @ k[:, s].T / math.sqrt(hd)
            att[causal] = -np.inf
            att = np.exp(att - att.max(-1, keepdims=True))
            heads.append((att / att.sum(-1, keepdims=True)) @ v[:, s])
        x = x + np.concatenate(heads, -1) @ t[p + "attn.out.weight"].T + t[p + "attn.out.bias"]
        h = layer_norm(x, t[p + "ln2.weight"], t[p + "ln2.bias"], eps)
        f = h @ t[p + "mlp.fc1.weight"].T + t[p + "mlp.fc1.bias"]
        f = 0.5 * f * (1 + _erf(f / math.sqrt(2)))  # exact GELU
        x = x + f @ t[p + "mlp.fc2.weight"].T + t[p + "mlp.fc2.bias"]
    y = layer_norm(x, t["ln_f.weight"], t["ln_f.bias"], eps)
    sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    intent = y @ t["heads.intent.weight"].T + t["heads.intent.bias"]
    intent = np.exp(intent - intent.max(-1, keepdims=True))
    return {"word_logits": y @ t["tok_emb.weight"][cfg["word_offset"]:].T,
            "popup": sig(y @ t["heads.popup.weight"].T + t["heads.popup.bias"])[:, 0],
            "autocorrect": sig(y @ t["heads.autocorrect.weight"].T
                               + t["heads.autocorrect.bias"])[:, 0],
            "intent": intent / intent.sum(-1, keepdims=True)}


def test_fixture_matches_an_independent_forward(tmp_path):
    make_parity_fixture.make_fixture(tmp_path, steps=10, log=lambda s: None)
    fixture = json.loads((tmp_path / "parity.json").read_text())
    tensors, cfg, words = export.verify_model_file(tmp_path / fixture["model"])
    assert cfg == fixture["config"]
    names = [s["name"] for s in fixture["sequences"]]
    assert "full_length" in names and "buckets_and_backspace" in names
    for seq in fixture["sequences"]:
        L = len(seq["tokens"])
        assert len(seq["intervals"]) == L == len(seq["backspace"]) <= cfg["max_len"]
        ref = numpy_forward(tensors, cfg, np.array(seq["tokens"]), np.array(seq["intervals"]),
                            np.array(seq["backspace"]))
        for key, want in seq["expected"].items():
            want = np.array(want)
            assert want.shape[0] == L
            assert np.abs(ref[key] - want).max() < fixture["tolerance"], (seq["name"], key)
        assert np.array(seq["expected"]["word_logits"]).shape[1] == len(words)
    full = next(s for s in fixture["sequences"] if s["name"] == "full_length")
    assert len(full["tokens"]) == cfg["max_len"]
