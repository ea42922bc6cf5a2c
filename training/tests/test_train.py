"""Training smoke test (tiny config, inline corpus) and the weight file round trip."""

import json
import struct

import pytest

from conftest import need_torch

torch = need_torch()

from keydecide_train import export  # noqa: E402
from keydecide_train import tokens as T  # noqa: E402
from keydecide_train import train as TR  # noqa: E402
from keydecide_train.model import ModelConfig, TypingModel  # noqa: E402


@pytest.fixture(scope="module")
def run(tiny_data, tiny_config, tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    result = TR.train(tiny_config, tiny_data, out, device="cpu", max_steps=20,
                      log=lambda s: None, progress=False)
    return out, result


def test_training_reduces_the_loss(run):
    out, result = run
    hist = result["history"]
    assert hist[0]["step"] == 5 and hist[-1]["step"] == 20
    assert hist[-1]["loss/word"] < hist[0]["loss/word"] - 0.2
    assert hist[-1]["loss/lm"] < hist[0]["loss/lm"]
    assert result["evals"] and "popup_auc" in result["evals"][-1]
    for name in ("model.safetensors", "best.pt", "metrics.json", "curves.png", "model.json"):
        assert (out / name).stat().st_size > 0
    metrics = json.loads((out / "metrics.json").read_text())  # strict JSON (no NaN)
    assert metrics["best_step"] in (10, 20)
    assert set(metrics["best"]) >= {"sep_top1", "sep_top3", "key_top1", "key_top3",
                                    "popup_auc", "autocorrect_precision", "autocorrect_recall",
                                    "intent_acc_prose", "intent_acc_code", "intent_acc_url",
                                    "intent_acc_command"}


def test_export_round_trip_gives_identical_logits(run):
    out, _ = run
    ckpt = torch.load(out / "best.pt", map_location="cpu")
    model = TypingModel(ModelConfig.from_dict(ckpt["model_config"])).eval()
    model.load_state_dict(ckpt["model"])
    loaded, words = export.model_from_file(out / "model.safetensors")  # F32 (tiny config)
    assert words == ckpt["words"]
    tok = torch.tensor([[1, 3, 40, 41, 2, 10, 12, 20]])
    ivl = torch.tensor([[0, 0, 0, 0, 0, 7, 3, 2]])
    bs = torch.tensor([[0, 0, 0, 0, 0, 0, 1, 0]])
    a, b = model.outputs(tok, ivl, bs), loaded.outputs(tok, ivl, bs)
    for k in a:
        assert torch.equal(a[k], b[k]), k
    # F16: the same model within half precision.
    export.export_model(model, words, out / "half.safetensors", "f16")
    half, _ = export.model_from_file(out / "half.safetensors")
    c = half.outputs(tok, ivl, bs)
    assert torch.allclose(a["word_logits"], c["word_logits"], atol=2e-2)


def test_file_layout(run):
    out, _ = run
    data = (out / "model.safetensors").read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    assert (8 + n) % 8 == 0  # data starts 8-byte aligned; the header is space-padded
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__")
    assert meta["format"] == "keydecide-model" and meta["format_version"] == "1"
    assert all(isinstance(v, str) for v in meta.values())
    config = json.loads(meta["config"])
    assert set(config) == {"n_layers", "d_model", "n_heads", "d_ff", "max_len", "vocab_size",
                           "word_offset", "n_interval_buckets", "interval_edges_ms", "norm_eps",
                           "intent_labels", "app_types"}
    assert config["interval_edges_ms"] == [60, 100, 150, 220, 350, 600]
    words = meta["words"].split("\n")
    assert words[:4] == ["<unk>", "<num>", "<url>", "<email>"]
    assert len(words) == config["vocab_size"] - config["word_offset"]
    spans = sorted(tuple(v["data_offsets"]) for v in header.values())
    assert spans[0][0] == 0 and spans[-1][1] == len(data) - 8 - n
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))  # no holes
    assert all(v["dtype"] == "F32" for v in header.values())


def test_corrupted_files_are_rejected(run, tmp_path):
    good = (run[0] / "model.safetensors").read_bytes()
    (n,) = struct.unpack("<Q", good[:8])
    cases = {
        "truncated": good[:-10],
        "short": good[:5],
        "huge_header": struct.pack("<Q", 1 << 40) + good[8:],
        "bad_json": good[:8] + b"[" + good[9:],
        "trailing": good + b"\0" * 8,
    }
    for name, blob in cases.items():
        path = tmp_path / f"{name}.safetensors"
        path.write_bytes(blob)
        with pytest.raises(ValueError):
            export.verify_model_file(path)


def test_lr_schedule():
    tcfg = {"lr": 1.0, "min_lr_ratio": 0.1, "warmup_steps": 10, "schedule": "cosine"}
    assert TR.lr_at(0, 0.0, tcfg) == pytest.approx(0.1)
    assert TR.lr_at(9, 0.0, tcfg) == pytest.approx(1.0)
    assert TR.lr_at(50, 0.5, tcfg) == pytest.approx(0.55)
    assert TR.lr_at(100, 1.0, tcfg) == pytest.approx(0.1)


def test_auc():
    np = pytest.importorskip("numpy")
    assert TR.auc(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1])) == pytest.approx(0.75)
    assert TR.auc(np.array([0.5, 0.5]), np.array([0, 1])) == pytest.approx(0.5)


def test_time_budget_stops_in_time_and_exports(tiny_data, tiny_config, tmp_path):
    # A budget already used up by the reserve for the final evaluation: stop at the first
    # check, still evaluate and export the best checkpoint.
    result = TR.train(tiny_config, tiny_data, tmp_path, device="cpu", max_steps=10_000,
                      time_budget_min=0.05, log=lambda s: None, progress=False)
    assert result["stop_reason"] == "time_budget"
    assert result["steps"] == tiny_config["train"]["log_every"]
    export.verify_model_file(tmp_path / "model.safetensors")


def test_popup_first_hit_labels():
    # Two sessions, 5 positions each; session 0 hits at position 2, session 1 never.
    logits = torch.tensor([[0.0, 1, 2, 3, 4]] * 6)  # word 4 best, then 3, 2
    target = torch.tensor([0, 4, 4, 1, 1, 1])
    left = torch.tensor([5, 4, 1, 3, 2, 1])
    letter = torch.tensor([True, True, True, False, True])  # word 3: punctuation
    lab = TR.popup_labels(logits, target, left, letter)
    # Top 3 among letter words: 4, 2, 1. Word 4 with 1 letter left is no hit.
    assert lab.tolist() == [False, True, False, True, True, False]
    example = torch.tensor([0, 0, 0, 1, 1, 1])
    position = torch.tensor([1, 2, 3, 1, 2, 3])
    keep = TR.first_hit_mask(lab, example, 2, 5, position)
    assert keep.tolist() == [True, True, False, True, False, False]
    assert TR.letter_word_mask(["<unk>", "<num>", "<url>", "<email>", "the", ",", "x2"]).tolist() \
        == [False, False, False, False, True, False, True]


def test_vocab_from_keeps_a_continued_models_word_ids(run, tiny_data, tiny_config, tmp_path):
    """data.vocab_from: the cache takes its vocabulary from a model file, in that file's
    order, so --init-from accepts the file even where today's counts would order it else."""
    import copy
    import shutil

    from keydecide_train import dataset as D
    out, _ = run
    model, words = export.model_from_file(out / "model.safetensors")
    reordered = words[:4] + words[4:][::-1]  # the specials stay first
    export.export_model(model, reordered, tmp_path / "reordered.safetensors", "f32")
    data = tmp_path / "data"
    shutil.copytree(tiny_data, data)
    cfg = copy.deepcopy(tiny_config)
    with pytest.raises(ValueError, match="vocabulary is not the start"):
        TR.train(cfg, data, tmp_path / "plain", device="cpu", max_steps=1, log=lambda s: None,
                 progress=False, init_from=tmp_path / "reordered.safetensors")
    cfg["data"]["vocab_from"] = str(tmp_path / "reordered.safetensors")
    D.ensure_cache(data, cfg, log=lambda s: None)
    strings = D.read_cache_lines(data / "cache" / "strings.txt")
    assert strings[:len(reordered)] == reordered
    # A copied cache (no text to rebuild it) must match the config's vocabulary source.
    meta = json.loads((data / "cache" / "meta.json").read_text())
    D._check_settings(meta, cfg)
    with pytest.raises(SystemExit, match="vocab_from"):
        D._check_settings(meta, tiny_config)
    result = TR.train(cfg, data, tmp_path / "continued", device="cpu", max_steps=1,
                      log=lambda s: None, progress=False,
                      init_from=tmp_path / "reordered.safetensors")
    assert result["history"] or result["evals"]


def test_a_grown_vocabulary_continues_the_old_models_rows(run, tiny_data, tiny_config, tmp_path):
    """data.vocab_from with a larger vocab_size: the model's words first, then the most
    frequent others; --init-from keeps every old row and starts the new ones among the
    rare old words (TR.grown_embedding)."""
    import copy
    import shutil

    from keydecide_train import dataset as D
    out, _ = run
    model, words = export.model_from_file(out / "model.safetensors")
    small = words[:len(words) - 6]  # a model that lacks the six least frequent words
    table = model.tok_emb.weight.detach()[:T.WORD_OFFSET + len(small)]
    cut = TypingModel(ModelConfig.from_dict({**model.cfg.file_config(),
                                             "vocab_size": table.shape[0]}))
    state = model.state_dict()
    state["tok_emb.weight"] = table
    cut.load_state_dict(state)
    export.export_model(cut, small, tmp_path / "small.safetensors", "f32")
    data = tmp_path / "data"
    shutil.copytree(tiny_data, data)
    cfg = copy.deepcopy(tiny_config)
    cfg["data"]["vocab_from"] = str(tmp_path / "small.safetensors")
    D.ensure_cache(data, cfg, log=lambda s: None)
    strings = D.read_cache_lines(data / "cache" / "strings.txt")
    assert strings[:len(small)] == small and len(set(strings[:len(words)])) == len(words)
    cfg["train"]["lr"] = 0.0  # one step that moves nothing: the rows as initialised
    TR.train(cfg, data, tmp_path / "grown", device="cpu", max_steps=1, log=lambda s: None,
             progress=False, init_from=tmp_path / "small.safetensors")
    grown, grown_words = export.model_from_file(tmp_path / "grown" / "model.safetensors")
    assert grown_words[:len(small)] == small and len(grown_words) == len(words)
    rows = grown.tok_emb.weight.detach()
    assert torch.equal(rows[:table.shape[0]], table)
    new = rows[table.shape[0]:]
    tail = table[T.WORD_OFFSET:]
    assert new.shape[0] == 6 and not torch.equal(new[0], new[1])
    assert (new.mean(0) - tail.mean(0)).abs().mean() < 2 * tail.std(0).mean()


def test_a_deepened_model_computes_what_the_shallow_one_did(run, tiny_data, tiny_config,
                                                            tmp_path):
    """--init-from with more layers (TR.deepened_state): the added blocks copy the block
    before them with their output projections zeroed, so every output is unchanged; then
    they train."""
    import copy
    out, _ = run
    shallow, words = export.model_from_file(out / "model.safetensors")
    shallow.eval()
    n = shallow.cfg.n_layers
    deep = TypingModel(ModelConfig.from_dict({**shallow.cfg.file_config(), "n_layers": n + 2}))
    deep.load_state_dict(TR.deepened_state(shallow.state_dict(), n, n + 2))
    deep.eval()
    tok = torch.tensor([[1, 3, 40, 41, 2, 10, 12, 20]])
    ivl = torch.tensor([[0, 0, 0, 0, 0, 7, 3, 2]])
    bs = torch.tensor([[0, 0, 0, 0, 0, 0, 1, 0]])
    a, b = shallow.outputs(tok, ivl, bs), deep.outputs(tok, ivl, bs)
    for k in a:
        assert torch.allclose(a[k], b[k], atol=1e-5), k
    with pytest.raises(ValueError):
        TR.deepened_state(shallow.state_dict(), n, n - 1)
    # Through train(): the deeper run starts from the file and its added blocks move.
    cfg = copy.deepcopy(tiny_config)
    cfg["model"]["n_layers"] = n + 2
    TR.train(cfg, tiny_data, tmp_path / "deep", device="cpu", max_steps=3, log=lambda s: None,
             progress=False, init_from=out / "model.safetensors")
    trained, trained_words = export.model_from_file(tmp_path / "deep" / "model.safetensors")
    assert trained.cfg.n_layers == n + 2 and trained_words == words
    assert trained.layers[n + 1].mlp.fc2.weight.abs().sum() > 0  # the last copy learned


def test_distillation_pulls_a_smaller_model_towards_its_teacher(run, tiny_data, tiny_config,
                                                                 tmp_path):
    # A student of half the width distilled from the run's model (train.distill_from, the
    # word loss all KL to the teacher): the KL it reports falls well below where it started
    # and ends below the cross-entropy of the same student on the data alone (the teacher's
    # distribution is smoother than one-hot words); the teacher file is left as it was.
    out, _ = run
    teacher_file = out / "model.safetensors"
    before = teacher_file.read_bytes()

    def student(distill: bool, where) -> list[dict]:
        cfg = json.loads(json.dumps(tiny_config))
        cfg["model"]["d_model"] //= 2
        cfg["model"]["d_ff"] //= 2
        if distill:
            cfg["train"].update(distill_from=str(teacher_file), distill_weight=1.0)
        return TR.train(cfg, tiny_data, where, device="cpu", max_steps=20, log=lambda s: None,
                        progress=False)["history"]

    kd = student(True, tmp_path / "distilled")
    plain = student(False, tmp_path / "plain")
    assert kd[-1]["loss/word"] < 0.5 * kd[0]["loss/word"]
    assert kd[-1]["loss/word"] < plain[-1]["loss/word"]
    assert teacher_file.read_bytes() == before
