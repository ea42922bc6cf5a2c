"""Write a small source-code corpus for the intent class "code" from what Debian ships
on this machine: the Python standard library (/usr/lib/python3.11/*.py) and the C headers
directly under /usr/include (*.h); and, since step 8 of the English model (issue 15), the
training set of code_languages.py (Go, PHP, Lua, Emacs Lisp) from the packages that
scripts/fetch-data.sh unpacks under data/raw/deb, each capped at --max-bytes-more.

Output (same text format as prepare_text.py: documents separated by a blank
line, one line per code line, indentation kept):
  data/en/train/code-python.txt  data/en/dev/code-python.txt
  data/en/train/code-c.txt       data/en/dev/code-c.txt
  data/en/train/code-go.txt      ... (code-php, code-lua, code-elisp)
One document per source file; the train/dev split is text.split_documents' md5 rule on
(source, file name). Comments and Python docstrings are dropped: they are prose, and the
prose sources already cover prose (code_languages.code_lines for the added languages, which
also drops lines shorter than 8 characters). Deterministic: files in name order, each source
capped (whole files only).

Re-run after scripts/fetch-data.sh / prepare_text.py, which delete unknown *.txt files.
"""

from __future__ import annotations

import argparse
import functools
import io
import re
import sys
import tokenize
from pathlib import Path

from . import code_languages
from .text import Document, normalize_code_line, render, split_documents


def python_code_lines(source: str) -> list[str]:
    """Lines of Python code without comments and docstrings (a string statement right
    after the start of a block or module). Unparsable files give []."""
    drop_lines: set[int] = set()
    cut_at: dict[int, int] = {}  # line -> column where a trailing comment starts
    try:
        prev = tokenize.NEWLINE
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                cut_at[tok.start[0]] = tok.start[1]
            elif tok.type == tokenize.STRING and prev in (tokenize.NEWLINE, tokenize.INDENT,
                                                          tokenize.DEDENT, tokenize.NL):
                # A string as a statement of its own: a docstring (or a stray literal).
                drop_lines.update(range(tok.start[0], tok.end[0] + 1))
            if tok.type not in (tokenize.COMMENT, tokenize.NL):
                prev = tok.type
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    out = []
    for number, line in enumerate(source.split("\n"), start=1):
        if number in drop_lines:
            continue
        if number in cut_at:
            line = line[:cut_at[number]]
        line = normalize_code_line(line)
        if line.strip():
            out.append(line)
    return out


_C_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_C_LINE_COMMENT = re.compile(r"//[^\n]*")


def c_code_lines(source: str) -> list[str]:
    """Lines of C without comments (block comments keep their line breaks so that line
    structure survives; string literals holding comment markers are rare in headers)."""
    source = _C_BLOCK_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), source)
    source = _C_LINE_COMMENT.sub("", source)
    out = []
    for line in source.split("\n"):
        line = normalize_code_line(line)
        if line.strip():
            out.append(line)
    return out


def collect(source: str, files: list[Path], extract, max_bytes: int) -> list[Document]:
    docs, total = [], 0
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        lines = extract(text)
        if not lines:
            continue
        size = sum(len(line) + 1 for line in lines)
        if total + size > max_bytes:
            continue  # whole files only; a smaller later file may still fit
        docs.append(Document(source, path.name, lines))
        total += size
    return docs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("data/en"), help="data directory")
    ap.add_argument("--python-dir", type=Path, default=Path("/usr/lib/python3.11"))
    ap.add_argument("--include-dir", type=Path, default=Path("/usr/include"))
    ap.add_argument("--max-bytes", type=int, default=2_500_000, help="cap per source")
    ap.add_argument("--raw", type=Path, default=Path("data/raw/deb"),
                    help="where scripts/fetch-data.sh unpacks the added languages' packages")
    ap.add_argument("--max-bytes-more", type=int, default=1_000_000,
                    help="cap per added language")
    args = ap.parse_args()

    python_files = code_languages.distinct_files(list(args.python_dir.glob("*.py")))
    c_files = code_languages.distinct_files(list(args.include_dir.glob("*.h")))
    sources = {
        "code-python": (python_files, python_code_lines, args.max_bytes),
        "code-c": (c_files, c_code_lines, args.max_bytes),
    }
    for language in code_languages.SETS["train"]:
        sources[f"code-{language}"] = (code_languages.language_files(args.raw, language),
                                       functools.partial(code_languages.code_lines, language),
                                       args.max_bytes_more)
    for source, (files, extract, max_bytes) in sources.items():
        if not files:
            sys.exit(f"make_code_corpus: no files for {source}")
        docs = collect(source, files, extract, max_bytes)
        train, dev = split_documents(docs)
        for split, part in (("train", train), ("dev", dev)):
            path = args.out / split / f"{source}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render(part), encoding="utf-8")
            print(f"{path}: {len(part)} files, {sum(len(d.lines) for d in part)} lines, "
                  f"{path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
