"""Corpus cache and example sampling (no torch here: the simulator tests need numpy only).

Cache (data/en/cache/, rebuilt when the config's vocabulary settings or the input files
change; the text files are not needed once it exists, so it is all a GPU machine needs):

  meta.json      signature (vocabulary settings, md5 of every input), n_words, sources
  strings.txt    every distinct context token of train and dev, one per line: first the
                 vocabulary in word-index order (<unk> <num> <url> <email> then the words,
                 most frequent first), then the rest; URL and e-mail strings carry a
                 "\\x01U" / "\\x01E" tag so that they can't collide with a word
  train.npz      per source: ids (int32 string ids, all paragraphs back to back),
  dev.npz        para_start (token offset of each paragraph, plus the end) and
                 para_docstart (token offset of each paragraph's document)
  typos.tsv      the pairs of typos_train.tsv whose correction is a corpus word

Vocabulary: token counts over the training split, each source weighted (manifest weight,
overridden by the config's `source_weights`), most frequent first.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from . import tokens as T
from .misspellings import EditModel
from .sources.typos import typo_slice
from .typing_sim import Example, Keyboard, TypingSimulator, intent_of_source

CACHE_VERSION = 1
URL_TAG, EMAIL_TAG = "\x01U", "\x01E"
REPO_ROOT = Path(__file__).resolve().parents[2]


def load_config(path: str | Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def read_documents(path: Path) -> list[list[str]]:
    """Documents (lists of paragraph lines) of a prepare_text file."""
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    docs, cur = [], []
    for line in text.split("\n"):
        if line.strip():
            cur.append(line)
        elif cur:
            docs.append(cur)
            cur = []
    if cur:
        docs.append(cur)
    return docs


def token_strings(line: str) -> list[str]:
    """Context tokens with URL/e-mail text kept (tagged), for the cache."""
    out = []
    for kind, tok in T.tokenize(line):
        if kind == "url":
            out.append(URL_TAG + T.to_lower(tok))
        elif kind == "email":
            out.append(EMAIL_TAG + T.to_lower(tok))
        elif kind == "word":
            tok = T.to_lower(tok)
            if "-" in tok:
                for i, part in enumerate(tok.split("-")):
                    if i:
                        out.append("-")
                    out.append(part)
            else:
                out.append(tok)
        elif kind == "number":
            out.append("<num>")
        else:
            out.append(T.to_lower(tok))
    return out


def _tokenize_file(path: Path) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(local strings, local ids, counts per local id, para_start, para_docstart)."""
    local: dict[str, int] = {}
    ids: list[int] = []
    para_start: list[int] = []
    para_docstart: list[int] = []
    for doc in read_documents(path):
        doc_start = len(ids)
        for line in doc:
            para_start.append(len(ids))
            para_docstart.append(doc_start)
            for tok in token_strings(line):
                ids.append(local.setdefault(tok, len(local)))
    para_start.append(len(ids))
    ids_arr = np.asarray(ids, np.int32)
    counts = np.bincount(ids_arr, minlength=len(local)) if len(ids_arr) else np.zeros(0, np.int64)
    return (list(local), ids_arr, counts, np.asarray(para_start, np.int64),
            np.asarray(para_docstart, np.int64))


def md5_file(path: Path) -> str:
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def list_sources(data_dir: Path) -> list[str]:
    return sorted(p.stem for p in (data_dir / "train").glob("*.txt"))


def source_weights(data_dir: Path, cfg: dict, sources: Sequence[str]) -> dict[str, float]:
    manifest = data_dir / "manifest.json"
    weights = {}
    if manifest.exists():
        for name, info in json.loads(manifest.read_text())["sources"].items():
            weights[name] = float(info.get("weight", 1.0))
    weights.update(cfg["data"].get("source_weights", {}))
    return {s: float(weights.get(s, 1.0)) for s in sources}


def checked_source_weights(data_cfg: dict, cached_sources: Sequence[str]) -> dict[str, float]:
    """The config's `source_weights`, each naming a source of the cache: a misspelt name would
    leave its source at the manifest's weight, unnoticed until the run's figures came back, so
    it is refused before any GPU time is spent."""
    weights = data_cfg.get("source_weights", {})
    unknown = sorted(set(weights) - set(cached_sources))
    if unknown:
        raise ValueError(f"source_weights names sources the cache lacks: {', '.join(unknown)} "
                         f"(it has {', '.join(cached_sources)})")
    return weights


def cache_signature(data_dir: Path, cfg: dict) -> dict:
    sources = list_sources(data_dir)
    inputs = {}
    for split in ("train", "dev"):
        for s in sources:
            p = data_dir / split / f"{s}.txt"
            if p.exists():
                inputs[f"{split}/{s}.txt"] = md5_file(p)
    typos = data_dir / "typos_train.tsv"
    if typos.exists():
        inputs["typos_train.tsv"] = md5_file(typos)
    sig = {"version": CACHE_VERSION,
           "vocab_size": cfg["model"]["vocab_size"],
           "vocab_min_count": cfg["data"]["vocab_min_count"],
           "source_weights": source_weights(data_dir, cfg, sources),
           "inputs": inputs}
    if cfg["data"].get("heldout_typo_slice") is not None:  # older caches lack the key
        sig["heldout_typo_slice"] = cfg["data"]["heldout_typo_slice"]
    if cfg["data"].get("vocab_from"):  # the words, not the file: new weights, same cache
        words = vocab_of_model(cfg["data"]["vocab_from"], cfg["model"]["vocab_size"] - T.WORD_OFFSET)
        sig["vocab_from"] = hashlib.md5("\n".join(words).encode("utf-8")).hexdigest()
    return sig


def vocab_of_model(path: str | Path, n_words: int) -> list[str]:
    """The word list of an exported model (`data.vocab_from`): a run that continues that
    model (--init-from) keeps its vocabulary even where the counts of today's text would
    order the words differently (ties, a changed code corpus)."""
    from .export import verify_model_file  # numpy only
    words = verify_model_file(REPO_ROOT / path)[2]
    if len(words) > n_words:
        raise SystemExit(f"{path}: {len(words)} words, more than the config's vocab_size allows "
                         f"({n_words})")
    return words


def ensure_cache(data_dir: str | Path, cfg: dict, log: Callable[[str], None] = print,
                 workers: int = 2) -> Path:
    """Build data_dir/cache unless a cache for the same settings and inputs exists. With
    no text files present (a copied cache alone), an existing cache is used as it is."""
    return ensure_cache_with(
        Path(data_dir), cfg, log,
        signature=lambda: cache_signature(Path(data_dir), cfg),
        build=lambda: build_cache(Path(data_dir), cfg, log, workers),
        check=_check_settings,
        fetch_hint="scripts/fetch-data.sh and keydecide_train.make_code_corpus")


def ensure_cache_with(data_dir: Path, cfg: dict, log: Callable[[str], None], *,
                      signature: Callable[[], dict], build: Callable[[], None],
                      check: Callable[[dict, dict], None], fetch_hint: str) -> Path:
    """The cache policy of every language: reuse data_dir/cache when its meta.json has the
    same signature (settings and input checksums), rebuild it when not, and trust it as it
    is (after `check` of its settings) when the text is not here, as on a GPU machine."""
    cache = data_dir / "cache"
    meta_path = cache / "meta.json"
    have_text = (data_dir / "train").is_dir() and any((data_dir / "train").glob("*.txt"))
    if meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if not have_text:
            log(f"cache: using {cache} (no text in {data_dir}/train to check it against)")
            check(meta, cfg)
            return cache
        if meta.get("signature") == signature():
            log(f"cache: {cache} is up to date")
            return cache
        log("cache: settings or inputs changed, rebuilding")
    elif not have_text:
        raise SystemExit(f"no training text in {data_dir}/train and no cache; run {fetch_hint}")
    build()
    return cache


def _check_settings(meta: dict, cfg: dict) -> None:
    sig = meta["signature"]
    if sig["version"] != CACHE_VERSION or sig["vocab_size"] != cfg["model"]["vocab_size"] \
            or sig["vocab_min_count"] != cfg["data"]["vocab_min_count"]:
        raise SystemExit("the cache was built with other vocabulary settings and the text "
                         "to rebuild it is not here")
    if bool(cfg["data"].get("vocab_from")) != ("vocab_from" in sig):
        raise SystemExit("the cache's vocabulary " + ("is not" if "vocab_from" not in sig else "is")
                         + " a model's (data.vocab_from), unlike the config's; rebuild it where "
                         "the text is")
    if cfg["data"].get("heldout_typo_slice") != sig.get("heldout_typo_slice"):
        raise SystemExit("the cache holds back another slice of the typo pairs "
                         "(data.heldout_typo_slice); rebuild it where the text is")


def build_cache(data_dir: Path, cfg: dict, log: Callable[[str], None] = print,
                workers: int = 2) -> None:
    import time
    start = time.time()
    sources = list_sources(data_dir)
    weights = source_weights(data_dir, cfg, sources)
    sig = cache_signature(data_dir, cfg)
    jobs = [(split, s) for split in ("train", "dev") for s in sources
            if (data_dir / split / f"{s}.txt").exists()]
    paths = [data_dir / split / f"{s}.txt" for split, s in jobs]
    if workers > 1 and sum(p.stat().st_size for p in paths) > (4 << 20):  # pools cost ~1 s
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_tokenize_file, paths))
    else:
        results = [_tokenize_file(p) for p in paths]
    log(f"cache: tokenized {len(paths)} files in {time.time() - start:.0f} s")

    # Vocabulary from weighted training counts.
    counts: Counter = Counter()
    for (split, s), (strings, _, cnt, _, _) in zip(jobs, results):
        if split != "train":
            continue
        w = weights[s]
        for tok, c in zip(strings, cnt.tolist()):
            if not tok.startswith("\x01"):
                counts[tok] += c * w
    n_words = cfg["model"]["vocab_size"] - T.WORD_OFFSET
    if cfg["data"].get("vocab_from"):  # the model's words, then (vocab_size larger) the next
        vocab = T.Vocab.extend(vocab_of_model(cfg["data"]["vocab_from"], n_words), counts, n_words,
                               cfg["data"]["vocab_min_count"])
    else:
        vocab = T.Vocab.build(counts, n_words, cfg["data"]["vocab_min_count"])
    table = {w: i for i, w in enumerate(vocab.words)}
    strings_all = list(vocab.words)
    arrays: dict[str, dict[str, np.ndarray]] = {"train": {}, "dev": {}}
    for (split, s), (strings, ids, _, ps, pds) in zip(jobs, results):
        remap = np.empty(len(strings), np.int32)
        for i, tok in enumerate(strings):
            gid = table.get(tok)
            if gid is None:
                gid = table[tok] = len(strings_all)
                strings_all.append(tok)
            remap[i] = gid
        arrays[split][f"{s}/ids"] = remap[ids] if len(ids) else ids
        arrays[split][f"{s}/para_start"] = ps
        arrays[split][f"{s}/para_docstart"] = pds

    cache = data_dir / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    for split in ("train", "dev"):
        np.savez_compressed(cache / f"{split}.npz", **arrays[split])
    with open(cache / "strings.txt", "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("\n".join(strings_all))
    typos_written = _write_typos(data_dir, table, cache, cfg["data"].get("heldout_typo_slice"))
    n_train = sum(len(v) for k, v in arrays["train"].items() if k.endswith("/ids"))
    in_vocab = sum(int((v < len(vocab)).sum()) for k, v in arrays["train"].items()
                   if k.endswith("/ids"))
    meta = {"signature": sig, "n_words": len(vocab), "n_strings": len(strings_all),
            "sources": sources, "train_tokens": n_train,
            "train_coverage": in_vocab / max(1, n_train), "typo_pairs": typos_written}
    (cache / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    log(f"cache: {len(vocab)} words ({meta['train_coverage']:.1%} of training tokens), "
        f"{n_train} training tokens, {typos_written} typo pairs, "
        f"{time.time() - start:.0f} s -> {cache}")


def _write_typos(data_dir: Path, table: dict[str, int], cache: Path,
                 heldout_slice: int | None = None) -> int:
    """Keep the allowed pairs (typos_train.tsv only) whose correction is one corpus word, but
    those of `heldout_slice` (data.heldout_typo_slice: typos_heldout_dev.tsv, for measuring)."""
    src = data_dir / "typos_train.tsv"
    rows = []
    if src.exists():
        for line in src.read_text(encoding="utf-8").split("\n"):
            if "\t" not in line:
                continue
            if heldout_slice is not None and typo_slice(line.split("\t", 1)[0].strip()) == heldout_slice:
                continue
            wrong, right = (T.to_lower(x.strip()) for x in line.split("\t", 1))
            if (wrong and wrong != right and " " not in wrong and right in table
                    and T.is_typeable_word(right) and T.context_tokens(right) == [right]):
                rows.append(f"{wrong}\t{right}")
    (cache / "typos.tsv").write_text("\n".join(rows) + ("\n" if rows else ""), encoding="utf-8")
    return len(rows)


# --- loaded corpus -------------------------------------------------------------------------

@dataclass
class SourceArrays:
    name: str
    intent: str
    weight: float
    ids: np.ndarray
    para_start: np.ndarray
    para_docstart: np.ndarray
    target_pos: np.ndarray  # positions of typeable words
    typo_pos: np.ndarray  # positions of words that have misspellings
    url_pos: np.ndarray  # positions of URLs / e-mail addresses


def read_cache_lines(path: Path) -> list[str]:
    """The lines of a cache's string file (written with surrogateescape: invalid UTF-8 of the
    text survives the round trip)."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read().split("\n")


class Corpus:
    """One split of the cache, ready for sampling."""

    def __init__(self, cache: str | Path, split: str, cfg: dict):
        cache = Path(cache)
        meta = json.loads((cache / "meta.json").read_text())
        self.n_words = meta["n_words"]
        self.strings = read_cache_lines(cache / "strings.txt")
        self.words = self.strings[:self.n_words]
        n = len(self.strings)
        # String id -> word index, typeable as a target?
        self.str_word = np.zeros(n, np.int64)
        self.str_word[:self.n_words] = np.arange(self.n_words)
        max_keys = cfg["data"]["max_word_keys"]
        self.str_target = np.zeros(n, bool)
        for i, s in enumerate(self.strings):
            if s.startswith(URL_TAG):
                self.str_word[i] = T.URL
            elif s.startswith(EMAIL_TAG):
                self.str_word[i] = T.EMAIL
            elif T.is_typeable_word(s) and len(s) <= max_keys:
                self.str_target[i] = True
        self.typos: dict[str, list[str]] = {}
        for line in (cache / "typos.tsv").read_text(encoding="utf-8").split("\n"):
            if "\t" in line:
                wrong, right = line.split("\t")
                self.typos.setdefault(right, []).append(wrong)
        index = {s: i for i, s in enumerate(self.strings)}
        has_typo = np.zeros(n, bool)
        for right in self.typos:
            if right in index:
                has_typo[index[right]] = True
        is_url = np.isin(self.str_word, [T.URL, T.EMAIL])
        is_url[:self.n_words] = False

        weights = checked_source_weights(cfg["data"], meta["sources"])
        manifest_w = meta["signature"]["source_weights"]
        self.sources: list[SourceArrays] = []
        with np.load(cache / f"{split}.npz") as z:
            for name in meta["sources"]:
                if f"{name}/ids" not in z.files:
                    continue
                ids = z[f"{name}/ids"]
                if len(ids) == 0:
                    continue
                self.sources.append(SourceArrays(
                    name=name,
                    intent=intent_of_source(name, cfg["data"]["intent_rules"]),
                    weight=float(weights.get(name, manifest_w.get(name, 1.0))),
                    ids=ids, para_start=z[f"{name}/para_start"],
                    para_docstart=z[f"{name}/para_docstart"],
                    target_pos=np.flatnonzero(self.str_target[ids]),
                    typo_pos=np.flatnonzero(has_typo[ids]),
                    url_pos=np.flatnonzero(is_url[ids])))
        # Plain a-z words for made-up URLs: the common ones read like real domains.
        self.url_words = ([w for w in self.words[4:2000] if w.isascii() and w.isalpha()]
                          or ["example"])


class ExampleSampler:
    """Draws training examples from a Corpus: intent class first (config `intent_mix`,
    so that the rare classes are seen often enough), then a source of that class (by its
    token count times its weight), then a target position."""

    def __init__(self, corpus: Corpus, sim: TypingSimulator, cfg: dict):
        self.corpus = corpus
        self.sim = sim
        self.d = cfg["data"]
        self.max_len = cfg["model"]["max_len"]
        by_intent: dict[str, list[SourceArrays]] = {}
        for s in corpus.sources:
            if len(s.target_pos):
                by_intent.setdefault(s.intent, []).append(s)
        self.by_intent = by_intent
        self.url_sources = [s for s in corpus.sources if len(s.url_pos)]
        mix = dict(self.d["intent_mix"])
        for intent in list(mix):
            if intent != "url" and intent not in by_intent:
                mix.pop(intent)  # no such text in this corpus (tiny fixtures)
        if "url" in mix and not by_intent:
            mix.pop("url")
        self.intents = list(mix)
        self.intent_cum = np.cumsum([mix[i] for i in self.intents]) / sum(mix.values())
        self.source_cum = {}
        for intent, srcs in by_intent.items():
            w = np.asarray([len(s.ids) * s.weight for s in srcs], float)
            self.source_cum[intent] = np.cumsum(w) / w.sum()

    def _pick(self, cum: np.ndarray, rng: random.Random) -> int:
        return min(int(np.searchsorted(cum, rng.random(), side="right")), len(cum) - 1)

    def context(self, src: SourceArrays, pos: int, intent: str, rng: random.Random,
                room: int) -> list[int]:
        """Word indices of the committed text before `pos`: its paragraph, and sometimes
        the paragraphs of the same document before it; at most `room` tokens.

        Config `context_window` (optional): with `any_start_prob` the context may reach
        back past its document into whatever text of the source precedes it (earlier,
        unrelated text in the field, as an editor or chat holds); with
        `random_length_prob` it is cut to a length drawn uniformly from 1..room, so it
        starts anywhere, mid-sentence too, the way the engine's sliding context window
        starts (src/decide/model_track.h), and every context length is seen."""
        para = int(np.searchsorted(src.para_start, pos, side="right")) - 1
        start = int(src.para_start[para])
        win = self.d.get("context_window")  # no draws without it: old configs unchanged
        if win and rng.random() < win.get("any_start_prob", 0.0):
            start = 0
        elif rng.random() < self.d["cross_paragraph_prob"].get(intent, 0.0):
            start = int(src.para_docstart[para])
        if win and room > 0 and rng.random() < win.get("random_length_prob", 0.0):
            start = max(start, pos - rng.randint(1, room))
        start = max(start, pos - room)
        return self.corpus.str_word[src.ids[start:pos]].tolist()

    def sample(self, rng: random.Random) -> Example:
        intent = self.intents[self._pick(self.intent_cum, rng)]
        # Context tokens at most; the keystrokes may take some of it (oldest dropped).
        room = min(self.max_len - 3, self.d["max_context_tokens"])
        if intent == "url":
            return self._url_example(rng, room)
        srcs = self.by_intent[intent]
        src = srcs[self._pick(self.source_cum[intent], rng)]
        force = len(src.typo_pos) > 0 and rng.random() < self.d["noise"]["typo_target_prob"]
        positions = src.typo_pos if force else src.target_pos
        pos = int(positions[rng.randrange(len(positions))])
        sid = int(src.ids[pos])
        target = self.corpus.strings[sid]
        ctx = self.context(src, pos, intent, rng, room)
        return self.sim.example(ctx, target, int(self.corpus.str_word[sid]), src.name, rng,
                                force_misspelling=force)

    def _url_example(self, rng: random.Random, room: int) -> Example:
        u = self.d["url"]
        if self.url_sources and rng.random() < u["from_text_prob"]:
            src = self.url_sources[rng.randrange(len(self.url_sources))]
            pos = int(src.url_pos[rng.randrange(len(src.url_pos))])
            sid = int(src.ids[pos])
            text, word = self.corpus.strings[sid][len(URL_TAG):], int(self.corpus.str_word[sid])
            ctx = self.context(src, pos, "url", rng, room)
        else:
            text, word = self.sim.synth_url(self.corpus.url_words, rng)
            ctx = []
            if rng.random() >= u["empty_context_prob"]:
                intents = [i for i in ("prose", "command") if i in self.by_intent]
                if intents:
                    intent = intents[rng.randrange(len(intents))]
                    src = self.by_intent[intent][self._pick(self.source_cum[intent], rng)]
                    pos = int(src.target_pos[rng.randrange(len(src.target_pos))])
                    ctx = self.context(src, pos, intent, rng, room)
        if rng.random() < u["empty_context_prob"]:
            ctx = []  # an address bar: nothing before
        return self.sim.example(ctx, text, word, "url", rng, intent="url")


def make_simulator(cfg: dict, corpus: Corpus) -> TypingSimulator:
    layout = Path(cfg["data"]["layout"])
    if not layout.is_absolute():
        layout = REPO_ROOT / layout
    keyboard = Keyboard.load(layout) if layout.exists() else Keyboard()
    edit_model = None
    if cfg["data"]["noise"].get("learned_typo_prob", 0.0) > 0:
        # The training pairs' edits, applied to any word; a misspelling must not be a string
        # of the corpus (it may be a real, rare word).
        edit_model = EditModel.from_pairs(
            (wrong, right) for right, wrongs in corpus.typos.items() for wrong in wrongs)
    known = set(corpus.strings)
    return TypingSimulator(cfg["data"], keyboard, corpus.typos, cfg["model"]["max_len"],
                           edit_model=edit_model, is_word=known.__contains__)


def worker_seed(*parts: int) -> int:
    """A seed from several integers (config seed, rank, worker, ...), stable across runs."""
    h = hashlib.sha256(",".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "little")


def eval_examples(corpus: Corpus, cfg: dict, n: int, seed: int) -> list[Example]:
    """A fixed set of dev examples (same seed, same examples at every evaluation)."""
    sim = make_simulator(cfg, corpus)
    sampler = ExampleSampler(corpus, sim, cfg)
    rng = random.Random(worker_seed(seed, 987654321))
    return [sampler.sample(rng) for _ in range(n)]


def epoch_tokens(corpus: Corpus) -> int:
    """Typeable target words of a split: what one 'epoch' of examples would be."""
    return int(sum(len(s.target_pos) for s in corpus.sources))


__all__ = ["Corpus", "ExampleSampler", "ensure_cache", "load_config", "make_simulator",
           "eval_examples", "worker_seed", "epoch_tokens"]
