"""zh_typing.py: pinyin keystrokes of a word, abbreviations, unfinished syllables, fuzzy
pinyin and slips, latin sessions, and the sampled examples against the contract."""

import copy
import random

import pytest

np = pytest.importorskip("numpy", reason="numpy is not importable")

from keydecide_train import tokens as T  # noqa: E402
from keydecide_train import zh_data  # noqa: E402
from keydecide_train import zh_tokens as Z  # noqa: E402
from keydecide_train import zh_typing as ZT  # noqa: E402
from keydecide_train.typing_sim import IGNORE, batch_arrays  # noqa: E402
from zh_fixtures import tiny_zh_config, tiny_zh_data  # noqa: E402,F401

NO_PLAN = {"abbrev_prob": 0.0, "mixed_abbrev_prob": 0.0, "unfinished_prob": 0.0,
           "full_initial_prob": 0.0, "apostrophe_prob": 0.0, "fuzzy_prob": 0.0,
           "latin_slip_scale": 0.5}


def sim_with(cfg, pinyin=None, clean=True, **noise):
    data = copy.deepcopy(cfg["data"])
    data["pinyin"].update(pinyin or {})
    if clean:
        data["noise"]["clean_prob"] = 1.0
    data["noise"].update(noise)
    return zh_data.make_simulator({"data": data, "model": cfg["model"]})


def keys_of(ex):
    return "".join("'" if t == T.CHAR_APOSTROPHE else "#" if t == T.CHAR_OTHER
                   else chr(t - T.CHAR_BASE + ord("a")) for t in ex.tokens[ex.sep_pos + 1:])


def test_full_pinyin_letter_by_letter(tiny_zh_config):
    sim = sim_with(tiny_zh_config, NO_PLAN)
    ex = sim.prose_example([10, 11], ["zhong", "guo"], 42, random.Random(1))
    assert ex.tokens[:2] == [T.BOS, ex.app] and ex.tokens[2:4] == [T.WORD_OFFSET + 10,
                                                                   T.WORD_OFFSET + 11]
    assert ex.tokens[ex.sep_pos] == T.SEP and keys_of(ex) == "zhongguo"
    assert ex.target == ex.typed == "zhongguo" and not ex.typed_wrong and ex.kind == "full"
    assert ex.word == 42 and ex.intent == Z.INTENT_LABELS.index("prose")
    assert all(1 <= b <= 7 for b in ex.buckets[ex.sep_pos + 1:])
    assert ex.buckets[:ex.sep_pos + 1] == [0] * (ex.sep_pos + 1)


def test_plans():
    rng = random.Random(0)
    p = dict(NO_PLAN)
    assert ZT.plan_keys(["zhong", "guo"], rng, {**p, "abbrev_prob": 1.0}).keys == "zg"
    assert ZT.plan_keys(["zhong", "guo"], rng, {**p, "abbrev_prob": 1.0,
                                                 "full_initial_prob": 1.0}).keys == "zhg"
    assert ZT.plan_keys(["wo", "men"], rng, {**p, "abbrev_prob": 1.0}).keys == "wm"
    # A single syllable is never abbreviated; it may be unfinished.
    assert ZT.plan_keys(["de"], rng, {**p, "abbrev_prob": 1.0}).keys == "de"
    for _ in range(20):
        plan = ZT.plan_keys(["zhong", "guo"], rng, {**p, "unfinished_prob": 1.0})
        assert plan.kind == "unfinished" and plan.keys in ("zhongg", "zhonggu")
        plan = ZT.plan_keys(["zhong", "guo"], rng, {**p, "mixed_abbrev_prob": 1.0})
        assert plan.kind == "mixed" and plan.keys in ("zhongg", "zguo")
    assert ZT.plan_keys(["xi", "an"], rng, {**p, "apostrophe_prob": 1.0}).keys == "xi'an"
    assert ZT.plan_keys(["ren", "min"], rng, {**p, "apostrophe_prob": 1.0}).keys == "renmin"
    assert ZT.full_keys(["fang", "an"], [False, True]) == "fang'an"


def test_fuzzy_pinyin():
    rng = random.Random(0)
    seen = {ZT.fuzzy_syllable("zhang", rng) for _ in range(50)}
    assert seen == {"zang", "zhan"}
    assert {ZT.fuzzy_syllable("sin", rng) for _ in range(50)} == {"shin", "sing"}
    assert {ZT.fuzzy_syllable("lan", rng) for _ in range(50)} == {"nan", "lang"}
    assert ZT.fuzzy_syllable("a", rng) is None
    plan = ZT.plan_keys(["zhong", "guo"], rng, {**NO_PLAN, "fuzzy_prob": 1.0})
    assert plan.keys == "zhongguo" and plan.typed_as in ("zongguo", "zhongguo")  # guo: none


def test_fuzzy_and_slips_make_the_typed_keys_wrong(tiny_zh_config):
    sim = sim_with(tiny_zh_config, {**NO_PLAN, "fuzzy_prob": 1.0})
    ex = sim.prose_example([], ["shang", "chuan"], 50, random.Random(2))
    assert ex.target == "shangchuan" and ex.typed != ex.target and ex.typed_wrong
    assert ex.kind == "full+fuzzy"
    # Slips (neighbour keys, swapped letters, ...) at high rates: the plan stays the target.
    sim = sim_with(tiny_zh_config, NO_PLAN, clean=False, clean_prob=0.0, substitution=0.3,
                   transposition=0.2, backspace_rate=0.0)
    rng = random.Random(3)
    exs = [sim.prose_example([], ["ruan", "jian"], 60, rng) for _ in range(50)]
    assert all(e.target == "ruanjian" for e in exs)
    wrong = [e for e in exs if e.typed_wrong]
    assert len(wrong) > 25 and all(e.kind.endswith("+slips") for e in wrong)
    swapped = [e for e in wrong if sorted(e.typed) == sorted("ruanjian")]
    assert swapped  # some are transpositions only


def test_abbreviation_session(tiny_zh_config):
    sim = sim_with(tiny_zh_config, {**NO_PLAN, "abbrev_prob": 1.0})
    ex = sim.prose_example([7], ["zhong", "guo"], 42, random.Random(1))
    assert keys_of(ex) == "zg" and ex.target == "zg" and not ex.typed_wrong
    assert ex.kind == "abbrev" and ex.n_keys == 2
    arr = batch_arrays([ex], 16)
    s = ex.sep_pos
    assert arr["letters_left"][0, s:s + 3].tolist() == [2, 1, 0]  # of the plan's letters
    assert arr["word_target"][0, s:s + 3].tolist() == [42, 42, 42]


def test_latin_session(tiny_zh_config):
    sim = sim_with(tiny_zh_config, NO_PLAN)
    ex = sim.latin_example([5, 6], "python3", 77, random.Random(4))
    assert keys_of(ex) == "python#" and ex.typed == ex.target == "python3"
    assert ex.intent == Z.INTENT_LABELS.index("latin") and ex.word == 77
    assert ex.kind == "latin"


def test_sampled_examples_follow_the_contract(tiny_zh_data, tiny_zh_config):
    corpus = zh_data.Corpus(tiny_zh_data / "cache", "train", tiny_zh_config)
    sampler = zh_data.ExampleSampler(corpus, zh_data.make_simulator(tiny_zh_config),
                                     tiny_zh_config)
    max_len = tiny_zh_config["model"]["max_len"]
    vocab_size = T.WORD_OFFSET + len(corpus.words)
    rng = random.Random(5)
    exs = [sampler.sample(rng) for _ in range(300)]
    kinds = set()
    for ex in exs:
        assert len(ex.tokens) <= max_len and ex.tokens[0] == T.BOS
        assert T.APP_BASE <= ex.tokens[1] < T.CHAR_BASE
        assert ex.tokens[ex.sep_pos] == T.SEP and ex.n_keys >= 1
        assert all(T.WORD_OFFSET <= t < vocab_size for t in ex.tokens[2:ex.sep_pos])
        assert all(T.CHAR_BASE <= t <= T.CHAR_OTHER for t in ex.tokens[ex.sep_pos + 1:])
        assert 0 <= ex.word < len(corpus.words)
        kinds.add(ex.kind.split("+")[0])
        if ex.intent == Z.INTENT_LABELS.index("prose"):
            if ex.word >= 4 and ex.kind == "full":
                assert ex.target == corpus.word_pinyin()[ex.word].replace("'", "")
        else:  # the run's vocabulary word when it is one token, else <unk>
            want = corpus.words.index(ex.target) if ex.target in corpus.words else T.UNK
            assert ex.word == want
    assert {"full", "latin"} <= kinds and len(kinds) >= 3
    arr = batch_arrays(exs[:64], max_len)
    assert arr["tokens"].shape == (64, max_len)
    assert (arr["word_target"][arr["head_mask"]] != IGNORE).all()
    # Dev examples are the same every time (fixed seed).
    dev = zh_data.Corpus(tiny_zh_data / "cache", "dev", tiny_zh_config)
    a = zh_data.eval_examples(dev, tiny_zh_config, 20, 7)
    b = zh_data.eval_examples(dev, tiny_zh_config, 20, 7)
    assert [e.tokens for e in a] == [e.tokens for e in b]
