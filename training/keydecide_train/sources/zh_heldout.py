"""Chinese (Simplified) general-prose dev text, held out of training by whole source.

/work/shared/DATA.md: "the figures you choose by come from whole sources held out of training (no
text of that source in any training file)". The Chinese training text is mostly technical; these
are modern, non-technical prose from packages that no training step reads. scripts/fetch-heldout-zh.sh
unpacks them under data/zh/raw-heldout/ (never data/zh/raw/deb: prepare_zh_text.py reads the zh_CN
.mo of every package unpacked there as training text) and runs this module, which writes
data/zh/heldout/<name>.txt, one line per message or paragraph:

- cataclysm_dialogue: Debian `cataclysm-dda-data` (Cataclysm: Dark Days Ahead 0.F-3,
  CC-BY-SA-3.0), its zh_CN catalogue usr/share/locale/zh_CN/LC_MESSAGES/cataclysm-dda.mo: the
  translations of what the characters say, the talk topics' lines and the player's responses and
  the missions' dialogue (offer, advice, accepted, success, ...). Conversational.
- cataclysm_prose: the same catalogue's translations of written text: snippets (notes, diaries,
  newspaper and magazine pieces, radio broadcasts, signs), the books' texts, dreams, and the
  professions' and scenarios' descriptions. Narrative and essay-like.
  Which catalogue entries are speech and which are written text is told by the English strings of
  the game's JSON (usr/share/games/cataclysm-dda/{json,mods}), the catalogue's msgids.
- stellarium: Debian `stellarium-data` (0.22.2; the package is GPL-2+, each sky culture's text is
  under the licence its info.ini names: CC BY-SA, CC BY-ND, CC BY-NC(-SA/-ND) or GPL-2; kept under
  data/, never committed or shipped): the zh_CN descriptions of the sky cultures, landscapes and
  3D sceneries (`**/description.zh_CN.utf8`, HTML), translated expository prose on astronomy,
  history and myth. Tables (lists of stars and constellations) are skipped.

Why held out: neither package is in scripts/fetch-data-zh.sh's lists or on this machine's
/usr/share/locale/zh_CN, so no Chinese text of theirs is in data/zh/train. The English training
text (prepare_text.py, sources/game_dialogue.py) does read the English of Cataclysm's talk topics:
cataclysm_dialogue is in part a translation of English training text; cataclysm_prose and
stellarium are not.

Lines: each catalogue string split at newlines (each HTML paragraph), normalised as the training
text is (zh_text.normalize_zh_line), with a Han character. A line with a placeholder the game
fills in (<name_g>, <swear>, %1$s, %s, {name}) or a game identifier (u_compare_var: test
strings) is left out, and so are the game's test fixtures (json/npcs/TALK_TEST.json,
mods/TEST_DATA); colour markup (<color_red>...</color>)
and a response's leading tags ([交易], [$10], [智力 10]) are removed; a stage direction (a line
starting with &) is left out; each line once, the first set it is found in keeps it.
`--train DIR` then drops every line that occurs in the training text (data/zh/train/*.txt) or
shares a run of OVERLAP_RUN Han characters with it, and reports how many.

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.sources.zh_heldout \\
      --raw data/zh/raw-heldout/deb --out data/zh/heldout --train data/zh/train
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Iterable, Iterator

from ..zh_text import HAN, HAN_RUN, normalize_zh_line
from .mo_catalogues import mo_entries
from .zh_pages import ZhPageParser

CATACLYSM_PKG = "cataclysm-dda-data"
CATACLYSM_MO = "usr/share/locale/zh_CN/LC_MESSAGES/cataclysm-dda.mo"
CATACLYSM_DATA = "usr/share/games/cataclysm-dda"
STELLARIUM_PKG = "stellarium-data"
STELLARIUM_DATA = "usr/share/stellarium"
STELLARIUM_PAGES = "**/description.zh_CN.utf8"
SETS = ("cataclysm_dialogue", "cataclysm_prose", "stellarium")
OVERLAP_RUN = 8  # Han characters in a row shared with the training text: the line is dropped

# ---------------------------------------------------------------------------
# Lines
# ---------------------------------------------------------------------------

# Colour and emphasis markup the game renders (the text inside is kept).
_MARKUP = re.compile(r"</?(?:color(?:_\w+)?|good|bad|info|stat|neutral|bold|help)>")
# What the game fills in: <name_g>, <swear!>, <u_val:x>, %1$s, %s, %d, {name}, {{tag}}.
_PLACEHOLDER = re.compile(r"<[A-Za-z_][\w!?:. -]*>|%(?:\d+\$)?[sdifu]|\{[A-Za-z_][^{}]*\}")
# A response's tags: [交易], [$10], [智力 10], [INT 8] (leading, one or more).
_LEADING_TAGS = re.compile(r"^(?:\s*\[[^\[\]]{1,16}\])+\s*")
# A game identifier (u_compare_var, om_location_field): the line is a test or debug string.
_IDENTIFIER = re.compile(r"[A-Za-z]+_[A-Za-z_]+")


def clean_lines(text: str) -> list[str]:
    """The lines of one translated string, as dev text: markup and leading tags removed,
    normalised; lines with a placeholder, stage directions and lines without Han left out."""
    out = []
    for line in text.split("\n"):
        line = _LEADING_TAGS.sub("", _MARKUP.sub("", line))
        if _PLACEHOLDER.search(line) or _IDENTIFIER.search(line):
            continue
        line = normalize_zh_line(line)
        if line.startswith("&") or not HAN.search(line):
            continue
        out.append(line)
    return out


# ---------------------------------------------------------------------------
# Cataclysm: Dark Days Ahead
# ---------------------------------------------------------------------------

def catalogue(data: bytes) -> dict[str, str]:
    """msgid (context and plural dropped) -> its first translation, of a .mo file; the first
    entry of a msgid wins, untranslated entries are left out."""
    out: dict[str, str] = {}
    for original, translation in mo_entries(data):
        msgid = original.split(b"\x04")[-1].split(b"\0")[0].decode("utf-8", errors="replace")
        text = translation.split(b"\0")[0].decode("utf-8", errors="replace")
        if text and msgid not in out:
            out[msgid] = text
    return out


def _strings(value) -> Iterator[str]:
    """The translatable strings of a JSON text value: a string, {"str": ...} (also "text",
    "yes"/"no" of a condition, "true"/"false" of truefalsetext, "gendered_line",
    "concatenate"), or a list of them; never a condition's own values."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for part in value:
            yield from _strings(part)
    elif isinstance(value, dict):
        for key in ("str", "text", "yes", "no", "true", "false", "gendered_line", "concatenate"):
            if key in value:
                yield from _strings(value[key])


def _responses(topic: dict) -> Iterator[str]:
    for response in topic.get("responses", []):
        if isinstance(response, dict):
            yield from _strings(response.get("text"))
            yield from _strings(response.get("truefalsetext"))
    for repeat in topic.get("repeat_responses", []):
        if isinstance(repeat, dict) and isinstance(repeat.get("response"), dict):
            yield from _strings(repeat["response"].get("text"))


def cataclysm_english(objects: Iterable) -> tuple[list[str], list[str]]:
    """(speech, written text): the English strings of the JSON objects, in order."""
    speech: list[str] = []
    written: list[str] = []
    for obj in objects:
        if not isinstance(obj, dict):
            continue
        kind = obj.get("type")
        if kind == "talk_topic":
            speech += _strings(obj.get("dynamic_line"))
            speech += _responses(obj)
        elif kind == "mission_definition" and isinstance(obj.get("dialogue"), dict):
            speech += _strings(list(obj["dialogue"].values()))
        elif kind == "snippet":
            written += _strings(obj.get("text"))
        elif kind == "dream":
            written += _strings(obj.get("messages"))
        elif kind in ("profession", "scenario"):
            written += _strings(obj.get("description"))
        if isinstance(obj.get("snippet_category"), list):  # a book's or a note's texts
            written += _strings(obj["snippet_category"])
    return speech, written


def _json_objects(path: Path) -> list:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        print(f"zh_heldout: {path}: {e}, skipped", file=sys.stderr)
        return []
    return data if isinstance(data, list) else [data]


def _is_test_data(path: Path) -> bool:
    """The game's test fixtures: json/npcs/TALK_TEST.json, mods/TEST_DATA/..."""
    return any(part.startswith(("TALK_TEST", "TEST_DATA")) for part in path.parts)


def extract_cataclysm(pkg: Path) -> tuple[list[str], list[str]]:
    """(dialogue lines, prose lines) of an unpacked cataclysm-dda-data."""
    mo = pkg / CATACLYSM_MO
    if not mo.is_file():
        raise ValueError(f"{mo}: missing (not cataclysm-dda-data?)")
    zh = catalogue(mo.read_bytes())
    data = pkg / CATACLYSM_DATA
    files = sorted(p for top in ("json", "mods") for p in (data / top).rglob("*.json")
                   if not _is_test_data(p.relative_to(data)))
    speech: list[str] = []
    written: list[str] = []
    for path in files:
        s, w = cataclysm_english(_json_objects(path))
        speech += s
        written += w
    return ([line for s in speech if s in zh for line in clean_lines(zh[s])],
            [line for w in written if w in zh for line in clean_lines(zh[w])])


# ---------------------------------------------------------------------------
# Stellarium
# ---------------------------------------------------------------------------

class _DescriptionParser(ZhPageParser):
    SKIP = ZhPageParser.SKIP | {"table"}


def description_lines(html: str) -> list[str]:
    """The paragraphs of one description page (HTML), tables skipped."""
    parser = _DescriptionParser(False)
    parser.feed(html)
    parser.close()
    return [line for p in parser.paragraphs for line in clean_lines(p)]


def extract_stellarium(pkg: Path) -> list[str]:
    root = pkg / STELLARIUM_DATA
    pages = sorted(root.glob(STELLARIUM_PAGES))
    if not pages:
        raise ValueError(f"{root}: no description.zh_CN.utf8 (not stellarium-data?)")
    return [line for page in pages
            for line in description_lines(page.read_text(encoding="utf-8", errors="replace"))]


# ---------------------------------------------------------------------------
# Overlap with the training text
# ---------------------------------------------------------------------------

def han_ngrams(line: str, n: int = OVERLAP_RUN) -> set[str]:
    """Every n Han characters in a row in `line` (within one run of Han characters)."""
    return {run[i:i + n] for run in HAN_RUN.findall(line) for i in range(len(run) - n + 1)}


def remove_overlap(sets: dict[str, list[str]], train_lines: Iterable[str],
                   n: int = OVERLAP_RUN) -> dict[str, dict[str, int]]:
    """Drop, in place, the lines of each set that occur in `train_lines` or share n Han
    characters in a row with one; returns {set: {"exact": .., "shared_run": ..}}."""
    exact: set[str] = set()
    grams: set[str] = set()
    for line in train_lines:
        exact.add(line)
        grams |= han_ngrams(line, n)
    report = {}
    for name, lines in sets.items():
        counts = {"exact": 0, "shared_run": 0}
        kept = []
        for line in lines:
            if line in exact:
                counts["exact"] += 1
            elif not han_ngrams(line, n).isdisjoint(grams):
                counts["shared_run"] += 1
            else:
                kept.append(line)
        lines[:] = kept
        report[name] = counts
    return report


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def dedup(sets: dict[str, list[str]]) -> None:
    """Each line once over all sets (in order: the first set it is in keeps it)."""
    seen: set[str] = set()
    for lines in sets.values():
        kept = [line for line in lines if not (line in seen or seen.add(line))]
        lines[:] = kept


def build(raw: Path) -> dict[str, list[str]]:
    dialogue, prose = extract_cataclysm(raw / CATACLYSM_PKG)
    sets = {"cataclysm_dialogue": dialogue, "cataclysm_prose": prose,
            "stellarium": extract_stellarium(raw / STELLARIUM_PKG)}
    dedup(sets)
    return sets


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--raw", type=Path, required=True,
                    help="folder of the unpacked packages (data/zh/raw-heldout/deb)")
    ap.add_argument("--out", type=Path, required=True, help="data/zh/heldout")
    ap.add_argument("--train", type=Path,
                    help="data/zh/train: drop the lines that overlap its *.txt")
    args = ap.parse_args()
    try:
        sets = build(args.raw)
    except ValueError as e:
        print(f"zh_heldout: {e}", file=sys.stderr)
        return 1
    if args.train:
        files = sorted(args.train.glob("*.txt"))
        if not files:
            print(f"zh_heldout: {args.train}: no *.txt (scripts/fetch-data.sh --zh)", file=sys.stderr)
            return 1
        train = (line for f in files for line in f.read_text(encoding="utf-8").split("\n") if line)
        for name, c in remove_overlap(sets, train).items():
            print(f"zh_heldout: {name}: dropped {c['exact']} lines found in {args.train} and "
                  f"{c['shared_run']} sharing {OVERLAP_RUN} Han characters in a row with it")
    args.out.mkdir(parents=True, exist_ok=True)
    for name, lines in sets.items():
        (args.out / f"{name}.txt").write_text("".join(line + "\n" for line in lines),
                                              encoding="utf-8")
        han = sum(len(HAN.findall(line)) for line in lines)
        print(f"zh_heldout: wrote {args.out / (name + '.txt')}: {len(lines)} lines, {han} Han")
    return 0


if __name__ == "__main__":
    sys.exit(main())
