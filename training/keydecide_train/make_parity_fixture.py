"""Make the C++ parity fixture: a tiny model trained for a few steps, and the outputs
PyTorch computes for it.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_parity_fixture \
      --out tests/fixtures/model

writes OUT/tiny.safetensors (F32, the contract's file) and OUT/parity.json:

  {"model": "tiny.safetensors", "tolerance": 1e-4, "config": {...file config...},
   "sequences": [{"name", "note", "tokens": [ids], "intervals": [buckets],
                  "backspace": [flags],
                  "expected": {"word_logits": [[V - word_offset floats] per position],
                               "popup": [p per position], "autocorrect": [p per position],
                               "intent": [[n_intent probs] per position]}}]}

Every output is float32 from the weights as read back from the file, at every position
of a full (re-)encode of the sequence; an incremental (KV cache) pass must give the same.
Deterministic: seeded, CPU, inline corpus (tiny_corpus.py), no DataLoader workers.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

import torch

from . import dataset as D
from . import tokens as T
from . import train as TR
from .export import export_model, model_from_file
from .tiny_corpus import write_tiny_data
from .typing_sim import Typed

CONFIG = Path(__file__).resolve().parents[1] / "config" / "tiny.json"


def parity_sequences(cfg: dict, corpus: D.Corpus) -> list[dict]:
    """A few sessions: simulated ones, hand-made ones covering every interval bucket and
    the backspace flag, and one exactly max_len long."""
    max_len = cfg["model"]["max_len"]
    sim = D.make_simulator(cfg, corpus)
    sampler = D.ExampleSampler(corpus, sim, cfg)
    rng = random.Random(20240601)
    seqs = []
    for i in range(2):
        ex = sampler.sample(rng)
        seqs.append({"name": f"simulated_{i}",
                     "note": f"target {ex.target!r} typed {ex.typed!r} ({ex.kind})",
                     "tokens": ex.tokens, "intervals": ex.buckets, "backspace": ex.backspace})
    vocab = T.Vocab(corpus.words)
    # Hand-made: "we should" + typing "probsbly" with a backspace-corrected slip.
    ctx = [vocab.word_index(t) for t in T.context_tokens("We should")]
    typed = Typed(keys=list("probably"), intervals_ms=[700, 50, 90, 120, 200, 300, 450, 80],
                  backspace=[0, 0, 0, 0, 1, 0, 0, 0])
    ex = sim.assemble(ctx, typed, "probably", vocab.word_index("probably"),
                      T.INTENT_LABELS.index("prose"), T.app_id("chat"))
    seqs.append({"name": "buckets_and_backspace",
                 "note": "every interval bucket 1..7, one after_backspace key, chat app",
                 "tokens": ex.tokens, "intervals": ex.buckets, "backspace": ex.backspace})
    # Exactly max_len: a long context (oldest dropped) and a URL being typed.
    long_ctx = [vocab.word_index(t) for t in T.context_tokens(
        " ".join(w for w in corpus.words[4:] if w.isalpha())[:1000])]
    typed = Typed(keys=list("www.exa"), intervals_ms=[900, 140, 130, 300, 160, 90, 110],
                  backspace=[0] * 7)
    ex = sim.assemble(long_ctx, typed, "www.example.org", T.URL, T.INTENT_LABELS.index("url"),
                      T.app_id("url"))
    assert len(ex.tokens) == max_len
    seqs.append({"name": "full_length", "note": f"exactly max_len={max_len} tokens",
                 "tokens": ex.tokens, "intervals": ex.buckets, "backspace": ex.backspace})
    # The shortest session: no context, one key, code app.
    seqs.append({"name": "one_key", "note": "[BOS] [APP=code] [SEP] 'x'",
                 "tokens": [T.BOS, T.app_id("code"), T.SEP, T.key_id("x")],
                 "intervals": [0, 0, 0, T.interval_bucket(250)], "backspace": [0, 0, 0, 0]})
    return seqs


def _rounded(x: torch.Tensor) -> list:
    # 9 significant digits round-trip a float32 exactly.
    return json.loads(json.dumps(x.tolist(), default=float),
                      parse_float=lambda s: float(f"{float(s):.9g}"))


def make_fixture(out: Path, steps: int = 40, log=print) -> dict:
    start = time.time()
    torch.manual_seed(0)
    cfg = D.load_config(CONFIG)
    cfg["train"]["num_workers"] = 0
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = write_tiny_data(Path(tmp) / "data")
        TR.train(cfg, data, Path(tmp) / "run", device="cpu", max_steps=steps,
                 log=lambda s: None, progress=False)
        ckpt = torch.load(Path(tmp) / "run" / "best.pt", map_location="cpu")
        corpus = D.Corpus(data / "cache", "dev", cfg)
        from .model import ModelConfig, TypingModel
        trained = TypingModel(ModelConfig.from_dict(ckpt["model_config"]))
        trained.load_state_dict(ckpt["model"])
        model_path = out / "tiny.safetensors"
        export_model(trained, ckpt["words"], model_path, "f32")
        seqs = parity_sequences(cfg, corpus)
    model, _ = model_from_file(model_path)  # expected values come from the file's weights
    for seq in seqs:
        args = [torch.tensor([seq[k]]) for k in ("tokens", "intervals", "backspace")]
        o = model.outputs(*args)
        o_mem = trained.eval().outputs(*args)
        assert all(torch.equal(o[k], o_mem[k]) for k in o), "file and model differ"
        seq["expected"] = {k: _rounded(v[0]) for k, v in o.items()}
    fixture = {"model": model_path.name, "tolerance": 1e-4,
               "config": model.cfg.file_config(), "sequences": seqs,
               "made_by": "keydecide_train.make_parity_fixture", "torch": torch.__version__}
    (out / "parity.json").write_text(json.dumps(fixture, separators=(",", ":")) + "\n")
    log(f"{out}/tiny.safetensors and parity.json: {len(seqs)} sequences, "
        f"{sum(len(s['tokens']) for s in seqs)} positions, {time.time() - start:.1f} s")
    return fixture


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--steps", type=int, default=40)
    args = ap.parse_args()
    make_fixture(args.out, args.steps)


if __name__ == "__main__":
    main()
