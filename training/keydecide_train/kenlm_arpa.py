"""Read a KenLM binary language model (trie types) and write it out as an ARPA file.

libime's Chinese model (`zh_CN.lm`, Debian libime-data-language-model, LGPL-2.1+, a teacher under
/work/shared/DATA.md) is a word trigram in KenLM's binary format, written by libime's
`libime_slm_build_binary` (KenLM's build_binary). KenLM has no tool to print such a file back, so
this module reads the format itself. It was written from KenLM's source (github.com/kpu/kenlm:
lm/binary_format.cc, lm/vocab.cc, lm/search_trie.cc, lm/trie.cc, lm/bhiksha.cc, lm/quantize.cc,
util/bit_packing.hh; libime 1.0.16 pins kenlm bcd4af6, the same format as kenlm master).

The file (all integers and floats little-endian, as written on x86-64):

  header   "mmap lm http://kheafield.com/code format version 5\\n\\0", padded to 56 bytes; test
           values (floats 0, 1, -0.5; u32 1, 0xffffffff, pad; u64 1) that catch files from another
           architecture; then {u8 order; f32 probing_multiplier; u32 model_type; u8 has_vocabulary;
           u32 search_version} (20 bytes with C padding) and one u64 count per order; the whole
           header padded to a multiple of 8 bytes. The counts are those of the trie, which can
           exceed the ARPA's: where an ARPA (SRILM-pruned) has "u v w" but not its suffix
           "v w", build_binary adds "v w" as a "blank" n-gram whose probability is the back-off
           value and whose backoff is 0, so the dump holds it too and scores the same.
  vocab    SortedVocabulary: u64 number of hashed words, then their 64-bit MurmurHash64A values
           in ascending order, room for counts[0] of them. A word's id is 1 + its position in
           this table; <unk> is id 0 and not hashed. So ids follow hash order, not the ARPA's.
  search   the trie (lm/search_trie.cc, TrieSearch::SetupMemory), in this order:
    quant    (quantized types only) u8 version 2, u8 prob_bits, u8 backoff_bits, 5 pad bytes,
             then f32 bin centres: for each middle order (2 .. N-1) 2^prob_bits probability bins
             and 2^backoff_bits backoff bins, then 2^prob_bits bins for the highest order.
    unigrams (counts[0] + 2) records {f32 prob, f32 backoff, u64 next}: unquantized. next is the
             index of the word's first child in the order-2 table; record counts[0] holds the end.
    middles  one bit-packed table per order 2 .. N-1 (an array-compressed one starts with its
             Bhiksha offset array), entries sorted by (parent, word id); the table has one extra
             entry whose only field is the final next pointer. The trie runs backwards through
             an n-gram: a unigram w's children are the bigrams "v w", the child v's children
             the trigrams "u v w", and so on (an entry's word is the n-gram's first word).
    longest  the bit-packed order-N table: word id and probability only (no backoff field).
  strings  (when has_vocabulary) the words, NUL-terminated, in id order, starting with "<unk>".

A bit-packed entry is `word id | [quantized backoff, quantized prob | f32 prob (31 bits), f32
backoff] | next pointer` from least to most significant bit, entry i at bit i * total_bits of the
table, read as little-endian 64-bit words (util/bit_packing.hh). Probabilities and backoffs are
log10, as in the ARPA file. The model types (lm/model_type.hh): 0 PROBING and 1 REST_PROBING
(hash tables; not read here), 2 TRIE, 3 QUANT_TRIE, 4 ARRAY_TRIE, 5 QUANT_ARRAY_TRIE.

    PYTHONPATH=training python3 -m keydecide_train.kenlm_arpa --lm zh_CN.lm --out zh_CN.arpa
    PYTHONPATH=training python3 -m keydecide_train.kenlm_arpa --arpa zh_CN.arpa --score FILE

The second form prints, for each line of FILE (words separated by spaces), the log10 score of
each word and then of the sentence end after the sentence start, as bench/libime_score prints
libime's: libime's LanguageModel starts a sentence from KenLM's begin state (context "<s>") and
scores "</s>" only when asked to (its decoder always does); an unknown word scores <unk>'s
probability plus libime's unknown penalty log10(1/60000000). zh_CN.lm has no "<s>" or "</s>":
KenLM then uses <unk> (id 0) for both, so a sentence starts from the context <unk> (which has
no bigrams: the same as no context) and its end scores as an unknown word, i.e. <unk>'s
probability plus the backoffs of the last words plus the penalty.
"""

from __future__ import annotations

import argparse
import math
import os
import struct
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

MAGIC = b"mmap lm http://kheafield.com/code format version 5\n\0"
MAGIC_PREFIX = b"mmap lm http://kheafield.com/code format version"
MAGIC_INCOMPLETE = b"mmap lm http://kheafield.com/code incomplete\n"
# sizeof(Sanity): the magic padded to 56 bytes, 3 floats, 3 u32 (one padding), one u64.
SANITY_SIZE = 88
FIXED_FORMAT = "<B3xfIB3xI"  # FixedWidthParameters with its C padding: 20 bytes
FIXED_SIZE = struct.calcsize(FIXED_FORMAT)

MODEL_NAMES = {0: "PROBING", 1: "REST_PROBING", 2: "TRIE", 3: "QUANT_TRIE", 4: "ARRAY_TRIE",
               5: "QUANT_ARRAY_TRIE"}
TRIE_TYPES = {2: (False, False), 3: (True, False), 4: (False, True), 5: (True, True)}
TRIE_SEARCH_VERSION = 1
QUANT_VERSION = 2
BHIKSHA_VERSION = 0

UNK, BOS, EOS = "<unk>", "<s>", "</s>"
# libime's LanguageModel adds this to the score of a word the model does not know
# (DEFAULT_LANGUAGE_MODEL_UNKNOWN_PROBABILITY_PENALTY, src/libime/core/constants.h).
LIBIME_UNKNOWN_PENALTY = math.log10(np.float32(1 / 60000000.0))


@dataclass
class NgramTable:
    """The n-grams of one order: word ids (rows of `order` ids), log10 probabilities and log10
    backoffs (None for the highest order, which stores none)."""
    order: int
    ids: np.ndarray
    prob: np.ndarray
    backoff: np.ndarray | None


@dataclass
class KenLMModel:
    path: str
    model_type: str
    counts: list[int]
    vocab: list[str]
    tables: list[NgramTable]
    prob_bits: int | None = None
    backoff_bits: int | None = None
    # Bin centres by order (2 .. N): {"prob": f32 array, "backoff": f32 array or absent}.
    bins: dict[int, dict[str, np.ndarray]] = field(default_factory=dict)
    bhiksha_bits: int | None = None

    @property
    def order(self) -> int:
        return len(self.counts)


def murmur_hash64a(key: bytes, seed: int = 0) -> int:
    """MurmurHash64A (util/murmur_hash.cc), which KenLM's vocabulary hashes words with."""
    m, r, mask = 0xC6A4A7935BD1E995, 47, (1 << 64) - 1
    h = (seed ^ (len(key) * m)) & mask
    whole = len(key) // 8 * 8
    for (k,) in struct.iter_unpack("<Q", key[:whole]):
        k = (k * m) & mask
        k ^= k >> r
        k = (k * m) & mask
        h = ((h ^ k) * m) & mask
    if len(key) & 7:
        h = ((h ^ int.from_bytes(key[whole:], "little")) * m) & mask
    h ^= h >> r
    h = (h * m) & mask
    return h ^ (h >> r)


def required_bits(max_value: int) -> int:
    """Bits to store integers up to max_value (util::RequiredBits)."""
    return max_value.bit_length()


def _align8(n: int) -> int:
    return (n + 7) // 8 * 8


class _File:
    """The bytes of the file, read section by section with bounds checks, so that a truncated
    or corrupt file is a ValueError naming the part that does not fit."""

    def __init__(self, data: bytes, path: str):
        self.data = data
        self.path = path
        self.u8 = np.frombuffer(data, dtype=np.uint8)

    def fail(self, message: str) -> ValueError:
        return ValueError(f"{self.path}: {message}")

    def need(self, offset: int, size: int, what: str) -> None:
        if size < 0 or offset + size > len(self.data):
            raise self.fail(f"truncated or corrupt: {what} needs bytes {offset}..{offset + size} "
                            f"but the file has {len(self.data)}")

    def array(self, offset: int, dtype: str, count: int, what: str) -> np.ndarray:
        self.need(offset, count * np.dtype(dtype).itemsize, what)
        return np.frombuffer(self.data, dtype=dtype, count=count, offset=offset)

    def bits(self, start: int, size: int) -> "_Bits":
        self.need(start, size, "a bit-packed table")
        return _Bits(self.u8[start:start + size])


class _Bits:
    """A bit-packed table, read as KenLM's ReadInt57 reads it: the integer of `length` bits
    (<= 57) at bit offset b is the unaligned little-endian u64 at byte b // 8, shifted right by
    b % 8 and masked. build_binary leaves 8 bytes of slack after each table for these reads."""

    def __init__(self, table: np.ndarray):
        padded = np.zeros(len(table) + 8, dtype=np.uint8)
        padded[:len(table)] = table
        self._padded = padded
        # Every byte position as the start of a u64 (an unaligned view; indexing copies).
        self._words = np.ndarray((len(table) + 1,), dtype="<u8", buffer=padded, strides=(1,))

    def read(self, bit_offsets: np.ndarray, length: int) -> np.ndarray:
        if length == 0:
            return np.zeros(len(bit_offsets), dtype=np.uint64)
        bit_offsets = bit_offsets.astype(np.uint64)
        values = self._words[(bit_offsets >> np.uint64(3)).astype(np.int64)]
        values >>= bit_offsets & np.uint64(7)
        return values & np.uint64((1 << length) - 1)


def _read_header(f: _File) -> tuple[int, int, bool, list[int], int]:
    """(order, model type, has_vocabulary, counts, header size) from lm/binary_format.cc."""
    data = f.data
    if data.startswith(MAGIC_INCOMPLETE):
        raise f.fail("build_binary did not finish writing this file (incomplete header)")
    if not data.startswith(MAGIC_PREFIX):
        raise f.fail("not a KenLM binary file (no 'mmap lm' header; is it an ARPA file?)")
    if not data.startswith(MAGIC):
        version = data[len(MAGIC_PREFIX):len(MAGIC_PREFIX) + 8].split(b"\n")[0].strip()
        raise f.fail(f"KenLM binary format version {version.decode('ascii', 'replace')}, "
                     "only version 5 is read")
    f.need(0, SANITY_SIZE + FIXED_SIZE, "the header")
    zero, one, minus_half, one_index, max_index, _, one64 = struct.unpack_from("<fffIIIQ", data, 56)
    if (zero, one, minus_half, one_index, max_index, one64) != (0.0, 1.0, -0.5, 1, 2**32 - 1, 1):
        raise f.fail("the header's test values do not match: written on another architecture "
                     "or by another KenLM build")
    order, _, model_type, has_vocabulary, search_version = struct.unpack_from(
        FIXED_FORMAT, data, SANITY_SIZE)
    if model_type not in TRIE_TYPES:
        name = MODEL_NAMES.get(model_type, f"unknown model type {model_type}")
        raise f.fail(f"model type {name} ({model_type}) is not read here; only the trie types "
                     "TRIE, QUANT_TRIE, ARRAY_TRIE and QUANT_ARRAY_TRIE are "
                     "(rebuild with `build_binary trie`)")
    if search_version != TRIE_SEARCH_VERSION:
        raise f.fail(f"trie search version {search_version}, expected {TRIE_SEARCH_VERSION}")
    if order < 2:
        raise f.fail(f"order {order}: a KenLM trie has at least order 2")
    counts_at = SANITY_SIZE + FIXED_SIZE
    counts = [int(c) for c in f.array(counts_at, "<u8", order, "the n-gram counts")]
    if any(c < 1 or c > len(data) * 8 for c in counts):
        raise f.fail(f"implausible n-gram counts {counts} for a file of {len(data)} bytes")
    return order, model_type, bool(has_vocabulary), counts, _align8(counts_at + 8 * order)


def _chop_bits(max_offset: int, max_next: int, pointer_bits: int) -> int:
    """How many high bits of a next pointer the Bhiksha array holds instead of each entry
    (lm/bhiksha.cc ChopBits): the chop that minimises table cost (64 bits per array slot) minus
    the bits saved in every entry, up to the pointer_bhiksha_bits the file was built with."""
    required = required_bits(max_next)
    best_chop, lowest = 0, None
    for chop in range(min(required, pointer_bits) + 1):
        change = (max_next >> (required - chop)) * 64 - max_offset * chop
        if lowest is None or change < lowest:
            best_chop, lowest = chop, change
    return best_chop


def _check_pointers(f: _File, nxt: np.ndarray, end: int, what: str) -> None:
    """Next pointers must start at 0, never decrease and end at the child table's size."""
    if int(nxt[0]) != 0 or int(nxt[-1]) != end or np.any(np.diff(nxt.astype(np.int64)) < 0):
        raise f.fail(f"corrupt {what} next pointers (first {int(nxt[0])}, last {int(nxt[-1])}, "
                     f"expected 0 .. {end}, non-decreasing)")


def _parents(nxt: np.ndarray, count: int) -> np.ndarray:
    """Parent entry of each child 0 .. count-1: children of parent p are nxt[p] .. nxt[p+1]-1,
    so the parent is the last p with nxt[p] <= child."""
    children = np.arange(count, dtype=np.uint64)
    return np.searchsorted(nxt, children, side="right").astype(np.int64) - 1


def read_kenlm(path: str | os.PathLike, check_hashes: bool = True) -> KenLMModel:
    """Read a KenLM binary trie model (format version 5) with its vocabulary.

    check_hashes: verify that each vocabulary string hashes (MurmurHash64A) to the value stored
    for its id, which checks that the strings really are in id order.
    Raises ValueError for anything that is not such a file or does not hold together.
    """
    path = str(path)
    f = _File(Path(path).read_bytes(), path)
    order, model_type, has_vocabulary, counts, offset = _read_header(f)
    quantized, array = TRIE_TYPES[model_type]
    if not has_vocabulary:
        raise f.fail("built without its vocabulary strings (build_binary -v): words unknown")
    n_words = counts[0]
    word_bits = required_bits(n_words)

    # Vocabulary: hashes of every word but <unk>, sorted; the table has room for counts[0].
    n_hashed = int(f.array(offset, "<u8", 1, "the vocabulary")[0])
    if n_hashed != n_words - 1:
        raise f.fail(f"vocabulary holds {n_hashed} hashed words, expected counts[0] - 1 = "
                     f"{n_words - 1}")
    hashes = f.array(offset + 8, "<u8", n_hashed, "the vocabulary hashes")
    if np.any(hashes[1:] <= hashes[:-1]):
        raise f.fail("vocabulary hashes are not strictly ascending")
    offset += 8 + 8 * n_words

    model = KenLMModel(path=path, model_type=MODEL_NAMES[model_type], counts=counts, vocab=[],
                       tables=[])

    # Quantization bins (lm/quantize.cc): a 3-byte header then the centre tables. Backoff bins 0
    # and 1 are reserved for a zero backoff (-0.0: "cannot be extended", +0.0: "can"; KenLM's
    # state minimisation uses the sign), the other centres are trained on non-zero backoffs.
    if quantized:
        version, prob_bits, backoff_bits = (
            int(x) for x in f.array(offset, "u1", 3, "the quantization header"))
        if version != QUANT_VERSION:
            raise f.fail(f"quantization version {version}, expected {QUANT_VERSION}")
        if not (1 <= prob_bits <= 25 and 1 <= backoff_bits <= 25):
            raise f.fail(f"quantization bits {prob_bits}/{backoff_bits} out of range 1..25")
        model.prob_bits, model.backoff_bits = prob_bits, backoff_bits
        at = offset + 8
        for n in range(2, order):
            model.bins[n] = {"prob": f.array(at, "<f4", 1 << prob_bits, f"{n}-gram bins")}
            at += 4 << prob_bits
            model.bins[n]["backoff"] = f.array(at, "<f4", 1 << backoff_bits, f"{n}-gram bins")
            at += 4 << backoff_bits
        model.bins[order] = {"prob": f.array(at, "<f4", 1 << prob_bits, f"{order}-gram bins")}
        offset = at + (4 << prob_bits)
        middle_quant_bits, longest_quant_bits = prob_bits + backoff_bits, prob_bits
    else:
        middle_quant_bits, longest_quant_bits = 63, 31  # f32 prob without its sign bit, f32 backoff

    # Unigrams: plain records, indexed by word id.
    unigram_type = np.dtype([("prob", "<f4"), ("backoff", "<f4"), ("next", "<u8")])
    unigrams = f.array(offset, unigram_type, n_words + 2, "the unigram table")
    offset += unigram_type.itemsize * (n_words + 2)
    nxt = unigrams["next"][:n_words + 1]
    _check_pointers(f, nxt, counts[1], "unigram")
    model.tables.append(NgramTable(1, np.arange(n_words, dtype=np.uint32)[:, None],
                                   unigrams["prob"][:n_words].copy(),
                                   unigrams["backoff"][:n_words].copy()))

    # Array-compressed ("Bhiksha") next pointers: pointer_bhiksha_bits (build_binary -a) is
    # stored once, in the 2-byte header of the first middle table (TrieSearch::UpdateConfig...).
    if array and order > 2:
        version, pointer_bits = (
            int(x) for x in f.array(offset, "u1", 2, "the pointer compression header"))
        if version != BHIKSHA_VERSION:
            raise f.fail(f"pointer compression version {version}, expected {BHIKSHA_VERSION}")
        model.bhiksha_bits = pointer_bits

    parent_ids = model.tables[0].ids
    for n in range(2, order + 1):
        entries, longest = counts[n - 1], n == order
        start = offset
        inline_bits, offsets = 0, None
        if not longest:
            max_next = counts[n]
            if array:
                # A next pointer is split: its low inline_bits are in the entry, its high part is
                # the number of array slots k >= 1 with offsets[k] <= entry index, where
                # offsets[k] is the first entry whose pointer's high part reaches k. The array
                # starts 8 bytes after the table's start rounded up to 8 (the first 8 hold the
                # version/bits header), and the table reserves 7 bytes for that rounding.
                chop = _chop_bits(entries + 1, max_next, model.bhiksha_bits)
                inline_bits = required_bits(max_next) - chop
                slots = (max_next >> (required_bits(max_next) - chop)) + 1
                offsets = f.array(_align8(start) + 8, "<u8", slots, f"the {n}-gram pointer array")
                if int(offsets[0]) != 0 or np.any(np.diff(offsets.astype(np.int64)) < 0):
                    raise f.fail(f"corrupt {n}-gram pointer array")
                start += 8 * (1 + slots) + 7
            else:
                inline_bits = required_bits(max_next)
        quant_bits = longest_quant_bits if longest else middle_quant_bits
        total_bits = word_bits + quant_bits + inline_bits
        # One extra entry for the final next pointer, rounded up to bytes, plus 8 bytes of slack.
        size = ((1 + entries) * total_bits + 7) // 8 + 8
        f.need(start, size, f"the {n}-gram table")
        table = f.bits(start, size)
        offset = start + size

        at = np.arange(entries + 1, dtype=np.uint64) * np.uint64(total_bits)
        words = table.read(at[:entries], word_bits)
        if entries and int(words.max()) >= n_words:
            raise f.fail(f"{n}-gram word id {int(words.max())} beyond the vocabulary")
        value_at = at[:entries] + np.uint64(word_bits)
        backoff = None
        if quantized:
            bins = model.bins[n]
            if longest:
                prob = bins["prob"][table.read(value_at, prob_bits).astype(np.int64)]
            else:
                # Backoff code in the low bits, probability code above it.
                backoff = bins["backoff"][table.read(value_at, backoff_bits).astype(np.int64)]
                prob = bins["prob"][table.read(value_at + np.uint64(backoff_bits),
                                           prob_bits).astype(np.int64)]
        else:
            # Probabilities are <= 0, so KenLM drops the sign bit and stores 31 bits.
            raw = table.read(value_at, 31).astype(np.uint32) | np.uint32(0x80000000)
            prob = raw.view(np.float32)
            if not longest:
                raw = table.read(value_at + np.uint64(31), 32).astype(np.uint32)
                backoff = raw.view(np.float32)
        if np.any(np.isnan(prob)) or (backoff is not None and np.any(np.isnan(backoff))):
            raise f.fail(f"{n}-gram table holds NaN values")

        # Each entry's parent among the (n-1)-grams, from the parents' next pointers. The trie
        # holds n-grams reversed (a path is the last word, then the one before it, ...: KenLM
        # looks up the word, then its context from the nearest word back), so an entry's word
        # goes in front of its parent's n-gram.
        parents = _parents(nxt, entries)
        ids = np.concatenate([words.astype(np.uint32)[:, None], parent_ids[parents]], axis=1)
        model.tables.append(NgramTable(
            n, ids, np.array(prob, np.float32),
            None if backoff is None else np.array(backoff, np.float32)))
        parent_ids = ids
        if not longest:
            nxt = table.read(at + np.uint64(word_bits + quant_bits), inline_bits)
            if offsets is not None:
                high = np.searchsorted(offsets, np.arange(entries + 1, dtype=np.uint64),
                                       side="right") - 1
                nxt = (high.astype(np.uint64) << np.uint64(inline_bits)) | nxt
            _check_pointers(f, nxt, counts[n], f"{n}-gram")

    # Vocabulary strings, NUL-terminated, in id order, right after the search structure.
    strings = f.data[offset:]
    if not strings.startswith(b"<unk>\0"):
        raise f.fail(f"no vocabulary strings at byte {offset} (truncated, or a layout this "
                     "reader does not know)")
    pieces = strings.split(b"\0")
    if pieces[-1] != b"" or len(pieces) - 1 != n_words:
        raise f.fail(f"{len(pieces) - 1} vocabulary strings (last one "
                     f"{'terminated' if pieces[-1] == b'' else 'cut off'}), expected {n_words}")
    try:
        model.vocab = [p.decode("utf-8") for p in pieces[:-1]]
    except UnicodeDecodeError as e:
        raise f.fail(f"a vocabulary string is not UTF-8: {e}") from None
    if check_hashes:
        for i, word in enumerate(model.vocab[1:]):
            if murmur_hash64a(pieces[i + 1]) != int(hashes[i]):
                raise f.fail(f"vocabulary string {i + 1} ({word!r}) does not hash to its id's "
                             "value: strings are not in id order")
    return model


def _format_floats(values: np.ndarray) -> np.ndarray:
    """Shortest decimal strings that read back as the same float32 (an object array); -0.0, the
    backoff KenLM uses to mark an n-gram without extensions, is written 0."""
    values = np.asarray(values, np.float32) + np.float32(0.0)  # -0.0 + 0.0 == +0.0
    unique, inverse = np.unique(values, return_inverse=True)
    text = []
    for v in unique:
        s = str(v)  # numpy prints the shortest float32 round-trip form
        text.append(s[:-2] if s.endswith(".0") else s)
    return np.array(text, dtype=object)[inverse]


def iter_arpa_text(model: KenLMModel, chunk: int = 200_000) -> Iterator[str]:
    """The model as ARPA text, in pieces: the \\data\\ counts, then for each order
    "log10prob<TAB>words[<TAB>log10backoff]" lines (backoffs for all but the highest order),
    then \\end\\. Lines follow the trie's order (word ids, i.e. hash order)."""
    yield "\\data\\\n" + "".join(f"ngram {t.order}={len(t.prob)}\n" for t in model.tables)
    vocab = np.array(model.vocab, dtype=object)
    for t in model.tables:
        yield f"\n\\{t.order}-grams:\n"
        for lo in range(0, len(t.prob), chunk):
            hi = min(lo + chunk, len(t.prob))
            words = vocab[t.ids[lo:hi, 0]]
            for k in range(1, t.order):
                words = words + " " + vocab[t.ids[lo:hi, k]]
            lines = _format_floats(t.prob[lo:hi]) + "\t" + words
            if t.backoff is not None:
                lines = lines + "\t" + _format_floats(t.backoff[lo:hi])
            yield "\n".join(lines.tolist()) + "\n"
    yield "\n\\end\\\n"


def write_arpa(model: KenLMModel, out: str | os.PathLike) -> None:
    """Write the ARPA file to a temporary name next to `out`, then rename it into place."""
    out = Path(out)
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        for text in iter_arpa_text(model):
            fh.write(text)
    os.replace(tmp, out)


@dataclass
class ArpaModel:
    """A back-off n-gram model read from ARPA text: log10 probabilities and backoffs by n-gram
    (a tuple of words)."""
    order: int
    counts: list[int]
    prob: dict[tuple[str, ...], float]
    backoff: dict[tuple[str, ...], float]


def read_arpa(path: str | os.PathLike) -> ArpaModel:
    """Read an ARPA file (any order). Raises ValueError on a malformed one."""
    counts: list[int] = []
    prob: dict[tuple[str, ...], float] = {}
    backoff: dict[tuple[str, ...], float] = {}
    words: dict[str, str] = {}  # one string object per word, to keep the keys small
    section = None
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            if line == "\\data\\":
                section = "data"
            elif line == "\\end\\":
                break
            elif line.startswith("\\") and line.endswith("-grams:"):
                section = int(line[1:-7])
            elif section == "data" and line.startswith("ngram "):
                n, _, count = line[6:].partition("=")
                if int(n) != len(counts) + 1:
                    raise ValueError(f"{path}:{number}: ngram counts out of order")
                counts.append(int(count))
            elif isinstance(section, int):
                fields = line.split("\t") if "\t" in line else line.split()
                if "\t" in line:
                    gram = tuple(words.setdefault(w, w) for w in fields[1].split())
                    rest = fields[2:]
                else:  # space-separated ARPA: prob, n words, optional backoff
                    gram = tuple(words.setdefault(w, w) for w in fields[1:1 + section])
                    rest = fields[1 + section:]
                if len(gram) != section or len(rest) > 1:
                    raise ValueError(f"{path}:{number}: expected a {section}-gram line: {line!r}")
                prob[gram] = float(fields[0])
                if rest:
                    backoff[gram] = float(rest[0])
            else:
                raise ValueError(f"{path}:{number}: unexpected line {line!r}")
    if not counts:
        raise ValueError(f"{path}: no \\data\\ section")
    return ArpaModel(len(counts), counts, prob, backoff)


def word_score(model: ArpaModel, context: Sequence[str], word: str) -> float:
    """log10 P(word | context) by the standard back-off rule: the longest n-gram
    (context suffix + word) in the model, plus the backoffs of the longer context suffixes that
    were not matched. An unknown word is <unk> (or -100, KenLM's default, without one)."""
    if (word,) not in model.prob:
        word = UNK
    context = tuple(context[len(context) - model.order + 1:]) if model.order > 1 else ()
    total = 0.0
    while True:
        gram = context + (word,)
        if gram in model.prob:
            return total + model.prob[gram]
        if not context:
            return total - 100.0
        total += model.backoff.get(context, 0.0)
        context = context[1:]


def score_sentence(model: ArpaModel, words: Sequence[str], bos: bool = True, eos: bool = False,
                   unknown_penalty: float = 0.0) -> list[float]:
    """log10 score of each word given the words before it, starting from the context "<s>" when
    bos (libime's beginState; its nullState without), then of "</s>" when eos (libime scores
    the sentence end only when asked to). An unknown word also gets unknown_penalty (libime adds
    LIBIME_UNKNOWN_PENALTY)."""
    # KenLM maps a missing "<s>" (zh_CN.lm has neither marker) to <unk>, word id 0.
    context = [BOS if (BOS,) in model.prob else UNK] if bos else []
    scores = []
    for word in list(words) + ([EOS] if eos else []):
        s = word_score(model, context, word)
        if (word,) not in model.prob:
            s += unknown_penalty
            word = UNK  # KenLM carries word id 0 in its state
        scores.append(s)
        context.append(word)
    return scores


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lm", help="KenLM binary trie model to read")
    parser.add_argument("--out", help="ARPA file to write (with --lm)")
    parser.add_argument("--arpa", help="ARPA model to score with (with --score)")
    parser.add_argument("--score", help="file of sentences, words separated by spaces: print "
                        "each word's log10 score after <s>, then </s>'s, as bench/libime_score")
    args = parser.parse_args(argv)
    try:
        if args.lm and args.out:
            start = time.time()
            model = read_kenlm(args.lm)
            write_arpa(model, args.out)
            bits = (f", quantized {model.prob_bits}/{model.backoff_bits} bits"
                    if model.prob_bits else "")
            print(f"{args.out}: {model.model_type}{bits}, "
                  + ", ".join(f"{n + 1}-grams {c}" for n, c in enumerate(model.counts))
                  + f" ({time.time() - start:.1f} s)", file=sys.stderr)
        elif args.arpa and args.score:
            model = read_arpa(args.arpa)
            with open(args.score, encoding="utf-8") as fh:
                for line in fh:
                    scores = score_sentence(model, line.split(), eos=True,
                                            unknown_penalty=LIBIME_UNKNOWN_PENALTY)
                    print(" ".join(f"{s:.6f}" for s in scores))
        else:
            parser.error("give --lm and --out, or --arpa and --score")
    except (OSError, ValueError) as e:
        print(f"kenlm_arpa: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
