from keydecide_train.make_short_lines import short_sentences


def test_short_sentences_are_the_sentences_of_few_words_once():
    lines = ['"Yes." He left. Then he came back to the house again.',
             "He left! 42. -- Mark Twain",
             "A line of many words without any sentence end at all"]
    assert short_sentences(lines) == ["Yes.", "He left.", "He left!", "-- Mark Twain"]
    assert short_sentences(lines, max_words=1) == ["Yes."]
