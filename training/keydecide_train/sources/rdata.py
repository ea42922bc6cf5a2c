"""R's XDR serialization format and lazy-load databases (name.rdx + name.rdb): what the
r-cran-janeaustenr package stores its novels in.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path


@dataclass
class PairList:
    """An R pairlist (attributes, calls) as (tag, value) pairs."""
    items: list[tuple[object, object]]


class RUnserializer:
    """Minimal reader for R's XDR serialization format (versions 2 and 3).

    Handles what data packages hold: vectors (character, logical, integer,
    double, list), pairlists for attributes, symbols and references. Atomic
    vectors come back as Python lists, NA strings as None; attributes are
    dropped except 'names', which turns a list into a dict."""

    # SEXP type codes (R's Rinternals.h) and the special codes of serialize.c.
    SYMSXP, LISTSXP, CLOSXP, ENVSXP, PROMSXP, LANGSXP = 1, 2, 3, 4, 5, 6
    CHARSXP, LGLSXP, INTSXP, REALSXP, STRSXP, DOTSXP = 9, 10, 13, 14, 16, 17
    VECSXP, EXPRSXP = 19, 20
    ALTREP, REFSXP = 238, 255
    PAIRLIKE = {LISTSXP, LANGSXP, DOTSXP, CLOSXP, PROMSXP}
    SINGLETONS = {254, 253, 252, 251, 250, 242, 241}  # NULL, global/empty/base env, ...
    IS_LATIN1 = 1 << 2  # in the CHARSXP "levels" bits

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0
        self.refs: list[object] = []  # symbols and environments, for REFSXP

    def _int(self) -> int:
        (value,) = struct.unpack_from(">i", self.data, self.pos)
        self.pos += 4
        return value

    def _length(self) -> int:
        n = self._int()
        if n == -1:  # long vector: the length follows as two ints
            hi, lo = self._int(), self._int()
            n = (hi << 32) + lo
        return n

    def _numbers(self, code: str, size: int) -> list:
        n = self._length()
        values = list(struct.unpack_from(f">{n}{code}", self.data, self.pos))
        self.pos += size * n
        return values

    def read(self) -> object:
        if self.data[:2] != b"X\n":
            raise ValueError("not an XDR R serialization")
        self.pos = 2
        version = self._int()
        self._int()  # R version that wrote it
        self._int()  # oldest R version that can read it
        if version == 3:
            n = self._int()
            self.pos += n  # skip the native encoding name
        return self._item()

    def _item(self) -> object:
        flags = self._int()
        kind = flags & 0xFF
        levels = flags >> 12
        has_attr = bool(flags & (1 << 9))
        has_tag = bool(flags & (1 << 10))
        if kind in self.SINGLETONS:
            return None
        if kind == self.REFSXP:
            index = (flags >> 8) or self._int()
            return self.refs[index - 1]
        if kind == self.SYMSXP:
            name = self._item()
            self.refs.append(name)
            return name
        if kind == self.CHARSXP:
            n = self._int()
            if n == -1:
                return None  # NA_character_
            raw = self.data[self.pos:self.pos + n]
            self.pos += n
            return raw.decode("latin-1" if levels & self.IS_LATIN1 else "utf-8", errors="replace")
        if kind in self.PAIRLIKE:
            if has_attr:
                self._item()
            tag = self._item() if has_tag else None
            car = self._item()
            cdr = self._item()
            rest = cdr.items if isinstance(cdr, PairList) else []
            return PairList([(tag, car)] + rest)
        if kind == self.ENVSXP:
            env: dict = {}
            self.refs.append(env)
            self._int()  # locked
            for _ in range(4):  # enclosure, frame, hash table, attributes
                self._item()
            return env
        if kind == self.ALTREP:  # compact sequences etc.: keep the state
            self._item()  # class
            state = self._item()
            self._item()  # attributes
            return state
        if kind in (self.LGLSXP, self.INTSXP):
            result: list = self._numbers("i", 4)
        elif kind == self.REALSXP:
            result = self._numbers("d", 8)
        elif kind in (self.STRSXP, self.VECSXP, self.EXPRSXP):
            result = [self._item() for _ in range(self._length())]
        else:
            raise ValueError(f"unsupported R type {kind} at byte {self.pos}")
        if has_attr:
            attrs = self._item()
            names = dict(attrs.items).get("names") if isinstance(attrs, PairList) else None
            if kind == self.VECSXP and isinstance(names, list) and len(names) == len(result):
                return dict(zip(names, result))
        return result


def r_unserialize(data: bytes) -> object:
    return RUnserializer(data).read()


def read_r_lazyload(rdx_path: Path, only: set[str] | None = None) -> dict[str, object]:
    """Read the variables of an R lazy-load database (name.rdx + name.rdb): every one, or
    those named in `only`.

    The .rdx is a gzip'd serialized list(variables = list(name = c(offset,
    length)), ...). Each .rdb record is a 4-byte big-endian length and one
    serialized object: a bare zlib stream (compress = TRUE), or a type byte
    and the stream (R's compress = 2 and 3, which r-cran-modeldata uses):
    '1' zlib, '2' bzip2, 'Z' raw LZMA2 at preset 9e (R_decompress3 in R's
    connections.c), '0' stored."""
    index = r_unserialize(gzip.decompress(rdx_path.read_bytes()))
    if not isinstance(index, dict) or "variables" not in index:
        raise ValueError(f"{rdx_path}: not an R lazy-load index")
    rdb = rdx_path.with_suffix(".rdb").read_bytes()
    objects = {}
    for name, (offset, length) in index["variables"].items():
        if only is not None and name not in only:
            continue
        record = rdb[offset:offset + length]
        objects[name] = r_unserialize(_decompress_record(record[4:]))
    return objects


def _decompress_record(body: bytes) -> bytes:
    kind, stream = body[:1], body[1:]
    if kind == b"1":
        return zlib.decompress(stream)
    if kind == b"2":
        return bz2.decompress(stream)
    if kind == b"Z":
        lzma2 = {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}
        return lzma.decompress(stream, format=lzma.FORMAT_RAW, filters=[lzma2])
    if kind == b"0":
        return stream
    return zlib.decompress(body)
