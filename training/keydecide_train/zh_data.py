"""Chinese token cache and example sampling (the zh counterpart of dataset.py; no torch).

train.py uses this module instead of dataset.py when the config says "language": "zh".
It offers the same functions: ensure_cache, Corpus, ExampleSampler, make_simulator,
eval_examples, epoch_tokens, plus export_metadata (what the weight file needs beyond
dataset.py's: language and one pinyin reading per word).

Inputs (data/zh, from scripts/fetch-data.sh --zh and prepare_zh_text.py):
  train/*.txt, dev/*.txt            Chinese text, prepare_text's format, split by document
  lexicon/jieba.dict.utf8           "word count tag" (config data.lexicon.counts)
  lexicon/readings.txt              "word pin'yin count" (data.lexicon.readings; sc.dict.txt
                                    beside it when missing)

Cache (data/zh/cache/, rebuilt when the vocabulary settings or any input file change,
md5 of every input in meta.json; with it present neither text nor lexicon is needed):

  meta.json      signature (language, vocabulary settings, md5 of every input), n_words,
                 sources, token and latin-run counts, vocabulary coverage
  strings.txt    every distinct context token of train and dev, one per line: the
                 vocabulary first (<unk> <num> <url> <email>, then most frequent first),
                 then the rest; URLs / e-mail addresses tagged as in dataset.py
  readings.txt   one line per line of strings.txt: the token's pinyin ("zhong'guo"), or
                 empty (punctuation, latin words, characters without a reading)
  latin.txt      distinct latin runs (zh_tokens: verbatim ASCII words, commands,
                 identifiers), lower case, one per line
  train.npz      per source: ids (int32 string ids, all paragraphs back to back),
  dev.npz        para_start, para_docstart (as dataset.py), and the latin runs: latin_pos
                 (token index of the run's first token), latin_ntok (its tokens),
                 latin_id (line of latin.txt)

Vocabulary: token counts of the segmented training split, each source weighted (manifest
weight, overridden by the config's source_weights), most frequent first: Chinese words,
and whatever else the text holds (latin words, punctuation).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from . import tokens as T
from . import zh_tokens as Z
from .dataset import (REPO_ROOT, ExampleSampler as _EnSampler, checked_source_weights,
                      ensure_cache_with, list_sources, load_config, md5_file, read_cache_lines,
                      read_documents, source_weights, vocab_of_model, worker_seed)
from .typing_sim import Example, Keyboard
from .zh_typing import PinyinSimulator

CACHE_VERSION = 1
MAX_LATIN_CHARS = 64  # longer runs are not kept in the cache at all

__all__ = ["Corpus", "ExampleSampler", "ensure_cache", "load_config", "make_simulator",
           "eval_examples", "worker_seed", "epoch_tokens", "export_metadata"]


def lexicon_paths(data_dir: Path, cfg: dict,
                  log: Callable[[str], None] = print) -> tuple[Path, Path]:
    lex = cfg["data"].get("lexicon", {})
    counts = data_dir / lex.get("counts", "lexicon/jieba.dict.utf8")
    readings = Z.resolve_readings(data_dir / lex.get("readings", "lexicon/readings.txt"), log)
    return counts, readings


def cache_signature(data_dir: Path, cfg: dict, log: Callable[[str], None] = print) -> dict:
    sources = list_sources(data_dir)
    inputs = {}
    for split in ("train", "dev"):
        for s in sources:
            p = data_dir / split / f"{s}.txt"
            if p.exists():
                inputs[f"{split}/{s}.txt"] = md5_file(p)
    for p in lexicon_paths(data_dir, cfg, log):
        inputs[str(p.relative_to(data_dir))] = md5_file(p) if p.exists() else None
    sig = {"version": CACHE_VERSION, "language": Z.LANGUAGE,
           "vocab_size": cfg["model"]["vocab_size"],
           "vocab_min_count": cfg["data"]["vocab_min_count"],
           "source_weights": source_weights(data_dir, cfg, sources),
           "inputs": inputs}
    if cfg["data"].get("vocab_from"):  # a model's words (as dataset.py): new weights, same words
        words = vocab_of_model(cfg["data"]["vocab_from"], cfg["model"]["vocab_size"] - T.WORD_OFFSET)
        sig["vocab_from"] = hashlib.md5("\n".join(words).encode("utf-8")).hexdigest()
    return sig


def ensure_cache(data_dir: str | Path, cfg: dict, log: Callable[[str], None] = print,
                 workers: int = 1) -> Path:
    """Build data_dir/cache unless a cache for the same settings and inputs exists. With
    no text present (a copied cache alone), an existing cache is used as it is."""
    return ensure_cache_with(
        Path(data_dir), cfg, log,
        signature=lambda: cache_signature(Path(data_dir), cfg, lambda s: None),
        build=lambda: build_cache(Path(data_dir), cfg, log),
        check=_check_settings,
        fetch_hint="scripts/fetch-data.sh --zh")


def _check_settings(meta: dict, cfg: dict) -> None:
    sig = meta["signature"]
    if sig.get("language") != Z.LANGUAGE or sig["version"] != CACHE_VERSION \
            or sig["vocab_size"] != cfg["model"]["vocab_size"] \
            or sig["vocab_min_count"] != cfg["data"]["vocab_min_count"]:
        raise SystemExit("the cache was built for another language or other vocabulary "
                         "settings and the text to rebuild it is not here")
    if bool(cfg["data"].get("vocab_from")) != ("vocab_from" in sig):
        raise SystemExit("the cache's vocabulary " + ("is not" if "vocab_from" not in sig else "is")
                         + " a model's (data.vocab_from), unlike the config's; rebuild it where "
                         "the text is")


@dataclass
class _FileTokens:
    strings: list[str]
    ids: np.ndarray
    counts: np.ndarray
    para_start: np.ndarray
    para_docstart: np.ndarray
    latin: list[tuple[int, int, str]]  # (token index, tokens, text)


def tokenize_file(path: Path, tok: Z.ZhTokenizer) -> _FileTokens:
    local: dict[str, int] = {}
    ids: list[int] = []
    para_start: list[int] = []
    para_docstart: list[int] = []
    latin: list[tuple[int, int, str]] = []
    for doc in read_documents(path):
        doc_start = len(ids)
        for line in doc:
            para_start.append(len(ids))
            para_docstart.append(doc_start)
            strings, runs = tok.line_tokens(line)
            base = len(ids)
            for s in strings:
                ids.append(local.setdefault(s, len(local)))
            latin += [(base + i, n, text) for i, n, text in runs if len(text) <= MAX_LATIN_CHARS]
    para_start.append(len(ids))
    ids_arr = np.asarray(ids, np.int32)
    counts = np.bincount(ids_arr, minlength=len(local)) if len(ids_arr) else np.zeros(0, np.int64)
    return _FileTokens(list(local), ids_arr, counts, np.asarray(para_start, np.int64),
                       np.asarray(para_docstart, np.int64), latin)


def build_cache(data_dir: Path, cfg: dict, log: Callable[[str], None] = print) -> None:
    start = time.time()
    sources = list_sources(data_dir)
    weights = source_weights(data_dir, cfg, sources)
    sig = cache_signature(data_dir, cfg, log)
    counts_path, readings_path = lexicon_paths(data_dir, cfg, lambda s: None)
    tok = Z.ZhTokenizer.load(counts_path, readings_path)
    log(f"cache: lexicon {len(tok.seg.readings)} words with a reading, "
        f"{len(tok.seg.logp)} segmentation words ({time.time() - start:.0f} s)")
    jobs = [(split, s) for split in ("train", "dev") for s in sources
            if (data_dir / split / f"{s}.txt").exists()]
    results = [tokenize_file(data_dir / split / f"{s}.txt", tok) for split, s in jobs]
    log(f"cache: segmented {len(jobs)} files in {time.time() - start:.0f} s")

    counts: Counter = Counter()
    for (split, s), r in zip(jobs, results):
        if split != "train":
            continue
        w = weights[s]
        for string, c in zip(r.strings, r.counts.tolist()):
            if not string.startswith("\x01"):
                counts[string] += c * w
    n_words = cfg["model"]["vocab_size"] - T.WORD_OFFSET
    if cfg["data"].get("vocab_from"):
        vocab = T.Vocab(vocab_of_model(cfg["data"]["vocab_from"], n_words))
    else:
        vocab = T.Vocab.build(counts, n_words, cfg["data"]["vocab_min_count"])
    table = {w: i for i, w in enumerate(vocab.words)}
    strings_all = list(vocab.words)
    latin_table: dict[str, int] = {}
    arrays: dict[str, dict[str, np.ndarray]] = {"train": {}, "dev": {}}
    n_latin = {"train": 0, "dev": 0}
    for (split, s), r in zip(jobs, results):
        remap = np.empty(len(r.strings), np.int32)
        for i, string in enumerate(r.strings):
            gid = table.get(string)
            if gid is None:
                gid = table[string] = len(strings_all)
                strings_all.append(string)
            remap[i] = gid
        a = arrays[split]
        a[f"{s}/ids"] = remap[r.ids] if len(r.ids) else r.ids
        a[f"{s}/para_start"] = r.para_start
        a[f"{s}/para_docstart"] = r.para_docstart
        a[f"{s}/latin_pos"] = np.asarray([p for p, _, _ in r.latin], np.int64)
        a[f"{s}/latin_ntok"] = np.asarray([n for _, n, _ in r.latin], np.int32)
        a[f"{s}/latin_id"] = np.asarray([latin_table.setdefault(t, len(latin_table))
                                         for _, _, t in r.latin], np.int32)
        n_latin[split] += len(r.latin)

    cache = data_dir / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    for split in ("train", "dev"):
        np.savez_compressed(cache / f"{split}.npz", **arrays[split])
    with open(cache / "strings.txt", "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("\n".join(strings_all))
    (cache / "readings.txt").write_text("\n".join(tok.reading(s) for s in strings_all),
                                        encoding="utf-8")
    (cache / "latin.txt").write_text("\n".join(latin_table), encoding="utf-8",
                                     errors="surrogateescape")
    train_ids = [v for k, v in arrays["train"].items() if k.endswith("/ids")]
    n_train = sum(len(v) for v in train_ids)
    in_vocab = sum(int((v < len(vocab)).sum()) for v in train_ids)
    han = [i for i, s in enumerate(strings_all) if tok.reading(s)]
    han_set = np.zeros(len(strings_all), bool)
    han_set[han] = True
    n_han = sum(int(han_set[v].sum()) for v in train_ids)
    han_in_vocab = sum(int((han_set[v] & (v < len(vocab))).sum()) for v in train_ids)
    meta = {"signature": sig, "n_words": len(vocab), "n_strings": len(strings_all),
            "sources": sources, "train_tokens": n_train,
            "train_coverage": in_vocab / max(1, n_train),
            "train_han_words": n_han, "train_han_coverage": han_in_vocab / max(1, n_han),
            "vocab_han_words": int(sum(1 for w in vocab.words if tok.reading(w))),
            "latin_runs": n_latin, "latin_distinct": len(latin_table)}
    (cache / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    log(f"cache: {len(vocab)} words ({meta['vocab_han_words']} Chinese; "
        f"{meta['train_coverage']:.1%} of training tokens, {meta['train_han_coverage']:.1%} "
        f"of its Chinese words), {n_train} training tokens, {n_latin['train']} latin runs, "
        f"{time.time() - start:.0f} s -> {cache}")


# --- loaded corpus -------------------------------------------------------------------------

@dataclass
class SourceArrays:
    name: str
    weight: float
    ids: np.ndarray
    para_start: np.ndarray
    para_docstart: np.ndarray
    target_pos: np.ndarray  # positions of Chinese words with a reading (typed as pinyin)
    latin_pos: np.ndarray  # latin runs usable as targets: first token,
    latin_ntok: np.ndarray  # number of tokens,
    latin_id: np.ndarray  # line of latin.txt


class Corpus:
    """One split of the zh cache, ready for sampling."""

    def __init__(self, cache: str | Path, split: str, cfg: dict):
        cache = Path(cache)
        meta = json.loads((cache / "meta.json").read_text())
        if meta["signature"].get("language") != Z.LANGUAGE:
            raise ValueError(f"{cache} is not a zh cache")
        labels = cfg["model"].get("intent_labels")
        if labels != Z.INTENT_LABELS:
            raise ValueError(f"a zh config needs model.intent_labels = {Z.INTENT_LABELS}")
        self.n_words = meta["n_words"]
        self.strings = read_cache_lines(cache / "strings.txt")
        self.readings = (cache / "readings.txt").read_text(encoding="utf-8").split("\n")
        self.latin = read_cache_lines(cache / "latin.txt")
        self.words = self.strings[:self.n_words]
        n = len(self.strings)
        self.str_word = np.zeros(n, np.int64)
        self.str_word[:self.n_words] = np.arange(self.n_words)
        max_keys = cfg["data"]["max_word_keys"]
        self.str_target = np.zeros(n, bool)
        for i, s in enumerate(self.strings):
            if s.startswith(Z.URL_TAG):
                self.str_word[i] = T.URL
            elif s.startswith(Z.EMAIL_TAG):
                self.str_word[i] = T.EMAIL
            r = self.readings[i]
            if r and len(r) - r.count("'") <= max_keys:
                self.str_target[i] = True
        d = cfg["data"]
        latin_len = np.asarray([len(t) for t in self.latin], np.int64)
        latin_ok = (latin_len >= d["min_latin_keys"]) & (latin_len <= d["max_latin_keys"])

        weights = checked_source_weights(d, meta["sources"])
        manifest_w = meta["signature"]["source_weights"]
        self.sources: list[SourceArrays] = []
        with np.load(cache / f"{split}.npz") as z:
            for name in meta["sources"]:
                if f"{name}/ids" not in z.files or len(z[f"{name}/ids"]) == 0:
                    continue
                ids = z[f"{name}/ids"]
                lid = z[f"{name}/latin_id"]
                keep = latin_ok[lid] if len(lid) else np.zeros(0, bool)
                self.sources.append(SourceArrays(
                    name=name, weight=float(weights.get(name, manifest_w.get(name, 1.0))),
                    ids=ids, para_start=z[f"{name}/para_start"],
                    para_docstart=z[f"{name}/para_docstart"],
                    target_pos=np.flatnonzero(self.str_target[ids]),
                    latin_pos=z[f"{name}/latin_pos"][keep],
                    latin_ntok=z[f"{name}/latin_ntok"][keep],
                    latin_id=lid[keep]))

    def syllables(self, string_id: int) -> list[str]:
        return self.readings[string_id].split("'")

    def word_pinyin(self) -> list[str]:
        """The reading of every vocabulary word, in word-index order ("" for none)."""
        return self.readings[:self.n_words]


class ExampleSampler(_EnSampler):
    """Draws zh training examples: intent first (config intent_mix: prose = a Chinese word
    typed as pinyin, latin = a latin run typed verbatim), then a source (by its targets of
    that intent times its weight), then a position; the context is dataset.py's (its
    paragraph, sometimes the document before it, the optional context_window)."""

    def __init__(self, corpus: Corpus, sim: PinyinSimulator, cfg: dict):
        self.corpus = corpus
        self.sim = sim
        self.d = cfg["data"]
        self.max_len = cfg["model"]["max_len"]
        count = {"prose": lambda s: len(s.target_pos), "latin": lambda s: len(s.latin_pos)}
        mix = {k: v for k, v in self.d["intent_mix"].items()
               if any(count[k](s) for s in corpus.sources)}
        if not mix:
            raise ValueError("no typeable targets in this corpus")
        self.intents = list(mix)
        self.intent_cum = np.cumsum([mix[i] for i in self.intents]) / sum(mix.values())
        self.by_intent: dict[str, list[SourceArrays]] = {}
        self.source_cum = {}
        for intent in self.intents:
            srcs = [s for s in corpus.sources if count[intent](s)]
            w = np.asarray([count[intent](s) * s.weight for s in srcs], float)
            self.by_intent[intent] = srcs
            self.source_cum[intent] = np.cumsum(w) / w.sum()

    def sample(self, rng: random.Random) -> Example:
        intent = self.intents[self._pick(self.intent_cum, rng)]
        srcs = self.by_intent[intent]
        src = srcs[self._pick(self.source_cum[intent], rng)]
        c = self.corpus
        if intent == "latin":
            k = rng.randrange(len(src.latin_pos))
            pos, ntok = int(src.latin_pos[k]), int(src.latin_ntok[k])
            text = c.latin[int(src.latin_id[k])]
            room = min(self.max_len - 3, self.d["max_context_tokens"])
            ctx = self.context(src, pos, intent, rng, room)
            word = int(c.str_word[int(src.ids[pos])]) if ntok == 1 else T.UNK
            return self.sim.latin_example(ctx, text, word, rng)
        pos = int(src.target_pos[rng.randrange(len(src.target_pos))])
        sid = int(src.ids[pos])
        room = min(self.max_len - 3, self.d["max_context_tokens"])
        ctx = self.context(src, pos, intent, rng, room)
        return self.sim.prose_example(ctx, c.syllables(sid), int(c.str_word[sid]), rng)


def make_simulator(cfg: dict, corpus: Corpus | None = None) -> PinyinSimulator:
    layout = Path(cfg["data"]["layout"])
    if not layout.is_absolute():
        layout = REPO_ROOT / layout
    keyboard = Keyboard.load(layout) if layout.exists() else Keyboard()
    return PinyinSimulator(cfg["data"], keyboard, cfg["model"]["max_len"])


def eval_examples(corpus: Corpus, cfg: dict, n: int, seed: int) -> list[Example]:
    """A fixed set of dev examples (same seed, same examples at every evaluation)."""
    sampler = ExampleSampler(corpus, make_simulator(cfg, corpus), cfg)
    rng = random.Random(worker_seed(seed, 987654321))
    return [sampler.sample(rng) for _ in range(n)]


def epoch_tokens(corpus: Corpus) -> int:
    """Targets of a split (Chinese words and latin runs): one 'epoch' of examples."""
    return int(sum(len(s.target_pos) + len(s.latin_pos) for s in corpus.sources))


def export_metadata(corpus: Corpus) -> dict[str, str]:
    """Weight-file metadata beyond the contract's: the language, and the pinyin of every
    vocabulary word (so that the engine can map its lexicon's words to model ids)."""
    return {"language": Z.LANGUAGE, "pinyin": Z.pinyin_metadata(corpus.word_pinyin())}


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description="Build (or check) the zh token cache of a config.")
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=Path("data/zh"))
    args = ap.parse_args()
    cfg = load_config(args.config)
    if cfg.get("language") != Z.LANGUAGE:
        raise SystemExit(f"{args.config}: not a zh config (\"language\": \"zh\")")
    ensure_cache(args.data, cfg)


if __name__ == "__main__":
    main()
