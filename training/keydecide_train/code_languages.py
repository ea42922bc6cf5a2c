"""Code of more languages, from Debian packages that scripts/fetch-data.sh unpacks under
data/raw/deb, in three disjoint sets (issue 15): `train` feeds the code corpus
(make_code_corpus.py), `tuning` serves choices such as the intent head's code bias, and `eval`
only measures intent on code the training never saw (make_unseen_code_eval.py). A language is
in one set only.

Comments and embedded documentation (Perl's POD, Ruby's =begin/=end, the docstrings of Lisp) are
not code and are left out, as in the Python and C corpus; so are lines of fewer than MIN_CHARS
non-space characters.
"""

from __future__ import annotations

import re
from pathlib import Path

from .text import normalize_code_line

MIN_CHARS = 8

# language -> (package directory under data/raw/deb, file glob, comment line prefixes)
LANGUAGES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "perl": ("perl-modules-5.36", "usr/share/perl/5.36/**/*.pm", ("#",)),
    "ruby": ("libruby3.1", "usr/lib/ruby/3.1.0/**/*.rb", ("#",)),
    "tcl": ("libtcl8.6", "usr/share/tcltk/tcl8.6/**/*.tcl", ("#",)),
    "javascript": ("libjs-jquery", "usr/share/javascript/jquery/jquery.js",
                   ("//", "/*", "*", "*/")),
    "go": ("golang-1.19-src", "usr/share/go-1.19/src/**/*.go", ("//", "/*", "*")),
    "php": ("php-pear", "usr/share/php/**/*.php", ("//", "#", "/*", "*")),
    "lua": ("lua-penlight", "usr/share/lua/**/*.lua", ("--",)),
    "elisp": ("elpa-magit", "usr/share/emacs/site-lisp/**/*.el", (";",)),
    "rust": ("librust-regex-dev", "usr/share/cargo/registry/*/src/**/*.rs", ("//", "/*", "*")),
    "scheme": ("guile-3.0-libs", "usr/share/guile/3.0/**/*.scm", (";",)),
}
# Until step 8 Go, PHP, Lua and Emacs Lisp were the tuning set (the code bias of step 7).
SETS = {"train": ["go", "php", "lua", "elisp"], "tuning": ["rust", "scheme"],
        "eval": ["perl", "ruby", "tcl", "javascript"]}

_BLOCK_DOC = {"perl": (re.compile(r"^=[a-zA-Z]"), re.compile(r"^=cut\b")),
              "ruby": (re.compile(r"^=begin\b"), re.compile(r"^=end\b"))}
# Lisps document a definition with a string on the lines after it: a line that begins inside a
# string, or with one, is documentation (or a message), prose however it is indented.
LISPS = ("elisp", "scheme")


def _lisp_string_state(line: str, in_string: bool) -> bool:
    """Whether a Lisp string is still open after `line`, given whether one was open before:
    backslash escapes, `;` comments outside strings, and elisp's character literal `?"`."""
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if in_string:
            in_string = c != '"'
        elif c == ";":
            break
        elif c == "?" and line[i + 1:i + 2] == '"':
            i += 2
            continue
        elif c == '"':
            in_string = True
        i += 1
    return in_string


def code_lines(language: str, text: str,
               comment_prefixes: tuple[str, ...] | None = None) -> list[str]:
    """The lines of one file that are code: no comment lines (by default the language's
    prefixes in LANGUAGES), no embedded documentation (Lisp: no line that begins inside or
    with a string), no __END__ / __DATA__ tail (Perl, Ruby), at least MIN_CHARS non-space
    characters."""
    if comment_prefixes is None:
        comment_prefixes = LANGUAGES[language][2]
    out: list[str] = []
    in_doc = False
    in_string = False  # Lisp: a string opened on an earlier line
    start, end = _BLOCK_DOC.get(language, (None, None))
    for raw in text.split("\n"):
        if language in LISPS:
            was_in_string = in_string
            in_string = _lisp_string_state(raw, in_string)
            if was_in_string or raw.lstrip().startswith('"'):
                continue
        if start is not None:
            if in_doc:
                in_doc = not end.match(raw)
                continue
            if start.match(raw):
                in_doc = not end.match(raw)
                continue
        stripped = raw.strip()
        if stripped in ("__END__", "__DATA__"):
            break
        if stripped.startswith(comment_prefixes):
            continue
        line = normalize_code_line(raw)
        if sum(not c.isspace() for c in line) >= MIN_CHARS:
            out.append(line)
    return out


def distinct_files(paths: list[Path]) -> list[Path]:
    """The files among paths in name order, each once: a link whose target is also listed is
    dropped, and so is what no read could open (a folder, a broken link, a loop of links).

    lua-penlight links its 5.2-5.4 trees to 5.1's files, /usr/include/ncurses.h links to
    curses.h and Python's _sysconfigdata has two names, so each was read as several documents
    of the training text. A link to a file outside the list (png.h into libpng16/) is the only
    name the glob has for it, so it stays.
    """
    paths = [p for p in paths if p.is_file()]  # False for a loop, where resolve() would raise
    listed = {p.resolve() for p in paths if not p.is_symlink()}
    seen: set[Path] = set()
    out = []
    for path in sorted(paths):
        target = path.resolve()
        if (path.is_symlink() and target in listed) or target in seen:
            continue
        seen.add(target)
        out.append(path)
    return out


def language_files(raw: Path, language: str) -> list[Path]:
    """The language's source files under raw (data/raw/deb), in name order, each once."""
    package, pattern, _ = LANGUAGES[language]
    files = distinct_files(list((raw / package).glob(pattern)))
    if not files:
        raise SystemExit(f"no {pattern} under {raw / package}; run scripts/fetch-data.sh")
    return files
