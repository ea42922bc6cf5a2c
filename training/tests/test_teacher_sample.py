"""teacher_sample: back-off probabilities and sampling from a tiny trigram in tslminfo's form."""

import random
from collections import Counter

import pytest

from keydecide_train import teacher_sample as ts

WORDS = ["", "，", "。", "我们", "的", "中国", "abc"]

# Normalised back-off model: unigram sums to 1; bigram histories 0 and 3 and the trigram history
# (0, 3) list some words, their back-off weights make each history sum to 1.
ARPA = """\\0-gram\\1
  0.000005   0.0000001 (0,0)
\\1-gram\\6
        0   0.2   0.625 (0,0)
        1   0.1   1.0 (0,0)
        2   0.1   1.0 (0,0)
        3   0.2   0.5 (0,0)
        4   0.2   1.0 (0,0)
        5   0.2   1.0 (0,0)
\\2-gram\\3
        0        3   0.5   0.3333333333333333 (0,0)
        3        4   0.6   0.5 (0,0)
        3        0   0.1   1.0 (0,0)
\\3-gram\\1
        0        3        5   0.7 (0,0)
"""


@pytest.fixture(scope="module")
def sampler():
    return ts.TrigramSampler(WORDS, ARPA.splitlines(keepends=True))


def test_backoff_probabilities(sampler):
    # Bigram history 0: 我们 listed; the rest bow(0) * p1 = 0.625 * p1.
    assert sampler.prob(None, 0, 3) == pytest.approx(0.5)
    assert sampler.prob(None, 0, 4) == pytest.approx(0.125)
    # History 我们 (3): 的 listed (0.6), </s> listed (0.1), 中国 via back-off 0.5 * 0.2.
    assert sampler.prob(None, 3, 5) == pytest.approx(0.1)
    # Trigram history (0, 3): 中国 listed 0.7, 的 backs off with bow(0 3) = 1/3.
    assert sampler.prob(0, 3, 5) == pytest.approx(0.7)
    assert sampler.prob(0, 3, 4) == pytest.approx(0.6 / 3)
    # Every history sums to one: listed mass + bow * (1 - lower probability of the listed).
    g = sampler.tri_index[0 * sampler.n + 3]
    assert sampler.tri.mass[g] == pytest.approx(0.7)
    assert sampler.tri.backoff[g] == pytest.approx(0.3)
    for lv in (sampler.bi, sampler.tri):
        assert lv.mass + lv.backoff == pytest.approx([1.0] * len(lv.mass))
    assert sum(sampler.prob(0, 3, w) for w in range(6)) == pytest.approx(1.0)


def test_draws_follow_the_model(sampler):
    rng = random.Random(3)
    n = 20000
    counts = Counter(sampler.next_word(0, 3, rng) for _ in range(n))
    # Every word at its P(w | 0 我们); 中国 only from the listed trigram (a back-off draw of it
    # is drawn again).
    for w in range(6):
        assert counts[w] / n == pytest.approx(sampler.prob(0, 3, w), abs=0.015)


def test_sentences_are_seeded_and_clean(sampler):
    a = [sampler.sentence(random.Random(7), 10) for _ in range(1)]
    b = [sampler.sentence(random.Random(7), 10) for _ in range(1)]
    assert a == b
    docs, stats = ts.sample_text(sampler, 200, seed=5, max_words=10, paragraphs_per_doc=3)
    again, _ = ts.sample_text(sampler, 200, seed=5, max_words=10, paragraphs_per_doc=3)
    assert docs == again
    assert stats["han_chars"] >= 200
    text = "".join("".join(d) for d in docs)
    assert "abc" not in text  # word 6 is never listed, and no unigram: never drawn
    for doc in docs:
        assert 1 <= len(doc) <= 3
        for line in doc:
            assert line and line[0] not in ts.PUNCT
