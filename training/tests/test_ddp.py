"""DistributedDataParallel: two processes on gloo/CPU train the tiny model a few steps and
end with identical parameters (as torchrun --nproc_per_node 2 would run train.py)."""

import os
import socket
import time

import pytest

from conftest import need_torch

torch = need_torch()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _worker(rank: int, world: int, port: int, data: str, out: str, cfg: dict) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE=str(world), LOCAL_RANK=str(rank), LOCAL_WORLD_SIZE=str(world))
    from keydecide_train import train as TR
    result = TR.train(cfg, data, out, device="cpu", max_steps=8, log=lambda s: None,
                      progress=False, return_state=True)
    torch.save(result["state"], os.path.join(out, f"state{rank}.pt"))


@pytest.mark.skipif(not torch.distributed.is_available(), reason="torch.distributed missing")
def test_two_ranks_stay_identical(tiny_data, tiny_config, tmp_path):
    import torch.multiprocessing as mp
    cfg = {**tiny_config, "train": {**tiny_config["train"], "eval_every_steps": 4,
                                    "log_every": 2}}
    ctx = mp.start_processes(_worker, args=(2, _free_port(), str(tiny_data), str(tmp_path), cfg),
                             nprocs=2, join=False, start_method="spawn")
    deadline = time.time() + 120  # a hang must fail the test, not stall the suite
    while not ctx.join(timeout=1):
        if time.time() > deadline:
            for p in ctx.processes:
                p.kill()
            pytest.fail("DDP processes did not finish within 120 s")
    s0 = torch.load(tmp_path / "state0.pt")
    s1 = torch.load(tmp_path / "state1.pt")
    assert s0.keys() == s1.keys()
    for k in s0:
        assert torch.equal(s0[k], s1[k]), k
    # ... and they did train (the ranks draw different examples, so only the gradient
    # all-reduce keeps them equal).
    from keydecide_train import export
    _, _, words = export.verify_model_file(tmp_path / "model.safetensors")  # rank 0 exported
    from keydecide_train.model import ModelConfig, TypingModel
    torch.manual_seed(tiny_config["train"]["seed"])
    init = TypingModel(ModelConfig.from_dict({**tiny_config["model"],
                                              "vocab_size": 36 + len(words)}))
    assert not torch.equal(init.state_dict()["tok_emb.weight"], s0["model.tok_emb.weight"])
