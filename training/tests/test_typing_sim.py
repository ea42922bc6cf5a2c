"""keydecide_train.typing_sim and .dataset: simulated sessions obey the contract."""

import copy
import random

import pytest

np = pytest.importorskip("numpy", reason="numpy is not importable")

from keydecide_train import dataset as D  # noqa: E402
from keydecide_train import tokens as T  # noqa: E402
from keydecide_train.typing_sim import IGNORE, Keyboard, TypingSimulator, batch_arrays  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tiny_data, tiny_config):
    return D.Corpus(tiny_data / "cache", "train", tiny_config)


@pytest.fixture(scope="module")
def sampler(corpus, tiny_config):
    return D.ExampleSampler(corpus, D.make_simulator(tiny_config, corpus), tiny_config)


def test_cache_vocabulary(corpus, tiny_data):
    assert corpus.words[:4] == T.WORD_SPECIALS
    assert "the" in corpus.words[4:10]  # most frequent first
    assert {s.name for s in corpus.sources} >= {"nlp-corpus", "code-python",
                                                 "debian-handbook-code", "manpages-dev-code"}
    assert corpus.typos["weather"] == ["wether"]
    assert "tomorrow" in corpus.typos  # both misspellings of it are kept
    assert sorted(corpus.typos["tomorrow"]) == ["tommorow", "tomorow"]


def test_a_config_weight_for_a_source_the_cache_lacks_is_refused(tiny_data, tiny_config):
    cfg = copy.deepcopy(tiny_config)
    cfg["data"]["source_weights"] = {"nlp-corpus": 2.0}
    weighted = D.Corpus(tiny_data / "cache", "train", cfg)
    assert {s.name: s.weight for s in weighted.sources}["nlp-corpus"] == 2.0
    cfg["data"]["source_weights"] = {"nlp-corpus": 2.0, "freedroid-dialog": 8.0}  # misspelt
    with pytest.raises(ValueError, match="sources the cache lacks: freedroid-dialog"):
        D.Corpus(tiny_data / "cache", "train", cfg)


def test_examples_follow_the_contract(sampler, corpus, tiny_config):
    max_len = tiny_config["model"]["max_len"]
    vocab_size = T.WORD_OFFSET + len(corpus.words)
    rng = random.Random(1)
    intents = set()
    for _ in range(500):
        ex = sampler.sample(rng)
        n, s = len(ex.tokens), ex.sep_pos
        assert n <= max_len and len(ex.buckets) == n and len(ex.backspace) == n
        assert ex.tokens[0] == T.BOS
        assert T.APP_BASE <= ex.tokens[1] < T.CHAR_BASE
        assert ex.tokens[s] == T.SEP and ex.n_keys >= 1
        assert all(T.WORD_OFFSET <= t < vocab_size for t in ex.tokens[2:s])
        assert all(T.CHAR_BASE <= t <= T.CHAR_OTHER for t in ex.tokens[s + 1:])
        assert ex.tokens[s + 1:] == [T.key_id(c) for c in ex.typed]
        assert all(b == 0 for b in ex.buckets[:s + 1])
        assert all(1 <= b <= 7 for b in ex.buckets[s + 1:])
        assert all(f == 0 for f in ex.backspace[:s + 1]) and set(ex.backspace) <= {0, 1}
        assert 0 <= ex.word < len(corpus.words)
        intent = T.INTENT_LABELS[ex.intent]
        intents.add(intent)
        if ex.word in (T.URL, T.EMAIL):
            assert intent == "url" and ex.kind == "url"
        else:
            assert intent != "url"
            assert ex.word == T.UNK or corpus.words[ex.word] == ex.target
    assert intents == set(T.INTENT_LABELS)


def test_intent_rules(tiny_config):
    rules = tiny_config["data"]["intent_rules"]
    from keydecide_train.typing_sim import intent_of_source
    assert intent_of_source("nlp-corpus", rules) == "prose"
    assert intent_of_source("manpages", rules) == "prose"
    assert intent_of_source("manpages-dev-code", rules) == "code"
    assert intent_of_source("code-python", rules) == "code"
    for src in ("debian-handbook-code", "debian-reference-en-code", "manpages-code",
                "installation-guide-amd64-code", "gnome-user-docs-code"):
        assert intent_of_source(src, rules) == "command"


def test_same_seed_same_examples(sampler):
    a = [sampler.sample(random.Random(42)) for _ in range(1)] + \
        [sampler.sample(r) for r in [random.Random(43)] for _ in range(50)]
    b = [sampler.sample(random.Random(42)) for _ in range(1)] + \
        [sampler.sample(r) for r in [random.Random(43)] for _ in range(50)]
    assert a == b
    c = [sampler.sample(r) for r in [random.Random(44)] for _ in range(50)]
    assert c != b[1:]


def test_clean_typing_and_intervals(tiny_config):
    sim = TypingSimulator(tiny_config["data"], Keyboard())
    rng = random.Random(3)
    for word in ["hello", "don't", "caf\u00e9", "a"]:
        typed = sim.type_word(word, rng, 170.0, 0.0, 20)
        assert typed.text == word and typed.kind == "clean"
        assert typed.backspace == [0] * len(word)
    # Word starts are slower than keys inside a word (on average).
    starts, inner = [], []
    for _ in range(300):
        t = sim.type_word("several", rng, 170.0, 0.0, 20)
        starts.append(t.intervals_ms[0])
        inner += t.intervals_ms[1:]
    assert np.median(starts) > 1.5 * np.median(inner)
    # Distant keys take longer than neighbouring ones.
    far = [sim._interval("q", "p", 170.0, rng, False) for _ in range(500)]
    near = [sim._interval("q", "w", 170.0, rng, False) for _ in range(500)]
    assert np.median(far) > np.median(near)


def test_backspace_removes_the_wrong_key(tiny_config):
    cfg = copy.deepcopy(tiny_config["data"])
    cfg["noise"].update(substitution=0.5, omission=0.0, insertion=0.0, transposition=0.0,
                        backspace_rate=1.0)
    sim = TypingSimulator(cfg, Keyboard())
    rng = random.Random(9)
    flagged = 0
    for _ in range(50):
        t = sim.type_word("keyboard", rng, 170.0, 1.0, 20)
        assert t.text == "keyboard"  # every slip was deleted and retyped
        flagged += sum(t.backspace)
    assert flagged > 50


def test_slips_stay_near_the_key(tiny_config):
    kb = Keyboard()
    rng = random.Random(2)
    for key in "qgmp'":
        for _ in range(50):
            other = kb.neighbour(key, rng)
            assert other != key and kb.distance(key, other) <= 1.6
    assert kb.distance("a", "s") == pytest.approx(1.0)
    assert kb.distance("a", "q") == pytest.approx((0.25 ** 2 + 1) ** 0.5)
    # The repository's layout file gives the same keyboard as the built-in one.
    assert Keyboard.load(D.REPO_ROOT / "models/layouts/qwerty.txt").pos == kb.pos


def test_misspellings_come_from_the_pairs(corpus, tiny_config):
    sim = D.make_simulator(tiny_config, corpus)
    rng = random.Random(4)
    seen = set()
    for _ in range(40):
        ex = sim.example([], "tomorrow", corpus.words.index("tomorrow"), "nlp-corpus", rng,
                         force_misspelling=True)
        assert ex.kind == "misspelling" and ex.typed_wrong
        seen.add(ex.typed)
    assert {"tommorow", "tomorow"} <= seen


def test_url_examples(corpus, tiny_config):
    sim = D.make_simulator(tiny_config, corpus)
    rng = random.Random(6)
    for _ in range(100):
        text, word = sim.synth_url(corpus.url_words, rng)
        # A made-up address tokenizes as one URL / e-mail token, as the engine will see it.
        assert T.tokenize(text) == [("url" if word == T.URL else "email", text)], text


def test_batch_arrays(sampler, tiny_config):
    max_len = tiny_config["model"]["max_len"]
    rng = random.Random(8)
    exs = [sampler.sample(rng) for _ in range(16)]
    b = batch_arrays(exs, max_len)
    assert b["tokens"].shape == (16, max_len)
    for i, ex in enumerate(exs):
        n, s = len(ex.tokens), ex.sep_pos
        assert (b["tokens"][i, n:] == T.PAD).all()
        assert list(b["word_target"][i, s:n]) == [ex.word] * (n - s)
        assert (b["word_target"][i, :s] == IGNORE).all()
        # Context positions predict the next committed word, the last one the target.
        assert list(b["lm_target"][i, 1:s - 1]) == [t - T.WORD_OFFSET for t in ex.tokens[2:s]]
        assert b["lm_target"][i, s - 1] == ex.word and b["lm_target"][i, 0] == IGNORE
        assert b["head_mask"][i].sum() == n - s
        assert b["last_key"][i] == n - 1
        if ex.pickable:
            assert b["letters_left"][i, s] == len(ex.target)
            assert b["letters_left"][i, n - 1] == len(ex.target) - (n - 1 - s)
        assert b["intent"][i] == ex.intent and b["typed_wrong"][i] == ex.typed_wrong


def test_context_windows(corpus, tiny_config):
    """context_window: random lengths reach every length up to the room; any_start lets
    the context run back past its document."""
    cfg = copy.deepcopy(tiny_config)
    room = 20
    src = max(corpus.sources, key=lambda s: len(s.ids))
    pos = int(src.target_pos[-1])
    para = int(np.searchsorted(src.para_start, pos, side="right")) - 1
    doc_start = int(src.para_docstart[para])
    cfg["data"]["context_window"] = {"any_start_prob": 1.0, "random_length_prob": 0.0}
    s = D.ExampleSampler(corpus, D.make_simulator(cfg, corpus), cfg)
    ctx = s.context(src, pos, "prose", random.Random(1), room)
    assert len(ctx) == min(room, pos)
    cfg["data"]["context_window"] = {"any_start_prob": 0.0, "random_length_prob": 1.0}
    s = D.ExampleSampler(corpus, D.make_simulator(cfg, corpus), cfg)
    rng = random.Random(2)
    lengths = {len(s.context(src, pos, "prose", rng, room)) for _ in range(400)}
    assert lengths and max(lengths) <= min(room, pos - doc_start) and min(lengths) >= 0
    assert len(lengths) > 3
