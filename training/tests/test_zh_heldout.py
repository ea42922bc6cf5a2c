"""sources/zh_heldout: the held-out Chinese dev text (Cataclysm's zh_CN catalogue sorted into speech
and written text by the game's JSON, Stellarium's zh_CN descriptions), placeholders and markup
removed, and the overlap with the training text dropped.

Inline samples in the packages' real formats (a .mo built here, JSON objects, description HTML);
neither package is needed.
"""

import json
import struct

from conftest import run_module

from keydecide_train.sources import mo_catalogues, zh_heldout as H


def make_mo(pairs):
    """A GNU .mo file with the given (msgid, msgstr) byte strings."""
    pairs = sorted(pairs)
    n = len(pairs)
    orig_at, trans_at = 28, 28 + 8 * n
    data_at = trans_at + 8 * n
    blob = b""
    tables = [[], []]
    for which in (0, 1):
        for pair in pairs:
            tables[which].append((len(pair[which]), data_at + len(blob)))
            blob += pair[which] + b"\0"
    out = struct.pack("<7I", mo_catalogues.MO_MAGIC, 0, n, orig_at, trans_at, 0, 0)
    for table in tables:
        for length, offset in table:
            out += struct.pack("<2I", length, offset)
    return out + blob


# ---------------------------------------------------------------------------
# Lines
# ---------------------------------------------------------------------------

def test_clean_lines_removes_markup_and_tags_keeps_lines():
    text = "<color_light_green>走吧</color>，天快黑了。\n[$10] 来杯威士忌\n[智力 10][交易] 我懂这个。"
    assert H.clean_lines(text) == ["走吧，天快黑了。", "来杯威士忌", "我懂这个。"]


def test_clean_lines_drops_placeholders_stage_directions_and_identifiers():
    text = "\n".join([
        "嘿，<name_g>，过来！",          # the game fills in a name
        "你好，%1$s。", "有 %s 个。",       # printf
        "{name}来了。",                  # a brace placeholder
        "&你把钱交给他。",                 # a stage direction
        "u_compare_var > 0 测试回应。",    # a test string
        "ok",                           # no Han
        "这是 50%的水。",                  # a percentage is text
        "  我们走着瞧 。 ",                  # normalised like the training text
    ])
    assert H.clean_lines(text) == ["这是 50%的水。", "我们走着瞧。"]


# ---------------------------------------------------------------------------
# Cataclysm
# ---------------------------------------------------------------------------

TALK = [
    {"type": "talk_topic", "id": "TALK_X",
     "dynamic_line": {"u_is_wearing": "badge", "yes": "Nice badge.", "no": {"str": "Hello there."}},
     "responses": [{"text": "[$10] Whiskey", "topic": "TALK_DONE"},
                   {"truefalsetext": {"condition": {"u_has_cash": 1}, "true": "Pay.",
                                      "false": "Leave."}, "topic": "TALK_DONE"}]},
    {"type": "mission_definition", "id": "M", "dialogue": {"offer": "Bring me pipes.\nFifty.",
                                                            "accepted": "Thanks, <name_g>."}},
    {"type": "snippet", "category": "note", "text": [{"id": "n1", "text": "Dear diary, rain."},
                                                      "We ran."]},
    {"type": "BOOK", "id": "b", "description": "Not prose here.",
     "snippet_category": [{"id": "b1", "text": "A worn copy of Emma."}]},
    {"type": "dream", "messages": ["You dream of rabbits."]},
    {"type": "profession", "description": "You were a nurse."},
    {"type": "MONSTER", "description": "Not this set."},
]
ZH = {
    "Nice badge.": "徽章不错。", "Hello there.": "你好啊。", "[$10] Whiskey": "[$10] 来杯威士忌",
    "Pay.": "付钱。", "Leave.": "离开。", "Bring me pipes.\nFifty.": "给我带些钢管来。\n五十根。",
    "Thanks, <name_g>.": "谢谢，<name_g>。", "Dear diary, rain.": "亲爱的日记，下雨了。",
    "We ran.": "我们逃了。", "A worn copy of Emma.": "一本破旧的《爱玛》。",
    "You dream of rabbits.": "你梦见了兔子。", "You were a nurse.": "你曾是一名护士。",
    "Not prose here.": "这里不是。", "Not this set.": "不是这一组。",
}


def test_cataclysm_english_speech_and_written():
    speech, written = H.cataclysm_english(TALK)
    assert speech == ["Nice badge.", "Hello there.", "[$10] Whiskey", "Pay.", "Leave.",
                      "Bring me pipes.\nFifty.", "Thanks, <name_g>."]
    assert written == ["Dear diary, rain.", "We ran.", "A worn copy of Emma.",
                       "You dream of rabbits.", "You were a nurse."]


def test_catalogue_drops_context_plural_and_untranslated():
    mo = make_mo([(b"", b"Content-Type: text/plain; charset=UTF-8\n"),
                  (b"talk\x04Hi.", "嗨。".encode()), (b"%d can\0%d cans", "%d 个罐头".encode()),
                  (b"Untranslated", b"")])
    assert H.catalogue(mo) == {"Hi.": "嗨。", "%d can": "%d 个罐头"}


def write_cataclysm(pkg):
    (pkg / H.CATACLYSM_MO).parent.mkdir(parents=True)
    (pkg / H.CATACLYSM_MO).write_bytes(
        make_mo([(en.encode(), zh.encode()) for en, zh in ZH.items()]
                + [(b"Test line.", "测试回应。".encode())]))
    npcs = pkg / H.CATACLYSM_DATA / "json/npcs"
    npcs.mkdir(parents=True)
    (npcs / "talk.json").write_text(json.dumps(TALK), encoding="utf-8")
    test = [{"type": "talk_topic", "id": "TALK_TEST", "dynamic_line": "Test line."}]
    (npcs / "TALK_TEST.json").write_text(json.dumps(test), encoding="utf-8")
    (pkg / H.CATACLYSM_DATA / "mods/TEST_DATA").mkdir(parents=True)
    (pkg / H.CATACLYSM_DATA / "mods/TEST_DATA/t.json").write_text(json.dumps(test), encoding="utf-8")


def test_extract_cataclysm(tmp_path):
    write_cataclysm(tmp_path)
    dialogue, prose = H.extract_cataclysm(tmp_path)
    assert dialogue == ["徽章不错。", "你好啊。", "来杯威士忌", "付钱。", "离开。", "给我带些钢管来。",
                        "五十根。"]
    assert prose == ["亲爱的日记，下雨了。", "我们逃了。", "一本破旧的《爱玛》。", "你梦见了兔子。",
                     "你曾是一名护士。"]


# ---------------------------------------------------------------------------
# Stellarium
# ---------------------------------------------------------------------------

PAGE = """<h2>蒙古</h2>
<p>蒙古族的星座和宇宙观<em>（Altan Hadaas）</em>从西方文明中继承而来。
它们与周围环境相关。</p>
<table><tr><td>天枢</td><td>鼠年</td></tr></table>
<img src="doloon_burkhan.png" alt="Doloon Burkhan">
<blockquote><p>曾经，有八个孤儿兄弟。</p></blockquote>
<ul><li>The Arctic Sky</li></ul>"""


def test_description_lines_paragraphs_without_tables():
    assert H.description_lines(PAGE) == [
        "蒙古", "蒙古族的星座和宇宙观（Altan Hadaas）从西方文明中继承而来。它们与周围环境相关。",
        "曾经，有八个孤儿兄弟。"]


# ---------------------------------------------------------------------------
# Overlap, dedup, the command
# ---------------------------------------------------------------------------

def test_remove_overlap_exact_and_shared_runs():
    sets = {"a": ["好。", "如果我没记错的话，就是这里。", "全新的句子。"], "b": ["另一句新的话。"]}
    report = H.remove_overlap(sets, ["好。", "他说如果我没记错的话。"])
    assert sets == {"a": ["全新的句子。"], "b": ["另一句新的话。"]}
    assert report == {"a": {"exact": 1, "shared_run": 1}, "b": {"exact": 0, "shared_run": 0}}
    # Seven characters in a row are not enough; the run does not cross punctuation.
    assert H.han_ngrams("如果我没记错的") == set()
    assert H.han_ngrams("如果我没，记错的话呢") == set()


def test_dedup_first_set_keeps_a_line():
    sets = {"a": ["一", "二", "一"], "b": ["二", "三"]}
    H.dedup(sets)
    assert sets == {"a": ["一", "二"], "b": ["三"]}


def test_command_writes_the_sets(tmp_path):
    raw = tmp_path / "deb"
    write_cataclysm(raw / H.CATACLYSM_PKG)
    page = raw / H.STELLARIUM_PKG / H.STELLARIUM_DATA / "skycultures/mongolian/description.zh_CN.utf8"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE, encoding="utf-8")
    train = tmp_path / "train"
    train.mkdir()
    (train / "t.txt").write_text("离开。\n\n他们的文化从西方文明中继承。\n", encoding="utf-8")
    out = tmp_path / "out"
    done = run_module("sources.zh_heldout", "--raw", str(raw), "--out", str(out),
                      "--train", str(train), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "cataclysm_dialogue: dropped 1 lines" in done.stdout
    assert (out / "cataclysm_dialogue.txt").read_text(encoding="utf-8").split("\n")[:4] == [
        "徽章不错。", "你好啊。", "来杯威士忌", "付钱。"]
    assert "离开。" not in (out / "cataclysm_dialogue.txt").read_text(encoding="utf-8")
    # The paragraph sharing 从西方文明中继承 (8 Han characters) with the training text is gone.
    assert (out / "stellarium.txt").read_text(encoding="utf-8") == "蒙古\n曾经，有八个孤儿兄弟。\n"
    assert "stellarium: dropped 0 lines found in" in done.stdout
    assert "and 1 sharing 8 Han characters" in done.stdout
    assert (out / "cataclysm_prose.txt").read_text(encoding="utf-8").startswith("亲爱的日记")
