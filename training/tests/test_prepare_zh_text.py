"""prepare_zh_text: normalisation, markup stripping, .mo parsing, dedup, split by document.

Inline fixtures only (no corpus text): a tiny fake data/zh/raw tree built in tmp_path.
"""

import json
import shutil
import struct

import pytest

from keydecide_train import prepare_zh_text as Z, zh_text
from keydecide_train.sources import mo_catalogues, zh_manpages, zh_pages
from keydecide_train.text import Document, is_dev


# ---------------------------------------------------------------------------
# Normalisation
# ---------------------------------------------------------------------------

def test_normalize_full_width_and_spaces():
    # Full-width letters, digits and symbols -> ASCII; Chinese punctuation stays full-width.
    assert zh_text.normalize_zh_line("使用ＡＢＣ１２３＃和％") == "使用ABC123#和%"
    assert zh_text.normalize_zh_line("你好，世界！对吗？（是）：；") == "你好，世界！对吗？（是）：；"
    # Half-width CJK punctuation -> full-width.
    assert zh_text.normalize_zh_line("｢引号｣､句号｡") == "「引号」、句号。"
    # Ideographic space and line-joining spaces between CJK characters disappear; spaces
    # between Han and Latin stay (single).
    assert zh_text.normalize_zh_line("\u3000中文 文本\n继续  使用 ls  命令 。") == "中文文本继续使用 ls 命令。"
    assert zh_text.normalize_zh_line("打开“文件” 菜单") == "打开“文件”菜单"


def test_normalize_nfc_and_invisible():
    # U+F900 (CJK compatibility ideograph) becomes its unified ideograph under NFC;
    # e + combining acute composes; zero-width and control characters are dropped.
    assert zh_text.normalize_zh_line("\uf900e\u0301\u200b\x07字") == "\u8c48\u00e9字"


def test_document_keeps_han_lines_only():
    doc = zh_text.normalize_zh_document(Document("s", "d", ["only ascii", "中文", "  ", "mixed 中 text"]))
    assert doc.lines == ["中文", "mixed 中 text"]
    assert zh_text.han_count("a中b文〇𠀀") == 4


# ---------------------------------------------------------------------------
# Markup
# ---------------------------------------------------------------------------

HTML_PAGE = """<!DOCTYPE html><html><head><title>标题不要</title><script>var x = "脚本";</script></head>
<body><header id="TopLeftHeader"><p>帮助页眉</p></header>
<aside class="leftside"><div class="index-label">索引</div><input placeholder="搜索"></aside>
<div class="navheader">上一页 下一页</div>
<h1>第一章 简介</h1>
<p>这是<b>第一</b>段，
包含换行。</p>
<pre>$ ls 代码块</pre>
<ul><li>列表项&amp;实体</li></ul>
</body></html>"""


def test_html_markup_stripped():
    paragraphs = zh_pages.page_paragraphs(HTML_PAGE, xml=False)
    assert paragraphs == ["第一章 简介", "这是第一段， 包含换行。", "列表项&实体"]
    lines = zh_text.normalize_zh_document(Document("s", "d", paragraphs)).lines
    assert lines == ["第一章简介", "这是第一段，包含换行。", "列表项&实体"]


MALLARD_PAGE = """<?xml version="1.0" encoding="utf-8"?>
<page xmlns="http://projectmallard.org/1.0/" type="topic" id="x">
  <info><link type="guide" xref="index"/><credit><name>作者名字</name></credit></info>
  <title>更改壁纸</title>
  <p>按 <keyseq><key>Ctrl</key><key>C</key></keyseq> 复制。</p>
  <steps><item><p>打开<gui>设置</gui>。</p></item></steps>
  <screen>代码 屏幕</screen>
</page>"""


def test_mallard_markup_stripped():
    assert zh_pages.page_paragraphs(MALLARD_PAGE, xml=True) == ["更改壁纸", "按 Ctrl+C 复制。", "打开设置。"]


def test_one_page_manual_split_into_chapters(tmp_path):
    (tmp_path / "manual.html").write_text(
        '<html><body><p>前言内容</p><h2 class="title">第一章</h2><p>第一章内容</p>'
        '<h2 class="title">第二章</h2><p>第二章内容</p></body></html>', encoding="utf-8")
    docs = list(zh_pages.chapter_documents("edu", tmp_path, "*.html"))
    assert [d.doc_id for d in docs] == ["manual.html#00", "manual.html#01", "manual.html#02"]
    assert [d.lines for d in docs] == [["前言内容"], ["第一章", "第一章内容"], ["第二章", "第二章内容"]]


MAN_PAGE = r""".\" 注释不要
.TH LS 1 2022 "GNU coreutils" 用户命令
.SH 名称
ls \- 列出目录内容
.SH 概述
\fBls\fP [\fI选项\fP]...
.SH 描述
列出指定\fB文件\fR的信息，
如果没有指定则按字母排序。
.TP
\fB\-a\fP, \fB\-\-all\fP
不要忽略以点号起始的条目
.SH 参见
\fBdir\fP(1)
"""


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_man_page_rendered_without_markup():
    prose = zh_manpages.man_prose(MAN_PAGE)
    lines = zh_text.normalize_zh_document(Document("manpages-zh", "man1/ls.1", prose)).lines
    assert lines == ["ls - 列出目录内容", "列出指定文件的信息，如果没有指定则按字母排序。",
                     "不要忽略以点号起始的条目"]
    text = "\n".join(prose)
    for gone in ("注释", "用户命令", "名称", "选项", "dir(1)", "\\f"):
        assert gone not in text


def test_man_alias_page_is_empty():
    assert zh_manpages.man_prose('.\\" alias\n.so man1/ls.1\n') == []


# ---------------------------------------------------------------------------
# .mo catalogues
# ---------------------------------------------------------------------------

def make_mo(pairs, order="<"):
    """A GNU .mo file with the given (msgid, msgstr) byte strings, ids sorted."""
    pairs = sorted(pairs)
    n = len(pairs)
    header = 7 * 4
    orig_at, trans_at = header, header + 8 * n
    data_at = trans_at + 8 * n
    blob = b""
    tables = [[], []]
    for which in (0, 1):
        for pair in pairs:
            s = pair[which]
            tables[which].append((len(s), data_at + len(blob)))
            blob += s + b"\0"
    out = struct.pack(order + "7I", mo_catalogues.MO_MAGIC, 0, n, orig_at, trans_at, 0, 0)
    for table in tables:
        for length, offset in table:
            out += struct.pack(order + "2I", length, offset)
    return out + blob


MO_PAIRS = [
    (b"", "Content-Type: text/plain; charset=UTF-8\n".encode()),
    (b"_Open", "打开(_O)".encode()),
    (b"menu\x04File", "_文件".encode()),
    (b"%d file\0%d files", "%d 个文件\0%d 个文件们".encode()),
    (b"<b>Bold</b>\nline two", "<b>粗体</b>\n第二行 ~确定".encode()),
    (b"Untranslated", b""),
]


@pytest.mark.parametrize("order", ["<", ">"])
def test_read_mo_msgstr_only(order):
    strings = mo_catalogues.read_mo(make_mo(MO_PAIRS, order))
    # Header and empty translation left out; plural forms separate; no msgid text.
    assert sorted(strings) == sorted(["打开(_O)", "_文件", "%d 个文件", "%d 个文件们",
                                      "<b>粗体</b>\n第二行 ~确定"])
    assert not any("Open" in s or "Content-Type" in s for s in strings)


def test_mo_lines_strip_accelerators_and_tags():
    lines = mo_catalogues.mo_lines(make_mo(MO_PAIRS))
    assert sorted(lines) == sorted(["打开", "文件", "%d 个文件", "%d 个文件们", "粗体", "第二行 确定"])


def test_read_mo_rejects_bad_files():
    with pytest.raises(ValueError, match="magic"):
        mo_catalogues.read_mo(b"\0" * 40)
    with pytest.raises(ValueError, match="short"):
        mo_catalogues.read_mo(b"\xde\x12\x04\x95")
    good = make_mo(MO_PAIRS)
    with pytest.raises(ValueError, match="outside"):
        mo_catalogues.read_mo(good[:60])


# ---------------------------------------------------------------------------
# Dedup
# ---------------------------------------------------------------------------

def test_dedup_across_and_within_sources():
    docs = [Document("a", "1", ["重复行", "甲", "重复行"]),
            Document("a", "2", ["甲"]),
            Document("b", "1", ["重复行", "乙"])]
    dropped = {}
    out = list(Z.dedup_lines(docs, dropped))
    assert [(d.source, d.doc_id, d.lines) for d in out] == [("a", "1", ["重复行", "甲"]),
                                                           ("b", "1", ["乙"])]
    assert dropped == {"a": 2, "b": 1}


# ---------------------------------------------------------------------------
# The whole step on a tiny raw tree: split by document, determinism, manifest
# ---------------------------------------------------------------------------

FAQ_DIR = "deb/debian-faq-zh-cn/usr/share/doc/debian/FAQ/zh-cn"


N_PAGES = 120  # pages 67 and 116 hash to dev


def build_raw(root, n_pages=N_PAGES):
    raw = root / "raw"
    faq = raw / FAQ_DIR
    faq.mkdir(parents=True)
    (raw / "deb/debian-faq-zh-cn/.done").touch()
    digits = "零一二三四五六七八九"
    for i in range(n_pages):
        num = "".join(digits[int(c)] for c in f"{i:02d}")
        body = "".join(f"<p>第{num}页第{digits[k]}段。</p>" for k in range(3))
        (faq / f"page{i:02d}.zh-cn.html").write_text(
            f"<html><body>{body}<p>每页都有的重复行。</p></body></html>", encoding="utf-8")
    (raw / "local-mo").mkdir()
    (raw / "local-mo/tiny.mo").write_bytes(make_mo(MO_PAIRS))
    (raw / "local-mo/broken.mo").write_bytes(b"not a catalogue at all, no magic")
    return raw


def read_split(data, source):
    return {split: (data / split / f"{source}.txt").read_text(encoding="utf-8")
            if (data / split / f"{source}.txt").exists() else "" for split in ("train", "dev")}


def test_prepare_splits_whole_documents(tmp_path):
    build_raw(tmp_path)
    manifest = Z.prepare(tmp_path, log=lambda s: None)
    text = read_split(tmp_path, "debian-faq-zh-cn")
    digits = "零一二三四五六七八九"
    expected_dev = {i for i in range(N_PAGES) if is_dev("debian-faq-zh-cn", f"page{i:02d}.zh-cn.html")}
    assert expected_dev, "fixture should have a document hashed to dev"
    for i in range(N_PAGES):
        num = "".join(digits[int(c)] for c in f"{i:02d}")
        lines = [f"第{num}页第{digits[k]}段。" for k in range(3)]
        split = "dev" if i in expected_dev else "train"
        other = "train" if split == "dev" else "dev"
        assert all(line in text[split] for line in lines), i  # the whole document ...
        assert not any(line in text[other] for line in lines), i  # ... and only there
    # The line repeated on every page survives once, in the first page's document.
    both = text["train"] + text["dev"]
    assert both.count("每页都有的重复行。") == 1

    faq = manifest["sources"]["debian-faq-zh-cn"]
    assert faq["duplicate_lines_dropped"] == N_PAGES - 1
    assert faq["dev"]["documents"] == len(expected_dev)
    assert faq["train"]["documents"] + faq["dev"]["documents"] == N_PAGES
    han = sum(zh_text.han_count(t) for t in text.values())
    assert faq["train"]["han_chars"] + faq["dev"]["han_chars"] == han
    assert manifest["sources"]["mo-catalogues"]["packages"] == ["local-mo"]
    # Sources whose packages were not fetched are reported, not invented.
    assert "manpages-zh" in manifest["missing_packages"]
    assert "manpages-zh" not in manifest["sources"]
    assert json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8")) == manifest


def test_prepare_is_deterministic(tmp_path):
    build_raw(tmp_path)
    Z.prepare(tmp_path, log=lambda s: None)
    first = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.glob("*/*.txt")}
    first_manifest = (tmp_path / "manifest.json").read_bytes()
    (tmp_path / "train/stale.txt").write_text("旧的", encoding="utf-8")
    Z.prepare(tmp_path, log=lambda s: None)
    second = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.glob("*/*.txt")}
    assert first == second  # stale.txt removed, everything else byte-identical
    assert (tmp_path / "manifest.json").read_bytes() == first_manifest


def test_wesnoth_campaigns_held_out_as_general_dev_text(tmp_path):
    raw = build_raw(tmp_path)
    locale = "usr/share/games/wesnoth/1.16/locale/zh_CN/LC_MESSAGES"
    for pkg, domain, line in [("wesnoth-1.16-httt", "wesnoth-httt", "王子必须逃往西方。"),
                              ("wesnoth-1.16-nr", "wesnoth-nr", "矮人在山下挖到了金子。"),
                              ("wesnoth-1.16-l", "wesnoth-l", "村民们拿起了武器。")]:
        (raw / "deb" / pkg / locale).mkdir(parents=True)
        (raw / "deb" / pkg / ".done").touch()
        (raw / "deb" / pkg / locale / f"{domain}.mo").write_bytes(
            make_mo([(b"", b"Content-Type: text/plain; charset=UTF-8\n"),
                     (b"line", line.encode())]))
    manifest = Z.prepare(tmp_path, log=lambda s: None)
    general = (tmp_path / "general/wesnoth.txt").read_text(encoding="utf-8")
    train = (tmp_path / "train/wesnoth.txt").read_text(encoding="utf-8")
    assert "王子必须逃往西方。" in general and "矮人在山下挖到了金子。" in general
    assert "村民们拿起了武器。" in train and "村民们拿起了武器。" not in general
    assert "王子" not in train
    # Never in the technical dev files, nor read a second time as a translation catalogue.
    assert not (tmp_path / "dev/wesnoth.txt").exists()
    for path in tmp_path.glob("*/mo-catalogues.txt"):
        assert "王子" not in path.read_text(encoding="utf-8")
    entry = manifest["sources"]["wesnoth"]
    assert entry["general"]["documents"] == 2 and entry["train"]["documents"] == 1
    assert entry["dev"]["documents"] == 0
    assert "wesnoth-1.16-httt" not in manifest["sources"]["mo-catalogues"]["packages"]
