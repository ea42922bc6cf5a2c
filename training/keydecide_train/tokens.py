"""Token ids of the typing model and the context tokenizer (docs/MODEL.md, the contract).

`tokenize` mirrors `keydecide::Tokenize` (src/text/tokenizer.cc) exactly: words are letters
with inner apostrophes or hyphens, numbers are digits with inner '.' or ',', URLs and e-mail
addresses are kept whole, every other non-space character is its own token. `context_tokens`
then does what the engine does with committed text: lower-case (`keydecide::ToLower`, not
Python's `str.lower`, which differs for a few letters), split words at hyphens with '-' as
its own token, and map numbers / URLs / e-mails to `<num>` / `<url>` / `<email>`.

Text is a Python str. Invalid UTF-8 input should be decoded with errors="surrogateescape":
each bad byte becomes one lone surrogate, a one-character "other" token, as in C++.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

# --- token ids (the contract's table) ----------------------------------------------------

PAD, BOS, SEP = 0, 1, 2
APP_TYPES = ["chat", "search", "code", "editor", "url"]  # order of keydecide::AppType
APP_BASE = 3  # [APP=chat] = 3 .. [APP=url] = 7
CHAR_BASE = 8  # 'a' = 8 .. 'z' = 33
CHAR_APOSTROPHE = 34
CHAR_OTHER = 35
WORD_OFFSET = 36

# Word indices (token id = WORD_OFFSET + word index).
UNK, NUM, URL, EMAIL = 0, 1, 2, 3
WORD_SPECIALS = ["<unk>", "<num>", "<url>", "<email>"]

INTENT_LABELS = ["prose", "code", "url", "command"]
N_INTERVAL_BUCKETS = 8
INTERVAL_EDGES_MS = [60, 100, 150, 220, 350, 600]


def app_id(app: str) -> int:
    return APP_BASE + APP_TYPES.index(app)


def key_id(ch: str) -> int:
    """Token id of one typed character (already lower case)."""
    if "a" <= ch <= "z":
        return CHAR_BASE + ord(ch) - ord("a")
    if ch == "'":
        return CHAR_APOSTROPHE
    return CHAR_OTHER


def interval_bucket(ms: float) -> int:
    """Bucket 1..7 of the time since the previous key; 0 is for non-keystroke tokens."""
    bucket = 1
    for edge in INTERVAL_EDGES_MS:
        if ms >= edge:
            bucket += 1
    return bucket


# --- character classes of src/text/letter_case.cc ----------------------------------------

def is_letter(cp: int) -> bool:
    if cp < 0x80:
        return (cp | 0x20) >= ord("a") and (cp | 0x20) <= ord("z")
    if cp < 0xC0:
        return cp in (0xAA, 0xB5, 0xBA)
    if cp <= 0x24F:
        return cp != 0xD7 and cp != 0xF7
    if 0x370 <= cp <= 0x3FF:
        return cp >= 0x386 and cp != 0x387 and cp != 0x3F6
    if 0x400 <= cp <= 0x52F:
        return not (0x482 <= cp <= 0x489)
    if 0x1E00 <= cp <= 0x1FFF:
        return True
    if 0x3040 <= cp <= 0x30FF:
        return True
    if 0x3400 <= cp <= 0x9FFF:
        return True
    if 0xAC00 <= cp <= 0xD7A3:
        return True
    if 0x0590 <= cp <= 0x06FF:
        return cp >= 0x5D0
    return False


def is_digit(cp: int) -> bool:
    return 0x30 <= cp <= 0x39


def is_space(cp: int) -> bool:
    return (cp == 0x20 or 0x09 <= cp <= 0x0D or cp in (0x85, 0xA0, 0x1680, 0x2028, 0x2029,
                                                         0x202F, 0x205F, 0x3000)
            or 0x2000 <= cp <= 0x200A)


def _to_lower_cp(cp: int) -> int:
    """keydecide::ToLower."""
    if cp < 0x80:
        return cp + 32 if 0x41 <= cp <= 0x5A else cp
    if 0xC0 <= cp <= 0xDE and cp != 0xD7:
        return cp + 32
    if (0x100 <= cp <= 0x177 and cp not in (0x130, 0x138, 0x149)) or 0x179 <= cp <= 0x17E:
        odd_is_upper = 0x139 <= cp <= 0x148 or 0x179 <= cp <= 0x17E
        upper = bool(cp & 1) if odd_is_upper else not (cp & 1)
        return cp + 1 if upper else cp
    if cp == 0x130:
        return ord("i")
    if cp == 0x178:  # Ÿ pairs with Latin-1 ÿ
        return 0xFF
    if 0x391 <= cp <= 0x3AB and cp != 0x3A2:
        return cp + 32
    if 0x410 <= cp <= 0x42F:
        return cp + 32
    if 0x400 <= cp <= 0x40F:
        return cp + 80
    return cp


# ToLower only changes code points below U+0460: one translate table does all of it.
_LOWER_TABLE = {cp: _to_lower_cp(cp) for cp in range(0x460) if _to_lower_cp(cp) != cp}


def to_lower(s: str) -> str:
    """keydecide::ToLowerUtf8 (ASCII fast path, then the C++ table)."""
    return s.lower() if s.isascii() else s.translate(_LOWER_TABLE)


# --- the tokenizer ---------------------------------------------------------------------------

def _ranges_class(pred, limit: int = 0xE000) -> str:
    """A regex character class of the code points below `limit` where pred holds."""
    parts, start = [], None
    for cp in range(limit + 1):
        inside = cp < limit and pred(cp)
        if inside and start is None:
            start = cp
        elif not inside and start is not None:
            end = cp - 1
            parts.append(re.escape(chr(start)) if start == end
                         else f"{re.escape(chr(start))}-{re.escape(chr(end))}")
            start = None
    return "[" + "".join(parts) + "]"


_LETTER = _ranges_class(is_letter)  # is_letter is false from U+D7A4 on
_SPACE = _ranges_class(is_space, 0x3001)
_SPACES_RE = re.compile(_SPACE + "+")
_WORD_RE = re.compile(f"{_LETTER}+(?:['-]{_LETTER}+)*")
_NUMBER_RE = re.compile(r"[0-9]+(?:[.,][0-9]+)*")
# Explicit letter classes: re.IGNORECASE would also match U+212A KELVIN SIGN to 'k'.
_URL_RE = re.compile(r'(?:[Hh][Tt][Tt][Pp][Ss]?://|[Ff][Tt][Pp]://|[Ww][Ww][Ww]\.)'
                     r'[^\x00-\x20"<>\x7f]*')
_URL_HINT_RE = re.compile(r"://|[Ww][Ww][Ww]\.")
_URL_TRAILING = ".,;:!?)]'\">"
_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]*)")
_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_PUNCT_RANGES = ((0x21, 0x7E), (0xA1, 0xBF), (0x2010, 0x2027), (0x3000, 0x303F), (0xFF01, 0xFF0F))


def _match_email(text: str, pos: int) -> int:
    """Length of the e-mail address at text[pos:] (MatchEmail), or 0."""
    m = _EMAIL_RE.match(text, pos)
    if not m:
        return 0
    at = m.start(1) - 1 - pos  # offsets relative to pos, as in C++
    end = m.end(1) - pos
    while end > at + 1 and text[pos + end - 1] in ".-":
        end -= 1
    # The last dot before the trimmed end (a sentence's full stop is trimmed above).
    last_dot = text.rfind(".", pos, pos + end) - pos if text.rfind(".", pos, pos + end) >= 0 else -1
    if last_dot < 0 or last_dot <= at + 1 or last_dot + 3 > end:
        return 0
    tld = text[pos + last_dot + 1:pos + end]
    if not tld.isascii() or not tld.isalpha():
        return 0
    return end


def _char_kind(ch: str) -> str:
    cp = ord(ch)
    if 0xD800 <= cp <= 0xDFFF:
        return "other"  # an invalid byte (surrogateescape)
    return "punct" if any(lo <= cp <= hi for lo, hi in _PUNCT_RANGES) else "other"


def tokenize(text: str) -> list[tuple[str, str]]:
    """(kind, text) tokens as keydecide::Tokenize; kinds: word number punct url email other."""
    out: list[tuple[str, str]] = []
    n = len(text)
    # URLs need "://" or "www.", e-mails an '@': skip those matchers on most lines.
    maybe_url = _URL_HINT_RE.search(text) is not None
    maybe_email = "@" in text
    pos = 0
    while pos < n:
        ch = text[pos]
        m = _SPACES_RE.match(text, pos)
        if m:
            pos = m.end()
            continue
        if ch in _ASCII_ALNUM:
            if maybe_url:
                m = _URL_RE.match(text, pos)
                if m:
                    url = m.group().rstrip(_URL_TRAILING)
                    if url:
                        out.append(("url", url))
                        pos += len(url)
                        continue
            if maybe_email:
                length = _match_email(text, pos)
                if length:
                    out.append(("email", text[pos:pos + length]))
                    pos += length
                    continue
        m = _WORD_RE.match(text, pos)
        if m:
            out.append(("word", m.group()))
            pos = m.end()
            continue
        m = _NUMBER_RE.match(text, pos)
        if m:
            out.append(("number", m.group()))
            pos = m.end()
            continue
        out.append((_char_kind(ch), ch))
        pos += 1
    return out


def tokenize_reference(text: str) -> list[tuple[str, str]]:
    """A line-by-line transcription of the C++ loop, slow; the tests check `tokenize`
    against it on random strings."""
    out: list[tuple[str, str]] = []
    n = len(text)
    pos = 0
    while pos < n:
        cp = ord(text[pos])
        if is_space(cp):
            pos += 1
            continue
        if text[pos] in _ASCII_ALNUM:
            length, kind = 0, "url"
            if any(_starts_with_no_case(text, pos, p)
                   for p in ("http://", "https://", "ftp://", "www.")):
                end = pos
                while end < n and not (ord(text[end]) <= 0x20 or text[end] in '"<>\x7f'):
                    end += 1
                while end > pos and text[end - 1] in _URL_TRAILING:
                    end -= 1
                length = end - pos
            if length == 0:
                kind = "email"
                length = _email_reference(text[pos:])
            if length:
                out.append((kind, text[pos:pos + length]))
                pos += length
                continue
        if is_letter(cp) or is_digit(cp):
            word = is_letter(cp)
            same = (lambda c: is_letter(ord(c))) if word else (lambda c: is_digit(ord(c)))
            end = pos + 1
            while end < n:
                c = text[end]
                if same(c):
                    end += 1
                    continue
                connector = c in "'-" if word else c in ".,"
                if not connector or end + 1 >= n or not same(text[end + 1]):
                    break
                end += 2
            out.append(("word" if word else "number", text[pos:end]))
            pos = end
            continue
        out.append((_char_kind(text[pos]), text[pos]))
        pos += 1
    return out


def _starts_with_no_case(text: str, pos: int, prefix: str) -> bool:
    if len(text) - pos < len(prefix):
        return False
    for i, want in enumerate(prefix):
        c = text[pos + i]
        if "A" <= c <= "Z":
            c = chr(ord(c) + 32)
        if c != want:
            return False
    return True


def _email_reference(s: str) -> int:
    local = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-")
    at = 0
    while at < len(s) and s[at] in local:
        at += 1
    if at == 0 or at >= len(s) or s[at] != "@":
        return 0
    end = at + 1
    while end < len(s) and (s[end] in _ASCII_ALNUM or s[end] in "-."):
        end += 1
    while end > at + 1 and s[end - 1] in ".-":
        end -= 1
    last_dot = s.rfind(".", 0, end)
    if last_dot < 0 or last_dot <= at + 1 or last_dot + 3 > end:
        return 0
    for i in range(last_dot + 1, end):
        if not ("a" <= s[i].lower() <= "z" and s[i].isascii()):
            return 0
    return end


# --- context tokens and vocabulary -------------------------------------------------------

_SPECIAL_OF_KIND = {"number": "<num>", "url": "<url>", "email": "<email>"}


def context_tokens(text: str) -> list[str]:
    """Lower-cased context token strings: words split at hyphens ('-' is its own token),
    numbers/URLs/e-mails as `<num>`/`<url>`/`<email>`, other characters as themselves."""
    out: list[str] = []
    for kind, tok in tokenize(text):
        if kind == "word":
            tok = to_lower(tok)
            if "-" in tok:
                parts = tok.split("-")
                for i, part in enumerate(parts):
                    if i:
                        out.append("-")
                    out.append(part)
            else:
                out.append(tok)
        elif kind in _SPECIAL_OF_KIND:
            out.append(_SPECIAL_OF_KIND[kind])
        else:
            out.append(to_lower(tok))
    return out


def is_typeable_word(tok: str) -> bool:
    """A context token that a person types as a word: starts with a letter (a tokenizer
    word after the hyphen split is letters and inner apostrophes only)."""
    return bool(tok) and is_letter(ord(tok[0])) and tok not in WORD_SPECIALS


class Vocab:
    """Word vocabulary: index 0..3 the specials, then words most frequent first."""

    def __init__(self, words: Sequence[str]):
        words = list(words)
        if words[:4] != WORD_SPECIALS:
            raise ValueError("a vocabulary starts with " + ", ".join(WORD_SPECIALS))
        self.words = words
        self.index = {w: i for i, w in enumerate(words)}
        if len(self.index) != len(words):
            raise ValueError("duplicate word in vocabulary")

    def __len__(self) -> int:
        return len(self.words)

    @property
    def vocab_size(self) -> int:
        """Rows of the embedding table: ids below WORD_OFFSET plus the words."""
        return WORD_OFFSET + len(self.words)

    def word_index(self, tok: str) -> int:
        return self.index.get(tok, UNK)

    def token_id(self, tok: str) -> int:
        return WORD_OFFSET + self.index.get(tok, UNK)

    def encode(self, text: str) -> list[int]:
        """Token ids of committed text."""
        return [self.token_id(t) for t in context_tokens(text)]

    @classmethod
    def build(cls, counts: Counter | dict, max_words: int, min_count: float = 0.0) -> "Vocab":
        """Most frequent first (ties by string, so the result is deterministic); the
        special strings are never counted as ordinary words."""
        ranked = sorted(((c, w) for w, c in counts.items()
                         if w not in WORD_SPECIALS and c >= min_count and _storable(w)),
                        key=lambda cw: (-cw[0], cw[1]))
        return cls(WORD_SPECIALS + [w for _, w in ranked[:max(0, max_words - 4)]])

    @classmethod
    def extend(cls, words: Sequence[str], counts: Counter | dict, max_words: int,
               min_count: float = 0.0) -> "Vocab":
        """`words` (a model's vocabulary, kept in its order) followed by the most frequent
        other words up to max_words: a grown vocabulary whose first rows are the old model's,
        so that a run can continue it (--init-from)."""
        base = cls(words)
        rest = {w: c for w, c in counts.items() if w not in base.index}
        more = cls.build(rest, max_words - len(base.words) + 4, min_count).words[4:]
        return cls(base.words + more)


def _storable(word: str) -> bool:
    """A word the weight file can hold: no newline (the separator), valid UTF-8 (an
    invalid input byte decoded as a lone surrogate is not)."""
    if not word or "\n" in word:
        return False
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def count_tokens(lines: Iterable[str], weight: float = 1.0,
                 counts: Counter | None = None) -> Counter:
    counts = counts if counts is not None else Counter()
    for line in lines:
        for tok in context_tokens(line):
            counts[tok] += weight
    return counts
