"""Simulated pinyin typing: (context, Chinese word, its syllables) -> one training example.

Same sequence as English (docs/MODEL.md): [BOS] [APP] w1 .. wn [SEP] c1 .. ck, where the
w are committed Chinese words (and whatever else the text holds) and the c are the pinyin
keystrokes of the next word, one token per key (a-z, the apostrophe; digits and symbols
of a latin run are the contract's "other" key). The typist, the keyboard slips, the
backspace corrections and the log-normal intervals are typing_sim.TypingSimulator's, with
the rates of the zh config. What is pinyin-specific (config `data.pinyin`):

- Plan: what the typist means to type for the word. Full pinyin, letter by letter
  ("zhongguo"), with an apostrophe before a syllable that starts with a, e or o with
  `apostrophe_prob` ("xi'an"); or, for words of two syllables or more, an abbreviation
  (`abbrev_prob`: initials only, "zg" for 中国; zh/ch/sh as z/c/s, or in full with
  `full_initial_prob`), a mixed one (`mixed_abbrev_prob`: some syllables full, the others
  by their initial, "zhongg"), or an unfinished last syllable (`unfinished_prob`: the last
  syllable cut after 1..len-1 letters, "zhonggu"). Every prefix of the plan is seen anyway
  (a target at every keystroke); the plan decides where the session ends and how many
  letters are "left" for the popup label.
- Fuzzy pinyin (`fuzzy_prob` per word typed in full): one syllable of the plan typed with
  a common confusion (zh/z, ch/c, sh/s, n/l initials; an/ang, en/eng, in/ing finals).
- Then the keyboard slips of typing_sim at the zh rates (neighbour keys, swapped letters,
  omissions, insertions, backspace corrections).

Example fields for zh: `target` is the plan (the intended keys, "zg" or "zhongguo"), so that
`typed_wrong` means "a slip or a fuzzy syllable made the keys differ from the plan" (the
autocorrect label) and letters_left counts the plan's letters (the popup label); `word` is
the word's vocabulary index (UNK outside the vocabulary).

Latin sessions (intent "latin"): a run of the text typed verbatim (lower case), with slips
at `latin_slip_scale` times the typist's rate; target word = the run when it is one
vocabulary token ("python"), else UNK.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from . import zh_tokens as Z
from .typing_sim import Example, Keyboard, Typed, TypingSimulator

VOWELS = "aeo"  # a syllable starting with one of these can take a separating apostrophe
_FUZZY_INITIALS = [("zh", "z"), ("ch", "c"), ("sh", "s"), ("n", "l")]
_FUZZY_FINALS = [("ang", "an"), ("eng", "en"), ("ing", "in")]


def initial(syllable: str, full_zh: bool = False) -> str:
    """The key(s) of a syllable in an abbreviation: its first letter, or zh/ch/sh whole."""
    if full_zh and syllable[:2] in ("zh", "ch", "sh"):
        return syllable[:2]
    return syllable[:1]


def full_keys(syllables: Sequence[str], apostrophes: Sequence[bool] | None = None) -> str:
    """Syllables back to back; apostrophes[i] puts "'" before syllable i (i >= 1) when it
    starts with a vowel (a, e, o)."""
    out = []
    for i, s in enumerate(syllables):
        if i and apostrophes and apostrophes[i] and s[:1] in VOWELS:
            out.append("'")
        out.append(s)
    return "".join(out)


def fuzzy_syllable(syllable: str, rng: random.Random) -> str | None:
    """One common pinyin confusion applied to the syllable, or None when none applies."""
    options = []
    for a, b in _FUZZY_INITIALS:
        if syllable.startswith(a) and not (a == "n" and syllable.startswith("ng")):
            options.append(b + syllable[len(a):])
        elif syllable.startswith(b) and not syllable.startswith(("zh", "ch", "sh")) \
                and len(syllable) > len(b):
            options.append(a + syllable[len(b):])
    for a, b in _FUZZY_FINALS:
        if syllable.endswith(a):
            options.append(syllable[:-len(a)] + b)
        elif syllable.endswith(b):
            options.append(syllable[:-len(b)] + a)
    options = [o for o in options if o != syllable]
    return rng.choice(options) if options else None


@dataclass
class Plan:
    keys: str  # the intended keys
    kind: str  # full | abbrev | mixed | unfinished
    typed_as: str  # the keys the typist's mind produces (fuzzy pinyin), before slips


def plan_keys(syllables: Sequence[str], rng: random.Random, p: dict) -> Plan:
    """What the typist means to type for a word read as `syllables` (see module doc)."""
    n = len(syllables)
    r = rng.random()
    full_zh = rng.random() < p["full_initial_prob"]
    if n >= 2 and r < p["abbrev_prob"]:
        keys = "".join(initial(s, full_zh) for s in syllables)
        return Plan(keys, "abbrev", keys)
    r -= p["abbrev_prob"] if n >= 2 else 0.0
    if n >= 2 and r < p["mixed_abbrev_prob"]:
        short = [rng.random() < 0.5 for _ in syllables]
        if all(short) or not any(short):
            short[rng.randrange(n)] = not short[0]
        keys = "".join(initial(s, full_zh) if sh else s for s, sh in zip(syllables, short))
        return Plan(keys, "mixed", keys)
    r -= p["mixed_abbrev_prob"] if n >= 2 else 0.0
    apostrophes = [rng.random() < p["apostrophe_prob"] for _ in syllables]
    if r < p["unfinished_prob"] and len(syllables[-1]) >= 2:
        cut = rng.randint(1, len(syllables[-1]) - 1)
        syl = list(syllables[:-1]) + [syllables[-1][:cut]]
        keys = full_keys(syl, apostrophes)
        return Plan(keys, "unfinished", keys)
    keys = full_keys(syllables, apostrophes)
    typed_as = keys
    if rng.random() < p["fuzzy_prob"]:
        i = rng.randrange(n)
        other = fuzzy_syllable(syllables[i], rng)
        if other is not None:
            syl = list(syllables)
            syl[i] = other
            typed_as = full_keys(syl, apostrophes)
    return Plan(keys, "full", typed_as)


class PinyinSimulator:
    """Pinyin and latin sessions; typing, intervals and apps from TypingSimulator."""

    def __init__(self, cfg: dict, keyboard: Keyboard | None = None, max_len: int = 64):
        self.cfg = cfg
        self.p = cfg["pinyin"]
        self.base = TypingSimulator(cfg, keyboard, {}, max_len)
        self.max_len = max_len

    def _typed(self, keys: str, rng: random.Random, median: float, slip: float,
               max_keys: int) -> Typed:
        return self.base.type_word(keys, rng, median, slip, max_keys)

    def prose_example(self, context: Sequence[int], syllables: Sequence[str], word: int,
                      rng: random.Random) -> Example:
        """One pinyin session: `context` word indices (oldest first), the target word's
        syllables and its vocabulary index (UNK if none)."""
        median, slip = self.base.typist(rng)
        plan = plan_keys(syllables, rng, self.p)
        typed = self._typed(plan.typed_as, rng, median, slip, self.cfg["max_word_keys"])
        kind = plan.kind
        if plan.typed_as != plan.keys:
            kind += "+fuzzy"
        if typed.kind == "slips":
            kind += "+slips"
        typed.kind = kind
        app = self.base.sample_app("prose", rng)
        return self.base.assemble(context, typed, plan.keys, word,
                                  Z.INTENT_LABELS.index("prose"), app)

    def latin_example(self, context: Sequence[int], text: str, word: int,
                      rng: random.Random) -> Example:
        """One latin session: `text` (lower case) typed verbatim in pinyin mode."""
        median, slip = self.base.typist(rng)
        typed = self._typed(text, rng, median, slip * self.p["latin_slip_scale"],
                            self.cfg["max_latin_keys"])
        typed.kind = "latin" + ("+slips" if typed.kind == "slips" else "")
        app = self.base.sample_app("latin", rng)
        return self.base.assemble(context, typed, text, word,
                                  Z.INTENT_LABELS.index("latin"), app)
