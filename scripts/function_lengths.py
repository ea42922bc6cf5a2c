#!/usr/bin/env python3
"""Lists the longest functions of the C++ sources and fails when one is longer than a limit.

  scripts/function_lengths.py [--max 100] [--top 10] [DIR ...]   (default DIR: src)

A function's length is the lines from its opening brace to its closing one, both counted, as
clang-tidy's readability-function-size counts LineThreshold. Functions are found by a small
scanner (comments, strings and character literals blanked out; braces matched): a brace at the
level of a namespace or class that follows a parameter list (") {", ") const {", ") override {",
an initializer list) opens a function; anything else opens a scope or a block. Lambdas and local
classes count as part of the function that holds them. Standard library only; exits 1 when a
function is longer than --max.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

CONTROL = {"if", "for", "while", "switch", "catch", "do", "else", "try"}
TRAILING = re.compile(r"(\s*\b(const|override|final|noexcept|mutable|volatile)\b\s*)+$")


def blank(text: str) -> str:
    """The text with comments, strings and char literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def opens_function(before: str) -> tuple[bool, str]:
    """Whether a brace after `before` (the code since the last ; { or }) opens a function."""
    head = TRAILING.sub("", before.rstrip())
    if not head.endswith(")"):
        # A constructor's initializer list ends with a member's (...) or {...}: ") : a(x), b(y) {"
        return False, ""
    words = re.findall(r"[A-Za-z_~][\w:~<>]*|operator\S+", head)
    first = re.match(r"\s*([A-Za-z_]\w*)", head)
    if first and first.group(1) in CONTROL:
        return False, ""
    # The name: the last identifier before the first parameter list.
    paren = head.find("(")
    name = re.findall(r"[\w:~]+(?:<[^()]*>)?\s*$", head[:paren])
    return True, (name[0].strip() if name else (words[0] if words else "?"))


def functions(path: Path):
    """(name, first line, length) of each function in the file."""
    text = blank(path.read_text(encoding="utf-8", errors="replace"))
    stack = []  # per open brace: (kind, name, line) with kind "function" or "scope"
    last_stop = 0
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            in_function = any(k == "function" for k, _, _ in stack)
            is_function, name = (False, "")
            if not in_function:
                is_function, name = opens_function(text[last_stop:i])
            stack.append(("function" if is_function else "scope", name, line))
            last_stop = i + 1
        elif c == "}":
            if stack:
                kind, name, start = stack.pop()
                if kind == "function":
                    yield name, start, line - start + 1
            last_stop = i + 1
        elif c == ";":
            last_stop = i + 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="*", default=["src"])
    ap.add_argument("--max", type=int, default=100)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    found = []
    for d in args.dirs:
        for path in sorted(Path(d).rglob("*")):
            if path.suffix in (".cc", ".h", ".cpp", ".c"):
                found += [(length, str(path), start, name) for name, start, length in functions(path)]
    found.sort(reverse=True)
    for length, path, start, name in found[: args.top]:
        print(f"{length:5d}  {path}:{start}  {name}")
    over = [f for f in found if f[0] > args.max]
    print(f"function_lengths: {len(found)} functions, {len(over)} longer than {args.max} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
