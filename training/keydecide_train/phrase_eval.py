"""Next-word accuracy on everyday message contexts (training/data/everyday_phrases.tsv).

Each context of the phrase set is given to the engine as the text typed so far, and the first
candidates of its decision are compared with the context's acceptable next words: a hit at k
when one of them is among the first k candidates (case-insensitively, like `keydecide replay`,
unless --exact-case). Reports top-1 and top-3 accuracy over all contexts and by half (tune:
choose on it; test: report only), by kind (greeting, thanks, ...) and by position:

- `start`: the message's first words (no clause break before, at most three words);
- `mid`: in the middle of the message's first sentence (four words or more, no clause break);
- `after_punct`: after an earlier clause (a comma, full stop, ?, !, :, ; or line break before).

Engines (--backend):
- `native` (the default when the library loads): libkeydecide.so.1 in this process through
  python/keydecide (ctypes; $KEYDECIDE_LIBRARY, else build/lib/libkeydecide.so.1). Each context
  gets a fresh session (nothing carries over from the context before), its text set with
  `set_context` (--mode set-context, as `keydecide predict --context` does) or typed key by key
  (--mode type, as `keydecide replay` does).
- `cli`: `build/bin/keydecide predict --context C --prefix "" -k K --json`, one process a
  context (the engine is opened each time; --engine-arg passes more flags, e.g.
  --engine-arg=--bigram-weight=0.5).

    PYTHONPATH=training python3 -m keydecide_train.phrase_eval [--half tune] [--trace FILE]
    PYTHONPATH=training python3 -m keydecide_train.phrase_eval --check   # the half column

--trace writes one JSON line a context (its candidates, the rank of the first acceptable word,
the hits) so that misses can be read; --worst N prints the N worst misses (no acceptable word
among the traced candidates first, then the deepest rank).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import tempfile
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

REPO = Path(__file__).resolve().parents[2]
DEFAULT_PHRASES = REPO / "training/data/everyday_phrases.tsv"
KINDS = ("greeting", "signoff", "thanks", "apology", "plan", "wish", "request", "reply",
         "smalltalk", "work", "texting")
HALVES = ("tune", "test")
POSITIONS = ("start", "mid", "after_punct")
TOP_K = (1, 3)
TRACE_DEPTH = 10  # candidates asked for and traced; the hits use the first 1 and 3

# A predictor: (the text typed so far, how many candidates) -> the candidates' texts, best first.
Predictor = Callable[[str, int], list[str]]


# ---------------------------------------------------------------------------
# The phrase file
# ---------------------------------------------------------------------------

@dataclass
class Phrase:
    context: str          # the text typed so far (escapes read)
    raw_context: str      # the context as written in the file (the half's md5 is of this)
    answers: list[str]    # acceptable next words, most likely first
    kind: str
    half: str
    line: int = 0


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\"}
_ESCAPE = re.compile(r"\\(.)")


def unescape(field: str) -> str:
    """'Hi Anna,\\\\n' (as written) -> 'Hi Anna,\\n': \\n, \\t and \\\\ are read; any other
    backslash stays as written."""
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), field)


def half_of(raw_context: str) -> str:
    """'tune' when the last hex digit of md5(the context as written, UTF-8) is even, else 'test'."""
    return "tune" if int(hashlib.md5(raw_context.encode("utf-8")).hexdigest()[-1], 16) % 2 == 0 \
        else "test"


def position_of(context: str) -> str:
    """start / mid / after_punct (module docstring)."""
    if re.search(r"[,.!?:;\n]", context):
        return "after_punct"
    return "start" if len(context.split()) <= 3 else "mid"


def parse_phrases(text: str, check_halves: bool = True) -> list[Phrase]:
    """Phrases of a phrase file: '#' lines and blank lines are skipped; every other line is
    context<TAB>answers<TAB>kind<TAB>half. Raises ValueError (with the line number) for a line
    of another shape, no answer, an unknown kind or half, a context given twice, or (with
    check_halves) a half other than half_of's."""
    phrases: list[Phrase] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise ValueError(f"line {number}: {len(fields)} tab-separated fields, not 4")
        raw, answers_field, kind, half = fields
        answers = [a.strip() for a in answers_field.split(",") if a.strip()]
        if not answers:
            raise ValueError(f"line {number}: no acceptable next word")
        if any(" " in a for a in answers):
            raise ValueError(f"line {number}: an acceptable next word holds a space")
        if kind not in KINDS:
            raise ValueError(f"line {number}: unknown kind {kind!r}")
        if half not in HALVES:
            raise ValueError(f"line {number}: unknown half {half!r}")
        if check_halves and half != half_of(raw):
            raise ValueError(f"line {number}: half {half!r}, but md5 says {half_of(raw)!r}")
        if raw in seen:
            raise ValueError(f"line {number}: the context of line {seen[raw]} again")
        seen[raw] = number
        phrases.append(Phrase(unescape(raw), raw, answers, kind, half, number))
    return phrases


def read_phrases(path: Path, check_halves: bool = True) -> list[Phrase]:
    return parse_phrases(path.read_text(encoding="utf-8"), check_halves)


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------

def rank_of(candidates: Sequence[str], answers: Iterable[str], exact_case: bool = False) -> int:
    """0-based rank of the first candidate that is an acceptable word, or -1."""
    norm = (lambda s: s.strip()) if exact_case else (lambda s: s.strip().lower())
    wanted = {norm(a) for a in answers}
    for i, c in enumerate(candidates):
        if norm(c) in wanted:
            return i
    return -1


@dataclass
class Result:
    phrase: Phrase
    candidates: list[str]
    rank: int  # rank_of among the traced candidates

    def hit(self, k: int) -> bool:
        return 0 <= self.rank < k


def score(phrases: Iterable[Phrase], predict: Predictor, depth: int = TRACE_DEPTH,
          exact_case: bool = False) -> list[Result]:
    results = []
    for p in phrases:
        candidates = list(predict(p.context, depth))[:depth]
        results.append(Result(p, candidates, rank_of(candidates, p.answers, exact_case)))
    return results


@dataclass
class Tally:
    n: int = 0
    hits: dict[int, int] = field(default_factory=lambda: {k: 0 for k in TOP_K})

    def add(self, r: Result) -> None:
        self.n += 1
        for k in TOP_K:
            self.hits[k] += r.hit(k)

    def report(self) -> dict:
        out: dict = {"n": self.n}
        for k in TOP_K:
            out[f"top{k}"] = round(self.hits[k] / self.n, 4) if self.n else None
        return out


def summarize(results: Iterable[Result]) -> dict:
    """{"all": ..., "half": {tune, test}, "kind": {...}, "position": {...}, "half_kind":
    {"tune/greeting": ...}}, each {"n", "top1", "top3"}."""
    total = Tally()
    groups: dict[str, dict[str, Tally]] = {"half": defaultdict(Tally), "kind": defaultdict(Tally),
                                           "position": defaultdict(Tally),
                                           "half_kind": defaultdict(Tally)}
    for r in results:
        p = r.phrase
        total.add(r)
        groups["half"][p.half].add(r)
        groups["kind"][p.kind].add(r)
        groups["position"][position_of(p.context)].add(r)
        groups["half_kind"][f"{p.half}/{p.kind}"].add(r)
    order = {"half": HALVES, "kind": KINDS, "position": POSITIONS}
    out: dict = {"all": total.report()}
    for name, tallies in groups.items():
        keys = order.get(name) or sorted(tallies)
        out[name] = {key: tallies[key].report() for key in keys if key in tallies}
    return out


def worst_misses(results: Iterable[Result], n: int, k: int = 3) -> list[Result]:
    """Misses at k, worst first: no acceptable word among the traced candidates (more
    acceptable words first: the more ways to be right, the worse the miss), then the deepest
    rank; file order breaks ties."""
    misses = [r for r in results if not r.hit(k)]
    misses.sort(key=lambda r: (r.rank >= 0, -r.rank if r.rank >= 0 else -len(r.phrase.answers),
                               r.phrase.line))
    return misses[:n]


def trace_line(r: Result) -> str:
    p = r.phrase
    return json.dumps({"line": p.line, "context": p.context, "answers": p.answers, "kind": p.kind,
                       "half": p.half, "position": position_of(p.context),
                       "candidates": r.candidates, "rank": r.rank,
                       **{f"top{k}": r.hit(k) for k in TOP_K}}, ensure_ascii=False)


# ---------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------

def default_library() -> str | None:
    if os.environ.get("KEYDECIDE_LIBRARY"):
        return os.environ["KEYDECIDE_LIBRARY"]
    for rel in ("build/lib/libkeydecide.so.1", "build/bin/libkeydecide.so.1"):
        if (REPO / rel).exists():
            return str(REPO / rel)
    return None


def native_predictor(model_dir: str | None, model: str | None = None, mode: str = "set-context",
                     library: str | None = None) -> tuple[Predictor, Callable[[], None]]:
    """(predict, close) over libkeydecide.so.1 in this process (python/keydecide)."""
    if library:
        os.environ["KEYDECIDE_LIBRARY"] = library
    sys.path.insert(0, str(REPO / "python"))
    import keydecide  # noqa: E402  (python/keydecide, found through the path above)

    engine = keydecide.Engine(language="en", model_dir=model_dir, model_path=model)

    def predict(context: str, k: int) -> list[str]:
        with engine.session(n_candidates=k) as session:
            if mode == "type":
                decision = session.type(context) if context else session.decide()
            else:
                decision = session.set_context(context)
            return [c.text for c in decision.candidates]

    return predict, engine.close


def cli_predictor(keydecide: str, model_dir: str | None, model: str | None = None,
                  engine_args: Sequence[str] = (), contexts: Sequence[str] = (),
                  depth: int = TRACE_DEPTH) -> Predictor:
    """`keydecide predict --contexts FILE --json`: one process for every context (each in a new
    session), read before the first call; a context not among them is an error."""
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt") as f:
        f.write("".join(c.replace("\n", "\\n") + "\n" for c in contexts))
        f.flush()
        cmd = [keydecide, "predict", "--contexts", f.name, "-k", str(depth), "--json"]
        if model_dir:
            cmd += ["--model-dir", model_dir]
        if model:
            cmd += ["--model", model]
        cmd += list(engine_args)
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    answers = {}
    for line in out.splitlines():
        row = json.loads(line)
        answers[row["context"]] = row["candidates"]

    def predict(context: str, k: int) -> list[str]:
        return answers[context][:k]

    return predict


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def _print_table(summary: dict, out=sys.stdout) -> None:
    def row(name: str, t: dict) -> str:
        top1 = "-" if t["top1"] is None else f"{t['top1']:.3f}"
        top3 = "-" if t["top3"] is None else f"{t['top3']:.3f}"
        return f"  {name:<22} {t['n']:>5}  {top1:>6}  {top3:>6}"

    print(f"  {'':<22} {'n':>5}  {'top-1':>6}  {'top-3':>6}", file=out)
    print(row("all", summary["all"]), file=out)
    for group in ("half", "position", "kind"):
        for key, t in summary[group].items():
            print(row(f"{group} {key}", t), file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phrases", type=Path, default=DEFAULT_PHRASES)
    ap.add_argument("--check", action="store_true",
                    help="only check the file (shape, kinds, the half column) and count it")
    ap.add_argument("--half", choices=("tune", "test", "all"), default="all",
                    help="score only this half (default all; choose on tune, report test)")
    ap.add_argument("--backend", choices=("auto", "native", "cli"), default="auto")
    ap.add_argument("--mode", choices=("set-context", "type"), default="set-context",
                    help="native: set the context at once, or type it key by key")
    ap.add_argument("--library", help="libkeydecide.so.1 (default $KEYDECIDE_LIBRARY, else build/lib)")
    ap.add_argument("--keydecide", default=str(REPO / "build/bin/keydecide"))
    ap.add_argument("--model-dir", default=str(REPO / "models"))
    ap.add_argument("--model", help="model file (default: the pack's)")
    ap.add_argument("--engine-arg", action="append", default=[],
                    help="cli: one more flag for `keydecide predict`")
    ap.add_argument("--exact-case", action="store_true",
                    help="a candidate counts only in the case written in the file")
    ap.add_argument("--trace", type=Path, help="write one JSON line a context to this file")
    ap.add_argument("--worst", type=int, default=0, help="print the N worst misses at top-3")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = ap.parse_args(argv)

    phrases = read_phrases(args.phrases)
    if args.check:
        counts = {h: sum(p.half == h for p in phrases) for h in HALVES}
        kinds = {k: sum(p.kind == k for p in phrases) for k in KINDS}
        positions = {s: sum(position_of(p.context) == s for p in phrases) for s in POSITIONS}
        print(json.dumps({"phrases": len(phrases), "half": counts, "kind": kinds,
                          "position": positions}))
        return 0
    if args.half != "all":
        phrases = [p for p in phrases if p.half == args.half]

    close = lambda: None  # noqa: E731
    backend = args.backend
    if backend == "auto":
        backend = "native" if (args.library or default_library()) else "cli"
    if backend == "native":
        predict, close = native_predictor(args.model_dir, args.model, args.mode,
                                          args.library or default_library())
    else:
        if args.mode != "set-context":
            ap.error("--mode type needs the native backend")
        predict = cli_predictor(args.keydecide, args.model_dir, args.model, args.engine_arg,
                                [p.context for p in phrases])
    try:
        results = score(phrases, predict, exact_case=args.exact_case)
    finally:
        close()

    if args.trace:
        args.trace.write_text("".join(trace_line(r) + "\n" for r in results), encoding="utf-8")
    summary = summarize(results)
    summary["engine"] = {"backend": backend, "mode": args.mode if backend == "native" else
                         "set-context", "model_dir": args.model_dir, "model": args.model,
                         "exact_case": args.exact_case, "phrases": str(args.phrases)}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{args.phrases.name}: {len(results)} contexts ({backend}, {summary['engine']['mode']})")
        _print_table(summary)
    if args.worst:
        print(f"\nworst {args.worst} misses at top-3 (context | acceptable | first candidates):",
              file=sys.stderr if args.json else sys.stdout)
        for r in worst_misses(results, args.worst):
            rank = "none in top %d" % TRACE_DEPTH if r.rank < 0 else f"rank {r.rank + 1}"
            print(f"  {r.phrase.context!r:<48} {','.join(r.phrase.answers[:4]):<28} "
                  f"{', '.join(r.candidates[:5])}  ({rank})",
                  file=sys.stderr if args.json else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
