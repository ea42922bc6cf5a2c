"""Write an intent evaluation file of code lines in languages the training never saw (issue 15):
Perl, Ruby, Tcl and JavaScript from Debian packages (scripts/fetch-data.sh fetches them under
data/raw/deb; they serve this evaluation only, never training or tuning). `--set tuning` writes
the same from Go, PHP, Lua and Emacs Lisp instead, for choices made before that evaluation.

Output: `code<TAB>line` rows, the format of make_intent_eval.py, up to --per-language lines
of each language. As in the code training corpus (make_code_corpus.py), comments and embedded
documentation (Perl's POD, Ruby's =begin/=end) are not code and are left out; so are lines of
fewer than MIN_CHARS non-space characters. The lines are the first by md5 among each language's
distinct lines (deterministic, spread over every file).

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_unseen_code_eval \
      --out data/en/intent_unseen_code.tsv
"""

from __future__ import annotations

import argparse
import hashlib
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
    # The tuning set (--set tuning): other languages the training never saw either, for
    # choices such as the intent head's code bias (docs/BENCHMARKS.md, "Intent"), so that the
    # four above only measure.
    "go": ("golang-1.19-src", "usr/share/go-1.19/src/**/*.go", ("//", "/*", "*")),
    "php": ("php-pear", "usr/share/php/**/*.php", ("//", "#", "/*", "*")),
    "lua": ("lua-penlight", "usr/share/lua/**/*.lua", ("--",)),
    "elisp": ("elpa-magit", "usr/share/emacs/site-lisp/**/*.el", (";",)),
}
SETS = {"eval": ["perl", "ruby", "tcl", "javascript"], "tuning": ["go", "php", "lua", "elisp"]}

_BLOCK_DOC = {"perl": (re.compile(r"^=[a-zA-Z]"), re.compile(r"^=cut\b")),
              "ruby": (re.compile(r"^=begin\b"), re.compile(r"^=end\b"))}


def code_lines(language: str, text: str, comment_prefixes: tuple[str, ...]) -> list[str]:
    """The lines of one file that are code: no comment lines, no embedded documentation,
    no __END__ / __DATA__ tail (Perl, Ruby), at least MIN_CHARS non-space characters."""
    out: list[str] = []
    in_doc = False
    start, end = _BLOCK_DOC.get(language, (None, None))
    for raw in text.split("\n"):
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


def language_lines(raw: Path, language: str, limit: int) -> list[str]:
    package, pattern, comments = LANGUAGES[language]
    files = sorted(p for p in (raw / package).glob(pattern) if p.is_file())
    if not files:
        raise SystemExit(f"make_unseen_code_eval: no {pattern} under {raw / package}; "
                         "run scripts/fetch-data.sh")
    distinct: set[str] = set()
    for path in files:
        distinct.update(code_lines(language, path.read_text(encoding="utf-8", errors="replace"),
                                   comments))
    ranked = sorted(distinct, key=lambda s: hashlib.md5(s.encode("utf-8")).digest())
    return ranked[:limit]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--raw", type=Path, default=Path("data/raw/deb"))
    ap.add_argument("--out", type=Path, default=Path("data/en/intent_unseen_code.tsv"))
    ap.add_argument("--per-language", type=int, default=300)
    ap.add_argument("--set", choices=sorted(SETS), default="eval",
                    help="eval: Perl, Ruby, Tcl, JavaScript; tuning: Go, PHP, Lua, Emacs Lisp")
    ap.add_argument("--language", action="append", choices=sorted(LANGUAGES),
                    help="only these languages (default: the set's); repeatable")
    args = ap.parse_args()
    rows = []
    for language in args.language or SETS[args.set]:
        lines = language_lines(args.raw, language, args.per_language)
        print(f"{language}: {len(lines)} lines")
        rows += [f"code\t{line}\n" for line in lines]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(rows), encoding="utf-8")


if __name__ == "__main__":
    main()
