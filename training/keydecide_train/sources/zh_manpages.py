"""manpages-zh: the zh_CN man pages, rendered by groff with preconv (-k) for the UTF-8 input,
one document per page (prose only).
"""

from __future__ import annotations

import gzip
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

from ..text import Document
from .manpages import man_text_to_lines, mark_roff_code


def render_roff_utf8(roff: str) -> str:
    """manpages.render_roff for UTF-8 input (preconv) and mdoc pages as well (-mandoc):
    one filled paragraph per line."""
    result = subprocess.run(
        ["groff", "-k", "-Kutf8", "-t", "-mandoc", "-Tutf8", "-rLL=8000n", "-rHY=0", "-dAD=l",
         "-P-c", "-P-b", "-P-o", "-P-u"],
        input=roff.encode("utf-8"), capture_output=True, check=False)
    return result.stdout.decode("utf-8", errors="replace")


# Section headings of the zh_CN pages ("总览 SYNOPSIS", "参见 (SEE ALSO)", "跋", ...) are
# renamed to the English ones manpages.man_text_to_lines knows: the synopsis is syntax
# (code), "see also" is only references, and the translation credits ("跋", "[中文版维护人]",
# "《中国 Linux 论坛 man 手册页翻译计划》") are boilerplate.
_SH = re.compile(r"^\.SH\s+(.*)$", re.M)
_SYNOPSIS_ZH = {"概述", "总览", "总缆", "总揽", "概要"}
_SEE_ALSO_ZH = {"参见", "另见", "参阅", "参看", "又见", "参考", "另外请参考"}
_CREDITS_ZH = ("译者", "翻译计划", "维护人", "中文维护", "最新更新", "中文更新")


def canonical_sections(roff: str) -> str:
    def rename(m: re.Match) -> str:
        heading = m.group(1)
        upper = heading.upper()
        bare = re.sub(r"[\s\"“”'(),:：（）\[\]]", "", heading)
        if "SYNOPSIS" in upper or "SYNPSIS" in upper or bare in _SYNOPSIS_ZH:
            return ".SH SYNOPSIS"
        if ("SEE ALSO" in upper or bare in _SEE_ALSO_ZH or bare == "跋"
                or any(c in heading for c in _CREDITS_ZH)):
            return '.SH "SEE ALSO"'
        return m.group(0)
    return _SH.sub(rename, roff)


def man_prose(roff: str) -> list[str]:
    """Prose lines of one man page (section headings, synopsis, "see also" and translation
    credits dropped); an alias page (.so) has none."""
    body = [l for l in roff.split("\n") if l.strip() and not l.startswith(('.\\"', "'\\\""))]
    if body and body[0].startswith(".so "):
        return []
    prose, _code = man_text_to_lines(render_roff_utf8(mark_roff_code(canonical_sections(roff))))
    return prose


def _read_man(path: Path) -> list[str]:
    return man_prose(gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace"))


def extract_manpages_zh(pkg: Path) -> Iterator[Document]:
    root = pkg / "usr/share/man/zh_CN"
    paths = [p for p in sorted(root.glob("man*/*.gz")) if not p.is_symlink()]
    # groff is the slow part; two workers match the machine this runs on.
    with ThreadPoolExecutor(max_workers=2) as pool:
        for path, prose in zip(paths, pool.map(_read_man, paths)):
            yield Document("manpages-zh", f"{path.parent.name}/{path.name.removesuffix('.gz')}",
                           prose)
