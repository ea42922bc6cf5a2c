"""kenlm_arpa: KenLM binary tries written by libime_slm_build_binary (KenLM's build_binary) from
small ARPA files read back to the same n-grams and probabilities."""

import os
import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from keydecide_train import kenlm_arpa as K

REPO = Path(__file__).resolve().parents[2]
TOOL = "libime_slm_build_binary"
TOOL_DEBS = ("libime-bin", "libimecore0", "libimepinyin0", "libfcitx5utils2")

# A hand-written trigram (words in both scripts, <unk> and the sentence markers, zero and
# non-zero backoffs, an n-gram of every order for the frequent words).
HAND_ARPA = """\\data\\
ngram 1=9
ngram 2=9
ngram 3=4

\\1-grams:
-1.2	<unk>	0
-99	<s>	-0.5
-1.1	</s>	0
-0.9	我们	-0.3
-1.5	今天	-0.25
-2.25	北京	-0.125
-1.75	去	0
-3.5	hello	-0.0625
-2.0	的	-0.4

\\2-grams:
-0.5	<s> 我们	-0.2
-0.75	我们 今天	-0.1
-1.25	今天 去	0
-0.6	去 北京	-0.05
-0.4	北京 </s>
-1.0	我们 的	-0.3
-2.5	hello 的	0
-0.3	的 北京	0
-1.5	<s> hello	-0.01

\\3-grams:
-0.25	<s> 我们 今天
-0.1	我们 今天 去
-0.2	今天 去 北京
-0.05	去 北京 </s>

\\end\\
"""

# build_binary options for each trie type; zh_CN.lm is QUANT_ARRAY_TRIE with 8-bit
# probabilities and backoffs and pointer_bhiksha_bits 22 (its header).
TYPES = {
    "TRIE": ["trie"],
    "QUANT_TRIE": ["-q", "8", "-b", "8", "trie"],
    "ARRAY_TRIE": ["-a", "22", "trie"],
    "QUANT_ARRAY_TRIE": ["-q", "8", "-b", "8", "-a", "22", "trie"],
}


def find_tool():
    """libime_slm_build_binary on PATH, or unpacked by scripts/fetch-data-zh.sh (with the
    environment that runs it from there), else None."""
    on_path = shutil.which(TOOL)
    if on_path:
        return on_path, None
    for raw in (REPO / "data" / "zh" / "raw" / "deb", REPO / "data" / "raw" / "deb"):
        tool = raw / "libime-bin" / "usr" / "bin" / TOOL
        if tool.is_file() and os.access(tool, os.X_OK):
            env = dict(os.environ)
            libs = [str(raw / pkg / "usr" / "lib" / "x86_64-linux-gnu") for pkg in TOOL_DEBS]
            env["LD_LIBRARY_PATH"] = ":".join(filter(None, libs + [env.get("LD_LIBRARY_PATH")]))
            return str(tool), env
    return None


@pytest.fixture(scope="module")
def build_binary():
    found = find_tool()
    if found is None:
        pytest.skip(f"{TOOL} not found on PATH or under data/zh/raw/deb/libime-bin "
                    "(Debian libime-bin; scripts/fetch-data-zh.sh unpacks it)")
    tool, env = found

    def build(arpa: Path, out: Path, options):
        done = subprocess.run([tool, *options, str(arpa), str(out)], env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return out

    return build


def random_arpa(seed=1, words=60, bigrams=700, trigrams=1200):
    """A consistent random trigram: every n-gram's prefix and suffix are n-grams too (as KenLM
    expects), log10 values with up to 4 decimals, some backoffs exactly 0. Large enough that
    the array-compressed pointers chop bits and the 8-bit bins are all used."""
    rng = random.Random(seed)
    vocab = ["<unk>", "<s>", "</s>"] + [f"w{i}" for i in range(words // 2)] + \
        [chr(0x4E00 + 37 * i) + chr(0x4E01 + 11 * i) for i in range(words - words // 2)]

    def value(low, zero=0.0):
        return 0.0 if rng.random() < zero else round(rng.uniform(low, 0.0), 4)

    uni = {(w,): (value(-6), value(-1.5, 0.2)) for w in vocab}
    uni[("<s>",)] = (-99.0, uni[("<s>",)][1])
    bi = {}
    while len(bi) < bigrams:
        a, b = rng.choice(vocab), rng.choice(vocab)
        if a != "</s>" and b != "<s>":
            bi[(a, b)] = (value(-4), value(-1, 0.3))
    pairs = list(bi)
    tri = {}
    while len(tri) < trigrams:
        a, b = rng.choice(pairs)
        nexts = [p for p in pairs if p[0] == b]
        if nexts:
            tri[(a, b, rng.choice(nexts)[1])] = (value(-3),)
    lines = ["\\data\\", f"ngram 1={len(uni)}", f"ngram 2={len(bi)}", f"ngram 3={len(tri)}"]
    for n, table in ((1, uni), (2, bi), (3, tri)):
        lines += ["", f"\\{n}-grams:"]
        for gram, values in table.items():
            lines.append("\t".join([repr(values[0]), " ".join(gram)] +
                                   [repr(v) for v in values[1:]]))
    return "\n".join(lines + ["", "\\end\\", ""])


def as_table(model: K.ArpaModel):
    return {g: (np.float32(p), np.float32(model.backoff.get(g, 0.0)))
            for g, p in model.prob.items()}


def dump(lm: Path, tmp_path: Path) -> tuple[K.KenLMModel, K.ArpaModel]:
    model = K.read_kenlm(lm)
    out = tmp_path / (lm.name + ".arpa")
    K.write_arpa(model, out)
    assert not out.with_name(out.name + ".tmp").exists()
    return model, K.read_arpa(out)


@pytest.mark.parametrize("source", ["hand", "random"])
@pytest.mark.parametrize("kind", ["TRIE", "ARRAY_TRIE"])
def test_unquantized_round_trip_is_exact(build_binary, tmp_path, source, kind):
    text = HAND_ARPA if source == "hand" else random_arpa()
    arpa = tmp_path / "in.arpa"
    arpa.write_text(text, encoding="utf-8")
    model, back = dump(build_binary(arpa, tmp_path / f"{kind}.bin", TYPES[kind]), tmp_path)
    original = K.read_arpa(arpa)
    assert model.model_type == kind
    assert back.counts == original.counts == model.counts
    assert as_table(back) == as_table(original)
    # The highest order has no backoff column.
    assert not any(len(g) == 3 for g in back.backoff)
    if kind == "ARRAY_TRIE":
        assert model.bhiksha_bits == 22


@pytest.mark.parametrize("source", ["hand", "random"])
@pytest.mark.parametrize("kind", ["QUANT_TRIE", "QUANT_ARRAY_TRIE"])
def test_quantized_round_trip_is_the_nearest_bin(build_binary, tmp_path, source, kind):
    text = HAND_ARPA if source == "hand" else random_arpa()
    arpa = tmp_path / "in.arpa"
    arpa.write_text(text, encoding="utf-8")
    model, back = dump(build_binary(arpa, tmp_path / f"{kind}.bin", TYPES[kind]), tmp_path)
    original = K.read_arpa(arpa)
    assert model.model_type == kind
    assert (model.prob_bits, model.backoff_bits) == (8, 8)
    assert back.counts == original.counts == model.counts
    assert set(back.prob) == set(original.prob)
    worst = 0.0  # the largest quantization error of any value
    for gram, prob in original.prob.items():
        n = len(gram)
        got = back.prob[gram]
        if n == 1:  # unigrams are stored as floats
            assert np.float32(got) == np.float32(prob)
            assert np.float32(back.backoff[gram]) == np.float32(original.backoff.get(gram, 0))
            continue
        # The value is a centre the file holds, and the one nearest the original value
        # (within the bin's error).
        centres = model.bins[n]["prob"].astype(np.float64)
        assert np.float32(got) in model.bins[n]["prob"]
        assert abs(got - prob) <= np.min(np.abs(centres - prob)) + 1e-6
        worst = max(worst, abs(got - prob))
        if n < model.order:
            bo, got_bo = original.backoff.get(gram, 0.0), back.backoff[gram]
            if bo == 0:  # zero backoffs have reserved bins (-0.0, +0.0): exact
                assert got_bo == 0
            else:
                centres = model.bins[n]["backoff"][2:].astype(np.float64)
                assert np.float32(got_bo) in model.bins[n]["backoff"]
                assert abs(got_bo - bo) <= np.min(np.abs(centres - bo)) + 1e-6
                worst = max(worst, abs(got_bo - bo))
    # Scores of random sentences agree within the quantization error (a trigram model's word
    # score sums at most one probability and two backoffs).
    rng = random.Random(3)
    words = sorted({g[0] for g in original.prob} - {"<s>"})
    for _ in range(200):
        sentence = [rng.choice(words) for _ in range(rng.randint(1, 8))]
        for a, b in zip(K.score_sentence(original, sentence, eos=True),
                        K.score_sentence(back, sentence, eos=True)):
            assert abs(a - b) <= 3 * worst + 1e-6


def test_scores_match_the_arpa(build_binary, tmp_path):
    """Back-off scores of the dump equal those of the ARPA it was built from (exact types),
    including words that fall back to <unk>."""
    arpa = tmp_path / "in.arpa"
    arpa.write_text(HAND_ARPA, encoding="utf-8")
    _, back = dump(build_binary(arpa, tmp_path / "t.bin", TYPES["ARRAY_TRIE"]), tmp_path)
    original = K.read_arpa(arpa)
    sentence = ["我们", "今天", "去", "北京"]
    scores = K.score_sentence(back, sentence, eos=True)
    assert scores == K.score_sentence(original, sentence, eos=True)
    assert scores == pytest.approx([-0.5, -0.25, -0.1, -0.2, -0.05])
    # 的 after "<s> hello": no trigram, so backoff(<s> hello) -0.01 + bigram hello 的 -2.5;
    # 北京 after "hello 的": bigram 的 北京 -0.3 + backoff(hello 的) 0.
    assert K.score_sentence(back, ["hello", "的", "北京"]) == pytest.approx([-1.5, -2.51, -0.3])
    # An unknown word is <unk>, plus the penalty asked for.
    # (<s> backs off with -0.5.)
    assert K.score_sentence(back, ["nope"], unknown_penalty=-7.0) == \
        pytest.approx([-0.5 - 1.2 - 7.0])


def test_pruned_suffix_becomes_a_blank_ngram(build_binary, tmp_path):
    """A trigram whose suffix bigram was pruned (as SRILM does): build_binary adds that bigram
    ("blank") with the back-off probability and no backoff, so the dump has one more bigram
    than the ARPA and scores the same."""
    arpa = tmp_path / "in.arpa"
    arpa.write_text(HAND_ARPA.replace("ngram 2=9", "ngram 2=8").replace("-0.4\t北京 </s>\n", ""),
                    encoding="utf-8")
    model, back = dump(build_binary(arpa, tmp_path / "t.bin", TYPES["TRIE"]), tmp_path)
    original = K.read_arpa(arpa)
    assert original.counts == [9, 8, 4] and model.counts == back.counts == [9, 9, 4]
    assert set(back.prob) - set(original.prob) == {("北京", "</s>")}
    # P(</s> | 北京) by backing off: backoff(北京) -0.125 + P(</s>) -1.1.
    assert back.prob[("北京", "</s>")] == pytest.approx(-1.225)
    assert back.backoff[("北京", "</s>")] == 0
    for sentence in (["我们", "今天", "去", "北京"], ["北京"], ["hello", "北京"]):
        assert K.score_sentence(back, sentence, eos=True) == \
            pytest.approx(K.score_sentence(original, sentence, eos=True))


def test_missing_unk_gets_kenlm_default(build_binary, tmp_path):
    arpa = tmp_path / "in.arpa"
    arpa.write_text(HAND_ARPA.replace("ngram 1=9", "ngram 1=8").replace("-1.2\t<unk>\t0\n", ""),
                    encoding="utf-8")
    model, back = dump(build_binary(arpa, tmp_path / "t.bin", TYPES["TRIE"]), tmp_path)
    # build_binary adds <unk> with log10 probability -100 (its -u default).
    assert model.counts[0] == 9 and back.prob[("<unk>",)] == -100.0


def test_hashes_and_words_in_id_order(build_binary, tmp_path):
    arpa = tmp_path / "in.arpa"
    arpa.write_text(HAND_ARPA, encoding="utf-8")
    model = K.read_kenlm(build_binary(arpa, tmp_path / "t.bin", TYPES["TRIE"]))
    assert model.vocab[0] == "<unk>"
    hashes = [K.murmur_hash64a(w.encode()) for w in model.vocab[1:]]
    assert hashes == sorted(hashes)


def test_probing_is_refused(build_binary, tmp_path):
    arpa = tmp_path / "in.arpa"
    arpa.write_text(HAND_ARPA, encoding="utf-8")
    lm = build_binary(arpa, tmp_path / "p.bin", ["probing"])
    with pytest.raises(ValueError, match="PROBING"):
        K.read_kenlm(lm)


@pytest.mark.parametrize("kind", ["TRIE", "QUANT_ARRAY_TRIE"])
def test_truncated_or_corrupt_file_is_a_value_error(build_binary, tmp_path, kind):
    arpa = tmp_path / "in.arpa"
    arpa.write_text(random_arpa(words=20, bigrams=100, trigrams=150), encoding="utf-8")
    data = build_binary(arpa, tmp_path / "t.bin", TYPES[kind]).read_bytes()
    bad = tmp_path / "bad.bin"
    # Every cut, through the header, each table and the strings.
    for cut in sorted({0, 10, 60, 100, 140, len(data) // 3, len(data) // 2, len(data) - 20,
                       len(data) - 1} | set(range(0, len(data), 97))):
        bad.write_bytes(data[:cut])
        with pytest.raises(ValueError):
            K.read_kenlm(bad)
    # Flipped bytes past the header: an error or a model, never another exception.
    rng = random.Random(5)
    for _ in range(200):
        mangled = bytearray(data)
        for _ in range(4):
            mangled[rng.randrange(136, len(data))] ^= 1 << rng.randrange(8)
        bad.write_bytes(bytes(mangled))
        try:
            K.read_kenlm(bad)
        except ValueError:
            pass


def test_not_a_kenlm_file(tmp_path):
    bad = tmp_path / "x.arpa"
    bad.write_text(HAND_ARPA, encoding="utf-8")
    with pytest.raises(ValueError, match="not a KenLM binary"):
        K.read_kenlm(bad)
    old = tmp_path / "old.bin"
    old.write_bytes(b"mmap lm http://kheafield.com/code format version 4\n\0" + bytes(200))
    with pytest.raises(ValueError, match="version 4"):
        K.read_kenlm(old)


def test_main_writes_the_arpa(build_binary, tmp_path, capsys):
    arpa = tmp_path / "in.arpa"
    arpa.write_text(HAND_ARPA, encoding="utf-8")
    lm = build_binary(arpa, tmp_path / "t.bin", TYPES["QUANT_ARRAY_TRIE"])
    out = tmp_path / "out.arpa"
    assert K.main(["--lm", str(lm), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("\\data\\\nngram 1=9\nngram 2=9\nngram 3=4\n")
    assert text.endswith("\\end\\\n")
    assert "-99\t<s>\t-0.5\n" in text
    assert K.main(["--lm", str(tmp_path / "missing.bin"), "--out", str(out)]) == 1
