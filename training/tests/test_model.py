"""keydecide_train.model: shapes, names (= the weight file's), causality."""

import pytest

from conftest import need_torch

torch = need_torch()

from keydecide_train import export  # noqa: E402
from keydecide_train import tokens as T  # noqa: E402
from keydecide_train.model import ModelConfig, TypingModel, count_parameters  # noqa: E402


def tiny(vocab_size=60, max_len=16):
    torch.manual_seed(0)
    cfg = ModelConfig(n_layers=2, d_model=16, n_heads=2, d_ff=32, max_len=max_len,
                      vocab_size=vocab_size)
    return TypingModel(cfg).eval()


def batch(model, B=3, L=10):
    g = torch.Generator().manual_seed(1)
    tok = torch.randint(T.WORD_OFFSET, model.cfg.vocab_size, (B, L), generator=g)
    tok[:, 0], tok[:, 1], tok[:, 5] = T.BOS, T.app_id("chat"), T.SEP
    tok[:, 6:] = torch.randint(T.CHAR_BASE, T.WORD_OFFSET, (B, L - 6), generator=g)
    ivl = torch.zeros(B, L, dtype=torch.long)
    ivl[:, 6:] = torch.randint(1, 8, (B, L - 6), generator=g)
    bs = torch.zeros(B, L, dtype=torch.long)
    bs[:, 7] = 1
    return tok, ivl, bs


def test_parameter_names_and_shapes_are_the_files():
    model = tiny()
    shapes = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    assert shapes == export.expected_shapes(model.cfg.file_config())


def test_reference_size_fits_the_file_budget():
    cfg = ModelConfig(n_layers=4, d_model=256, n_heads=4, d_ff=1024, max_len=64,
                      vocab_size=20000)
    n = sum(int(torch.tensor(s).prod()) for s in export.expected_shapes(cfg.file_config()).values())
    assert n * 2 < 20_000_000  # fp16 under 20 MB (the vocabulary adds ~0.2 MB)


def test_output_shapes():
    model = tiny()
    tok, ivl, bs = batch(model)
    y = model(tok, ivl, bs)
    assert y.shape == (3, 10, 16)
    o = model.outputs(tok, ivl, bs)
    assert o["word_logits"].shape == (3, 10, model.cfg.vocab_size - T.WORD_OFFSET)
    assert o["popup"].shape == (3, 10) and o["autocorrect"].shape == (3, 10)
    assert o["intent"].shape == (3, 10, 4)
    assert torch.allclose(o["intent"].sum(-1), torch.ones(3, 10))
    assert ((o["popup"] > 0) & (o["popup"] < 1)).all()
    assert count_parameters(model) > 0


def test_tied_output_layer():
    model = tiny()
    y = torch.randn(4, 16)
    assert torch.allclose(model.word_logits(y), y @ model.tok_emb.weight[T.WORD_OFFSET:].T)


def test_causal_and_padding_invariant():
    model = tiny()
    tok, ivl, bs = batch(model)
    full = model.outputs(tok, ivl, bs)["word_logits"]
    tok2, ivl2 = tok.clone(), ivl.clone()
    tok2[:, 8:] = T.PAD
    ivl2[:, 8:] = 0
    part = model.outputs(tok2, ivl2, bs)["word_logits"]
    assert torch.allclose(full[:, :8], part[:, :8], atol=1e-6)
    prefix = model.outputs(tok[:, :4], ivl[:, :4], bs[:, :4])["word_logits"]
    assert torch.allclose(full[:, :4], prefix, atol=1e-5)


def test_interval_and_backspace_embeddings_matter():
    model = tiny()
    tok, ivl, bs = batch(model)
    a = model.outputs(tok, ivl, bs)["word_logits"]
    b = model.outputs(tok, ivl, torch.zeros_like(bs))["word_logits"]
    assert torch.allclose(a[:, :7], b[:, :7], atol=1e-6)
    assert not torch.allclose(a[:, 7:], b[:, 7:])


def test_sdpa_and_plain_attention_agree(monkeypatch):
    from keydecide_train import model as M
    if not M._HAS_SDPA:
        pytest.skip("this PyTorch has no scaled_dot_product_attention (1.13): plain path only")
    model = tiny()
    tok, ivl, bs = batch(model)
    a = model.outputs(tok, ivl, bs)["word_logits"]
    monkeypatch.setattr(M, "_HAS_SDPA", False)
    b = model.outputs(tok, ivl, bs)["word_logits"]
    assert torch.allclose(a, b, atol=1e-5)
