"""teacher_words: the teacher's multi-hanzi words jieba lacks, counted at jieba's scale."""

import pytest

from keydecide_train import teacher_words as T

ARPA = """\\data\\
ngram 1=6

\\1-grams:
-6.26\t<unk>\t0
-2.0\t的\t-0.2
-3.0\t梦到\t-0.1
-5.0\t吾等
-9.0\t罕见词
-3.5\t中国
\\2-grams:
-0.5\t梦到 的
\\end\\
"""


def test_words_jieba_lacks_are_counted_by_the_teachers_unigram():
    counts = T.jieba_counts("的 8000 uj\n中国 1500 ns\n梦见 500 v\n")  # total 10,000
    unigrams = T.arpa_unigrams(ARPA.splitlines(keepends=True))
    assert unigrams["梦到"] == -3.0 and "梦到 的" not in unigrams  # the 1-grams only
    words = dict(T.teacher_words(unigrams, counts, min_count=1))
    # 梦到: 10^-3 of 10,000 words = 10; 吾等 10^-5 · 10,000 rounds to 0; 罕见词 too; jieba's own
    # words, single hanzi and <unk> are never added.
    assert words == {"梦到": 10}
    assert T.teacher_words(unigrams, counts, min_count=11) == []


def test_malformed_inputs_name_their_line():
    with pytest.raises(ValueError, match="line 2"):
        T.jieba_counts("的 1\n中国 many\n")
    with pytest.raises(ValueError, match="ARPA line 3"):
        T.arpa_unigrams(["\\data\\\n", "\\1-grams:\n", "x\n"])


def test_main_writes_the_counts(tmp_path):
    arpa, counts, out = tmp_path / "t.arpa", tmp_path / "jieba.txt", tmp_path / "out.txt"
    arpa.write_text(ARPA, encoding="utf-8")
    counts.write_text("的 8000 uj\n中国 2000 ns\n", encoding="utf-8")
    assert T.main(["--arpa", str(arpa), "--counts", str(counts), "--out", str(out),
                   "--min-count", "1"]) == 0
    assert out.read_text(encoding="utf-8") == "梦到 10\n"
    assert T.main(["--arpa", str(tmp_path / "missing"), "--counts", str(counts),
                   "--out", str(out)]) == 1
