"""keydecide_train.misspellings: edits learned from real misspellings, applied to any word;
and the simulator's two new noises (learned misspellings, contractions without apostrophes)."""

import random

import pytest

from keydecide_train.misspellings import EditModel, _alignment, _edits


def distance(a: str, b: str) -> int:
    """Plain optimal-string-alignment distance (the reference for the alignment)."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


PAIRS = [("recieve", "receive"), ("beleive", "believe"), ("ocurred", "occurred"),
         ("tommorrow", "tomorrow"), ("seperate", "separate"), ("definately", "definitely"),
         ("wierd", "weird"), ("untill", "until"), ("begining", "beginning"),
         ("accomodate", "accommodate"), ("enviroment", "environment"), ("adress", "address")]


def test_edits_name_the_patterns():
    assert _edits("recieve", "receive") == [("swap", "ei", "")]
    assert _edits("ocurred", "occurred") == [("undouble", "c", "")]
    assert _edits("untill", "until") == [("double", "l", "")]
    assert _edits("seperate", "separate") == [("sub", "a", "e")]
    assert _edits("enviroment", "environment") == [("del", "o", "n")]


def test_alignment_is_optimal():
    rng = random.Random(3)
    for _ in range(2000):
        a = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 7)))
        b = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 7)))
        assert len(_alignment(a, b)) == distance(a, b), (a, b)


def test_misspellings_follow_the_pairs_and_are_no_words():
    model = EditModel.from_pairs(PAIRS)
    words = {"receive", "recede", "deceive", "relieve"}
    rng = random.Random(7)
    made = [model.misspell("receive", rng, words.__contains__) for _ in range(300)]
    assert all(m is None or (m != "receive" and m not in words) for m in made)
    assert all(m is None or 1 <= distance(m, "receive") <= 2 for m in made)
    assert "recieve" in made  # the pairs' own swap
    # Learned patterns reach words no pair has: a double letter dropped, ei/ie.
    assert "ocasion" in [model.misspell("occasion", rng) for _ in range(300)]
    assert "cieling" in [model.misspell("ceiling", rng) for _ in range(300)]
    # Deterministic for a seed; nothing for words too short, or not letters.
    assert [model.misspell("believe", random.Random(1)) for _ in range(3)] == \
        [model.misspell("believe", random.Random(1)) for _ in range(3)]
    assert model.misspell("an", rng) is None and model.misspell("don't", rng) is None


def test_an_empty_model_makes_nothing():
    assert EditModel.from_pairs([]).misspell("receive", random.Random(1)) is None


np = pytest.importorskip("numpy", reason="numpy is not importable")

from keydecide_train import dataset as D  # noqa: E402
from keydecide_train.typing_sim import TypingSimulator  # noqa: E402


def simulator(tiny_config, corpus, **noise):
    cfg = {**tiny_config["data"], "noise": {**tiny_config["data"]["noise"], **noise}}
    edit = EditModel.from_pairs(PAIRS)
    return TypingSimulator(cfg, None, {}, 64, edit_model=edit,
                           is_word=set(corpus.strings).__contains__)


def test_contractions_lose_their_apostrophe(tiny_data, tiny_config):
    corpus = D.Corpus(tiny_data / "cache", "train", tiny_config)
    sim = simulator(tiny_config, corpus, apostrophe_omission_prob=1.0, clean_prob=1.0)
    ex = sim.example([], "don't", 0, "nlp-corpus", random.Random(1))
    assert ex.typed == "dont" and ex.typed_wrong and ex.target == "don't"
    sim = simulator(tiny_config, corpus, apostrophe_omission_prob=0.0, clean_prob=1.0)
    assert sim.example([], "don't", 0, "nlp-corpus", random.Random(1)).typed == "don't"


def test_learned_misspellings_in_sessions(tiny_data, tiny_config):
    corpus = D.Corpus(tiny_data / "cache", "train", tiny_config)
    sim = simulator(tiny_config, corpus, learned_typo_prob=1.0, clean_prob=1.0,
                    typo_extra_noise_prob=0.0)
    rng = random.Random(2)
    typed = [sim.example([], "believe", 0, "nlp-corpus", rng) for _ in range(50)]
    assert all(ex.target == "believe" for ex in typed)
    wrong = [ex for ex in typed if ex.typed_wrong]
    assert len(wrong) >= 40 and all(ex.kind == "misspelling" for ex in wrong)
    assert all(ex.typed not in corpus.strings for ex in wrong)


def test_the_heldout_slice_stays_out_of_training(tmp_path, tiny_data, tiny_config):
    from keydecide_train.sources.typos import typo_slice
    held = [w for w in ("wether", "tommorow", "tomorow") if typo_slice(w) == 1]
    cfg = {**tiny_config, "data": {**tiny_config["data"], "heldout_typo_slice": 1}}
    import shutil
    data = tmp_path / "data"
    shutil.copytree(tiny_data, data, ignore=shutil.ignore_patterns("cache"))
    D.ensure_cache(data, cfg, log=lambda _: None, workers=1)
    corpus = D.Corpus(data / "cache", "train", cfg)
    kept = {w for ws in corpus.typos.values() for w in ws}
    assert not kept & set(held)
    every = D.Corpus(tiny_data / "cache", "train", tiny_config)
    assert {w for ws in every.typos.values() for w in ws} - kept == set(held)
