"""zh_tokens.py and zh_data.py: segmentation -> token ids, readings, latin runs, the cache.

Inline fixtures only (tiny_zh_corpus.py: sentences, counts and readings written for it)."""

import json
import random

import pytest

np = pytest.importorskip("numpy", reason="numpy is not importable")

from keydecide_train import tiny_zh_corpus as C  # noqa: E402
from keydecide_train import tokens as T  # noqa: E402
from keydecide_train import zh_data  # noqa: E402
from keydecide_train import zh_tokens as Z  # noqa: E402
from zh_fixtures import tiny_zh_config, tiny_zh_data  # noqa: E402,F401


@pytest.fixture(scope="module")
def tok():
    return Z.ZhTokenizer.from_text(C.counts_text(), C.readings_text())


@pytest.fixture(scope="module")
def corpus(tiny_zh_data, tiny_zh_config):
    return zh_data.Corpus(tiny_zh_data / "cache", "train", tiny_zh_config)


def test_segmentation_of_han_runs(tok):
    toks, runs = tok.line_tokens("我们的老师说明天下雨。")
    # The most probable segmentation (not 说明).
    assert toks == ["我们", "的", "老师", "说", "明天", "下雨", "。"]
    assert runs == []
    assert tok.segment_han("中国人民银行") == ["中国", "人民", "银行"]
    # A character without a reading stands alone; the readable parts around it segment.
    assert tok.segment_han("我们龘中国") == ["我们", "龘", "中国"]


def test_readings_are_the_most_frequent_toneless(tok):
    assert tok.reading("中国") == "zhong'guo"
    assert tok.reading("的") == "de"  # de -0.0001 beats di -3.48
    assert tok.reading("行") == "xing" and tok.reading("银行") == "yin'hang"
    assert tok.reading("git") == "" and tok.reading("。") == "" and tok.reading("龘") == ""


def test_mixed_lines_and_latin_runs(tok):
    toks, runs = tok.line_tokens("请运行 Python3 脚本 build.py，或者 --help")
    assert toks[:7] == ["请", "运行", "python", "<num>", "脚本", "build", "."]
    texts = {text: (i, n) for i, n, text in runs}
    assert texts["python3"] == (2, 2) and texts["build.py"] == (5, 3)
    assert texts["--help"][1] == 3 and toks[texts["--help"][0]:][:3] == ["-", "-", "help"]
    # A URL is one token and never cut into latin runs; an e-mail address neither.
    toks, runs = tok.line_tokens("访问 https://www.example.org/docs 或 mail me@example.com。")
    assert "\x01Uhttps://www.example.org/docs" in toks and "\x01Eme@example.com" in toks
    assert [r[2] for r in runs] == ["mail"]
    # Trailing dots and dashes end a run; a run needs a letter.
    _, runs = tok.line_tokens("版本 2.6.32 和 linux-doc-。")
    assert [r[2] for r in runs] == ["linux-doc"]
    assert tok.context_tokens("打开 www.example.org 网站")[:2] == ["打开", "<url>"]


def test_cache_vocabulary_and_ids(corpus, tiny_zh_data, tiny_zh_config, tok):
    assert corpus.words[:4] == T.WORD_SPECIALS
    assert corpus.words[4] == "的" or corpus.words[4] == "。"  # most frequent first
    assert {"我们", "中国", "git", "python", "。"} <= set(corpus.words)
    # Readings line up with the strings, vocabulary first.
    assert len(corpus.readings) == len(corpus.strings)
    for w, r in zip(corpus.words, corpus.word_pinyin()):
        assert r == tok.reading(w)
    # The first paragraph of "docs" decodes to its segmentation.
    src = next(s for s in corpus.sources if s.name == "docs")
    first = src.ids[src.para_start[0]:src.para_start[1]]
    assert [corpus.strings[i] for i in first] == ["我们", "今天", "学习", "中国", "的", "历史",
                                                  "。"]
    assert src.para_docstart.tolist().count(0) == 10  # ten paragraphs in the first document
    # Targets are the Chinese words with a reading; latin runs point at their tokens.
    assert all(corpus.readings[src.ids[p]] for p in src.target_pos)
    found = {}
    for p, n, lid in zip(src.latin_pos, src.latin_ntok, src.latin_id):
        found[corpus.latin[lid]] = [corpus.strings[i] for i in src.ids[p:p + n]]
    assert found["git"] == ["git"] and found["push"] == ["push"]
    assert found["config.json"] == ["config", ".", "json"]
    assert found["apt-get"] == ["apt", "-", "get"]
    assert "s" not in found  # shorter than min_latin_keys (Ctrl+S)
    meta = json.loads((tiny_zh_data / "cache" / "meta.json").read_text())
    assert meta["signature"]["language"] == "zh"
    assert set(meta["signature"]["inputs"]) == {"train/docs.txt", "train/help.txt", "dev/docs.txt",
                                               "lexicon/jieba.dict.utf8", "lexicon/readings.txt"}
    dev = zh_data.Corpus(tiny_zh_data / "cache", "dev", tiny_zh_config)
    assert [s.name for s in dev.sources] == ["docs"] and dev.words == corpus.words


def test_cache_rebuilds_when_an_input_changes(tmp_path, tiny_zh_config):
    from keydecide_train.tiny_zh_corpus import write_tiny_zh_data
    root = write_tiny_zh_data(tmp_path / "data")
    said = []
    zh_data.ensure_cache(root, tiny_zh_config, log=said.append)
    zh_data.ensure_cache(root, tiny_zh_config, log=said.append)
    assert any("up to date" in s for s in said)
    with open(root / "lexicon" / "jieba.dict.utf8", "a", encoding="utf-8") as f:
        f.write("中国人民银行 100000 nt\n")
    with open(root / "lexicon" / "readings.txt", "a", encoding="utf-8") as f:
        f.write("中国人民银行 zhong'guo'ren'min'yin'hang 0\n")
    said.clear()
    zh_data.ensure_cache(root, tiny_zh_config, log=said.append)
    assert any("rebuilding" in s for s in said)
    c = zh_data.Corpus(root / "cache", "train", tiny_zh_config)
    assert "中国人民银行" in c.words  # one word now, no longer 中国 人民 银行
    # A copied cache alone (no text) is used as it is.
    for p in (root / "train").glob("*.txt"):
        p.unlink()
    said.clear()
    zh_data.ensure_cache(root, tiny_zh_config, log=said.append)
    assert any("no text" in s for s in said)


def test_readings_fall_back_to_sc_dict(tmp_path, tiny_zh_config):
    from keydecide_train.tiny_zh_corpus import write_tiny_zh_data
    root = write_tiny_zh_data(tmp_path / "data")
    (root / "lexicon" / "readings.txt").rename(root / "lexicon" / "sc.dict.txt")
    said = []
    zh_data.ensure_cache(root, tiny_zh_config, log=said.append)
    assert any("sc.dict.txt" in s for s in said)
    c = zh_data.Corpus(root / "cache", "train", tiny_zh_config)
    assert "中国" in c.words


def test_export_metadata(corpus):
    meta = zh_data.export_metadata(corpus)
    assert meta["language"] == "zh"
    lines = meta["pinyin"].split("\n")
    assert len(lines) == len(corpus.words)
    assert lines[corpus.words.index("中国")] == "zhong'guo"
    assert lines[corpus.words.index("git")] == "" and lines[:4] == ["", "", "", ""]
    with pytest.raises(ValueError):
        Z.pinyin_metadata(["zhong'guo", "zhōng"])


def test_config_must_name_the_zh_intent_labels(tiny_zh_data, tiny_zh_config):
    cfg = json.loads(json.dumps(tiny_zh_config))
    cfg["model"].pop("intent_labels")
    with pytest.raises(ValueError, match="intent_labels"):
        zh_data.Corpus(tiny_zh_data / "cache", "train", cfg)


def test_sampler_draws_both_intents(corpus, tiny_zh_config):
    sampler = zh_data.ExampleSampler(corpus, zh_data.make_simulator(tiny_zh_config), tiny_zh_config)
    rng = random.Random(3)
    intents = [sampler.sample(rng).intent for _ in range(400)]
    share = intents.count(Z.INTENT_LABELS.index("latin")) / len(intents)
    assert 0.05 < share < 0.3  # intent_mix latin 0.15
