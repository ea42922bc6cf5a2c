#!/usr/bin/env python3
"""Chinese "persons" for `keydecide eval personal --lang zh` (docs/PERSONAL.md): the zh_CN
translations (msgstr) of the two Wesnoth campaigns that no Chinese model or bigram trained on
(prepare_zh_text's WESNOTH_GENERAL_DEV: httt, nr). Each campaign is one writer with its own
names and phrasing, which the technical sources of the training split lack. Its lines are
shuffled with a fixed seed (a catalogue is in msgid order) and halved: the first half is the
history, the second the test. Both are read into pinyin eval lines as the dev sets are
(make_pinyin_eval: runs of 4-16 hanzi, jieba's segmentation, the most frequent readings); a
test run that is also a history run is dropped, so a gain comes from what was learned, not
from typing the same clause twice. nr is the tuning person, httt the reported one.

  PYTHONPATH=training /usr/bin/python3 scripts/personal-split-wesnoth-zh.py [OUT]
      OUT (default data/zh/personal): wesnoth-{httt,nr}.{history,test}.tsv
"""
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from keydecide_train.prepare_zh_text import MO_GLOB, WESNOTH_PREFIX
from keydecide_train.sources.mo_catalogues import mo_lines

root = Path(__file__).resolve().parent.parent
out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "data/zh/personal"
lexicon = root / "data/zh/lexicon"
readings = lexicon / "readings.txt"
if not readings.exists():
    readings = lexicon / "sc.dict.txt"
raw = root / "data/zh/raw/deb"


def pinyin_lines(text: list[str], tsv: Path) -> list[str]:
    """make_pinyin_eval's lines for these lines of text, all of them, in order."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as f:
        f.write("\n".join(text) + "\n")
        f.flush()
        subprocess.run([sys.executable, "-m", "keydecide_train.make_pinyin_eval", "--dev",
                        f.name, "--readings", str(readings), "--counts",
                        str(lexicon / "jieba.dict.utf8"), "--out", str(tsv), "--max-lines",
                        "1000000"], check=True, stdout=subprocess.DEVNULL,
                       env={"PYTHONPATH": str(root / "training")})
    return tsv.read_text(encoding="utf-8").splitlines()


out.mkdir(parents=True, exist_ok=True)
for campaign in ("httt", "nr"):
    paths = sorted(raw.glob(f"{WESNOTH_PREFIX}*/**/{WESNOTH_PREFIX}{campaign}.mo"))
    if not paths:
        sys.exit(f"no wesnoth-{campaign}.mo under {raw}: scripts/fetch-data.sh --zh")
    lines = [line for line in mo_lines(paths[0].read_bytes()) if line.strip()]
    random.Random(1).shuffle(lines)
    half = len(lines) // 2
    history = pinyin_lines(lines[:half], out / f"wesnoth-{campaign}.history.tsv")
    seen = {line.split("\t")[0] for line in history}
    test = pinyin_lines(lines[half:], out / f"wesnoth-{campaign}.test.tsv")
    kept = [line for line in test if line.split("\t")[0] not in seen]
    (out / f"wesnoth-{campaign}.test.tsv").write_text("\n".join(kept) + "\n", encoding="utf-8")
    print(f"wesnoth-{campaign}: history {len(history)} lines, test {len(kept)} lines "
          f"({len(test) - len(kept)} also in the history dropped)")
