"""Simulated typing: (context, target word, source) -> one training example.

The sequence follows docs/MODEL.md: [BOS] [APP] w1 .. wn [SEP] c1 .. ck, with an interval
bucket and an after-backspace flag per position. What is simulated, and how:

- Typist: each example draws a typist: a median inter-key interval (log-normal around
  `median_ms`) and a sloppiness factor; `clean_prob` of the examples are typed without
  any slip. Faster typists slip more (rates scale with sqrt(median_ms / typist median)).
- Slips, per intended key (rates in the config): neighbour-key substitution (a key near
  the intended one on the layout, weighted by a Gaussian of the key distance), omission,
  insertion (a double tap of the same key, or a neighbour hit together with the key),
  transposition of two adjacent letters.
- Backspace corrections: a substituted or inserted wrong key is noticed right away with
  probability `backspace_rate`: the typist deletes it, so it is absent from the sequence,
  and the next key carries after_backspace = 1 (its interval is the reaction time).
- Real misspellings: with probability `typo_pair_prob` (or always, when the caller asks
  for one) a word that has pairs in typos_train.tsv (the allowed 90% of the cspell list)
  is typed as one of its misspellings; `typo_extra_noise_prob` of those get slips on top.
- Intervals: log-normal around the typist's median, scaled by the key distance (longer
  for distant keys), shorter for a repeated key, double taps and rolled transpositions,
  much longer for the first key of a word (a pause between words) and after a backspace.
  Bucketed with the contract's edges.
- App token: drawn from a per-intent distribution (prose is mostly chat/editor/search,
  code mostly code/editor, ...); with probability `app_noise` any app at random, so the
  model cannot read the intent off the app alone.
- Intent label: from the source (config `intent_rules`), or "url" for URL/e-mail examples.
- URL / e-mail examples: the "word" being typed is a URL or address (target `<url>` or
  `<email>`), either one found in the training text (with its real preceding context) or
  a generated one (see `synth_url`), typed character by character without slips.
"""

from __future__ import annotations

import bisect
import fnmatch
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from . import tokens as T
from .misspellings import EditModel


# --- keyboard ------------------------------------------------------------------------------

QWERTY = """name = qwerty
row 0.0  q w e r t y u i o p
row 0.25 a s d f g h j k l '
row 0.75 z x c v b n m
"""


class Keyboard:
    """Key centres of a layout file (format of src/text/keyboard_layout.h)."""

    def __init__(self, text: str = QWERTY, neighbour_sigma: float = 0.6,
                 max_neighbour_distance: float = 1.6):
        self.pos: dict[str, tuple[float, float]] = {}
        row = 0
        for line in text.split("\n"):
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("name"):
                continue
            parts = line.split()
            if parts[0] != "row":
                raise ValueError(f"bad layout line: {line!r}")
            offset = float(parts[1])
            for k, key in enumerate(parts[2:]):
                self.pos[key.lower()] = (offset + k + 0.5, row + 0.5)
            row += 1
        # Slip targets: keys near each key, weighted by a Gaussian of the distance.
        self.neighbours: dict[str, tuple[list[str], list[float]]] = {}
        for key in self.pos:
            keys, weights = [], []
            for other in self.pos:
                d = self.distance(key, other)
                if other != key and d <= max_neighbour_distance:
                    keys.append(other)
                    weights.append(math.exp(-0.5 * (d / neighbour_sigma) ** 2))
            total = sum(weights)
            cum, acc = [], 0.0
            for w in weights:
                acc += w / total
                cum.append(acc)
            self.neighbours[key] = (keys, cum)

    @classmethod
    def load(cls, path: str | Path) -> "Keyboard":
        return cls(Path(path).read_text(encoding="utf-8"))

    def distance(self, a: str, b: str, unknown: float = 3.0) -> float:
        """Key widths between key centres; `unknown` for keys off the layout (digits,
        symbols: a reach or a shift)."""
        pa, pb = self.pos.get(a), self.pos.get(b)
        if pa is None or pb is None:
            return unknown
        return math.hypot(pa[0] - pb[0], pa[1] - pb[1])

    def neighbour(self, key: str, rng: random.Random) -> str | None:
        entry = self.neighbours.get(key)
        if not entry or not entry[0]:
            return None
        keys, cum = entry
        return keys[min(bisect.bisect_left(cum, rng.random()), len(keys) - 1)]


# --- examples ------------------------------------------------------------------------------

@dataclass
class Typed:
    keys: list[str] = field(default_factory=list)  # characters as they stay in the field
    intervals_ms: list[float] = field(default_factory=list)
    backspace: list[int] = field(default_factory=list)  # 1: typed right after a backspace
    kind: str = "clean"  # clean | slips | misspelling | url

    @property
    def text(self) -> str:
        return "".join(self.keys)


@dataclass
class Example:
    tokens: list[int]
    buckets: list[int]
    backspace: list[int]
    sep_pos: int  # index of [SEP]; keystrokes follow it
    word: int  # target word index (UNK for words outside the vocabulary)
    target: str  # the intended word (or the URL / address)
    typed: str  # the characters left in the field after typing
    intent: int
    app: int
    kind: str

    @property
    def n_keys(self) -> int:
        return len(self.tokens) - self.sep_pos - 1

    @property
    def pickable(self) -> bool:
        """A real vocabulary word: offering or auto-correcting to it makes sense."""
        return self.word >= len(T.WORD_SPECIALS)

    @property
    def typed_wrong(self) -> bool:
        return self.typed != self.target


def intent_of_source(source: str, rules: Sequence[Sequence[str]]) -> str:
    """First matching (glob pattern, intent) rule."""
    for pattern, intent in rules:
        if fnmatch.fnmatchcase(source, pattern):
            return intent
    raise ValueError(f"no intent rule matches source {source!r}")


class TypingSimulator:
    def __init__(self, cfg: dict, keyboard: Keyboard | None = None,
                 typos: dict[str, list[str]] | None = None, max_len: int = 64,
                 edit_model: EditModel | None = None,
                 is_word: Callable[[str], bool] | None = None):
        """edit_model: misspellings of any word (noise.learned_typo_prob), learned from the
        typo pairs; is_word: whether a string is a word (a misspelling must not be one)."""
        self.cfg = cfg
        self.noise = cfg["noise"]
        self.ivl = cfg["intervals"]
        self.keyboard = keyboard or Keyboard()
        self.typos = typos or {}
        self.max_len = max_len
        self.edit_model = edit_model
        self.is_word = is_word or (lambda w: False)
        self.intent_rules = cfg["intent_rules"]
        apps = cfg["app_probs"]
        self.app_cum = {}
        for intent, probs in apps.items():
            names = list(probs)
            total = sum(probs.values())
            cum = np.cumsum([probs[n] / total for n in names]).tolist()
            self.app_cum[intent] = ([T.app_id(n) for n in names], cum)

    # -- typing ---------------------------------------------------------------------------

    def typist(self, rng: random.Random) -> tuple[float, float]:
        """(median interval ms, slip-rate multiplier) of one simulated typist."""
        median = self.ivl["median_ms"] * math.exp(rng.gauss(0.0, self.ivl["typist_sigma"]))
        if rng.random() < self.noise["clean_prob"]:
            return median, 0.0
        sloppy = math.exp(rng.gauss(0.0, self.noise["sloppiness_sigma"]))
        return median, sloppy * math.sqrt(self.ivl["median_ms"] / median)

    def type_word(self, word: str, rng: random.Random, median_ms: float, slip: float,
                  max_keys: int) -> Typed:
        """Keystrokes of `word` (lower case) with slips at `slip` times the config rates."""
        n = self.noise
        p_sub = n["substitution"] * slip
        p_omit = n["omission"] * slip
        p_ins = n["insertion"] * slip
        p_trans = n["transposition"] * slip
        out = Typed(kind="clean")
        pending_bs = False  # the next key follows a backspace
        prev: str | None = None

        def press(ch: str, factor: float = 1.0) -> None:
            nonlocal pending_bs, prev
            out.keys.append(ch)
            out.intervals_ms.append(self._interval(prev, ch, median_ms, rng, pending_bs) * factor)
            out.backspace.append(1 if pending_bs else 0)
            pending_bs = False
            prev = ch

        def wrong_key(ch: str, factor: float = 1.0) -> None:
            # A wrong key: left in place, or noticed and deleted at once.
            nonlocal pending_bs, prev
            if rng.random() < self.noise["backspace_rate"]:
                pending_bs = True
                prev = ch
            else:
                press(ch, factor)
                out.kind = "slips"

        i = 0
        while i < len(word) and len(out.keys) < max_keys:
            ch = word[i]
            r = rng.random()
            on_layout = ch in self.keyboard.pos
            if not on_layout or slip == 0.0:
                press(ch)
                i += 1
                continue
            if r < p_omit:
                out.kind = "slips"
                i += 1
                continue
            r -= p_omit
            if r < p_trans and i + 1 < len(word) and word[i + 1] != ch:
                out.kind = "slips"
                press(word[i + 1])
                if len(out.keys) < max_keys:
                    press(ch, self.ivl["roll_factor"])  # a rolled pair: fast
                i += 2
                continue
            r -= p_trans
            if r < p_sub:
                other = self.keyboard.neighbour(ch, rng)
                if other is not None:
                    wrong_key(other, self.ivl["slip_factor"])
                    if pending_bs:
                        press(ch)  # retyped right after the backspace
                    i += 1
                    continue
            r -= p_sub
            if r < p_ins:
                press(ch)
                double = rng.random() < n["double_tap_share"]
                extra = ch if double else self.keyboard.neighbour(ch, rng)
                if extra is not None and len(out.keys) < max_keys:
                    wrong_key(extra, self.ivl["double_tap_factor"] if double
                              else self.ivl["slip_factor"])
                i += 1
                continue
            press(ch)
            i += 1
        if not out.keys and word:
            press(word[0])  # an example has at least one keystroke
        return out

    def _interval(self, prev: str | None, ch: str, median_ms: float, rng: random.Random,
                  after_backspace: bool) -> float:
        c = self.ivl
        if prev is None:  # first key of a word: the pause after the space
            noise = math.exp(rng.gauss(0.0, c["word_start_sigma"]))
            return median_ms * c["word_start_factor"] * noise
        if after_backspace:  # noticing the slip and pressing backspace first
            return median_ms * c["backspace_factor"] * math.exp(rng.gauss(0.0, c["key_sigma"]))
        if prev == ch:
            scale = c["repeat_factor"]
        else:
            scale = c["base_factor"] + c["distance_factor"] * self.keyboard.distance(prev, ch)
        return median_ms * scale * math.exp(rng.gauss(0.0, c["key_sigma"]))

    # -- whole examples -------------------------------------------------------------------

    def sample_app(self, intent: str, rng: random.Random) -> int:
        if rng.random() < self.cfg["app_noise"]:
            return T.APP_BASE + rng.randrange(len(T.APP_TYPES))
        ids, cum = self.app_cum[intent]
        return ids[min(bisect.bisect_left(cum, rng.random()), len(ids) - 1)]

    def example(self, context: Sequence[int], target: str, word: int, source: str,
                rng: random.Random, force_misspelling: bool = False,
                intent: str | None = None) -> Example:
        """One session: `context` are word indices of the committed text (oldest first),
        `target` the word being typed (lower case) and `word` its index (UNK if none).
        URL/e-mail targets (word URL or EMAIL) are typed verbatim."""
        intent = intent or ("url" if word in (T.URL, T.EMAIL)
                            else intent_of_source(source, self.intent_rules))
        median, slip = self.typist(rng)
        if word in (T.URL, T.EMAIL):
            typed = self.type_word(target, rng, median, 0.0, self.cfg["max_url_keys"])
            typed.kind = "url"
        else:
            spelled, misspelt = target, False
            pairs = self.typos.get(target)
            n = self.noise
            if pairs and (force_misspelling or rng.random() < n["typo_pair_prob"]):
                spelled, misspelt = rng.choice(pairs), True
            elif self.edit_model is not None and rng.random() < n.get("learned_typo_prob", 0.0):
                # A misspelling made by the pairs' edits, for words no pair covers.
                made = self.edit_model.misspell(target, rng, self.is_word)
                if made is not None:
                    spelled, misspelt = made, True
            if misspelt and rng.random() >= n["typo_extra_noise_prob"]:
                slip = 0.0
            if "'" in spelled and rng.random() < n.get("apostrophe_omission_prob", 0.0):
                # Most people leave a contraction's apostrophe out on a keyboard ("dont").
                spelled, misspelt = spelled.replace("'", ""), True
            typed = self.type_word(spelled, rng, median, slip, self.cfg["max_word_keys"])
            if misspelt:
                typed.kind = "misspelling"
        app = self.sample_app(intent, rng)
        return self.assemble(context, typed, target, word, T.INTENT_LABELS.index(intent), app)

    def assemble(self, context: Sequence[int], typed: Typed, target: str, word: int,
                 intent: int, app: int) -> Example:
        n_keys = len(typed.keys)
        room = self.max_len - 3 - n_keys  # BOS, APP, SEP
        if room < 0:
            raise ValueError("keystrokes do not fit in max_len")
        ctx = list(context[len(context) - room:]) if room else []  # drop the oldest
        tokens = [T.BOS, app] + [T.WORD_OFFSET + w for w in ctx] + [T.SEP]
        sep_pos = len(tokens) - 1
        tokens += [T.key_id(ch) for ch in typed.keys]
        buckets = [0] * (sep_pos + 1) + [T.interval_bucket(ms) for ms in typed.intervals_ms]
        backspace = [0] * (sep_pos + 1) + list(typed.backspace)
        return Example(tokens, buckets, backspace, sep_pos, word, target, typed.text,
                       intent, app, typed.kind)

    # -- URLs -----------------------------------------------------------------------------

    TLDS = ["com", "org", "net", "de", "io", "edu", "gov", "co.uk", "fr", "info", "dev"]

    def synth_url(self, words: Sequence[str], rng: random.Random) -> tuple[str, int]:
        """A made-up URL or e-mail address from vocabulary words: (text, URL or EMAIL).

        Shapes: https://www.w1w2.tld/w3/w4.html, http://w1.tld, www.w1-w2.tld/w3,
        https://w1.tld/w2?w3=N, ftp://ftp.w1.org/pub/w2/, w1.w2@w3.tld, w1@w2-w3.tld,
        w1N@mail.w2.tld. Callers pass plain a-z words."""
        w = [rng.choice(words) for _ in range(4)]
        tld = rng.choice(self.TLDS)
        num = str(rng.randrange(1, 1000))
        if rng.random() < self.cfg["url"]["email_share"]:
            shape = rng.randrange(3)
            text = (f"{w[0]}.{w[1]}@{w[2]}.{tld}" if shape == 0 else
                    f"{w[0]}@{w[1]}-{w[2]}.{tld}" if shape == 1 else
                    f"{w[0]}{num}@mail.{w[1]}.{tld}")
            return text, T.EMAIL
        shape = rng.randrange(5)
        text = (f"https://www.{w[0]}{w[1]}.{tld}/{w[2]}/{w[3]}.html" if shape == 0 else
                f"http://{w[0]}.{tld}" if shape == 1 else
                f"www.{w[0]}-{w[1]}.{tld}/{w[2]}" if shape == 2 else
                f"https://{w[0]}.{tld}/{w[1]}?{w[2]}={num}" if shape == 3 else
                f"ftp://ftp.{w[0]}.org/pub/{w[1]}/")
        return text, T.URL


# --- batches -------------------------------------------------------------------------------

IGNORE = -100  # ignore_index of the losses


def batch_arrays(examples: Sequence[Example], max_len: int) -> dict[str, np.ndarray]:
    """Fixed-length arrays for a batch, padded with [PAD] (id 0, bucket 0, flag 0).

    tokens/buckets/backspace [B, L]: the model input.
    lm_target [B, L]: at context positions (APP .. wn), the word index of the next token
        (for wn: the target word); IGNORE elsewhere.
    word_target [B, L]: the target word index at [SEP] and at every keystroke.
    letters_left [B, L]: target length minus keystrokes so far, at [SEP] and keystrokes
        (-1 where the target is not a pickable word: no popup then).
    head_mask [B, L]: [SEP] and keystroke positions (popup, intent losses).
    last_key [B]: index of the last keystroke; typed_wrong [B], pickable [B]; intent [B].
    """
    B = len(examples)
    tok = np.zeros((B, max_len), np.int64)
    ivl = np.zeros((B, max_len), np.int64)
    bs = np.zeros((B, max_len), np.int64)
    lm = np.full((B, max_len), IGNORE, np.int64)
    word = np.full((B, max_len), IGNORE, np.int64)
    left = np.full((B, max_len), -1, np.int64)
    head = np.zeros((B, max_len), bool)
    last_key = np.zeros(B, np.int64)
    wrong = np.zeros(B, bool)
    pickable = np.zeros(B, bool)
    intent = np.zeros(B, np.int64)
    for b, ex in enumerate(examples):
        n = len(ex.tokens)
        s = ex.sep_pos
        tok[b, :n] = ex.tokens
        ivl[b, :n] = ex.buckets
        bs[b, :n] = ex.backspace
        # Context positions predict the next committed word; the last one the target.
        if s > 2:
            lm[b, 1:s - 1] = np.asarray(ex.tokens[2:s]) - T.WORD_OFFSET
        lm[b, s - 1] = ex.word
        word[b, s:n] = ex.word
        head[b, s:n] = True
        if ex.pickable:
            left[b, s:n] = len(ex.target) - np.arange(n - s)
        last_key[b] = n - 1
        wrong[b] = ex.typed_wrong
        pickable[b] = ex.pickable
        intent[b] = ex.intent
    return {"tokens": tok, "buckets": ivl, "backspace": bs, "lm_target": lm,
            "word_target": word, "letters_left": left, "head_mask": head,
            "last_key": last_key, "typed_wrong": wrong, "pickable": pickable,
            "intent": intent}
