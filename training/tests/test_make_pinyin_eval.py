"""make_pinyin_eval: input validation, reading choice, segmentation DP, runs, TSV format.

Inline fixtures only: a few jieba-style counts and sc.dict-style readings written to tmp_path.
"""

import math
import re
import sys

import pytest

from keydecide_train import make_pinyin_eval as M

COUNTS = """\
我们 5000 r
的 20000 uj
中国 3000 ns
中 800 f
国 600 n
国人 400 n
人 900 n
银行 700 n
行长 300 n
行 500 v
长 400 a
女儿 200 n
绿色 100 n
没有读音 50 n
"""

# sc.dict.txt style: "word pin'yin score", score a log-probability per reading of a character.
READINGS = """\
我 wo 0
们 men 0
我们 wo'men 0
的 de -0.0001
的 di -3.48
中 zhong -0.01
中 zhong4 -2
中国 zhong'guo 0
国 guo 0
国人 guo'ren 0
人 ren 0
银 yin 0
银行 yin'hang 0
行 hang -1.08
行 xing -0.04
行长 hang'zhang 0
长 chang -0.22
长 zhang -0.40
女 nü -0.1
女 ru -3
儿 er 0
女儿 nü'er 0
绿 lü3 0
色 se 0
绿色 lǜ'se 0
好 hao 0
好 hao -1
"""


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def lex(tmp_path):
    counts = write(tmp_path / "jieba.dict.utf8", COUNTS)
    readings = write(tmp_path / "readings.txt", READINGS)
    return counts, readings


@pytest.fixture
def seg(lex):
    counts, readings = lex
    return M.Segmenter(M.load_counts(counts), M.load_readings(readings)[0])


# ---------------------------------------------------------------------------
# Readings
# ---------------------------------------------------------------------------

def test_toneless_and_u_umlaut_as_v():
    assert [M.toneless(s) for s in ("nü", "lǚ", "Lǜ", "lu:3", "nv", "zhōng", "zhong4", "ÜE")] == \
        ["nv", "lv", "lv", "lv", "nv", "zhong", "zhong", "ve"]


def test_most_frequent_reading_wins(lex):
    readings, unusable = M.load_readings(lex[1])
    assert readings["的"] == ["de"]
    assert readings["行"] == ["xing"]      # -0.04 beats -1.08
    assert readings["长"] == ["chang"]
    assert readings["中"] == ["zhong"]     # "zhong4" is the same syllable, lower score
    assert readings["好"] == ["hao"]       # a tie: the first line
    assert readings["女儿"] == ["nv", "er"]
    assert readings["绿色"] == ["lv", "se"]
    assert unusable == 0


def test_reading_with_wrong_syllable_count_unused(tmp_path):
    readings, unusable = M.load_readings(write(tmp_path / "r.txt", "中国 zhongguo 0\n中 zhong 0\n"))
    assert "中国" not in readings and readings["中"] == ["zhong"]
    assert unusable == 1


@pytest.mark.parametrize("text, what", [
    ("中 zhong 0\n中国 zhong'guo\n", "2: expected 'word pin'yin count'"),
    ("中 zhong 0\n中国 zhong'guo x\n", "2: expected"),
    ("中国 zhong''guo 0\n", "1: reading"),
    ("中国 zhong'gu-o 0\n", "1: reading"),
])
def test_malformed_readings_name_file_and_line(tmp_path, text, what):
    path = write(tmp_path / "r.txt", text)
    with pytest.raises(M.InputError, match=re.escape(f"{path}:{what}")):
        M.load_readings(path)


@pytest.mark.parametrize("text, line", [("中国 12 ns\n中\n", 2), ("中国 many ns\n", 1),
                                        ("中国 1 ns extra\n", 1)])
def test_malformed_counts_name_file_and_line(tmp_path, text, line):
    path = write(tmp_path / "c.txt", text)
    with pytest.raises(M.InputError, match=re.escape(f"{path}:{line}: expected 'word count tag'")):
        M.load_counts(path)


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(M.InputError, match="no such file"):
        M.load_counts(tmp_path / "absent.txt")
    with pytest.raises(M.InputError, match="no entries"):
        M.load_counts(write(tmp_path / "empty.txt", "\n"))
    with pytest.raises(M.InputError, match="not UTF-8"):
        p = tmp_path / "latin1.txt"
        p.write_bytes("中国 1 n\n".encode("gbk"))
        M.load_counts(p)


# ---------------------------------------------------------------------------
# Segmentation
# ---------------------------------------------------------------------------

def test_segmentation_is_max_probability(seg):
    # 中国+人 (3000·900) beats 中+国人 (800·400) and 中+国+人.
    assert seg.segment("中国人") == ["中国", "人"]
    assert seg.segment("我们的中国") == ["我们", "的", "中国"]
    # The DP is exact: compare against brute force over every segmentation.
    def brute(s):
        if not s:
            return 0.0, []
        best = (-math.inf, [])
        for k in range(1, len(s) + 1):
            lp = seg.logp.get(s[:k])
            if lp is not None:
                rest_lp, rest = brute(s[k:])
                if lp + rest_lp > best[0]:
                    best = (lp + rest_lp, [s[:k]] + rest)
        return best
    for text in ("中国人", "银行行长", "我们的中国人", "女儿的绿色"):
        assert sum(seg.logp[w] for w in seg.segment(text)) == pytest.approx(brute(text)[0])


def test_words_read_as_words_and_characters_by_best_reading(seg):
    assert seg.segment("银行行长") == ["银行", "行长"]
    assert seg.syllables("银行行长") == ["yin", "hang", "hang", "zhang"]
    assert seg.syllables("女儿的绿色") == ["nv", "er", "de", "lv", "se"]
    # A character on its own takes its most frequent reading.
    assert seg.syllables("行长行") == ["hang", "zhang", "xing"]


def test_word_without_reading_not_a_segment(tmp_path):
    counts = M.load_counts(write(tmp_path / "c.txt", "银行 700 n\n银 10 n\n行 500 v\n"))
    readings, _ = M.load_readings(write(tmp_path / "r.txt", "银 yin 0\n行 xing 0\n"))
    seg = M.Segmenter(counts, readings)
    assert seg.segment("银行") == ["银", "行"]
    # A readable character without a count still segments (count 1).
    readings, _ = M.load_readings(write(tmp_path / "r2.txt", "银 yin 0\n行 xing 0\n好 hao 0\n"))
    seg = M.Segmenter(counts, readings)
    assert seg.readable("好银行") and seg.segment("好银行") == ["好", "银", "行"]
    assert not seg.readable("银行卡")


# ---------------------------------------------------------------------------
# The whole file
# ---------------------------------------------------------------------------

DEV_A = """\
我们的中国，中国人。
银行行长abc女儿的绿色
我们的中国
没有读音的句子
中国人中国人中国人中国人中国人中国人

女儿的绿色中国
"""
DEV_B = "长长长长长长长长长长长长长长长长长\n行长行长行长\n"


def dev_dir(tmp_path):
    dev = tmp_path / "dev"
    dev.mkdir()
    write(dev / "a.txt", DEV_A)
    write(dev / "b.txt", DEV_B)
    return dev


def test_runs_readings_and_tsv_format(tmp_path, lex):
    counts, readings = lex
    logs = []
    lines = M.make_eval(dev_dir(tmp_path), readings, counts, 100, 1, log=logs.append)
    # Runs split at anything non-Han, 4..16 characters, each once, in corpus order: 中国人
    # is too short, 18 × 中国人 and 17 × 长 too long, the second 我们的中国 a repeat, and
    # the run with 读/音/句/子 (no reading) is skipped.
    assert lines == [
        "我们的中国\twomendezhongguo\two men de zhong guo",
        "银行行长\tyinhanghangzhang\tyin hang hang zhang",
        "女儿的绿色\tnverdelvse\tnv er de lv se",
        "女儿的绿色中国\tnverdelvsezhongguo\tnv er de lv se zhong guo",
        "行长行长行长\thangzhanghangzhanghangzhang\thang zhang hang zhang hang zhang",
    ]
    for line in lines:
        hanzi, letters, syllables = line.split("\t")
        assert re.fullmatch(r"[a-z]+", letters) and letters == syllables.replace(" ", "")
        assert len(syllables.split(" ")) == len(hanzi)
    summary = logs[-1]
    assert "1 skipped for a character without a reading" in summary
    assert "(1 repeats, 1 shorter, 2 longer left out)" in summary
    assert "5 usable; 5 written" in summary


def test_sample_is_seeded_without_duplicates(tmp_path, lex):
    counts, readings = lex
    dev = tmp_path / "dev"
    dev.mkdir()
    words = ["我们", "的", "中国", "银行", "行长", "女儿", "绿色", "人"]
    # 200 distinct readable runs, some repeated.
    runs = ["".join(words[(i >> (3 * k)) % 8] for k in range(3)) + "中国" for i in range(200)]
    write(dev / "x.txt", "\n".join(runs + runs[:50]) + "\n")
    distinct = list(dict.fromkeys(runs))
    one = M.make_eval(dev, readings, counts, 40, 1, log=lambda s: None)
    again = M.make_eval(dev, readings, counts, 40, 1, log=lambda s: None)
    other = M.make_eval(dev, readings, counts, 40, 2, log=lambda s: None)
    assert one == again and one != other
    hanzi = [line.split("\t")[0] for line in one]
    assert len(hanzi) == 40 == len(set(hanzi))
    # Written in corpus order.
    assert hanzi == sorted(hanzi, key=distinct.index)
    everything = M.make_eval(dev, readings, counts, 10_000, 1, log=lambda s: None)
    assert [line.split("\t")[0] for line in everything] == [r for r in distinct if len(r) <= 16]


def test_too_many_letters_skipped(tmp_path):
    counts = write(tmp_path / "c.txt", "双 10 n\n")
    readings = write(tmp_path / "r.txt", "双 shuang 0\n")
    dev = tmp_path / "d.txt"
    write(dev, "双" * 10 + "\n" + "双" * 11 + "\n")  # 60 letters, 66 letters
    logs = []
    lines = M.make_eval(dev, readings, counts, 10, 1, log=logs.append)
    assert [line.split("\t")[0] for line in lines] == ["双" * 10]
    assert "1 for more than 64 letters" in logs[-1]


def test_falls_back_to_sc_dict(tmp_path, lex):
    counts, readings = lex
    sc = tmp_path / "sc.dict.txt"
    readings.rename(sc)
    logs = []
    lines = M.make_eval(dev_dir(tmp_path), tmp_path / "readings.txt", counts, 100, 1, log=logs.append)
    assert lines and any("using" in s and "sc.dict.txt" in s for s in logs)


def test_main_writes_file_and_reports_bad_input(tmp_path, lex, monkeypatch, capsys):
    counts, readings = lex
    out = tmp_path / "out/pinyin_dev.tsv"
    argv = ["make_pinyin_eval.py", "--dev", str(dev_dir(tmp_path)), "--readings", str(readings),
            "--counts", str(counts), "--out", str(out), "--max-lines", "2"]
    monkeypatch.setattr(sys, "argv", argv)
    assert M.main() == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("\n") == 2 and text.endswith("\n")

    write(counts, "我们 5000 r\n的 lots uj\n")
    assert M.main() == 1
    assert f"{counts}:2: expected 'word count tag'" in capsys.readouterr().err
    monkeypatch.setattr(sys, "argv", argv[:2] + [str(tmp_path / "nodev")] + argv[3:])
    assert M.main() == 1
    assert "nodev: no such file" in capsys.readouterr().err
