#!/usr/bin/env python3
"""A person the English model never read, for `keydecide eval personal` (docs/PERSONAL.md): the
English source strings (msgid) of The Battle for Wesnoth's story campaigns, from the catalogues
scripts/fetch-data.sh --zh unpacks into data/zh/raw/deb/wesnoth-1.16-*. No English training
source holds them. The campaigns the Chinese general dev set holds out (prepare_zh_text's
WESNOTH_GENERAL_DEV: httt, nr) are the test text; a third of the other campaigns' strings is the
history, split again two to one for tuning. Lines are shuffled with a fixed seed (a catalogue is
in msgid order); "$name|" placeholders and markup are removed; strings of under four words
(names, labels) are left out.

  PYTHONPATH=training /usr/bin/python3 scripts/personal-split-wesnoth.py [OUT]
      OUT (default data/personal): wesnoth-en.{history,test,tune-history,tune-test}.txt, and
      wesnoth-en-{httt,nr}.{history,test}.txt (one campaign halved: one writer, below)
"""
import random
import re
import sys
from pathlib import Path

from keydecide_train.prepare_zh_text import MO_GLOB, WESNOTH_GENERAL_DEV, WESNOTH_PREFIX
from keydecide_train.sources.mo_catalogues import mo_entries

root = Path(__file__).resolve().parent.parent
out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "data/personal"
# The story campaigns; the others are the game's help, units and menus.
CAMPAIGNS = {"did", "dm", "dw", "ei", "httt", "l", "low", "nr", "sof", "sota", "sotbe", "tb",
             "thot", "trow", "tsg", "utbs"}
_PLACEHOLDER = re.compile(r"\$[A-Za-z_][\w.]*\|?")
_TAG = re.compile(r"<[^>]*>")


def sentences(path: Path) -> list[str]:
    lines = []
    for original, _ in mo_entries(path.read_bytes()):
        text = original.split(b"\0")[0].decode("utf-8", errors="replace")
        text = text.split("\x04", 1)[-1]  # a context ("unit|...") is no text
        text = re.sub(r"\s+", " ", _TAG.sub("", _PLACEHOLDER.sub("", text))).strip()
        if len(text.split()) >= 4:
            lines.append(text)
    return lines


history: list[str] = []
test: list[str] = []
held_out: dict[str, list[str]] = {}
raw = root / "data/zh/raw/deb"
for path in sorted(raw.glob(f"{WESNOTH_PREFIX}*/{MO_GLOB}")):
    campaign = path.stem.removeprefix(WESNOTH_PREFIX)
    if campaign in CAMPAIGNS:
        (test if path.name in WESNOTH_GENERAL_DEV else history).extend(sentences(path))
        if path.name in WESNOTH_GENERAL_DEV:
            held_out[campaign] = sentences(path)
if not history or not test:
    sys.exit(f"no Wesnoth campaigns under {raw}: scripts/fetch-data.sh --zh")
rng = random.Random(1)
rng.shuffle(history)
rng.shuffle(test)
history = history[::3]
tune = len(history) * 2 // 3
out.mkdir(parents=True, exist_ok=True)
for name, lines in (("history", history), ("test", test), ("tune-history", history[:tune]),
                    ("tune-test", history[tune:])):
    (out / f"wesnoth-en.{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wesnoth-en.{name}.txt: {len(lines)} lines, {sum(map(len, lines))} characters")

# One writer's earlier and later text: each held-out campaign's strings, shuffled (seed 1) and
# halved, as scripts/personal-split-wesnoth-zh.py does for their translations (nr tunes, httt
# reports); a test line that is also a history line is dropped.
for campaign, lines in sorted(held_out.items()):
    random.Random(1).shuffle(lines)
    first, second = lines[:len(lines) // 2], lines[len(lines) // 2:]
    seen = set(first)
    second = [line for line in second if line not in seen]
    for name, part in (("history", first), ("test", second)):
        path = out / f"wesnoth-en-{campaign}.{name}.txt"
        path.write_text("\n".join(part) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(part)} lines, {sum(map(len, part))} characters")
