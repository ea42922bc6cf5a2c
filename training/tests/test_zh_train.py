"""A tiny zh training run on CPU (tiny_zh.json, inline corpus): loss goes down, the exported
file verifies, carries language and pinyin, and reads back to the same model."""

import json

import pytest

from conftest import need_torch, run_module

torch = need_torch()

from keydecide_train import export  # noqa: E402
from keydecide_train import train as TR  # noqa: E402
from keydecide_train import zh_data  # noqa: E402
from keydecide_train import zh_tokens as Z  # noqa: E402
from zh_fixtures import tiny_zh_config, tiny_zh_data  # noqa: E402,F401


@pytest.fixture(scope="module")
def run(tiny_zh_data, tiny_zh_config, tmp_path_factory):
    out = tmp_path_factory.mktemp("zh_run")
    result = TR.train(tiny_zh_config, tiny_zh_data, out, device="cpu", max_steps=40,
                      log=lambda s: None, progress=False)
    return out, result


def test_zh_training_reduces_the_loss(run):
    out, result = run
    hist = result["history"]
    assert hist[-1]["step"] == 40
    assert hist[-1]["loss/word"] < hist[0]["loss/word"] - 0.2
    best = result["best"]
    assert {"sep_top1", "sep_top3", "key_top1", "intent_acc_prose", "intent_acc_latin"} <= set(best)
    assert not any(k in best for k in ("intent_acc_code", "intent_acc_url"))
    assert len(best["intent_confusion"]) == 2
    for name in ("model.safetensors", "best.pt", "metrics.json", "model.json"):
        assert (out / name).stat().st_size > 0


def test_zh_file_verifies_and_carries_pinyin(run, tiny_zh_data, tiny_zh_config):
    out, _ = run
    path = out / "model.safetensors"
    tensors, config, words = export.verify_model_file(path)
    _, meta = export.read_safetensors(path)
    assert meta["language"] == "zh" and config["intent_labels"] == Z.INTENT_LABELS
    assert tensors["heads.intent.weight"].shape[0] == 2
    corpus = zh_data.Corpus(tiny_zh_data / "cache", "train", tiny_zh_config)
    assert words == corpus.words
    pinyin = meta["pinyin"].split("\n")
    assert pinyin[words.index("中国")] == "zhong'guo" and pinyin[words.index("git")] == ""
    done = run_module("export", "--verify", str(path), capture_output=True, text=True, check=True)
    assert ": ok," in done.stdout and "language zh" in done.stdout
    # export from the checkpoint writes the same metadata again (F16 this time).
    again = out / "again.safetensors"
    run_module("export", str(out / "best.pt"), str(again), "--dtype", "f16", capture_output=True,
               check=True)
    assert export.read_safetensors(again)[1]["pinyin"] == meta["pinyin"]
    model, _ = export.model_from_file(path)
    tok = torch.tensor([[1, 3, 40, 41, 2, 33, 15, 22]])
    zero = torch.zeros_like(tok)
    assert model.outputs(tok, zero, zero)["intent"].shape == (1, 8, 2)


def test_verify_rejects_broken_zh_files(run, tmp_path):
    out, _ = run
    tensors, meta = export.read_safetensors(out / "model.safetensors")
    config = json.loads(meta["config"])
    words = meta["words"].split("\n")

    def write(name, **extra):
        p = tmp_path / name
        export.write_safetensors(p, tensors, config, words, "f32", extra)
        return p

    with pytest.raises(ValueError, match="intent labels|constants"):
        export.verify_model_file(write("no_language.safetensors"))  # read as English
    with pytest.raises(ValueError, match="pinyin"):
        export.verify_model_file(write("no_pinyin.safetensors", language="zh"))
    short = "\n".join(meta["pinyin"].split("\n")[:-1])
    with pytest.raises(ValueError, match="lines"):
        export.verify_model_file(write("short.safetensors", language="zh", pinyin=short))
    with pytest.raises(ValueError, match="unknown language"):
        export.verify_model_file(write("xx.safetensors", language="xx", pinyin=meta["pinyin"]))
    with pytest.raises(ValueError, match="contract key"):
        write("clash.safetensors", words="x")


@pytest.mark.skipif(not torch.distributed.is_available(), reason="torch.distributed missing")
def test_zh_two_ranks_stay_identical(tiny_zh_data, tiny_zh_config, tmp_path):
    """DDP as test_ddp.py, on the zh pipeline (rank 0 builds nothing new: the cache exists)."""
    import time

    import torch.multiprocessing as mp
    from test_ddp import _free_port, _worker
    cfg = {**tiny_zh_config, "train": {**tiny_zh_config["train"], "eval_every_steps": 4,
                                       "log_every": 2, "eval_examples": 64}}
    ctx = mp.start_processes(_worker, args=(2, _free_port(), str(tiny_zh_data), str(tmp_path),
                                            cfg), nprocs=2, join=False, start_method="spawn")
    deadline = time.time() + 120
    while not ctx.join(timeout=1):
        if time.time() > deadline:
            for p in ctx.processes:
                p.kill()
            pytest.fail("DDP processes did not finish within 120 s")
    s0 = torch.load(tmp_path / "state0.pt")
    s1 = torch.load(tmp_path / "state1.pt")
    for k in s0:
        assert torch.equal(s0[k], s1[k]), k
    _, meta = export.read_safetensors(tmp_path / "model.safetensors")
    assert meta["language"] == "zh"
    export.verify_model_file(tmp_path / "model.safetensors")


def test_zh_vocab_from_keeps_a_continued_models_word_ids(run, tiny_zh_data, tiny_zh_config,
                                                         tmp_path):
    """data.vocab_from for zh: the cache takes the model file's words in its order (new source
    weights then keep the words), so --init-from accepts the file."""
    import copy
    import shutil

    out, _ = run
    model, words = export.model_from_file(out / "model.safetensors")
    reordered = words[:4] + words[4:][::-1]  # the specials stay first
    meta = export.read_safetensors(out / "model.safetensors")[1]
    export.export_model(model, reordered, tmp_path / "reordered.safetensors", "f32",
                        {k: meta[k] for k in ("language", "pinyin")})
    data = tmp_path / "data"
    shutil.copytree(tiny_zh_data, data)
    cfg = copy.deepcopy(tiny_zh_config)
    cfg["data"]["vocab_from"] = str(tmp_path / "reordered.safetensors")
    zh_data.ensure_cache(data, cfg, log=lambda s: None)
    strings = zh_data.read_cache_lines(data / "cache" / "strings.txt")
    assert strings[:len(reordered)] == reordered
    meta = json.loads((data / "cache" / "meta.json").read_text())
    zh_data._check_settings(meta, cfg)
    with pytest.raises(SystemExit, match="vocab_from"):
        zh_data._check_settings(meta, tiny_zh_config)


def test_keep_last_exports_the_last_evaluation(tiny_zh_data, tiny_zh_config, tmp_path):
    """train.keep "last": the exported model is the last evaluation's, better or not. The
    metric here is one that only grows (the evaluation's step), so "best" keeps the first."""
    import copy

    steps = {}
    for keep in ("best", "last"):
        cfg = copy.deepcopy(tiny_zh_config)
        cfg["train"].update(eval_every_steps=2, keep=keep, early_stopping_patience=100,
                            early_stopping_metric="step")
        result = TR.train(cfg, tiny_zh_data, tmp_path / keep, device="cpu", max_steps=6,
                          log=lambda s: None, progress=False)
        evaluated = [e["step"] for e in result["evals"]]
        assert len(evaluated) >= 2 and evaluated[-1] == 6
        steps[keep] = result["best_step"]
    assert steps == {"best": evaluated[0], "last": 6}
