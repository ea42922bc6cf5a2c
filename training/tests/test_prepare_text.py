"""Unit tests for keydecide_train.prepare_text on tiny inline fixtures.

Run with: /usr/bin/python3 -m pytest training/tests
No network and no data/ directory needed (groff is used if installed).
"""

import bz2
import gzip
import hashlib
import json
import lzma
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from keydecide_train import prepare_text as P
from keydecide_train.sources import (austen, brown, ding, doc_pages, food_reviews, fortunes,
                                     game_dialogue, jargon, manpages, rdata, stdlib_datasets,
                                     sword, typos)
from keydecide_train.text import (Document, doc_hash, is_dev, normalize_code_line,
                                  normalize_document, normalize_line, render, split_documents)


# --- normalisation ---------------------------------------------------------

def test_normalize_punctuation_to_ascii():
    assert normalize_line("\u201cIt\u2019s fine\u201d \u2013 she said\u2026") == \
        '"It\'s fine" - she said...'


def test_normalize_glued_em_dash_gets_spaces():
    assert normalize_line("this\u2014that") == "this - that"
    assert normalize_line("this \u2014 that") == "this - that"


def test_normalize_nfc_spaces_and_controls():
    # e + combining acute -> precomposed; tabs, NBSP and runs of spaces -> one space
    assert normalize_line("  cafe\u0301\tau\u00a0 lait \x07 ") == "caf\u00e9 au lait"
    assert normalize_line("soft\u00adhyphen zero\u200bwidth") == "softhyphen zerowidth"


def test_normalize_overstrike_and_bullet():
    assert normalize_line("_\bb_\bo_\bl_\bd text") == "bold text"
    assert normalize_line("\u2022 first item") == "first item"


def test_normalize_code_line_keeps_indentation():
    assert normalize_code_line("    x  =  1;   ") == "    x  =  1;"
    assert normalize_code_line("\tif (a) {") == "    if (a) {"


def test_normalize_document_drops_empty_lines():
    doc = normalize_document(Document("s", "d", ["One.", "   ", "", "Two\u2026"]))
    assert doc.lines == ["One.", "Two..."]


# --- dedup -----------------------------------------------------------------

def test_dedup_keeps_first_occurrence_across_sources():
    long_line = "This line is certainly longer than twenty characters."
    docs = [
        Document("a", "1", [long_line, "Yes."]),
        Document("b", "1", ["Yes.", long_line, "Something new and long enough here."]),
        Document("b", "2", [long_line]),
    ]
    dropped: dict[str, int] = {}
    out = list(P.dedup_documents(docs, dropped))
    assert [d.lines for d in out] == [
        [long_line, "Yes."],
        ["Yes.", "Something new and long enough here."],  # short lines may repeat
    ]  # b/2 lost its only line and is gone
    assert dropped == {"b": 2}


# --- train/dev split -------------------------------------------------------

def test_doc_hash_matches_md5_by_hand():
    # printf 'src\0doc-0' | md5sum -> 2966cf33653e588ee6990d2f0887f999
    assert doc_hash("src", "doc-0") == int("2966cf33653e588ee6990d2f0887f999", 16)
    assert doc_hash("src", "doc-0") % 100 == 77
    assert not is_dev("src", "doc-0")
    assert is_dev("src", "doc-52")  # hash % 100 == 0
    assert is_dev("src", "doc-220")  # hash % 100 == 1


def test_split_is_deterministic_and_by_whole_document():
    docs = [Document("src", f"doc-{i}", [f"line {i} a", f"line {i} b"]) for i in range(300)]
    train, dev = split_documents(docs)
    train2, dev2 = split_documents(list(docs))
    assert [d.doc_id for d in train] == [d.doc_id for d in train2]
    assert [d.doc_id for d in dev] == [d.doc_id for d in dev2]
    assert sorted(d.doc_id for d in dev) == ["doc-113", "doc-199", "doc-220", "doc-234", "doc-52"]
    # every document lands whole in exactly one split
    assert len(train) + len(dev) == len(docs)
    assert {id(d) for d in train}.isdisjoint({id(d) for d in dev})
    assert all(d.lines == [f"line {d.doc_id[4:]} a", f"line {d.doc_id[4:]} b"] for d in dev)


def test_split_forces_one_dev_document():
    docs = [Document("src", f"doc-{i}", ["x"]) for i in range(3)]  # hashes 77, 76, 78
    assert not any(is_dev(d.source, d.doc_id) for d in docs)
    train, dev = split_documents(docs)
    smallest = min(docs, key=lambda d: doc_hash(d.source, d.doc_id))
    assert dev == [smallest]
    assert len(train) == 2 and smallest not in train


def test_split_single_document_stays_in_train():
    docs = [Document("src", "doc-0", ["x"])]
    assert split_documents(docs) == (docs, [])


# --- typos -----------------------------------------------------------------

def _mod10_by_hand(hex_digest: str) -> int:
    # 16**0 = 1 and 16**k = 6 (mod 10) for k >= 1, so the value mod 10 is the
    # last hex digit plus 6 times the sum of all the others.
    digits = [int(c, 16) for c in hex_digest]
    return (digits[-1] + 6 * sum(digits[:-1])) % 10


def test_typo_reserved_rule_md5_by_hand():
    # printf seperate | md5sum -> 95d6612ff45569ac80799cf0d806dcaa
    assert hashlib.md5(b"seperate").hexdigest() == "95d6612ff45569ac80799cf0d806dcaa"
    assert _mod10_by_hand("95d6612ff45569ac80799cf0d806dcaa") == 0
    assert typos.is_reserved_typo("seperate")
    # printf teh | md5sum -> 38b5a6b9dafc7fc2955561cd08fe1f77
    assert _mod10_by_hand("38b5a6b9dafc7fc2955561cd08fe1f77") == 7
    assert not typos.is_reserved_typo("teh")


def test_parse_typo_entries_takes_first_correction():
    pairs = typos.parse_typo_entries([
        "aache->ache, cache", "teh->the", "teh->tea", "noarrow", "Amercia->America",
    ])
    assert pairs == [("aache", "ache"), ("teh", "the"), ("Amercia", "America")]


def test_write_typos_splits_by_rule(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "dict").mkdir(parents=True)
    (pkg / "dict" / "dict-en.json").write_text(
        '{"dictionaryDefinitions": [{"flagWords": ["teh->the"],'
        ' "suggestWords": ["seperate->separate, separated"]}]}')
    assert typos.write_typos(pkg, tmp_path) == (1, 1)
    assert (tmp_path / "typos_train.tsv").read_text() == "teh\tthe\n"
    assert (tmp_path / "typos_reserved_eval.tsv").read_text() == "seperate\tseparate\n"


# --- Brown corpus ----------------------------------------------------------

def test_brown_strip_tags():
    assert brown.brown_strip_tags("The/at jury/nn 1-1/2/cd ./.") == ["The", "jury", "1-1/2", "."]


def test_brown_detokenize_quotes_and_punctuation():
    words = brown.brown_strip_tags(
        "The/at jury/nn said/vbd ``/`` no/at evidence/nn ''/'' ,/, (/( he/pps said/vbd )/) ./.")
    assert brown.brown_detokenize(words) == 'The jury said "no evidence", (he said).'
    words = brown.brown_strip_tags("He/pps said/vbd '/' Don't/do* worry/vb '/' --/-- fine/jj ./.")
    assert brown.brown_detokenize(words) == "He said 'Don't worry' - fine."


def test_brown_detokenize_drops_repeated_sentence_punctuation():
    assert brown.brown_detokenize(brown.brown_strip_tags("Robertson/np ,/, 1937/cd ;/. ;/.")) == \
        "Robertson, 1937;"
    assert brown.brown_detokenize(brown.brown_strip_tags("Ivan/np Allen/np Jr./np ./.")) == "Ivan Allen Jr."


def test_brown_paragraphs():
    text = (
        "\n\n\tThe/at jury/nn met/vbd ./.\nIt/pps adjourned/vbd ./.\n\n\n"
        "Merger/nn-hl proposed/vbn-hl \nHowever/wrb ,/, it/pps failed/vbd ./.\n\n"
        "\tLet/vb **zg/nn be/be small/jj ./.\n;/.\n"
    )
    assert brown.brown_paragraphs(text) == [
        "The jury met. It adjourned.",
        "Merger proposed",
        "However, it failed.",
    ]


# --- R data (janeaustenr) --------------------------------------------------

def _xdr_int(n: int) -> bytes:
    return struct.pack(">i", n)


def _rchar(s: str) -> bytes:
    raw = s.encode("utf-8")
    return _xdr_int(9 | (8 << 12)) + _xdr_int(len(raw)) + raw  # CHARSXP, UTF-8


def _rstr(values: list) -> bytes:
    out = _xdr_int(16) + _xdr_int(len(values))
    for v in values:
        out += _xdr_int(9) + _xdr_int(-1) if v is None else _rchar(v)
    return out


def _rint(values: list[int]) -> bytes:
    return _xdr_int(13) + _xdr_int(len(values)) + b"".join(_xdr_int(v) for v in values)


def _rnamed_list(items: dict[str, bytes]) -> bytes:
    """VECSXP with a names attribute (pairlist with tag 'names')."""
    out = _xdr_int(19 | (1 << 9)) + _xdr_int(len(items)) + b"".join(items.values())
    out += _xdr_int(2 | (1 << 10)) + _xdr_int(1) + _rchar("names")  # LISTSXP, tag symbol
    out += _rstr(list(items)) + _xdr_int(254)  # value, end of pairlist
    return out


def _rserialize(item: bytes, version: int = 2) -> bytes:
    header = b"X\n" + _xdr_int(version) + _xdr_int(0x040201) + _xdr_int(0x020300)
    if version == 3:
        header += _xdr_int(5) + b"UTF-8"  # native encoding
    return header + item


def test_r_unserialize_character_vector_and_named_list():
    assert rdata.r_unserialize(_rserialize(_rstr(["EMMA", "", None]))) == ["EMMA", "", None]
    assert rdata.r_unserialize(_rserialize(_rstr(["EMMA"]), version=3)) == ["EMMA"]
    value = rdata.r_unserialize(_rserialize(_rnamed_list({"emma": _rstr(["a"]), "n": _rint([1, 2])})))
    assert value == {"emma": ["a"], "n": [1, 2]}


def test_read_r_lazyload(tmp_path):
    book = _rserialize(_rstr(["EMMA", "", "CHAPTER I", "", "Emma Woodhouse,", "handsome."]))
    record = struct.pack(">I", len(book)) + zlib.compress(book)
    (tmp_path / "Rdata.rdb").write_bytes(record)
    index = _rnamed_list({
        "variables": _rnamed_list({"emma": _rint([0, len(record)])}),
        "references": _rnamed_list({}),
    })
    (tmp_path / "Rdata.rdx").write_bytes(gzip.compress(_rserialize(index, version=3)))
    objects = rdata.read_r_lazyload(tmp_path / "Rdata.rdx")
    assert objects == {"emma": ["EMMA", "", "CHAPTER I", "", "Emma Woodhouse,", "handsome."]}
    assert austen.austen_chapters(objects["emma"]) == [["EMMA"], ["Emma Woodhouse, handsome."]]


def _lazyload(tmp_path: Path, objects: dict[str, bytes], compress) -> Path:
    """Rdata.rdx + Rdata.rdb holding each serialized object as one record of `compress`."""
    rdb, offsets = b"", {}
    for name, item in objects.items():
        body = _rserialize(item)
        record = struct.pack(">I", len(body)) + compress(body)
        offsets[name] = _rint([len(rdb), len(record)])
        rdb += record
    (tmp_path / "Rdata.rdb").write_bytes(rdb)
    index = _rnamed_list({"variables": _rnamed_list(offsets), "references": _rnamed_list({})})
    (tmp_path / "Rdata.rdx").write_bytes(gzip.compress(_rserialize(index, version=3)))
    return tmp_path / "Rdata.rdx"


# R's compress = 2 and 3 records: a type byte, then the stream (R_decompress3).
RECORD_KINDS = {
    "zlib": lambda b: b"1" + zlib.compress(b),
    "bzip2": lambda b: b"2" + bz2.compress(b),
    "lzma2": lambda b: b"Z" + lzma.compress(b, format=lzma.FORMAT_RAW, filters=[
        {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}]),
    "stored": lambda b: b"0" + b,
}


@pytest.mark.parametrize("kind", sorted(RECORD_KINDS))
def test_read_r_lazyload_typed_records(tmp_path, kind):
    rdx = _lazyload(tmp_path, {"a": _rstr(["one"]), "b": _rstr(["two"])}, RECORD_KINDS[kind])
    assert rdata.read_r_lazyload(rdx) == {"a": ["one"], "b": ["two"]}
    assert rdata.read_r_lazyload(rdx, only={"b"}) == {"b": ["two"]}


def test_food_reviews_one_document_a_review(tmp_path):
    table = _rnamed_list({
        "product": _rstr(["B001", "B002", "B003"]),
        "review": _rstr(["I LOVE it.<br /><br />Kids  love it too &amp; so do I.",
                         'See <a href="http://x">this one</a>, it&#39;s great.', ""]),
        "score": _rstr(["great", "great", "other"]),
    })
    data = tmp_path / "usr/lib/R/site-library/modeldata/data"
    data.mkdir(parents=True)
    _lazyload(data, {"Chicago": _rint([1]), "training_data": table,
                     "testing_data": _rnamed_list({"product": _rstr([]), "review": _rstr([])})},
              RECORD_KINDS["lzma2"])
    docs = list(food_reviews.extract_food_reviews(tmp_path))
    assert [(d.source, d.doc_id, d.lines) for d in docs] == [
        ("food-reviews", "B001", ["I LOVE it.", "Kids love it too & so do I."]),
        ("food-reviews", "B002", ["See this one, it's great."]),
    ]


def test_food_reviews_refuse_another_table(tmp_path):
    data = tmp_path / "usr/lib/R/site-library/modeldata/data"
    data.mkdir(parents=True)
    _lazyload(data, {"training_data": _rstr(["x"]), "testing_data": _rstr(["y"])},
              RECORD_KINDS["zlib"])
    with pytest.raises(ValueError, match="not the reviews table"):
        list(food_reviews.extract_food_reviews(tmp_path))


def test_austen_chapters_strip_italics_underscores():
    lines = ["Chapter 1", "", "It was _very_ odd,", "he said.", "", "Next one."]
    assert austen.austen_chapters(lines) == [["It was very odd, he said.", "Next one."]]


# --- fortunes and reflow ---------------------------------------------------

def test_fortune_entries_reflow_and_attribution():
    text = (
        "He hated being thought of as one of those people that wore stupid\n"
        "ornamental armour. It was gilt by association.\n"
        "\t\t-- Terry Pratchett, \"Night Watch\"\n"
        "%\n"
        "Roses are red,\n"
        "  violets are blue.\n"
        "\n"
        "Second paragraph.\n"
        "%\n"
    )
    assert fortunes.fortune_entries(text) == [
        ["He hated being thought of as one of those people that wore stupid "
         "ornamental armour. It was gilt by association.",
         '-- Terry Pratchett, "Night Watch"'],
        ["Roses are red,", "violets are blue.", "Second paragraph."],
    ]


# --- HTML and Mallard ------------------------------------------------------

def test_html_page_prose_and_code():
    page = """<html><head><title>T</title></head><body>
    <div class="navheader"><a href="x">Next</a></div>
    <h2 class="title">1.2. Getting started</h2>
    <p>Run <code class="literal">ls</code> to list
       files &amp; folders.</p>
    <pre class="screen">$ ls -l
total 0
</pre>
    <table><tr><td>package</td><td>12.3 MB</td><td>a tool for listing things</td></tr></table>
    <div class="navfooter">Prev Home Next</div></body></html>"""
    prose, code = doc_pages.parse_doc_page(page, xml=False)
    assert prose == ["1.2. Getting started", "Run ls to list files & folders.",
                     "a tool for listing things"]
    assert code == ["$ ls -l", "total 0"]


def test_mallard_page():
    page = """<page xmlns="http://projectmallard.org/1.0/" id="x">
    <info><desc>Metadata, not text.</desc></info>
    <title>Search for files</title>
    <p>Press <keyseq><key>Ctrl</key><key>F</key></keyseq> or choose
       <guiseq><gui>Settings</gui><gui>Search</gui></guiseq>.</p>
    <code>[org/gnome]
key=1</code>
    </page>"""
    prose, code = doc_pages.parse_doc_page(page, xml=True)
    assert prose == ["Search for files", "Press Ctrl+F or choose Settings > Search."]
    assert code == ["[org/gnome]", "key=1"]


# --- SWORD / OSIS ----------------------------------------------------------

def test_osis_paragraphs_drop_notes_and_markup():
    verses = [
        '<div osisID="Mark" type="book" sID="b1"/> <title type="main">Mark</title> '
        '<div sID="p1" type="x-p"/>',
        '<chapter n="1" osisID="Mark.1" sID="Mark.1"/>',
        '<w lemma="G1">John</w> came <w>baptizing</w><note placement="foot">Or, immersing</note>'
        '<w>in</w> the wilderness<note>x</note>.',
        'All went out to him. <div eID="p1" type="x-p"/>',
    ]
    book, paragraphs = sword.osis_paragraphs(verses)
    assert book == "Mark"
    assert paragraphs == ["Mark", "John came baptizing in the wilderness. All went out to him."]


# --- man pages -------------------------------------------------------------

def test_mark_roff_code():
    roff = ".SH EXAMPLES\n.EX\nint x;\n.EE\ntext\n"
    assert manpages.mark_roff_code(roff) == (
        ".SH EXAMPLES\n.EX\n\\&" + manpages.CODE_BEGIN + "\nint x;\n\\&" + manpages.CODE_END + "\n.EE\ntext\n")


def test_man_text_to_lines():
    rendered = (
        "foo(3)        Library Functions Manual        foo(3)\n\n"
        "NAME\n       foo - do things\n\n"
        "SYNOPSIS\n       #include <foo.h>\n       int foo(void);\n\n"
        "DESCRIPTION\n       The foo() function does things.\n\n"
        "   Details\n       It is quick.\n"
        "           " + manpages.CODE_BEGIN + "\n           foo();\n             bar();\n"
        "           " + manpages.CODE_END + "\n"
        "       ┌──────┐\n"
        "SEE ALSO\n       bar(3)\n\n"
        "Linux man-pages 6.03        2023-02-05        foo(3)\n"
    )
    prose, code = manpages.man_text_to_lines(rendered)
    assert prose == ["foo - do things", "The foo() function does things.", "Details", "It is quick."]
    assert code == ["#include <foo.h>", "int foo(void);", "    foo();", "      bar();"]


def test_tool_command_lines_take_only_the_examples_commands():
    rendered = (
        "GIT-ADD(1)        Git Manual        GIT-ADD(1)\n\n"
        "SYNOPSIS\n       " + manpages.CODE_BEGIN + "\n       git add [--verbose] <pathspec>\n"
        "       " + manpages.CODE_END + "\n\n"
        "DESCRIPTION\n       This command updates the index.\n\n"
        "EXAMPLES\n       " + manpages.CODE_BEGIN + "\n"
        "           $ git add Documentation/\\*.txt\n"
        "           changes to be committed:\n"
        "           git add -u\n"
        "       " + manpages.CODE_END + "\n"
        "       Adds content.\n\n"
        "Git 2.39.5        2024-11-25        GIT-ADD(1)\n"
    )
    # The synopsis, the prose and the program output are left out.
    assert manpages.tool_command_lines(rendered) == ["$ git add Documentation/\\*.txt",
                                                     "git add -u"]
    assert manpages.tool_command_lines("") == []


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff not installed")
def test_render_roff_one_paragraph_per_line():
    roff = (".TH FOO 3 2023 x\n.SH NAME\nfoo \\- do things\n.SH DESCRIPTION\n"
            + "word " * 200 + "\n.PP\nSecond paragraph.\n")
    prose, code = manpages.man_text_to_lines(manpages.render_roff(manpages.mark_roff_code(roff)))
    assert prose[0] == "foo - do things"
    assert prose[1].split() == ["word"] * 200
    assert prose[2] == "Second paragraph."
    assert code == []


# --- Jargon File -----------------------------------------------------------

def test_jargon_documents():
    text = (
        "Glossary\n\n   abbrev\n\n   ABEND\n\n   ACK\n\n   adger\n\n"
        "   :abbrev: /@-breev'/, n.\n\n   Common abbreviation for {abbreviation}.\n\n"
        "   :BAR: n.\n\n   A {foo} whose definition is long enough that the file had to\n   wrap it onto a second line.\n\n"
        "Appendix A. Folklore\n\n   ┌──┐\n   │x │\n\n   A story.\n"
    )
    docs = jargon.jargon_documents(text)
    assert docs == [
        ("Glossary/A", ["abbrev", "Common abbreviation for abbreviation."]),
        ("Glossary/B", ["BAR", "A foo whose definition is long enough that the file had to "
                                 "wrap it onto a second line."]),
        ("Appendix A. Folklore", ["A story."]),
    ]


# --- output format ---------------------------------------------------------

def test_paragraphs_of_cuts_at_sentence_ends():
    line = "One two. " * 100 + "Last one!"
    paragraphs = stdlib_datasets.paragraphs_of(line, limit=100)
    assert " ".join(paragraphs) == line.strip()
    assert all(p.endswith((".", "!")) for p in paragraphs)
    assert all(len(p) <= 100 + len("One two. ") for p in paragraphs)
    # No sentence end: the line stays whole however long it is.
    assert stdlib_datasets.paragraphs_of("a" * 500, limit=100) == ["a" * 500]
    # A lower-case word after a full stop ("Mr. and") is not a sentence start.
    assert stdlib_datasets.paragraphs_of("x" * 20 + ". and y. Z", limit=10) == \
        ["x" * 20 + ". and y.", "Z"]


def test_extract_sotu_and_moby_dick(tmp_path):
    sotu = tmp_path / "sotu" / "data"
    sotu.mkdir(parents=True)
    (sotu / "1790_george_washington_n.txt").write_text("Fellow-Citizens. We meet.")
    (sotu / "1790_george_washington_n.json").write_text("{}")
    docs = list(stdlib_datasets.extract_sotu(tmp_path / "sotu"))
    assert [(d.source, d.doc_id, d.lines) for d in docs] == \
        [("sotu", "1790_george_washington_n", ["Fellow-Citizens. We meet."])]

    moby = tmp_path / "moby" / "data"
    moby.mkdir(parents=True)
    (moby / "file_list.json").write_text('["contents.txt", "chapter_1.txt", "data.txt"]')
    (moby / "contents.txt").write_text("CHAPTER 1. Loomings.\n")
    (moby / "chapter_1.txt").write_text("CHAPTER 1. Loomings.\n\nCall me\nIshmael.\n\nSome years ago.\n")
    (moby / "data.txt").write_text("the whole book")
    docs = list(stdlib_datasets.extract_moby_dick(tmp_path / "moby"))
    assert [(d.source, d.doc_id, d.lines) for d in docs] == \
        [("moby-dick", "chapter_1", ["CHAPTER 1. Loomings.", "Call me Ishmael.", "Some years ago."])]
    assert P.source_weight("sotu") == 0.5 and P.source_weight("moby-dick") == 1.0


def test_render_and_stats():
    docs = [Document("s", "1", ["One two.", "Three."]), Document("s", "2", ["Four"])]
    assert render(docs) == "One two.\nThree.\n\nFour\n"
    assert P.stats(docs) == {"documents": 2, "lines": 3, "words": 4, "bytes": 22}
    assert render([]) == ""


def test_source_weight():
    assert P.source_weight("sword-text-web") == 0.3
    assert P.source_weight("manpages-dev-code") == 0.3
    assert P.source_weight("nlp-corpus") == 1.0


def test_fetch_data_fetches_every_tool_package():
    script = (Path(__file__).resolve().parents[2] / "scripts/fetch-data.sh").read_text()
    packages = script[script.index("DEB_PKGS=("):].split("\n)", 1)[0].split()
    for pkg in manpages.TOOL_MAN_PACKAGES:
        assert pkg in packages, pkg


def test_ding_keeps_whole_english_sentences(tmp_path):
    lines = [
        "# Version :: 1.9",
        "Danke für Ihre Hilfe. :: Thanks for your help. | Thank you {adv} for your help [coll.].",
        "Bescheid geben :: Should you need anything, (then) please let me know.; Do tell me!",
        "Haus {n} | Häuser {pl} :: house | houses",                       # headwords
        "jdm. helfen :: to help sb. | Can you help sb/sth?",              # templates
        "Ärger :: I was so sorry to bother / trouble you.",              # alternatives
        "Fortsetzung :: And so on \u2026",                                 # cut off
        "Bis bald! :: See you soon! | Hi.",                               # too short
        "Doppelt :: Thanks for your help.",                               # seen before
    ]
    path = tmp_path / ding.DICTIONARY
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    docs = list(ding.extract_ding(tmp_path))
    assert [(d.source, d.doc_id) for d in docs] == [("ding-sentences", "00000")]
    assert docs[0].lines == ["Thanks for your help.", "Thank you for your help.",
                             "Should you need anything, please let me know.", "Do tell me!",
                             "See you soon!"]


def test_ding_refuses_a_file_without_sentences(tmp_path):
    path = tmp_path / ding.DICTIONARY
    path.parent.mkdir(parents=True)
    path.write_text("Haus {n} :: house\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no English sentences"):
        list(ding.extract_ding(tmp_path))


FREEDROID_LUA = r"""
return {
	EveryTime = function()
		Tux:says_random(_"Hello.", _"Hi there.", "NO_WAIT")
		Npc:says(_"I'm sorry %s, I'm afraid I can't do that.")
	end,
	{
		id = "node0",
		text = _"help",
		code = function()
			Npc:says(_"There is also the [b]476[/b] droid.\nDon't tell \"anyone\", please!")
			Tux:says(_"(Nod.)")
			Npc:says(_"Appointments and visiting hours")
		end,
	},
}
"""


def test_freedroid_keeps_the_dialogue_strings(tmp_path):
    assert game_dialogue.freedroid_lines(FREEDROID_LUA) == [
        "Hello.", "Hi there.",                           # "NO_WAIT" is not translatable text
        "There is also the 476 droid.",                  # markup removed, \n splits
        'Don\'t tell "anyone", please!',                 # escapes read
        "Appointments and visiting hours",               # three words, no full stop
    ]  # out: the placeholder (%s), a command word ("help"), an action in parentheses
    folder = tmp_path / game_dialogue.FREEDROID_DATA / "storyline/act1/dialogs"
    folder.mkdir(parents=True)
    (folder / "Tom.lua").write_text(FREEDROID_LUA, encoding="utf-8")
    (folder.parent / "levels.lua").write_text('_"Not a dialogue at all."', encoding="utf-8")
    docs = list(game_dialogue.extract_freedroid(tmp_path))
    assert [(d.source, d.doc_id, len(d.lines)) for d in docs] == [
        ("freedroid-dialogue", "storyline/act1/dialogs/Tom", 5)]


ENDLESS_SKY_MISSION = """mission "Talk"
	on offer
		conversation
			`You find Tomek among the fleet.`
			`	"Captain <last>! How is your ship?"`
			choice
				`	"Just fine, thanks."`
					accept
				`	(Ignore him.)`
			`	"It is very [rare, exceptional] here," he says.`
	npc
		dialog `Not in a conversation.`
mission "Second"
	on complete
		conversation
			`"See you soon."`
"""


def test_endless_sky_keeps_the_conversations_lines(tmp_path):
    assert game_dialogue.endless_sky_conversations(ENDLESS_SKY_MISSION) == [
        ["You find Tomek among the fleet.", '"Just fine, thanks."'], ['"See you soon."']]
    folder = tmp_path / game_dialogue.ENDLESS_SKY_DATA / "human"
    folder.mkdir(parents=True)
    (folder / "free worlds start.txt").write_text(ENDLESS_SKY_MISSION, encoding="utf-8")
    docs = list(game_dialogue.extract_endless_sky(tmp_path))
    assert [(d.source, d.doc_id) for d in docs] == [
        ("endless-sky-conversations", "human/free-worlds-start-000"),
        ("endless-sky-conversations", "human/free-worlds-start-001")]


def test_game_dialogue_refuses_a_package_without_it(tmp_path):
    with pytest.raises(ValueError, match="no dialogue files"):
        list(game_dialogue.extract_freedroid(tmp_path))
    data = tmp_path / game_dialogue.ENDLESS_SKY_DATA
    data.mkdir(parents=True)
    (data / "ships.txt").write_text('ship "A"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="no conversations"):
        list(game_dialogue.extract_endless_sky(tmp_path))


CATACLYSM_TOPICS = [
    {"type": "talk_topic", "id": "TALK_SMITH",
     "dynamic_line": {"u_male": True, "yes": "Hey, man.  Need anything?",
                      "no": {"gendered_line": "Hello <name_g>.", "relevant_genders": ["npc"]}},
     "responses": [
         {"text": "Where are you from?", "topic": "TALK_SMITH_FROM"},
         {"text": {"str": "Let's talk about something else then."}, "topic": "TALK_NONE",
          "condition": {"npc_has_trait": "SOMETHING"}},
         {"text": "&You hand over the bottle.", "topic": "TALK_DONE"},
         {"text": "Where are you from?", "topic": "TALK_SMITH_FROM"}]},
    {"type": "npc", "id": "smith", "name_suffix": "Not a line at all."},
]


def test_cataclysm_keeps_what_the_characters_say(tmp_path):
    assert game_dialogue.cataclysm_lines(CATACLYSM_TOPICS) == [
        "Hey, man. Need anything?", "Where are you from?",
        "Let's talk about something else then."]
    # out: a placeholder, a stage direction, a repeat, a condition's value, a non-topic
    npcs = tmp_path / game_dialogue.CATACLYSM_DATA / "json/npcs"
    npcs.mkdir(parents=True)
    (npcs / "smith.json").write_text(json.dumps(CATACLYSM_TOPICS), encoding="utf-8")
    (npcs / "TALK_TEST.json").write_text(json.dumps(CATACLYSM_TOPICS), encoding="utf-8")
    (npcs.parent / "items.json").write_text(json.dumps(CATACLYSM_TOPICS), encoding="utf-8")
    docs = list(game_dialogue.extract_cataclysm(tmp_path))
    assert [(d.source, d.doc_id) for d in docs] == [("cataclysm-dialogue", "json/npcs/smith")]
    with pytest.raises(ValueError, match="no talk topics"):
        list(game_dialogue.extract_cataclysm(tmp_path / "empty"))
    (npcs / "broken.json").write_text('[{"type": "talk_topic", ', encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json: not JSON"):
        list(game_dialogue.extract_cataclysm(tmp_path))
