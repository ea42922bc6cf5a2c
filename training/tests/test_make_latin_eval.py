"""make_latin_eval: which latin words are taken, their order, the sample and the TSV format."""

from keydecide_train import make_latin_eval as L


def write_dev(tmp_path, text: str):
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "a.txt").write_text(text, encoding="utf-8")
    return dev


def test_words_of_lines_with_han_lower_cased_once_in_order(tmp_path):
    dev = write_dev(tmp_path, "运行 Python 和 git push\nno han here python3 apt\n"
                              "用 git 与 x 和 a1b2 和 aaaaaaaaaaaaaaaaaaaaaaaaa 和 ls-l\n")
    # One letter, letters touching digits only on one side, more than 24 letters: left out;
    # "ls-l" gives "ls" (a hyphen bounds a run) and not "l".
    assert L.latin_words(L.dev_files(dev)) == ["python", "git", "push", "ls"]


def test_lines_spell_their_own_conversion_and_sample_is_seeded(tmp_path):
    dev = write_dev(tmp_path, "中 " + " ".join(f"w{'a' * i}" for i in range(1, 20)) + "\n")
    lines = L.make_latin_eval(dev, 5, seed=1)
    assert len(lines) == 5
    assert lines == L.make_latin_eval(dev, 5, seed=1)
    for line in lines:
        word, letters, syllables = line.split("\t")
        assert word == letters == syllables
    words = [line.split("\t")[0] for line in lines]
    assert words == sorted(words, key=len)  # corpus order
    assert len(L.make_latin_eval(dev, 100, seed=1)) == 19
