"""Train the typing model (docs/MODEL.md) on simulated typing of the training text.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.train --config training/config/en.json \
      --data data/en --out runs/en
  PYTHONPATH=training torchrun --nproc_per_node 2 -m keydecide_train.train \
      --config ... --out ...                                             (DDP)

Runs on CPU, one CUDA GPU (bf16 autocast) and under torchrun (DistributedDataParallel:
gloo on CPU, nccl on CUDA; only rank 0 logs and writes). Examples are sampled with fresh
noise in DataLoader workers from the token cache (dataset.py). Training is step based;
with --time-budget-min it also stops in time to evaluate and export the best checkpoint
before the budget ends, and the cosine schedule follows whichever of steps or time runs
out first. Outputs in --out: model.safetensors (best dev checkpoint), model.json (what
produced it), best.pt, metrics.json, curves.png.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import inspect
import json
import math
import os
import random
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

START_TIME = time.time()  # the time budget counts from here (imports included)

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.utils.data import DataLoader, IterableDataset, get_worker_info  # noqa: E402

from . import dataset as D  # noqa: E402
from . import tokens as T  # noqa: E402
from .export import export_model  # noqa: E402
from .model import ModelConfig, TypingModel, count_parameters  # noqa: E402
from .typing_sim import IGNORE, batch_arrays  # noqa: E402

TASKS = ["word", "lm", "popup", "autocorrect", "intent"]


def data_module(cfg: dict):
    """The data pipeline of the config's "language": dataset.py (en, the default) or
    zh_data.py (zh); both offer ensure_cache, Corpus, ExampleSampler, make_simulator,
    eval_examples and epoch_tokens."""
    language = cfg.get("language", "en")
    if language == "en":
        return D
    if language == "zh":
        from . import zh_data
        return zh_data
    raise ValueError(f"unknown language {language!r}")


def letter_word_mask(words: list[str]) -> torch.Tensor:
    """Word indices the engine offers as suggestions: real words (not <unk> <num> <url>
    <email>) holding a letter, as src/model's IsLetterWord. Punctuation is never shown."""
    return torch.tensor([i >= len(T.WORD_SPECIALS) and any(ch.isalpha() for ch in w)
                         for i, w in enumerate(words)], dtype=torch.bool)


def popup_labels(logits: torch.Tensor, target: torch.Tensor, left: torch.Tensor,
                 letter: torch.Tensor | None) -> torch.Tensor:
    """Popup label per word position: the target is among the 3 best suggestible words
    (letter words when `letter` is given) and at least 2 letters are left to type."""
    if letter is not None:
        logits = logits.masked_fill(~letter, float("-inf"))
    in_top3 = (logits.topk(3, dim=-1).indices == target[:, None]).any(-1)
    return in_top3 & (left >= 2)


def first_hit_mask(label: torch.Tensor, example: torch.Tensor, n_examples: int,
                   length: int, position: torch.Tensor) -> torch.Tensor:
    """Positions up to and including each example's first positive label. The replay asks
    the popup question only until the word can be picked (then it is picked), so only
    these positions are the head's real population."""
    grid = torch.zeros(n_examples, length, dtype=torch.int32, device=label.device)
    grid[example, position] = label.to(torch.int32)
    before = grid.cumsum(1) - grid  # positives strictly before each position
    return before[example, position] == 0


# --- distributed setup -----------------------------------------------------------------------

class Dist:
    """Rank, world size and device; torchrun sets RANK / WORLD_SIZE / LOCAL_RANK."""

    def __init__(self, device: str = "auto"):
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        self.local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        self.local_world = int(os.environ.get("LOCAL_WORLD_SIZE", str(self.world)))
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        if device.startswith("cuda"):
            if device == "cuda":
                device = f"cuda:{self.local_rank}"
            torch.cuda.set_device(torch.device(device))
        self.device = torch.device(device)
        self.ddp = self.world > 1
        # Tensors given to collectives stay referenced here until the group is destroyed:
        # a gloo worker thread dropping the last reference to a Python-owned tensor needs
        # the GIL, and waiting for it while the main thread tears the group down deadlocks
        # (seen with PyTorch 1.13).
        self._keep: list[torch.Tensor] = []
        if self.ddp and not dist.is_initialized():
            dist.init_process_group("nccl" if self.device.type == "cuda" else "gloo")

    @property
    def main(self) -> bool:
        return self.rank == 0

    def broadcast(self, values: list[float]) -> list[float]:
        """Rank 0's values on every rank (decisions that must agree: stop, eval, LR)."""
        if not self.ddp:
            return values
        t = torch.tensor(values, dtype=torch.float64, device=self.device)
        dist.broadcast(t, 0)
        self._keep.append(t)
        return t.tolist()

    def close(self) -> None:
        """Call after the DDP wrapper is gone (its reducer holds the group)."""
        if self.ddp and dist.is_initialized():
            dist.barrier()
            dist.destroy_process_group()
        self._keep.clear()


# --- data --------------------------------------------------------------------------------------

class TypingStream(IterableDataset):
    """Endless batches of fresh examples. Each (rank, worker) has its own random stream."""

    def __init__(self, corpus: D.Corpus, cfg: dict, batch_size: int, seed: int, rank: int):
        self.corpus, self.cfg = corpus, cfg
        self.batch_size, self.seed, self.rank = batch_size, seed, rank

    def __iter__(self) -> Iterator[dict[str, torch.Tensor]]:
        info = get_worker_info()
        worker = info.id if info is not None else 0
        rng = random.Random(D.worker_seed(self.seed, self.rank, worker))
        data = data_module(self.cfg)
        sampler = data.ExampleSampler(self.corpus, data.make_simulator(self.cfg, self.corpus),
                                      self.cfg)
        max_len = self.cfg["model"]["max_len"]
        while True:
            examples = [sampler.sample(rng) for _ in range(self.batch_size)]
            yield {k: torch.from_numpy(v) for k, v in batch_arrays(examples, max_len).items()}


def to_device(batch: dict[str, torch.Tensor], device: torch.device) -> dict[str, torch.Tensor]:
    return {k: v.to(device, non_blocking=True) for k, v in batch.items()}


def auto_workers(setting, local_world: int) -> int:
    if setting != "auto":
        return int(setting)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(12, (cpus or 2) // max(1, local_world) - 1))


# --- losses ------------------------------------------------------------------------------------

class TrainModule(nn.Module):
    """The model plus the learned loss weights (Kendall et al. 2018: each task's loss is
    scaled by exp(-s) and s/2 is added, s = log variance, learned). One module, so that
    DDP synchronises the loss weights with everything else."""

    def __init__(self, model: TypingModel, tcfg: dict,
                 letter_words: torch.Tensor | None = None,
                 teacher: TypingModel | None = None,
                 ngram=None, ngram_ctx: torch.Tensor | None = None):
        super().__init__()
        self.model = model
        # A general-language n-gram teacher (train.ngram_teacher, ngram_teacher.py, issue 47):
        # where the next word is predicted before any of its letters (at [SEP], and the lm
        # task's context positions), the loss mixes the data's word with the teacher's
        # distribution given the two words before, over the words the teacher knows, with
        # weight `ngram_weight`; at most `ngram_positions` positions a batch. Not a parameter.
        object.__setattr__(self, "ngram", ngram)
        self.ngram_ctx = ngram_ctx
        self.ngram_weight = float(tcfg.get("ngram_weight", 0.3))
        self.ngram_positions = int(tcfg.get("ngram_positions", 4096))
        # Distillation (train.distill_from): the word loss mixes the data's word with the
        # teacher's distribution over the vocabulary, KL at `distill_temperature`, weight
        # `distill_weight`. The teacher is frozen and kept out of the module's parameters
        # (and so out of DDP and the optimiser).
        object.__setattr__(self, "teacher", teacher)
        self.distill_weight = float(tcfg.get("distill_weight", 0.5))
        self.distill_temperature = float(tcfg.get("distill_temperature", 1.0))
        self.log_vars = nn.Parameter(torch.zeros(len(TASKS)))
        self.weighting = tcfg["loss_weighting"]
        self.min_log_var = float(tcfg.get("min_log_var", -3.0))
        self.use_lm = bool(tcfg["lm_loss"])
        self.fixed = [float(tcfg.get("task_weights", {}).get(t, 1.0)) for t in TASKS]
        # Popup label (README, Losses): "all" (every [SEP]/keystroke position, top 3 over
        # the whole vocabulary) or "first_hit" (top 3 among letter words, positions up to
        # the first hit of each session: what the replay measures).
        self.popup_first_hit = tcfg.get("popup_label", "all") == "first_hit"
        n_words = model.cfg.vocab_size - T.WORD_OFFSET
        # A plain tensor, not a buffer: DDP would broadcast buffers, and gloo has no bool.
        self.letter = (letter_words if letter_words is not None
                       else torch.ones(n_words, dtype=torch.bool))

    def to(self, *args, **kwargs):  # noqa: D102 (moves the letter mask and teacher along)
        out = super().to(*args, **kwargs)
        device = next(self.parameters()).device
        self.letter = self.letter.to(device)
        if self.ngram_ctx is not None:
            self.ngram_ctx = self.ngram_ctx.to(device)
        if self.teacher is not None:
            self.teacher.to(device)
        return out

    def distill_loss(self, b: dict[str, torch.Tensor], idx: torch.Tensor,
                     logits: torch.Tensor) -> torch.Tensor:
        """KL(teacher || student) per selected position, at the distillation temperature
        (scaled by its square so its gradients keep their size)."""
        t = self.distill_temperature
        with torch.no_grad():
            ty = self.teacher(b["tokens"], b["buckets"], b["backspace"])
            ty = ty.reshape(-1, ty.shape[-1])[idx]
            teacher_logp = F.log_softmax(self.teacher.word_logits(ty).float() / t, dim=-1)
        student_logp = F.log_softmax(logits / t, dim=-1)
        kl = F.kl_div(student_logp, teacher_logp, log_target=True, reduction="none").sum(-1)
        return kl * (t * t)

    def ngram_loss(self, b: dict[str, torch.Tensor], idx: torch.Tensor, logits: torch.Tensor,
                   w_sel: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(positions among idx, KL(teacher || student) there) for a sample of the positions
        that predict a word before its letters: [SEP] (its context ends the token before) and
        the lm task's context positions."""
        tokens = b["tokens"]
        flat_tokens = tokens.reshape(-1)
        is_sep = flat_tokens[idx] == T.SEP
        where = (is_sep | ~w_sel).nonzero().squeeze(1)
        if len(where) > self.ngram_positions:
            where = where[torch.randperm(len(where), device=where.device)[:self.ngram_positions]]
        older, last = self.ngram.contexts(tokens, self.ngram_ctx)
        at = idx[where] - is_sep[where].long()  # [SEP]: the context of the token before it
        with torch.no_grad():
            teacher_logp = self.ngram.log_probs(older.reshape(-1)[at], last.reshape(-1)[at])
        known = self.ngram.known
        student_logp = F.log_softmax(logits[where].masked_fill(~known, -1e4), dim=-1)
        p = teacher_logp.exp()
        kl = (p * (teacher_logp.masked_fill(~known, 0) - student_logp)).sum(-1)
        return where, kl

    def forward(self, b: dict[str, torch.Tensor]):
        m = self.model
        y = m(b["tokens"], b["buckets"], b["backspace"])
        B, L, Dm = y.shape
        yf = y.reshape(-1, Dm)
        word_t = b["word_target"].reshape(-1)
        lm_t = b["lm_target"].reshape(-1)
        is_word = word_t != IGNORE
        sel = (is_word | (lm_t != IGNORE)) if self.use_lm else is_word
        idx = sel.nonzero().squeeze(1)
        # Logits only where a loss needs them (not at padding): the tied output layer
        # over ~20k words is most of the model's arithmetic.
        ys = yf[idx]
        logits = m.word_logits(ys).float()
        w_sel = is_word[idx]
        target = torch.where(w_sel, word_t[idx], lm_t[idx])
        ce = F.cross_entropy(logits, target, reduction="none")
        if self.ngram is not None:
            where, kl = self.ngram_loss(b, idx, logits, w_sel)
            a = self.ngram_weight
            ce = ce.index_put((where,), (1 - a) * ce[where] + a * kl)
        losses = {"word": ce[w_sel].mean()}
        if self.teacher is not None:
            kd = self.distill_loss(b, idx, logits)
            a = self.distill_weight
            losses["word"] = (1 - a) * losses["word"] + a * kd[w_sel].mean()
        losses["lm"] = ce[~w_sel].mean() if self.use_lm else ce.new_zeros(())

        # Popup: label from the detached logits, "target in the top 3 now and >= 2 letters
        # left" (so picking it saves keystrokes); at [SEP] and every keystroke.
        yw, lw, tw = ys[w_sel], logits[w_sel].detach(), target[w_sel]
        left = b["letters_left"].reshape(-1)[idx][w_sel]
        if self.popup_first_hit:
            popup_label = popup_labels(lw, tw, left, self.letter)
            flat = idx[w_sel]
            keep = first_hit_mask(popup_label, flat // L, B, L, flat % L)
            popup_logit = m.heads.popup(yw[keep]).squeeze(-1).float()
            popup_label = popup_label[keep].float()
        else:
            popup_label = popup_labels(lw, tw, left, None).float()
            popup_logit = m.heads.popup(yw).squeeze(-1).float()
        losses["popup"] = F.binary_cross_entropy_with_logits(popup_logit, popup_label)

        # Autocorrect at the last keystroke: "the typed word is wrong and the top-1 is right".
        y_last = y[torch.arange(B, device=y.device), b["last_key"]]
        with torch.no_grad():
            top1 = m.word_logits(y_last.detach()).argmax(-1)
        word_last = b["word_target"].gather(1, b["last_key"][:, None]).squeeze(1)
        ac_label = (b["typed_wrong"] & b["pickable"] & (top1 == word_last)).float()
        ac_logit = m.heads.autocorrect(y_last).squeeze(-1).float()
        losses["autocorrect"] = F.binary_cross_entropy_with_logits(ac_logit, ac_label)

        # Intent at [SEP] and every keystroke.
        intent_t = b["intent"][:, None].expand(B, L).reshape(-1)[idx][w_sel]
        losses["intent"] = F.cross_entropy(m.heads.intent(yw).float(), intent_t)

        total = logits.new_zeros(())
        for i, task in enumerate(TASKS):
            if task == "lm" and not self.use_lm:
                total = total + 0.0 * self.log_vars[i]  # DDP wants a grad for every parameter
                continue
            if self.weighting == "uncertainty":
                s = self.log_vars[i].clamp(min=self.min_log_var)
                total = total + self.fixed[i] * (torch.exp(-s) * losses[task] + 0.5 * s)
            else:
                # Keep log_vars in the graph (DDP expects every parameter to get a grad).
                total = total + self.fixed[i] * losses[task] + 0.0 * self.log_vars[i]
        stats = {"popup_pos": popup_label.mean().detach(), "ac_pos": ac_label.mean().detach(),
                 "tokens": (b["tokens"] != T.PAD).sum().detach()}
        return total, {k: v.detach() for k, v in losses.items()}, stats


def make_optimizer(module: TrainModule, tcfg: dict, device: torch.device) -> torch.optim.Optimizer:
    decay, no_decay = [], []
    for name, p in module.named_parameters():
        # Matrices (embeddings included) decay; biases, norms and loss weights do not.
        (decay if p.dim() >= 2 else no_decay).append(p)
    groups = [{"params": decay, "weight_decay": tcfg["weight_decay"]},
              {"params": no_decay, "weight_decay": 0.0}]
    kwargs = {"lr": tcfg["lr"], "betas": tuple(tcfg["betas"])}
    if device.type == "cuda" and "fused" in inspect.signature(torch.optim.AdamW).parameters:
        kwargs["fused"] = True
    return torch.optim.AdamW(groups, **kwargs)


def lr_at(step: int, progress: float, tcfg: dict) -> float:
    """Linear warm-up over `warmup_steps`, then cosine from lr to lr * min_lr_ratio as
    `progress` (0..1, the larger of step and time progress) goes from warm-up end to 1."""
    base, floor = tcfg["lr"], tcfg["lr"] * tcfg["min_lr_ratio"]
    warm = tcfg["warmup_steps"]
    if step < warm:
        return base * (step + 1) / warm
    if tcfg.get("schedule", "cosine") == "constant":
        return base
    p = min(1.0, max(0.0, progress))
    return floor + 0.5 * (base - floor) * (1 + math.cos(math.pi * p))


# --- evaluation --------------------------------------------------------------------------------

def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """ROC AUC by the rank-sum (Mann-Whitney) formula, ties averaged."""
    labels = labels.astype(bool)
    n_pos, n_neg = int(labels.sum()), int((~labels).sum())
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores), float)
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):  # average ranks over ties
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[labels].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def amp_context(device: torch.device):
    if device.type == "cuda":
        return torch.autocast(device_type="cuda", dtype=torch.bfloat16)
    return contextlib.nullcontext()


@torch.no_grad()
def evaluate(model: TypingModel, batches: list[dict[str, torch.Tensor]],
             device: torch.device, letter: torch.Tensor | None = None,
             popup_first_hit: bool = False,
             intent_labels: list[str] | None = None) -> dict[str, float]:
    """Dev metrics on a fixed set of simulated sessions (see README, Metrics)."""
    was_training = model.training
    model.eval()
    a = eval_outputs(model, batches, device, letter, popup_first_hit)
    model.train(was_training)
    return dev_metrics(a, intent_labels or T.INTENT_LABELS)


def eval_outputs(model: TypingModel, batches: list[dict[str, torch.Tensor]],
                 device: torch.device, letter: torch.Tensor | None,
                 popup_first_hit: bool) -> dict[str, np.ndarray]:
    """What the metrics read, per position ([SEP] and keystrokes: ce, top-k, popup) or per
    session (at the last keystroke: autocorrect, intent), as numpy arrays."""
    acc: dict[str, list] = {k: [] for k in (
        "ce", "is_sep", "top1", "top3", "popup_p", "popup_y", "lm_ce", "ac_p", "typed_wrong",
        "pickable", "special", "top1_ok", "intent_pred", "intent_true")}
    for cpu_batch in batches:
        b = to_device(cpu_batch, device)
        with amp_context(device):
            y = model(b["tokens"], b["buckets"], b["backspace"])
        y = y.float()
        B = y.shape[0]
        word_t = b["word_target"]
        pos = (word_t != IGNORE).nonzero()  # [N, 2] (example, position): [SEP] and keys
        yw = y[pos[:, 0], pos[:, 1]]
        logits = model.word_logits(yw)
        tgt = word_t[pos[:, 0], pos[:, 1]]
        acc["ce"].append(F.cross_entropy(logits, tgt, reduction="none"))
        top3 = logits.topk(3, dim=-1).indices
        acc["top1"].append(top3[:, 0] == tgt)
        acc["top3"].append((top3 == tgt[:, None]).any(-1))
        acc["is_sep"].append(b["tokens"][pos[:, 0], pos[:, 1]] == T.SEP)
        left = b["letters_left"][pos[:, 0], pos[:, 1]]
        popup_y = popup_labels(logits, tgt, left, letter if popup_first_hit else None)
        popup_p = torch.sigmoid(model.heads.popup(yw).squeeze(-1))
        if popup_first_hit:  # the replay's population: until the word can be picked
            keep = first_hit_mask(popup_y, pos[:, 0], B, word_t.shape[1], pos[:, 1])
            popup_y, popup_p = popup_y[keep], popup_p[keep]
        acc["popup_y"].append(popup_y)
        acc["popup_p"].append(popup_p)
        lm_pos = (b["lm_target"] != IGNORE).nonzero()
        acc["lm_ce"].append(F.cross_entropy(model.word_logits(y[lm_pos[:, 0], lm_pos[:, 1]]),
                                            b["lm_target"][lm_pos[:, 0], lm_pos[:, 1]],
                                            reduction="none"))
        # At the last keystroke: autocorrect and intent.
        ar = torch.arange(B, device=device)
        y_last = y[ar, b["last_key"]]
        word_last = word_t[ar, b["last_key"]]
        acc["top1_ok"].append(model.word_logits(y_last).argmax(-1) == word_last)
        acc["ac_p"].append(torch.sigmoid(model.heads.autocorrect(y_last).squeeze(-1)))
        acc["typed_wrong"].append(b["typed_wrong"])
        acc["pickable"].append(b["pickable"])
        acc["special"].append((word_last == T.URL) | (word_last == T.EMAIL))
        acc["intent_pred"].append(model.heads.intent(y_last).argmax(-1))
        acc["intent_true"].append(b["intent"])
    a = {k: torch.cat(v).float().cpu().numpy() for k, v in acc.items()}
    a.update({k: a[k] > 0 for k in ("is_sep", "top1", "top3", "popup_y", "typed_wrong",
                                     "pickable", "special", "top1_ok")})
    return a


def dev_metrics(a: dict[str, np.ndarray], labels: list[str]) -> dict[str, float]:
    """The metrics of eval_outputs' arrays (README, Metrics)."""
    sep, key = a["is_sep"], ~a["is_sep"]
    m: dict[str, float] = {
        "dev_word_ce": float(a["ce"].mean()),
        "dev_lm_ce": float(a["lm_ce"].mean()) if len(a["lm_ce"]) else float("nan"),
        "sep_top1": float(a["top1"][sep].mean()), "sep_top3": float(a["top3"][sep].mean()),
        "key_top1": float(a["top1"][key].mean()), "key_top3": float(a["top3"][key].mean()),
        "popup_auc": auc(a["popup_p"], a["popup_y"]),
        "popup_pos_rate": float(a["popup_y"].mean()),
    }
    # Autocorrect at threshold 0.5, against the head's own label (typed word wrong and the
    # top-1 right) and as the engine would see it: a wrong vocabulary word fixed, or a
    # correctly typed word changed (it fires while the top-1 is another word).
    fire = a["ac_p"] > 0.5
    wrong = a["typed_wrong"] & a["pickable"]
    label = wrong & a["top1_ok"]
    right = ~a["typed_wrong"] & ~a["special"]
    m["autocorrect_precision"] = float((fire & label).sum()) / max(1.0, float(fire.sum()))
    m["autocorrect_recall"] = float((fire & label).sum()) / max(1.0, float(label.sum()))
    m["autocorrect_corrected_rate"] = float((fire & label).sum()) / max(1.0, float(wrong.sum()))
    m["autocorrect_false_rate"] = float((fire & right & ~(a["top1_ok"] & a["pickable"])).sum()) \
        / max(1.0, float(right.sum()))
    accs = []
    for i, name in enumerate(labels):
        mask = a["intent_true"] == i
        if mask.any():
            v = float((a["intent_pred"][mask] == i).mean())
            m[f"intent_acc_{name}"] = v
            accs.append(v)
    m["intent_acc"] = float((a["intent_pred"] == a["intent_true"]).mean())
    # Rows: true class, columns: predicted class (INTENT_LABELS order).
    n = len(labels)
    conf = np.zeros((n, n), int)
    np.add.at(conf, (a["intent_true"].astype(int), a["intent_pred"].astype(int)), 1)
    m["intent_confusion"] = conf.tolist()
    m["intent_acc_min_class"] = min(accs) if accs else float("nan")
    return m


# --- output ------------------------------------------------------------------------------------

def plot_curves(history: list[dict], evals: list[dict], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    steps = [h["step"] for h in history]
    ax = axes[0][0]
    for task in TASKS:
        vals = [h.get(f"loss/{task}") for h in history]
        if any(v is not None and v > 0 for v in vals):
            ax.plot(steps, vals, label=task)
    ax.set_yscale("log")
    ax.set_title("training losses")
    ax.set_xlabel("step")
    ax.legend()
    ax = axes[0][1]
    ax.plot(steps, [h["lr"] for h in history], label="lr")
    ax.set_title("learning rate")
    ax.set_xlabel("step")
    ax2 = ax.twinx()
    for task in TASKS:
        ax2.plot(steps, [h.get(f"weight/{task}", float("nan")) for h in history], "--",
                 label=f"w {task}")
    ax2.set_yscale("log")
    ax2.legend(fontsize=7)
    if evals:
        es = [e["step"] for e in evals]
        ax = axes[1][0]
        for k in ("sep_top1", "sep_top3", "key_top1", "key_top3"):
            ax.plot(es, [e[k] for e in evals], marker="o", label=k)
        ax.set_title("dev word accuracy")
        ax.set_xlabel("step")
        ax.legend()
        ax = axes[1][1]
        for k in ("popup_auc", "autocorrect_precision", "autocorrect_recall", "intent_acc",
                  "intent_acc_min_class"):
            ax.plot(es, [e.get(k, float("nan")) for e in evals], marker="o", label=k)
        ax.set_title("dev heads")
        ax.set_xlabel("step")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def _finite(obj):
    """NaN/inf -> null: strict JSON readers reject NaN (e.g. popup AUC with no positives)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def write_json(path: Path, obj) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(_finite(obj), indent=1, allow_nan=False) + "\n")
    tmp.replace(path)


# --- training ----------------------------------------------------------------------------------

def train(cfg: dict, data_dir: str | Path, out_dir: str | Path, device: str = "auto",
          max_steps: int | None = None, time_budget_min: float | None = None,
          log: Callable[[str], None] | None = None, command: str = "",
          progress: bool = True, return_state: bool = False,
          start_time: float | None = None, init_from: str | Path | None = None,
          snapshot: bool = False) -> dict:
    """Train, evaluate, export. Returns the metrics dict (rank 0) or {} (other ranks);
    with return_state, every rank's result also holds its final weights ("state").
    The time budget counts from `start_time` (default: now). With `snapshot`, every
    evaluation that improves also exports the weights to out/model.safetensors, so a run
    cut short still leaves its best model."""
    t0 = start_time or time.time()
    env = Dist(device)
    say = log or print
    info = (lambda msg: say(msg)) if env.main else (lambda msg: None)
    tcfg = cfg["train"]
    out = Path(out_dir)
    if env.main:
        out.mkdir(parents=True, exist_ok=True)
    max_steps = int(max_steps or tcfg["max_steps"])
    budget_s = time_budget_min * 60 if time_budget_min else None

    # The order of these steps is the order of the random draws: keep it.
    torch.manual_seed(tcfg["seed"])  # same initial weights on every rank
    if env.device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    data, train_corpus, export_meta = prepare_data(cfg, Path(data_dir), env, info)
    mc, model, module = build_model(cfg, train_corpus.words, env, info, init_from)
    dev_batches = (dev_eval_batches(data, Path(data_dir) / "cache", cfg, mc.max_len)
                   if env.main else [])
    loader = make_loader(train_corpus, cfg, env)
    train_module = wrap_ddp(module, env)
    opt = make_optimizer(module, tcfg, env.device)
    parts = RunParts(env, data, train_corpus, export_meta, mc, model, module, train_module, opt,
                     dev_batches, loader)
    run = TrainingRun(cfg, parts, out, t0, max_steps, budget_s, command, snapshot, info,
                      progress)

    run.loop()
    final_state = ({k: v.detach().to("cpu", copy=True) for k, v in module.state_dict().items()}
                   if return_state else None)
    result = run.finish() if env.main else {}
    if final_state is not None:
        result["state"] = final_state
    run.data_iter = None  # stop the workers before the process group goes
    # The DDP reducer must let go of the process group before it is destroyed.
    del run, parts, train_module, loader
    gc.collect()
    env.close()
    return result


def prepare_data(cfg: dict, data_dir: Path, env: Dist, info: Callable[[str], None]):
    """The config's data module, the training corpus and the weight file's extra metadata.
    Rank 0 builds the cache, the others wait for it and read it."""
    data = data_module(cfg)
    if env.main:
        data.ensure_cache(data_dir, cfg, info)
    if env.ddp:
        dist.barrier()
    train_corpus = data.Corpus(data_dir / "cache", "train", cfg)
    # Weight-file metadata beyond the contract's (zh: language, pinyin); none for en.
    export_meta = data.export_metadata(train_corpus) if data is not D else None
    return data, train_corpus, export_meta


def grown_embedding(table: torch.Tensor, rows: int, seed: int, tail: int = 4096) -> torch.Tensor:
    """`table` with rows appended for the words a grown vocabulary adds (they come after the
    old words, least frequent last). Each new row is drawn from the old vocabulary's `tail`
    least frequent words, per dimension mean and spread: the output is tied, so a new word
    starts as likely as a rare old one, neither silent nor louder than the words it joins."""
    old_tail = table[max(T.WORD_OFFSET, table.shape[0] - tail):].float()
    gen = torch.Generator().manual_seed(seed)
    new = old_tail.mean(0) + old_tail.std(0) * torch.randn(rows - table.shape[0], table.shape[1],
                                                           generator=gen)
    return torch.cat([table, new.to(table.dtype)])


def deepened_state(state: dict[str, torch.Tensor], old_layers: int,
                   new_layers: int) -> dict[str, torch.Tensor]:
    """`state` (a model of `old_layers` blocks) with blocks added for `new_layers`, as block
    expansion does (LLaMA Pro, Wu et al. 2024): each added block is a copy of the block before
    it with its two output projections (attention's and the MLP's second layer) zeroed, so it
    adds nothing to the residual stream and the deeper model computes what the old one did;
    training then grows it from there. The copies are spread evenly: 4 -> 6 puts one after
    blocks 1 and 3 (0-based)."""
    if new_layers < old_layers:
        raise ValueError(f"cannot deepen {old_layers} layers to {new_layers}")
    added = new_layers - old_layers
    after = {((i + 1) * old_layers) // added - 1 for i in range(added)} if added else set()
    if len(after) != added:  # more copies than blocks: not what this is for
        raise ValueError(f"cannot spread {added} new layers over {old_layers}")
    block = {k: v for k, v in state.items() if not k.startswith("layers.")}
    zeroed = ("attn.out.weight", "attn.out.bias", "mlp.fc2.weight", "mlp.fc2.bias")
    at = 0
    for old in range(old_layers):
        own = {k[len(f"layers.{old}."):]: v for k, v in state.items()
               if k.startswith(f"layers.{old}.")}
        for name, v in own.items():
            block[f"layers.{at}.{name}"] = v
        at += 1
        if old in after:
            for name, v in own.items():
                block[f"layers.{at}.{name}"] = torch.zeros_like(v) if name in zeroed else v.clone()
            at += 1
    return block


def build_model(cfg: dict, words: list[str], env: Dist, info: Callable[[str], None],
                init_from: str | Path | None) -> tuple[ModelConfig, TypingModel, TrainModule]:
    """The model (fresh from the seed, or the weights of `init_from`) and its TrainModule,
    on the run's device."""
    mc = ModelConfig.from_dict({**cfg["model"], "vocab_size": T.WORD_OFFSET + len(words)})
    model = TypingModel(mc)
    if init_from:  # continue from an exported model (same width; the same or a grown vocabulary
        # and the same or more layers)
        from .export import model_from_file
        start_model, start_words = model_from_file(init_from)
        if list(start_words) != list(words[:len(start_words)]):
            raise ValueError(f"{init_from}: its vocabulary is not the start of this data's")
        state = start_model.state_dict()
        if len(start_words) < len(words):
            state["tok_emb.weight"] = grown_embedding(state["tok_emb.weight"], mc.vocab_size,
                                                      cfg["train"]["seed"])
            info(f"vocabulary grown from {len(start_words)} to {len(words)} words")
        if start_model.cfg.n_layers != mc.n_layers:
            state = deepened_state(state, start_model.cfg.n_layers, mc.n_layers)
            info(f"deepened from {start_model.cfg.n_layers} to {mc.n_layers} layers")
        model.load_state_dict(state)
        info(f"initialised from {init_from}")
    model = model.to(env.device)
    teacher = None
    if cfg["train"].get("distill_from"):  # a larger model of the same vocabulary, frozen
        from .export import model_from_file
        teacher, teacher_words = model_from_file(cfg["train"]["distill_from"])
        if list(teacher_words) != list(words):
            raise ValueError(f"{cfg['train']['distill_from']}: its vocabulary differs from this data's")
        teacher.eval().requires_grad_(False)
        info(f"distilling from {cfg['train']['distill_from']} "
             f"({count_parameters(teacher):,} parameters)")
    ngram, ngram_ctx = None, None
    if cfg["train"].get("ngram_teacher"):  # a general-language n-gram (ngram_teacher.py)
        from .ngram_teacher import NgramTeacher
        ngram = NgramTeacher.load(cfg["train"]["ngram_teacher"], env.device)
        if ngram.V != len(words):
            raise ValueError(f"{cfg['train']['ngram_teacher']}: built for another vocabulary")
        ngram_ctx = ngram.ctx_of_word(words, env.device)
        info(f"n-gram teacher {cfg['train']['ngram_teacher']}: {int(ngram.known.sum())} words, "
             f"weight {cfg['train'].get('ngram_weight', 0.3)}")
    module = TrainModule(model, cfg["train"], letter_word_mask(words), teacher, ngram,
                         ngram_ctx).to(env.device)
    info(f"model: {count_parameters(model):,} parameters, vocab_size {mc.vocab_size}, "
         f"device {env.device}, world {env.world}")
    return mc, model, module


def dev_eval_batches(data, cache: Path, cfg: dict, max_len: int) -> list[dict[str, torch.Tensor]]:
    """The fixed dev sessions of every evaluation (rank 0 only), in eval_batch_size batches."""
    tcfg = cfg["train"]
    dev_corpus = data.Corpus(cache, "dev", cfg)
    ex = data.eval_examples(dev_corpus, cfg, tcfg["eval_examples"], tcfg["seed"])
    bs = tcfg["eval_batch_size"]
    return [{k: torch.from_numpy(v) for k, v in batch_arrays(ex[i:i + bs], max_len).items()}
            for i in range(0, len(ex), bs)]


def make_loader(train_corpus, cfg: dict, env: Dist) -> DataLoader:
    """Endless training batches of this rank's share of the global batch."""
    tcfg = cfg["train"]
    per_rank = max(1, tcfg["batch_size"] // env.world)
    stream = TypingStream(train_corpus, cfg, per_rank, tcfg["seed"], env.rank)
    workers = auto_workers(tcfg["num_workers"], env.local_world)
    loader_kwargs = {}
    if workers > 0:
        loader_kwargs = {"persistent_workers": True, "prefetch_factor": 4}
    return DataLoader(stream, batch_size=None, num_workers=workers,
                      pin_memory=env.device.type == "cuda", **loader_kwargs)


def wrap_ddp(module: TrainModule, env: Dist) -> nn.Module:
    """The module the steps run through: DistributedDataParallel under torchrun."""
    if not env.ddp:
        return module
    return nn.parallel.DistributedDataParallel(
        module, device_ids=[env.device.index] if env.device.type == "cuda" else None,
        broadcast_buffers=False)


@dataclass
class RunParts:
    """What a run is made of, built once by train()."""
    env: Dist
    data: object  # dataset or zh_data (data_module)
    train_corpus: object
    export_meta: dict | None
    mc: ModelConfig
    model: TypingModel
    module: TrainModule
    train_module: nn.Module  # module, or its DDP wrapper
    opt: torch.optim.Optimizer
    dev_batches: list[dict[str, torch.Tensor]]
    loader: DataLoader


class TrainingRun:
    """The training loop and its bookkeeping: steps, logging, the time budget, evaluation,
    early stopping and the final export. Every rank runs the loop; rank 0 evaluates, logs
    and writes, and its decisions are broadcast."""

    def __init__(self, cfg: dict, parts: RunParts, out: Path, t0: float, max_steps: int,
                 budget_s: float | None, command: str, snapshot: bool,
                 info: Callable[[str], None], progress: bool):
        self.cfg, self.tcfg, self.p = cfg, cfg["train"], parts
        self.env = parts.env
        self.out, self.t0, self.max_steps, self.budget_s = out, t0, max_steps, budget_s
        self.command, self.snapshot, self.info = command, snapshot, info
        self.history: list[dict] = []
        self.evals: list[dict] = []
        self.best: dict = {"metric": float("inf"), "step": -1, "state": None, "metrics": None}
        self.bad_evals = 0
        self.eval_seconds = 0.0
        self.reserve_s = 30.0  # final evaluation + export + shutdown, refined after each eval
        self.metric_key = self.tcfg["early_stopping_metric"]
        self.train_start = time.time()
        self.last_eval_time = self.train_start
        self.time_progress = 0.0
        self.tokens_seen = 0
        self.examples_seen = 0
        self.window_tokens, self.window_start = 0, time.time()
        self.sums: dict[str, float] = {}
        self.n_sums = 0
        self.stop_reason = "max_steps"
        self.step = 0
        self.lr = 0.0
        self.data_iter: Iterator | None = None
        self.bar = None
        if self.env.main and progress:
            from tqdm import tqdm
            self.bar = tqdm(total=max_steps, desc="train", unit="step", mininterval=2.0,
                            dynamic_ncols=True, file=sys.stderr)

    # --- the loop ---

    def loop(self) -> None:
        """Step until max_steps, the time budget or early stopping."""
        self.p.module.train()
        self.step = 0
        self.data_iter = iter(self.p.loader)
        while self.step < self.max_steps:
            self.train_step(next(self.data_iter))
            if self.step % self.tcfg["log_every"] == 0 or self.step == self.max_steps:
                if self.log_and_decide():
                    break
        if self.bar is not None:
            self.bar.close()

    def train_step(self, cpu_batch: dict[str, torch.Tensor]) -> None:
        """One optimizer step; the losses are summed on the device until the next log."""
        env, tcfg, opt = self.env, self.tcfg, self.p.opt
        batch = to_device(cpu_batch, env.device)
        self.lr = lr_at(self.step, max(self.step / self.max_steps, self.time_progress), tcfg)
        for g in opt.param_groups:
            g["lr"] = self.lr
        with amp_context(env.device):
            total, losses, stats = self.p.train_module(batch)
        opt.zero_grad(set_to_none=True)
        total.backward()
        if tcfg["grad_clip"]:
            torch.nn.utils.clip_grad_norm_(self.p.module.parameters(), tcfg["grad_clip"])
        opt.step()
        self.step += 1
        self.examples_seen += batch["tokens"].shape[0] * env.world
        for k, v in losses.items():
            self.sums[k] = self.sums.get(k, 0.0) + v  # tensors: no sync until the log step
        for k, v in stats.items():
            self.sums["stat/" + k] = self.sums.get("stat/" + k, 0.0) + v
        self.n_sums += 1
        if self.bar is not None:
            self.bar.update(1)

    def log_and_decide(self) -> bool:
        """The only per-interval sync point: losses to the host, and rank 0's decisions
        (time progress, stop, evaluate) for every rank. True when the run stops here."""
        now = self.log_record()
        tp, stop_t, do_eval = self.env.broadcast(self.rank0_decisions(now))
        self.time_progress = tp
        if stop_t:
            self.stop_reason = "time_budget"
            return True
        if do_eval and self.step < self.max_steps:
            early = self.evaluate_step(self.step) if self.env.main else False
            (early_f,) = self.env.broadcast([float(early)])
            if early_f:
                self.stop_reason = "early_stopping"
                return True
        return False

    def log_record(self) -> float:
        """Append the interval's mean losses, rates and loss weights to the history;
        returns the time it was taken at."""
        vals = {k: float(v) / self.n_sums for k, v in self.sums.items()}
        step_tokens = vals.pop("stat/tokens") * self.n_sums * self.env.world
        self.tokens_seen += int(step_tokens)
        self.window_tokens += step_tokens
        now = time.time()
        rec = {"step": self.step, "lr": self.lr, "elapsed_s": round(now - self.t0, 1),
               "tokens_per_s": self.window_tokens / max(1e-9, now - self.window_start)}
        rec.update({f"loss/{k}": v for k, v in vals.items() if not k.startswith("stat/")})
        rec.update({k: v for k, v in vals.items() if k.startswith("stat/")})
        module = self.p.module
        for i, task in enumerate(TASKS):
            rec[f"weight/{task}"] = float(torch.exp(-module.log_vars[i].clamp(
                min=module.min_log_var)).detach())
        self.history.append(rec)
        self.sums, self.n_sums = {}, 0
        self.window_tokens, self.window_start = 0, now
        if self.bar is not None:
            self.bar.set_postfix(loss=f"{rec.get('loss/word', 0):.3f}",
                                 tok_s=f"{rec['tokens_per_s']:.0f}")
        return now

    def rank0_decisions(self, now: float) -> list[float]:
        """[time progress, stop for the budget, evaluate now] as rank 0 sees them (zeros on
        the other ranks, which take rank 0's)."""
        tp, stop_t, do_eval = 0.0, 0.0, 0.0
        if self.env.main:
            if self.budget_s:
                end = self.t0 + self.budget_s - self.reserve_s
                tp = (now - self.train_start) / max(1e-9, end - self.train_start)
                stop_t = float(now >= end)
            since = now - self.last_eval_time
            do_eval = float(self.step % self.tcfg["eval_every_steps"] < self.tcfg["log_every"]
                            or since >= 60 * self.tcfg["eval_every_min"])
        return [tp, stop_t, do_eval]

    # --- evaluation and output (rank 0) ---

    def evaluate_step(self, step: int) -> bool:
        """Evaluate, keep the best weights; True when patience is used up."""
        p, tcfg = self.p, self.tcfg
        t = time.time()
        m = evaluate(p.model, p.dev_batches, self.env.device, p.module.letter,
                     p.module.popup_first_hit, p.mc.intent_labels)
        self.eval_seconds = time.time() - t
        self.reserve_s = max(30.0, 2.0 * self.eval_seconds + 15.0)
        self.last_eval_time = time.time()
        m["step"] = step
        m["elapsed_s"] = round(time.time() - self.t0, 1)
        self.evals.append(m)
        # keep "last": every evaluation is the one exported (when the dev split is not the text
        # the run is for, e.g. a run weighted towards narrative text with a technical dev split).
        improved = m[self.metric_key] < self.best["metric"] or tcfg.get("keep") == "last"
        if improved:
            self.best.update(metric=m[self.metric_key], step=step, metrics=m,
                             state={k: v.detach().to("cpu", copy=True)
                                    for k, v in p.model.state_dict().items()})
            self.bad_evals = 0
            if self.snapshot:
                export_model(p.model, p.train_corpus.words, self.out / "model.safetensors",
                             tcfg["export_dtype"], p.export_meta)
                write_json(self.out / "model.json", {"command": self.command, "best_step": step,
                                                     "dev_metrics": m, "snapshot": True})
        else:
            self.bad_evals += 1
        self.info(f"eval step {step}: " + " ".join(
            f"{k}={v:.4f}" for k, v in m.items() if isinstance(v, float) and k != "elapsed_s")
            + f" intent_confusion={m['intent_confusion']}"
            + (" *" if improved else ""))
        write_json(self.out / "metrics.json", self.summary())
        self.plot()
        return self.bad_evals >= tcfg["early_stopping_patience"]

    def summary(self) -> dict:
        p, env = self.p, self.env
        return {"config": self.cfg, "command": self.command, "world_size": env.world,
                "device": str(env.device), "torch": torch.__version__,
                "parameters": count_parameters(p.model), "vocab_size": p.mc.vocab_size,
                "steps": self.step, "examples_seen": self.examples_seen,
                "tokens_seen": self.tokens_seen,
                "epochs_of_targets": self.examples_seen / max(1, p.data.epoch_tokens(
                    p.train_corpus)),
                "train_seconds": round(time.time() - self.train_start, 1),
                "tokens_per_second": self.tokens_seen / max(1e-9, time.time() - self.train_start),
                "stop_reason": self.stop_reason, "best_step": self.best["step"],
                "best": self.best["metrics"], "history": self.history, "evals": self.evals}

    def plot(self) -> None:
        try:
            plot_curves(self.history, self.evals, self.out / "curves.png")
        except Exception as e:  # a plot must never stop training
            self.info(f"plot failed: {e}")

    def finish(self) -> dict:
        """Rank 0: a last evaluation if the last step had none, then export the best
        weights (model.safetensors, best.pt) and write metrics.json and model.json."""
        p, tcfg, out, best = self.p, self.tcfg, self.out, self.best
        if not self.evals or self.evals[-1]["step"] != self.step:
            self.evaluate_step(self.step)
        p.model.load_state_dict(best["state"])
        size = export_model(p.model, p.train_corpus.words, out / "model.safetensors",
                            tcfg["export_dtype"], p.export_meta)
        ckpt = {"model": best["state"], "model_config": p.mc.__dict__,
                "words": p.train_corpus.words, "config": self.cfg, "step": best["step"]}
        if p.export_meta:
            ckpt["export_metadata"] = p.export_meta  # export.py writes it again
        torch.save(ckpt, out / "best.pt")
        result = self.summary()
        result["export"] = {"path": str(out / "model.safetensors"), "bytes": size,
                            "dtype": tcfg["export_dtype"]}
        write_json(out / "metrics.json", result)
        write_json(out / "model.json", {"command": self.command, "best_step": best["step"],
                                        "dev_metrics": best["metrics"],
                                        "config": p.mc.file_config(),
                                        "train_seconds": result["train_seconds"],
                                        "tokens_per_second": result["tokens_per_second"]})
        self.plot()
        self.info(f"done: {self.step} steps ({self.stop_reason}), best step {best['step']} "
                  f"{self.metric_key}={best['metric']:.4f}, "
                  f"{result['tokens_per_second']:.0f} tokens/s, "
                  f"{size} bytes -> {out / 'model.safetensors'} "
                  f"({time.time() - self.t0:.0f} s since start)")
        return result


def main() -> None:
    ap = argparse.ArgumentParser(description="Train the keydecide typing model.")
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=Path("data/en"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    ap.add_argument("--max-steps", type=int, default=None)
    ap.add_argument("--time-budget-min", type=float, default=None,
                    help="stop, evaluate and export the best checkpoint within this budget")
    ap.add_argument("--workers", default=None, help="DataLoader workers per rank (or auto)")
    ap.add_argument("--batch-size", type=int, default=None, help="global batch size")
    ap.add_argument("--no-progress", action="store_true", help="no tqdm bar")
    ap.add_argument("--init-from", type=Path, default=None,
                    help="start from this exported model (continue training)")
    ap.add_argument("--snapshot", action="store_true",
                    help="export the best model at every improving evaluation too")
    args = ap.parse_args()
    cfg = D.load_config(args.config)
    if args.workers is not None:
        cfg["train"]["num_workers"] = args.workers
    if args.batch_size:
        cfg["train"]["batch_size"] = args.batch_size
    launcher = "torchrun ... " if "LOCAL_RANK" in os.environ else ""
    # As run from the repository root with PYTHONPATH=training: "-m keydecide_train.train ...".
    argv = ["-m", __spec__.name, *sys.argv[1:]]
    command = launcher + " ".join(shlex.quote(a) for a in argv)
    train(cfg, args.data, args.out, args.device, args.max_steps, args.time_budget_min, init_from=args.init_from,
          command=command, progress=not args.no_progress, start_time=START_TIME,
          snapshot=args.snapshot)


if __name__ == "__main__":
    main()
