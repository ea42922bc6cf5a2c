"""A tiny inline corpus in the layout of data/en (for tests and the parity fixture; the
text is written for this file, not taken from any corpus)."""

from __future__ import annotations

import json
from pathlib import Path

PROSE = """\
The weather was cold this morning, so we stayed inside and read a book.
I think we should meet at the station at nine and take the early train.
She said that the new library will open next week with a small party.
Can you send me the notes from the meeting? I want to read them tonight.
We walked along the river until the sun went down behind the hills.
The children played in the garden while their parents made dinner.
Please let me know if you need anything else before the trip.
He opened the window and listened to the rain on the roof.
It is a good idea to write down the address before you leave.
They built a small house near the lake and lived there for many years.

My brother works at the hospital and comes home late every night.
Thank you for the lovely flowers, they made my whole week better.
The train was late again, so I missed the start of the film.
Do you want to have lunch together tomorrow at the new place?
Our teacher told us to finish the story before the end of the month.
I could not find my keys this morning and I was late for work.
The shop on the corner sells fresh bread and good coffee.
We should probably leave now if we want to get there on time.
See the project page at https://www.example.org/docs/start.html for more.
Write to the office at help.desk@example.com if you have a question.

The old man sat by the fire and told stories about the sea.
When the music started, everyone stood up and began to dance.
I will call you when I get home, it should not take long.
There is a well-known shop in the town that sells old maps.
If it rains tomorrow, we will stay at home and play games.
"""

COMMANDS = """\
# apt-get update
# apt-get install vim git sudo
$ ls -l /etc/apt/sources.list.d
$ sudo systemctl restart networking
$ cat /var/log/syslog | grep error

$ mkdir -p ~/src && cd ~/src
$ git clone https://git.example.org/tools.git
# mount -t ext4 /dev/sdb1 /mnt
$ tar xzf archive.tar.gz -C /tmp
$ ssh user@example.net
"""

CODE = """\
def read_lines(path):
    with open(path) as f:
        return [line.strip() for line in f]
class Counter:
    def __init__(self):
        self.count = 0
    def add(self, value):
        self.count += value
        return self.count

import os
import sys
def main(argv):
    if len(argv) < 2:
        print("usage: tool FILE")
        return 1
    return 0
"""

C_CODE = """\
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char *argv[])
{
    FILE *f = fopen(argv[1], "r");
    if (f == NULL) {
        perror("fopen");
        exit(EXIT_FAILURE);
    }
    return 0;
}
"""

TYPOS = """\
teh\tthe
wether\tweather
recieve\treceive
libary\tlibrary
tommorow\ttomorrow
tomorow\ttomorrow
goverment\tgovernment
wich\twhich
untill\tuntil
freind\tfriend
"""


def _split(text: str) -> tuple[str, str]:
    """All documents but the last for train, the last for dev."""
    docs = [d for d in text.strip("\n").split("\n\n") if d.strip()]
    return "\n\n".join(docs[:-1]) + "\n", docs[-1] + "\n"


def write_tiny_data(root: str | Path) -> Path:
    """Write root/{train,dev}/<source>.txt, typos_train.tsv and manifest.json; returns root."""
    root = Path(root)
    sources = {"nlp-corpus": PROSE, "debian-handbook-code": COMMANDS,
               "code-python": CODE + "\n" + C_CODE, "manpages-dev-code": C_CODE + "\n" + CODE}
    for name, text in sources.items():
        train, dev = _split(text)
        for split, part in (("train", train), ("dev", dev)):
            (root / split).mkdir(parents=True, exist_ok=True)
            (root / split / f"{name}.txt").write_text(part, encoding="utf-8")
    (root / "typos_train.tsv").write_text(TYPOS, encoding="utf-8")
    manifest = {"sources": {name: {"weight": 1.0} for name in sources}}
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root
