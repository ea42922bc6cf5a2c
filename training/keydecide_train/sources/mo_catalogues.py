"""Translation catalogues (.mo) of the zh_CN locale: their msgstr only, keyboard accelerators
and markup removed, one document per catalogue.
"""

from __future__ import annotations

import re
import struct
import sys
from pathlib import Path
from typing import Iterator

from ..text import Document
from ..zh_text import HAN_CLASS


MO_MAGIC = 0x950412DE


def read_mo(data: bytes) -> list[str]:
    """The translations (msgstr) of a GNU .mo file, in table order; plural forms are
    separate strings; the header entry (empty msgid) and empty msgstrs are left out.
    Raises ValueError on a file that is not a well-formed .mo."""
    out = []
    for _, translation in mo_entries(data):
        for form in translation.split(b"\0"):
            if form:
                out.append(form.decode("utf-8", errors="replace"))
    return out


def mo_entries(data: bytes) -> list[tuple[bytes, bytes]]:
    """(msgid, msgstr) of every entry of a GNU .mo file but the header, in table order, as
    stored (a context before \\x04, plural forms after NULs). Raises ValueError on a file
    that is not a well-formed .mo."""
    if len(data) < 20:
        raise ValueError("too short for a .mo header")
    for order in ("<", ">"):
        if struct.unpack(order + "I", data[:4])[0] == MO_MAGIC:
            break
    else:
        raise ValueError("bad .mo magic")
    _rev, count, orig_at, trans_at = struct.unpack(order + "4I", data[4:20])

    def entry(table: int, i: int) -> bytes:
        at = table + 8 * i
        if at + 8 > len(data):
            raise ValueError("string table outside the file")
        length, offset = struct.unpack(order + "2I", data[at:at + 8])
        if offset + length > len(data):
            raise ValueError("string outside the file")
        return data[offset:offset + length]

    out = []
    for i in range(count):
        original = entry(orig_at, i)
        if not original:
            continue  # header: Project-Id-Version, Content-Type, ...
        out.append((original, entry(trans_at, i)))
    return out


# Keyboard accelerators: "打开(_O)", "(&F)", "确定(~O)", "_文件", "~确定".
_ACCEL = re.compile(f"[(（][_&~][A-Za-z0-9][)）]|[_~&](?=[{HAN_CLASS}])")
# Pango / XML markup inside UI strings (tag names are ASCII).
_TAG = re.compile(r"</?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>")


def mo_lines(data: bytes) -> list[str]:
    """Lines of text in a catalogue: each msgstr split at newlines, accelerators and
    markup tags removed."""
    lines = []
    for msg in read_mo(data):
        for line in msg.split("\n"):
            lines.append(_TAG.sub("", _ACCEL.sub("", line)))
    return lines


def mo_documents(source: str, root: Path, pattern: str, prefix: str) -> Iterator[Document]:
    for path in sorted(root.glob(pattern)):
        try:
            lines = mo_lines(path.read_bytes())
        except ValueError as e:
            print(f"prepare_zh_text: {path}: {e}, skipped", file=sys.stderr)
            continue
        yield Document(source, f"{prefix}{path.relative_to(root)}", lines)
