"""keydecide_train.dev_sources on tiny inline fixtures laid out as the packages lay them out,
and the guard that keeps the development packages out of training.

Run with: /usr/bin/python3 -m pytest training/tests/test_dev_sources.py  (no data/ needed)
"""

import re
from pathlib import Path

from keydecide_train import dev_sources as D
from keydecide_train import prepare_text

REPO = Path(__file__).resolve().parents[2]


# --- the guard -------------------------------------------------------------

def test_no_dev_package_is_a_training_source():
    """Held out means held out: no package of a development text may feed training."""
    training_dirs = {pkg_dir.split("/", 1)[1] for pkg_dir, _ in prepare_text.EXTRACTORS}
    fetch = (REPO / "scripts/fetch-data.sh").read_text()
    fetched = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", fetch.split("DEB_PKGS=(", 1)[1]
                             .split("\n)", 1)[0]))
    for package in set(D.PACKAGES.values()):
        assert package not in training_dirs, package
        assert package not in fetched, package


# --- joining tokens --------------------------------------------------------

def test_join_tokens():
    text, open_quote = D.join_tokens(
        "he said \" it 's fine , is n't it ? \" ( really ) -- yes".split())
    assert text == 'he said "it\'s fine, isn\'t it?" (really) - yes'
    assert open_quote is False
    text, open_quote = D.join_tokens(['"', "open"])
    assert text == '"open' and open_quote is True
    assert D.join_tokens(["end", '"'], quote_open=True) == ('end"', False)


def test_capitalize_sentences():
    assert D.capitalize_sentences("i think so . but i'm not sure ! \"yes,\" i said .") == \
        "I think so . But I'm not sure ! \"Yes,\" I said ."
    assert D.capitalize_sentences("it works. (and so on) ok? sure") == \
        "It works. (and so on) ok? Sure"
    assert D.capitalize_sentences("a ski trip") == "A ski trip"  # 'i' inside a word stays


# --- dink-dialogue ---------------------------------------------------------

POT = '''# header
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

#: Story/S1-A.c:10
msgid "Hey Dink, what's up?"
msgstr ""

#: Story/S1-A.c:12 Story/S1-B.c:3
msgid "Soon they started behaving really weird, not much later a few were"
msgstr ""

#: Story/S1-A.c:13
msgid "gone."
msgstr ""

#: Story/S1-A.c:14
msgid "I found &gold gold."
msgstr ""

#: Story/S1-A.c:15
msgid "* POWER SHOT *"
msgstr ""

#: Story/S1-A.c:16
msgid "YOU ARE NOW LEVEL TWO"
msgstr ""

#: Story/ESCAPE.c:3
msgid "Restart"
msgstr ""

#: Story/S2-C.c:5
msgctxt "s2-c:5"
msgid "\\"You are injured!\\" "
"Hello, I'm Chance `Zands"
msgstr ""

#: Story/S2-C.c:7
msgid "<Casts harm>"
msgstr ""
'''


def test_pot_messages():
    messages = D.pot_messages(POT)
    assert messages[0] == ("Story/S1-A.c", "Hey Dink, what's up?")
    assert ("Story/S2-C.c", '"You are injured!" Hello, I\'m Chance `Zands') in messages
    assert all(text for _, text in messages)  # the header's empty msgid is left out


def test_dink_kept_and_joined():
    assert D.dink_kept("Hey Dink, what's up?")
    assert D.dink_kept("I *HATE* that guy!")
    assert D.dink_kept("OK")
    assert not D.dink_kept("I found &gold gold.")
    assert not D.dink_kept("* POWER SHOT *")
    assert not D.dink_kept("YOU ARE NOW LEVEL TWO")
    assert not D.dink_kept("<Casts harm>")
    assert D.dink_join(["It was", "late.", "Yes."]) == ["It was late.", "Yes."]
    assert D.dink_join(["Wait!", "now"]) == ["Wait!", "now"]


def test_extract_dink(tmp_path):
    pot = tmp_path / D.DINK_POT
    pot.parent.mkdir(parents=True)
    pot.write_text(POT)
    docs = list(D.extract_dink(tmp_path))
    assert [d.doc_id for d in docs] == ["Story/S1-A.c", "Story/S2-C.c"]
    assert docs[0].lines == ["Hey Dink, what's up?",
                             "Soon they started behaving really weird, not much later a few were "
                             "gone."]
    assert docs[1].lines == ['"You are injured!" Hello, I\'m Chance Zands']


# --- pang-lee-reviews -------------------------------------------------------

def test_review_text():
    raw = ("films adapted from comic books have had plenty of success , whether they're about "
           "superheroes ( batman , superman ) . \nand i liked it . \n* * * \n>from start [r] to "
           "finish -- \" great \" . \n")
    assert D.review_text(raw) == (
        "Films adapted from comic books have had plenty of success, whether they're about "
        "superheroes (batman, superman). And I liked it. From start to finish - \"great\".")


def test_extract_reviews_orders_by_md5(tmp_path):
    csv_path = tmp_path / D.REVIEWS_CSV
    csv_path.parent.mkdir(parents=True)
    csv_path.write_text('\ufeff"1","a good film . \n"\n"-1","a bad film . \n"\n"1","fine . \n"\n')
    docs = list(D.extract_reviews(tmp_path))
    assert sorted(d.lines[0] for d in docs) == ["A bad film.", "A good film.", "Fine."]
    keys = [D.hashlib.md5(d.lines[0].encode()).hexdigest() for d in docs]
    assert keys == sorted(keys)


# --- oanc-slate ------------------------------------------------------------

def test_untag_and_mend():
    assert D.untag("He/PRP 's/VBZ 3/CD &slash;/NN 4/CD ./.") == ["He", "'s", "3", "/", "4", "."]
    assert D._mend_tokens(["a", "U", ".", "N", ".", "dilemma"]) == ["a", "U.N.", "dilemma"]
    assert D._mend_tokens(["wait", ".", ".", ".", "and"]) == ["wait", "...", "and"]
    assert D._mend_tokens(["an", "18", "-", "month", "affair"]) == ["an", "18-month", "affair"]


def test_slate_sentences_mend_the_taggers_splits():
    lines = ["The/DT NYT/NNP reports/VBZ on/IN a/DT new/JJ U/NNP ./.", "N/NNP ./.",
             "dilemma/NN ./.", "It/PRP ended/VBD ./.", "./.", "./.",
             "and/CC then/RB more/JJR ./.", "New/JJ one/NN ./."]
    sentences = D.slate_sentences(lines)
    assert len(sentences) == 3
    assert D.join_tokens(D._mend_tokens(sentences[0]))[0] == \
        "The NYT reports on a new U.N. dilemma."
    assert D.join_tokens(D._mend_tokens(sentences[1]))[0] == "It ended... and then more."


def test_extract_slate_groups_paragraphs(tmp_path):
    path = tmp_path / D.SLATE_TAGGED
    path.parent.mkdir(parents=True)
    sentence = " ".join(f"w{i}/NN" for i in range(30)) + " ./."
    path.write_text("\n".join([sentence] * 40) + "\n")
    (doc,) = D.extract_slate(tmp_path)
    assert all(len(p) >= D.PARAGRAPH_CHARS for p in doc.lines[:-1])
    assert sum(p.count(".") for p in doc.lines) == 40


# --- sherlock-holmes -------------------------------------------------------

BOOK = """\ufeffProject Gutenberg's The Adventures, by Someone

Title: The Adventures

*** START OF THIS PROJECT GUTENBERG EBOOK THE ADVENTURES ***

THE ADVENTURES

   I. A Scandal
  II. The League

ADVENTURE I. A SCANDAL

I.

To Sherlock Holmes she is always THE woman. I have seldom heard him
mention her under any other name.

"Wedlock suits you," he remarked.

ADVENTURE II. THE LEAGUE

I had called upon my friend, Mr. Sherlock Holmes, one day in the
autumn of last year.

*** END OF THIS PROJECT GUTENBERG EBOOK THE ADVENTURES ***

Licence text that must not appear.
"""


def test_extract_sherlock(tmp_path):
    path = tmp_path / D.SHERLOCK_TXT
    path.parent.mkdir(parents=True)
    path.write_text(BOOK)
    docs = list(D.extract_sherlock(tmp_path))
    assert [d.doc_id for d in docs] == ["ADVENTURE I. A SCANDAL", "ADVENTURE II. THE LEAGUE"]
    assert docs[0].lines == ["To Sherlock Holmes she is always THE woman. I have seldom heard "
                             "him mention her under any other name.",
                             '"Wedlock suits you," he remarked.']
    assert "Licence" not in " ".join(docs[1].lines)


def test_write_sources(tmp_path, monkeypatch):
    def fake(source):
        return lambda pkg: iter([D.Document(source, "1", [f"Hello \u2019{source}\u2019.", ""])])

    monkeypatch.setattr(D, "EXTRACTORS", {s: fake(s) for s in D.EXTRACTORS})
    manifest = D.write_sources(tmp_path / "raw", tmp_path / "out")
    assert set(manifest) == set(D.PACKAGES)
    text = (tmp_path / "out" / "dink-dialogue.txt").read_text()
    assert text == "Hello 'dink-dialogue'.\n"  # normalised: ASCII quotes, empty lines dropped
    assert manifest["dink-dialogue"]["lines"] == 1
