"""Dialogue of three games Debian ships, people talking to each other in plain modern English
("Hi there.", "See you later.", "No, I'm ready to go.", "Wait, that's not what I meant!"): the
register of chat that the other allowed sources lack.

- `freedroidrpg-data` (GPL-2+): the dialogues, `usr/share/freedroidrpg/data/**/dialogs/*.lua`
  (the base game's and the story's acts), whose translatable strings are written `_"..."`.
  One document a dialogue file, one line a string.
- `endless-sky-data` (GPL-3+): the missions' `conversation` blocks under
  `usr/share/games/endless-sky/data/`, one line of text each in backticks (narration in the
  second person and the characters' speech in quotes). One document a conversation.
- `cataclysm-dda-data` (CC-BY-SA-3.0): the talk topics of the characters (`json/npcs`, and the
  mods' `npcs` / `npc` folders), each topic's line and the player's responses. One document
  a dialogue file.

Kept only as written by a person: a line with a placeholder the game fills in (`%s`,
`<planet>`, `<name_g>`), a translator's alternatives (`[rare, exceptional]`), a player's action
in parentheses ("(Ignore them.)") or a stage direction (`&You hand over...`) is left out, and
markup (`[b]...[/b]`) is removed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from ..text import Document

FREEDROID = "freedroid-dialogue"
ENDLESS_SKY = "endless-sky-conversations"
CATACLYSM = "cataclysm-dialogue"
FREEDROID_DATA = "usr/share/freedroidrpg/data"
ENDLESS_SKY_DATA = "usr/share/games/endless-sky/data"
CATACLYSM_DATA = "usr/share/games/cataclysm-dda"

_LUA_STRING = re.compile(r'_"((?:[^"\\\n]|\\.)*)"')
_LUA_ESCAPE = re.compile(r"\\(.)")
_MARKUP = re.compile(r"\[/?[a-z]+\]")  # [b] ... [/b]
_PLACEHOLDER = re.compile(r"%[a-z0-9.]|<[A-Za-z_!? ]+>")
_LETTER = re.compile(r"[A-Za-z]")


def _kept(text: str) -> bool:
    return (bool(_LETTER.search(text)) and not _PLACEHOLDER.search(text) and "[" not in text
            and not (text.startswith("(") and text.endswith(")")))


def freedroid_lines(source: str) -> list[str]:
    """The dialogue strings of one Lua file, in order: a sentence (. ! ? at the end) or three
    words at least, so that menu words and terminal commands ("help", "logout") stay out."""
    out = []
    for raw in _LUA_STRING.findall(source):
        text = _LUA_ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), raw)
        for line in text.split("\n"):
            line = " ".join(_MARKUP.sub("", line).split())
            if not _kept(line):
                continue
            if line.rstrip("\"'").endswith((".", "!", "?")) or len(line.split()) >= 3:
                out.append(line)
    return out


def extract_freedroid(pkg: Path) -> Iterator[Document]:
    folder = pkg / FREEDROID_DATA
    files = sorted(p for p in folder.rglob("*.lua") if p.parent.name == "dialogs")
    if not files:
        raise ValueError(f"{folder}: no dialogue files (not freedroidrpg-data?)")
    for path in files:
        lines = freedroid_lines(path.read_text(encoding="utf-8", errors="replace"))
        if lines:
            yield Document(FREEDROID, path.relative_to(folder).with_suffix("").as_posix(), lines)


def endless_sky_conversations(source: str) -> list[list[str]]:
    """The text lines of each `conversation` block of one data file (blocks nest by tabs)."""
    conversations: list[list[str]] = []
    current: list[str] | None = None
    depth_of_block = 0
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        depth = len(line) - len(line.lstrip("\t"))
        if current is not None and depth <= depth_of_block:
            conversations.append(current)
            current = None
        if current is None:
            if stripped == "conversation" or stripped.startswith("conversation "):
                current, depth_of_block = [], depth
            continue
        if len(stripped) >= 2 and stripped.startswith("`") and stripped.endswith("`"):
            text = " ".join(stripped[1:-1].split())
            if _kept(text):
                current.append(text)
    if current is not None:
        conversations.append(current)
    return [c for c in conversations if c]


def extract_endless_sky(pkg: Path) -> Iterator[Document]:
    folder = pkg / ENDLESS_SKY_DATA
    files = sorted(folder.rglob("*.txt"))
    count = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        name = path.relative_to(folder).with_suffix("").as_posix().replace(" ", "-")
        for i, lines in enumerate(endless_sky_conversations(text)):
            count += 1
            yield Document(ENDLESS_SKY, f"{name}-{i:03d}", lines)
    if count == 0:
        raise ValueError(f"{folder}: no conversations (not endless-sky-data?)")


def _said(line, out: list[str]) -> None:
    """The strings of one spoken line: a string, a translatable {"str": ...}, variants under a
    condition ({"u_male": true, "yes": ..., "no": ...}, {"gendered_line": ...}) or a list of
    them; never a condition's own values."""
    if isinstance(line, str):
        out.append(line)
    elif isinstance(line, list):
        for part in line:
            _said(part, out)
    elif isinstance(line, dict):
        for key in ("str", "text", "yes", "no", "gendered_line"):
            if key in line:
                _said(line[key], out)


def cataclysm_lines(objects: list) -> list[str]:
    """What the characters of one dialogue file say, in order: each talk topic's line and its
    responses' text, each once, without the ones the game fills in (`<name_g>`, `<swear>`) or
    stage directions (`&You hand over...`, `*shrugs`)."""
    said: list[str] = []
    for obj in objects:
        if isinstance(obj, dict) and obj.get("type") == "talk_topic":
            _said(obj.get("dynamic_line"), said)
            for response in obj.get("responses", []):
                if isinstance(response, dict):
                    _said(response.get("text"), said)
    out, seen = [], set()
    for text in said:
        text = " ".join(text.split())
        if text in seen or not _kept(text) or text.startswith(("&", "*")):
            continue
        seen.add(text)
        out.append(text)
    return out


def _is_cataclysm_dialogue(relative: Path) -> bool:
    """A JSON file under a folder named npcs or npc (the base game's and the mods'), not one
    that tests the dialogue engine ("TALK_TEST")."""
    in_npcs = any(f.lower() in ("npcs", "npc") for f in relative.parts[:-1])
    return in_npcs and "test" not in relative.stem.lower()


def extract_cataclysm(pkg: Path) -> Iterator[Document]:
    """One document a dialogue file (_is_cataclysm_dialogue)."""
    folder = pkg / CATACLYSM_DATA
    files = sorted(p for p in folder.rglob("*.json")
                   if _is_cataclysm_dialogue(p.relative_to(folder)))
    count = 0
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not JSON ({e}); not cataclysm-dda-data's file?") from None
        lines = cataclysm_lines(data if isinstance(data, list) else [data])
        if lines:
            count += 1
            yield Document(CATACLYSM, path.relative_to(folder).with_suffix("").as_posix(), lines)
    if count == 0:
        raise ValueError(f"{folder}: no talk topics (not cataclysm-dda-data?)")
