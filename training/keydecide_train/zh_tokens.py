"""Chinese context tokens and pinyin readings (the zh counterpart of tokens.py).

The token ids are the contract's (tokens.py, docs/MODEL.md): the same specials, app tokens,
keystroke characters (a-z, apostrophe, other) and word_offset. What differs for Chinese:

- Committed text is split at runs of Han characters (zh_text.HAN_RUN). A Han run
  is segmented into words by the most probable segmentation of make_pinyin_eval.Segmenter
  (jieba counts over words that have a reading; ties to the longer word); a character
  without a reading ends the readable part and is a one-character token of its own.
  Everything between Han runs is tokenized as English context is (tokens.tokenize:
  lower-cased words split at hyphens, <num>, <url>, <email>, every other non-space
  character, Chinese punctuation included, as itself).
- Each Han word has one reading: its most frequent one (make_pinyin_eval.load_readings),
  toneless, ü as v, syllables joined by "'" ("zhong'guo"). Other tokens have none.
- Latin runs: maximal runs of [A-Za-z0-9_.-] in the non-Han text, with trailing '.' and '-'
  dropped, holding a letter, that begin and end at token boundaries (so a URL or e-mail
  address is never cut into pieces). They are what a person types verbatim in pinyin mode:
  English words, commands, options, identifiers, file names (intent "latin").
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from . import tokens as T
from .make_pinyin_eval import Segmenter, load_counts, load_readings
from .zh_text import HAN_RUN

LANGUAGE = "zh"
INTENT_LABELS = ["prose", "latin"]  # the zh file's intent head (config "intent_labels")
URL_TAG, EMAIL_TAG = "\x01U", "\x01E"  # as dataset.py: cache strings of URLs / addresses

LATIN_RUN = re.compile(r"[A-Za-z0-9_.\-]+")
_HAS_LETTER = re.compile(r"[A-Za-z]")
PINYIN_READING = re.compile(r"^(?:[a-z]+(?:'[a-z]+)*)?$")  # a "pinyin" metadata line
_SPECIAL_OF_TAG = {URL_TAG: "<url>", EMAIL_TAG: "<email>"}


def resolve_readings(path: Path, log: Callable[[str], None] = print) -> Path:
    """readings.txt, or sc.dict.txt beside it when it is missing (as make_pinyin_eval)."""
    fallback = path.parent / "sc.dict.txt"
    if not path.exists() and fallback.is_file():
        log(f"zh: {path} missing (scripts/build-lexicon-zh.sh writes it): using {fallback}")
        return fallback
    return path


class ZhTokenizer:
    """Committed Chinese text -> context token strings (and latin runs)."""

    def __init__(self, segmenter: Segmenter):
        self.seg = segmenter
        self._runs: dict[str, list[str]] = {}

    @classmethod
    def from_text(cls, counts: str, readings: str) -> "ZhTokenizer":
        """From the text of a jieba counts file and a readings file (tests)."""
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            c, r = Path(tmp) / "counts.txt", Path(tmp) / "readings.txt"
            c.write_text(counts, encoding="utf-8")
            r.write_text(readings, encoding="utf-8")
            return cls.load(c, r)

    @classmethod
    def load(cls, counts_path: Path, readings_path: Path) -> "ZhTokenizer":
        readings, _ = load_readings(Path(readings_path))
        return cls(Segmenter(load_counts(Path(counts_path)), readings))

    def reading(self, word: str) -> str:
        """The word's pinyin ("zhong'guo"), or "" for a token without one."""
        syl = self.seg.readings.get(word)
        return "'".join(syl) if syl and HAN_RUN.fullmatch(word) else ""

    def segment_han(self, run: str) -> list[str]:
        """Words of one Han run: the readable stretches segmented, every character without
        a reading on its own."""
        words = self._runs.get(run)
        if words is None:
            words = []
            start = 0
            for i, ch in enumerate(run):
                if ch not in self.seg.logp:
                    if i > start:
                        words += self.seg.segment(run[start:i])
                    words.append(ch)
                    start = i + 1
            if start < len(run):
                words += self.seg.segment(run[start:])
            if len(self._runs) < 2_000_000:
                self._runs[run] = words
        return words

    def line_tokens(self, line: str) -> tuple[list[str], list[tuple[int, int, str]]]:
        """(token strings, latin runs) of one line. Token strings are lower-cased; URLs and
        e-mail addresses keep their text behind URL_TAG / EMAIL_TAG, numbers are <num>.
        A latin run is (index of its first token, number of tokens, lower-cased text)."""
        out: list[str] = []
        runs: list[tuple[int, int, str]] = []
        pos = 0
        for m in HAN_RUN.finditer(line):
            if m.start() > pos:
                self._chunk(line[pos:m.start()], out, runs)
            out += self.segment_han(m.group())
            pos = m.end()
        if pos < len(line):
            self._chunk(line[pos:], out, runs)
        return out, runs

    @staticmethod
    def _chunk(chunk: str, out: list[str], runs: list[tuple[int, int, str]]) -> None:
        first = len(out)
        starts: dict[int, int] = {}  # character offset -> token index
        ends: dict[int, int] = {}
        cursor = 0

        def emit(tok: str, begin: int, end: int) -> None:
            starts.setdefault(begin, len(out))
            ends[end] = len(out)
            out.append(tok)

        for kind, tok in T.tokenize(chunk):
            begin = chunk.index(tok, cursor)  # tokens are substrings, in order
            cursor = begin + len(tok)
            if kind == "word":
                low = T.to_lower(tok)  # same length: ToLower maps code point to code point
                at = begin
                for i, part in enumerate(low.split("-")):
                    if i:
                        emit("-", at, at + 1)
                        at += 1
                    emit(part, at, at + len(part))
                    at += len(part)
            elif kind == "url":
                emit(URL_TAG + T.to_lower(tok), begin, cursor)
            elif kind == "email":
                emit(EMAIL_TAG + T.to_lower(tok), begin, cursor)
            elif kind == "number":
                emit("<num>", begin, cursor)
            else:
                emit(T.to_lower(tok), begin, cursor)
        if len(out) == first:
            return
        for m in LATIN_RUN.finditer(chunk):
            s, e = m.span()
            while e > s and chunk[e - 1] in ".-":
                e -= 1
            if e <= s or not _HAS_LETTER.search(chunk, s, e):
                continue
            if s in starts and e in ends and ends[e] >= starts[s]:
                runs.append((starts[s], ends[e] - starts[s] + 1, chunk[s:e].lower()))

    def context_tokens(self, text: str) -> list[str]:
        """What the engine's context holds for committed text: the line's tokens with URLs
        and e-mail addresses as <url> / <email>."""
        toks, _ = self.line_tokens(text)
        return [_SPECIAL_OF_TAG.get(t[:2], t) if t.startswith("\x01") else t for t in toks]


def pinyin_metadata(readings: list[str]) -> str:
    """The weight file's "pinyin" metadata: one reading per vocabulary word, in word-index
    order, joined with newlines (empty for words without one)."""
    for r in readings:
        if not PINYIN_READING.match(r):
            raise ValueError(f"not a toneless pinyin reading: {r!r}")
    return "\n".join(readings)


def check_metadata(meta: dict, n_words: int, intent_labels: list[str]) -> None:
    """The zh part of export.verify_model_file: language, intent labels, pinyin lines."""
    if intent_labels != INTENT_LABELS:
        raise ValueError(f"a zh file's intent labels are {INTENT_LABELS}, not {intent_labels}")
    if "pinyin" not in meta:
        raise ValueError("a zh file needs the 'pinyin' metadata (one reading per word)")
    lines = meta["pinyin"].split("\n")
    if len(lines) != n_words:
        raise ValueError(f"'pinyin' has {len(lines)} lines for {n_words} words")
    bad = [r for r in lines if not PINYIN_READING.match(r)]
    if bad:
        raise ValueError(f"'pinyin' holds {len(bad)} lines that are not toneless pinyin, "
                         f"e.g. {bad[0]!r}")
    if any(lines[i] for i in range(len(T.WORD_SPECIALS))):
        raise ValueError("the special words have no pinyin")
