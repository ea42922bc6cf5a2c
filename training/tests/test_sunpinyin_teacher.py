"""sunpinyin_teacher: the word table of a pinyin trie file and the expected pair counts."""

import struct

import pytest

from keydecide_train import sunpinyin_teacher as st


def trie_file(tmp_path, words):
    """A file laid out as sunpinyin's pydict_sc.bin: count, a u32, the string table's offset,
    then NUL-terminated UCS-4 strings in id order."""
    header = struct.pack("<4I", len(words), 0, 16, 0)
    table = b"".join(w.encode("utf-32-le") + b"\0\0\0\0" for w in words)
    path = tmp_path / "pydict.bin"
    path.write_bytes(header + table)
    return path


ARPA = """\\0-gram\\1
  0.000005   0.0000001 (0,0)
\\1-gram\\5
        0   0.2   1.0 (0,0)
        1   0.1   1.0 (0,0)
        2   0.3   1.0 (0,0)
        3   0.2   1.0 (0,0)
        4   0.2   1.0 (0,0)
\\2-gram\\4
        0        2   0.5   1.0 (0,0)
        1        2   0.9   1.0 (0,0)
        2        3   0.25  1.0 (0,0)
        2        1   0.4   1.0 (0,0)
\\3-gram\\1
        2        3        4   0.9 (0,0)
"""


def test_words_and_counts(tmp_path):
    words = st.read_words(trie_file(tmp_path, ["", "，", "我们", "的", "中国"]))
    assert words == ["", "，", "我们", "的", "中国"]
    pairs, unigrams = st.teacher_counts(words, ARPA.splitlines(keepends=True), 1000, 2)
    # <s> 我们: from id 0 (0.2 * 0.5 * 1000 = 100) and from the comma (0.1 * 0.9 * 1000 = 90).
    assert pairs[("<s>", "我们")] == 190
    assert pairs[("我们", "的")] == 75
    assert ("我们", "，") not in pairs  # a right word that is not Han
    assert all(len(k) == 2 for k in pairs)  # trigrams are not read
    assert sorted(unigrams) == [("中国", 200), ("我们", 300), ("的", 200)]


def test_bad_string_table(tmp_path):
    path = trie_file(tmp_path, ["我们"])
    path.write_bytes(path.read_bytes() + b"xx")
    with pytest.raises(ValueError):
        st.read_words(path)
