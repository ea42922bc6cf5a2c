"""Write an intent evaluation file of code lines in languages the training never saw (issue 15):
Perl, Ruby, Tcl and JavaScript from Debian packages (scripts/fetch-data.sh fetches them under
data/raw/deb; they serve this evaluation only, never training or tuning). `--set tuning` writes
the same from Rust and Scheme instead, for choices made before that evaluation (the sets:
code_languages.py).

Output: `code<TAB>line` rows, the format of make_intent_eval.py, up to --per-language lines
of each language, code as code_languages.code_lines reads it. The lines are the first by md5
among each language's distinct lines (deterministic, spread over every file).

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.make_unseen_code_eval \
      --out data/en/intent_unseen_code.tsv
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from .code_languages import LANGUAGES, SETS, code_lines, language_files


def language_lines(raw: Path, language: str, limit: int) -> list[str]:
    distinct: set[str] = set()
    for path in language_files(raw, language):
        distinct.update(code_lines(language, path.read_text(encoding="utf-8", errors="replace")))
    ranked = sorted(distinct, key=lambda s: hashlib.md5(s.encode("utf-8")).digest())
    return ranked[:limit]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--raw", type=Path, default=Path("data/raw/deb"))
    ap.add_argument("--out", type=Path, default=Path("data/en/intent_unseen_code.tsv"))
    ap.add_argument("--per-language", type=int, default=300)
    ap.add_argument("--set", choices=["eval", "tuning"], default="eval",
                    help="eval: Perl, Ruby, Tcl, JavaScript; tuning: Rust, Scheme")
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
