"""scripts/make-heldout-en.py: the held-out e-mail text keeps what the sender typed, and the
reserved sources stay out of everything training reads."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_heldout_en", ROOT / "scripts/make-heldout-en.py")
H = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(H)

MAIL = """From: someone@example.org
Subject: Re: the build
Content-Type: text/plain; charset=us-ascii

On Monday, Ann wrote:
> Does the build pass?
> It did not here.

It passes here since the fix,
wrapped over two lines.

Thanks, Bob
--
Bob, who signs everything
"""

LIST_MAIL = """Subject: hello
Content-Type: text/plain

Only this line.
_______________________________________________
List mailing list
"""


def test_mail_body_keeps_what_the_sender_typed():
    assert H.mail_body(MAIL) == [
        "It passes here since the fix, wrapped over two lines.",
        "Thanks, Bob",
    ]
    assert H.mail_body(LIST_MAIL) == ["Only this line."]


def test_mail_body_leaves_out_mails_that_are_not_plain_text():
    html = "Subject: x\nContent-Type: text/html\n\n<p>Hello</p>\n"
    assert H.mail_body(html) is None
    assert H.mail_body("Subject: no type\n\nPlain enough.\n") == ["Plain enough."]


def test_write_email_takes_mails_in_order_up_to_the_limit(tmp_path: Path):
    for group in ("easy-ham-1", "easy-ham-2"):
        (tmp_path / "data" / group).mkdir(parents=True)
    for i, text in enumerate([MAIL, "Content-Type: text/html\n\n<p>x</p>\n", LIST_MAIL]):
        path = tmp_path / "data" / "easy-ham-1" / f"{i:05d}.json"
        path.write_text(json.dumps({"text": text}))
    out = tmp_path / "email.txt"
    summary = H.write_email(tmp_path, out, limit=10_000)
    assert out.read_text().splitlines() == [
        "It passes here since the fix, wrapped over two lines.",
        "Thanks, Bob",
        "Only this line.",
    ]
    assert "2 mails" in summary
    H.write_email(tmp_path, out, limit=10)  # the first mail already passes 10 bytes
    assert len(out.read_text().splitlines()) == 2


def test_reserved_sources_stay_apart_from_the_training_data():
    fetch = (ROOT / "scripts/fetch-data.sh").read_text()
    body = fetch[fetch.index("DEB_PKGS=("):]  # below the header that names them as forbidden
    for reserved in ("spam-assassin", "tidytext"):
        assert reserved not in body
    heldout = (ROOT / "scripts/fetch-heldout-en.sh").read_text()
    assert 'RAW="$ROOT/data/raw-reserved"' in heldout
    assert 'OUT="$ROOT/data/heldout/en"' in heldout
