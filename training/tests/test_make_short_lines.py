import pytest

from keydecide_train.make_short_lines import read_lines, short_sentences


def test_short_sentences_are_the_sentences_of_few_words_once():
    lines = ['"Yes." He left. Then he came back to the house again.',
             "He left! 42. -- Mark Twain",
             "A line of many words without any sentence end at all"]
    assert short_sentences(lines) == ["Yes.", "He left.", "He left!", "-- Mark Twain"]
    assert short_sentences(lines, max_words=1) == ["Yes."]


def test_a_file_that_is_not_utf8_is_a_clear_error(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("Ça va. Très bien.\n".encode("latin-1"))
    with pytest.raises(SystemExit, match="not UTF-8 text"):
        read_lines(path)
