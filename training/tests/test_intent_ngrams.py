"""The intent n-grams: the features the engine computes the same way (tests/intent_ngrams_test.cc
checks the same numbers), a fit that separates lines by their bytes, and the file."""
from __future__ import annotations

import json

import numpy as np
import torch

from keydecide_train import export
from keydecide_train import intent_ngrams as N


def test_intent_line_is_the_last_line_with_more_than_spaces():
    assert N.intent_line(b"x = 1\n  \n$ ls -l", 160) == (b"$ ls -l", True)
    assert N.intent_line(b"fn main() {\n\t\n", 160) == (b"fn main() {", True)
    assert N.intent_line(b"abcdef", 3) == (b"def", False)
    assert N.intent_line(b" \n\n", 160) == (b"", True)


def test_buckets_match_the_engine():
    # (runs, sum of buckets) at 256 buckets, order 2: the C++ test's cases.
    for text, max_bytes, runs, total in [(b"ab", 160, 7, 998),
                                         (b"x = 1\n  \n$ ls -l", 160, 17, 2468),
                                         (b"x = 1\n  \n$ ls -l", 3, 7, 1016),
                                         (b"abcdef", 3, 7, 706)]:
        b = N.line_buckets(text, 256, 2, max_bytes)
        assert (len(b), sum(b)) == (runs, total), text
    # framing: 0x02 "ab" 0x03 has 4 single bytes and 3 pairs
    assert len(N.line_buckets(b"ab", 1 << 15, 2, 160)) == 7


def test_features_are_counts_over_the_root_of_the_runs():
    # What the engine sums: weight[bucket] per run over sqrt(runs); a repeated run counts twice.
    x = N.feature_matrix([b"aaaa"], 1 << 12, 1, 160).to_dense().numpy()[0]
    runs = N.line_buckets(b"aaaa", 1 << 12, 1, 160)  # 0x02 a a a a 0x03
    assert len(runs) == 6
    assert np.isclose(x[runs[1]], 4 / np.sqrt(6)) and np.isclose(x.sum(), 6 / np.sqrt(6))


def test_fit_separates_lines_by_their_bytes():
    rng = np.random.default_rng(0)
    words = ["the", "house", "was", "quiet", "and", "we", "went", "home", "early"]
    prose = [" ".join(rng.choice(words, 6)).capitalize().encode() + b"." for _ in range(60)]
    cmds = [b"$ " + " ".join(rng.choice(["ls", "sudo", "apt-get", "grep"], 1)).encode() +
            b" --" + rng.choice(words).encode() for _ in range(60)]
    x = N.feature_matrix(prose + cmds, 1 << 12, 3, 160)
    y = np.array([0] * 60 + [1] * 60)
    w, b = N.fit(x, y, 2, l2=1e-5, epochs=100)
    test = [b"We went home and the house was quiet.", b"$ grep --home"]
    z = torch.sparse.mm(N.feature_matrix(test, 1 << 12, 3, 160), torch.from_numpy(w)).numpy() + b
    assert list(z.argmax(1)) == [0, 1]


def test_written_file_reads_back(tmp_path):
    w = np.arange(64 * 4, dtype=np.float32).reshape(64, 4) / 8
    bias = np.array([0.5, -1, 0, 2], dtype=np.float32)
    path = tmp_path / "intent_ngrams.safetensors"
    N.write(path, w, bias, ["prose", "code", "url", "command"], max_order=3, max_bytes=40,
            provenance={"l2": 1e-5})
    tensors, meta = export.read_safetensors(path)  # checks the layout and the checksum
    assert np.array_equal(tensors["weight"], w) and np.array_equal(tensors["bias"], bias)
    assert meta["format"] == N.FORMAT and meta["max_order"] == "3"
    assert json.loads(meta["labels"]) == ["prose", "code", "url", "command"]


def test_prefixes_are_beginnings_of_the_line_under_its_label():
    labels = ["prose", "url", "code"]
    texts = ["Grüße, I'm home.".encode(), b"x", b"int main() {"]
    out_labels, out_texts = N.with_prefixes(labels, texts, 3)
    assert out_labels[:3] == labels and out_texts[:3] == texts  # the lines first, unchanged
    added = list(zip(out_labels[3:], out_texts[3:]))
    assert len(added) == 6  # three each; "x" is too short to cut
    for label, prefix in added:
        line = texts[labels.index(label)]
        assert line.startswith(prefix) and 0 < len(prefix) < len(line)
        prefix.decode("utf-8")  # never cut inside a character
    assert N.with_prefixes(labels, texts, 3) == (out_labels, out_texts)  # seeded
