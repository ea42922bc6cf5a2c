"""The typing model of docs/MODEL.md: a small pre-norm causal Transformer.

Parameter names are the weight file's tensor names (state_dict keys = safetensors keys),
so export is a plain walk over the state dict. Runs on PyTorch 1.13 (plain matmul +
masked softmax attention) and 2.x (F.scaled_dot_product_attention when present).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import tokens as T

_HAS_SDPA = hasattr(F, "scaled_dot_product_attention")


@dataclass
class ModelConfig:
    n_layers: int
    d_model: int
    n_heads: int
    d_ff: int
    max_len: int
    vocab_size: int
    norm_eps: float = 1e-5
    dropout: float = 0.0  # training only; not part of the file's config
    word_offset: int = T.WORD_OFFSET
    n_interval_buckets: int = T.N_INTERVAL_BUCKETS
    interval_edges_ms: list = field(default_factory=lambda: list(T.INTERVAL_EDGES_MS))
    intent_labels: list = field(default_factory=lambda: list(T.INTENT_LABELS))
    app_types: list = field(default_factory=lambda: list(T.APP_TYPES))

    @classmethod
    def from_dict(cls, d: dict) -> "ModelConfig":
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def file_config(self) -> dict:
        """The `config` metadata object of the weight file (contract keys only)."""
        d = asdict(self)
        d.pop("dropout")
        return {k: d[k] for k in ("n_layers", "d_model", "n_heads", "d_ff", "max_len",
                                  "vocab_size", "word_offset", "n_interval_buckets",
                                  "interval_edges_ms", "norm_eps", "intent_labels",
                                  "app_types")}


class Attention(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        assert cfg.d_model % cfg.n_heads == 0
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.d_model // cfg.n_heads
        # One fused projection: rows are all q, then all k, then all v (the contract).
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.out = nn.Linear(cfg.d_model, cfg.d_model)
        self.dropout = cfg.dropout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, L, D = x.shape
        q, k, v = self.qkv(x).split(D, dim=-1)
        # [B, L, D] -> [B, H, L, head_dim]; head h uses columns h*hd .. (h+1)*hd.
        q, k, v = (t.view(B, L, self.n_heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        p = self.dropout if self.training else 0.0
        if _HAS_SDPA:
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=p, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
            causal = torch.ones(L, L, dtype=torch.bool, device=x.device).triu(1)
            att = att.masked_fill(causal, float("-inf")).softmax(dim=-1)
            if p:
                att = F.dropout(att, p)
            y = att @ v
        return self.out(y.transpose(1, 2).reshape(B, L, D))


class MLP(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.fc1 = nn.Linear(cfg.d_model, cfg.d_ff)
        self.fc2 = nn.Linear(cfg.d_ff, cfg.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(F.gelu(self.fc1(x)))  # exact (erf) GELU, as the C++ side computes


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
        self.attn = Attention(cfg)
        self.ln2 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
        self.mlp = MLP(cfg)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.drop(self.attn(self.ln1(x)))
        return x + self.drop(self.mlp(self.ln2(x)))


class Heads(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.popup = nn.Linear(cfg.d_model, 1)
        self.autocorrect = nn.Linear(cfg.d_model, 1)
        self.intent = nn.Linear(cfg.d_model, len(cfg.intent_labels))


class TypingModel(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.pos_emb = nn.Embedding(cfg.max_len, cfg.d_model)
        self.ivl_emb = nn.Embedding(cfg.n_interval_buckets, cfg.d_model)
        self.bs_emb = nn.Embedding(2, cfg.d_model)
        self.drop = nn.Dropout(cfg.dropout)
        self.layers = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layers)])
        self.ln_f = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
        self.heads = Heads(cfg)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # GPT-2 style: N(0, 0.02), residual output projections scaled down by depth so the
        # residual stream does not grow with the number of layers.
        for name, p in self.named_parameters():
            if name.endswith("bias"):
                nn.init.zeros_(p)
            elif ".ln" in name or name.startswith("ln_"):
                nn.init.ones_(p)
            else:
                std = 0.02
                if name.endswith(("attn.out.weight", "mlp.fc2.weight")):
                    std /= math.sqrt(2 * self.cfg.n_layers)
                nn.init.normal_(p, 0.0, std)

    def forward(self, tokens: torch.Tensor, buckets: torch.Tensor,
                backspace: torch.Tensor) -> torch.Tensor:
        """Hidden states y = ln_f(h), [B, L, d]. Causal: position i sees 0..i only, so
        right padding changes nothing before it."""
        L = tokens.shape[1]
        pos = torch.arange(L, device=tokens.device)
        x = (self.tok_emb(tokens) + self.pos_emb(pos)[None] + self.ivl_emb(buckets)
             + self.bs_emb(backspace))
        x = self.drop(x)
        for layer in self.layers:
            x = layer(x)
        return self.ln_f(x)

    def word_logits(self, y: torch.Tensor) -> torch.Tensor:
        """Tied output: logits over word indices (row i of tok_emb[word_offset:])."""
        return y @ self.tok_emb.weight[self.cfg.word_offset:].t()

    @torch.no_grad()
    def outputs(self, tokens: torch.Tensor, buckets: torch.Tensor,
                backspace: torch.Tensor) -> dict[str, torch.Tensor]:
        """Everything the engine reads, at every position (float32): word logits,
        popup and autocorrect probabilities, intent probabilities."""
        y = self.forward(tokens, buckets, backspace).float()
        return {"word_logits": self.word_logits(y),
                "popup": torch.sigmoid(self.heads.popup(y)).squeeze(-1),
                "autocorrect": torch.sigmoid(self.heads.autocorrect(y)).squeeze(-1),
                "intent": torch.softmax(self.heads.intent(y), dim=-1)}


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
