#!/usr/bin/env python3
"""Checks the include graph of src/, include/ and tools/ against the layering of DESIGN.md.

- A folder of src/ includes only its own layer and the ones below it:
  base < text < lexicon, model, personal < decide < runtime < service.
  Folders on one layer do not include each other (lexicon and model know nothing of each
  other), and only src/model includes src/model/kernels.
- include/keydecide/ (the public API) includes only itself.
- tools/ and bench/ include the public API, tools/, and the tool-only headers named below.
- No circle: neither among files nor among modules (x.h and x.cc taken as one).
Prints every violation and exits 1 when there is one. Standard library only.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

LAYER = {"base": 0, "text": 1, "lexicon": 2, "model": 2, "personal": 2, "decide": 3,
         "runtime": 4, "service": 5}
# Tool-only headers (the popup probe: the features the popup network is fitted on), and the keyboard geometry the replay's simulated typist reads.
TOOL_HEADERS = {"lexicon/lexicon_tool.h", "model/quantize.h", "model/shape_bench.h",
                "decide/en/context_state.h", "decide/popup_probe.h", "text/keyboard_layout.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def files(root: Path) -> list[Path]:
    out = []
    for folder in ("src", "include", "tools", "bench"):
        out += [p for p in (root / folder).rglob("*") if p.suffix in (".h", ".cc", ".c")]
    return sorted(out)


def resolve(root: Path, inc: str) -> str | None:
    """Repository-relative path of a quoted include, or None when it is not ours."""
    for base in ("src", "include", ""):
        p = root / base / inc if base else root / inc
        if p.exists():
            return str(p.relative_to(root))
    return None


def folder_of(rel: str) -> str:
    parts = rel.split("/")
    return parts[1] if parts[0] == "src" and len(parts) > 2 else parts[0]


def check_edge(src: str, dst: str) -> str | None:
    s_top, d_top = src.split("/")[0], dst.split("/")[0]
    if s_top == "include" and d_top != "include":
        return "the public API includes an internal header"
    if s_top in ("tools", "bench"):
        ok = d_top in ("include", "tools") or dst.removeprefix("src/") in TOOL_HEADERS
        return None if ok else "a tool includes an internal header that is not a tool header"
    if s_top != "src" or d_top != "src":
        return None
    s, d = folder_of(src), folder_of(dst)
    if dst.startswith("src/model/kernels/") and not src.startswith("src/model/"):
        return "only src/model includes the kernels"
    if s == d:
        return None
    if LAYER.get(d, 99) > LAYER.get(s, -1):
        return f"{s} (layer {LAYER.get(s)}) includes the higher layer {d}"
    if LAYER.get(d) == LAYER.get(s):
        return f"{s} includes {d}, on the same layer"
    return None


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    problems = []
    graph: dict[str, set[str]] = {}
    modules: dict[str, set[str]] = {}
    for path in files(root):
        rel = str(path.relative_to(root))
        for inc in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
            dst = resolve(root, inc)
            if dst is None:
                continue
            graph.setdefault(rel, set()).add(dst)
            why = check_edge(rel, dst)
            if why:
                problems.append(f"{rel} -> {dst}: {why}")
            a, b = str(Path(rel).with_suffix("")), str(Path(dst).with_suffix(""))
            if a != b:
                modules.setdefault(a, set()).add(b)
    for name, g in (("file", graph), ("module", modules)):
        cycle = find_cycle(g)
        if cycle:
            problems.append(f"{name} include circle: " + " -> ".join(cycle))
    for p in problems:
        print(p)
    print(f"check_includes: {len(graph)} files, {sum(map(len, graph.values()))} includes, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
