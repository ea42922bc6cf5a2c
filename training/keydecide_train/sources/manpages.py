"""manpages, manpages-dev: roff rendered by groff, one document per page, its code (no-fill
regions, the synopsis) in `<source>-code`. manpages-tools: only the command lines of the
examples in the section 1 and 8 pages of command-line tools' packages (extract_tool_commands).
"""

from __future__ import annotations

import gzip
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

from ..command_lines import is_command_line
from ..text import Document
from .paragraphs import BOX_DRAWING


CODE_BEGIN, CODE_END = "@@KD-CODE-BEGIN@@", "@@KD-CODE-END@@"
# Sections that are syntax, not prose, and sections that are only references.
MAN_CODE_SECTIONS = {"SYNOPSIS"}
MAN_SKIP_SECTIONS = {"SEE ALSO", "COLOPHON"}


def mark_roff_code(roff: str) -> str:
    """Put marker lines inside no-fill regions (.EX/.EE, .nf/.fi) so that the
    rendered text tells code from prose. In no-fill mode a text line prints as
    its own output line."""
    out = []
    for line in roff.split("\n"):
        if re.match(r"^\.\s*(EE|fi)\b", line):
            out.append("\\&" + CODE_END)
        out.append(line)
        if re.match(r"^\.\s*(EX|nf)\b", line):
            out.append("\\&" + CODE_BEGIN)
    return "\n".join(out)


def render_roff(roff: str) -> str:
    """Render a man page to plain text, one filled paragraph per line (a very
    long line length means groff never wraps), no hyphenation, no bold."""
    result = subprocess.run(
        ["groff", "-t", "-man", "-Tutf8", "-rLL=8000n", "-rHY=0", "-dAD=l",
         "-P-c", "-P-b", "-P-o", "-P-u"],
        input=roff.encode("utf-8"), capture_output=True, check=False)
    return result.stdout.decode("utf-8", errors="replace")


def man_text_to_lines(rendered: str) -> tuple[list[str], list[str]]:
    """Split rendered man page text into (prose lines, code lines)."""
    lines = rendered.split("\n")
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    if len(nonblank) < 2:
        return [], []
    # First and last non-blank lines are the page header and footer.
    body = lines[nonblank[0] + 1:nonblank[-1]]
    prose: list[str] = []
    code: list[str] = []
    section = ""
    in_code = False
    for line in body:
        stripped = line.strip()
        if stripped == CODE_BEGIN:
            in_code = True
            continue
        if stripped == CODE_END:
            in_code = False
            continue
        if not stripped or BOX_DRAWING.search(stripped):  # tbl boxes are drawn, not written
            continue
        if not line[0].isspace():  # section heading at column 0
            section = stripped
            in_code = False
            continue
        if section in MAN_SKIP_SECTIONS:
            continue
        if in_code or section in MAN_CODE_SECTIONS:
            code.append(line.rstrip())
        else:
            prose.append(stripped)
    return prose, dedent(code)


def dedent(lines: list[str]) -> list[str]:
    indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]


def man_page_files(pkg: Path) -> list[Path]:
    pages = []
    for path in sorted((pkg / "usr/share/man").glob("man*/*.gz")):
        if path.is_symlink():
            continue
        pages.append(path)
    return pages


def render_man_page(path: Path) -> tuple[list[str], list[str]]:
    roff = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    body = [l for l in roff.split("\n") if l.strip() and not l.startswith(('.\\"', "'\\\""))]
    if body and body[0].startswith(".so "):
        return [], []  # alias of another page
    return man_text_to_lines(render_roff(mark_roff_code(roff)))


def extract_manpages(pkg: Path, source: str) -> Iterator[Document]:
    paths = man_page_files(pkg)
    # groff is the slow part; two workers match the machine this runs on.
    with ThreadPoolExecutor(max_workers=2) as pool:
        for path, (prose, code) in zip(paths, pool.map(render_man_page, paths)):
            doc_id = f"{path.parent.name}/{path.name.removesuffix('.gz')}"
            yield Document(source, doc_id, prose)
            yield Document(source + "-code", doc_id, code)


# Command-line tools whose section 1 and 8 man pages show commands in their examples (issue 15:
# the command intent had 1,408 training lines). Each has some: apt, gzip, grep, sed, procps and
# openssh-client had 0-3 and are left out.
TOOL_MAN_PACKAGES = ("git-man", "curl", "systemd", "rsync", "iproute2", "util-linux",
                     "findutils", "dpkg", "coreutils", "tar")


def tool_command_lines(rendered: str) -> list[str]:
    """The lines of a rendered page's no-fill regions (examples), outside the synopsis, that
    read as shell command lines (command_lines.py). Not man_text_to_lines: that keeps the
    synopsis as code even where it is a no-fill region (git's), and dedents the examples by
    the synopsis."""
    lines = rendered.split("\n")
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    if len(nonblank) < 2:
        return []
    code: list[str] = []
    section, in_code = "", False
    for line in lines[nonblank[0] + 1:nonblank[-1]]:
        stripped = line.strip()
        if stripped in (CODE_BEGIN, CODE_END):
            in_code = stripped == CODE_BEGIN
            continue
        if not stripped:
            continue
        if not line[0].isspace():
            section, in_code = stripped, False
            continue
        if in_code and section not in MAN_CODE_SECTIONS:
            code.append(line.rstrip())
    return [line for line in dedent(code) if is_command_line(line)]


def render_tool_commands(path: Path) -> list[str]:
    roff = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    return tool_command_lines(render_roff(mark_roff_code(roff)))


def extract_tool_commands(pkg: Path, source: str = "manpages-tools") -> Iterator[Document]:
    """One `<source>-command` document per section 1 or 8 page of `pkg` with command lines in
    its examples; the pages' prose and other code are not taken (the prose sources are
    enough, and their code blocks are mostly program output)."""
    paths = [p for p in man_page_files(pkg) if p.parent.name in ("man1", "man8")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        for path, lines in zip(paths, pool.map(render_tool_commands, paths)):
            if lines:
                doc_id = f"{pkg.name}/{path.parent.name}/{path.name.removesuffix('.gz')}"
                yield Document(source + "-command", doc_id, lines)
