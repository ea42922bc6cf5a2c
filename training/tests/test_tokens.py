"""keydecide_train.tokens: the Python mirror of keydecide::Tokenize and the contract's ids.
The first cases are tests/tokenizer_test.cc's."""

import random

from keydecide_train import tokens as T


def texts_kinds(text):
    toks = T.tokenize(text)
    assert toks == T.tokenize_reference(text)
    return [t for _, t in toks], [k for k, _ in toks]


def test_words_with_apostrophes_and_hyphens():
    texts, kinds = texts_kinds("Don't stop: a well-known rock'n'roll band -- 'quoted'.")
    assert texts == ["Don't", "stop", ":", "a", "well-known", "rock'n'roll", "band",
                     "-", "-", "'", "quoted", "'", "."]
    assert kinds[0] == "word"
    assert kinds[2] == "punct"


def test_numbers():
    texts, kinds = texts_kinds("pi is 3.14, about 1,000 times 2.")
    assert texts == ["pi", "is", "3.14", ",", "about", "1,000", "times", "2", "."]
    assert kinds[2] == "number"
    assert kinds[5] == "number"


def test_urls_and_emails_stay_whole():
    texts, kinds = texts_kinds(
        "See https://example.org/a?b=c&d=1. Or www.debian.org, mail jane.doe+x@mail.example.com!")
    assert texts == ["See", "https://example.org/a?b=c&d=1", ".", "Or", "www.debian.org", ",",
                     "mail", "jane.doe+x@mail.example.com", "!"]
    assert kinds[1] == "url"
    assert kinds[4] == "url"
    assert kinds[7] == "email"


def test_email_at_the_end_of_a_sentence():
    # As tests/tokenizer_test.cc: the sentence's full stop is not part of the address.
    texts, kinds = texts_kinds("write to bob@example.org.")
    assert texts == ["write", "to", "bob@example.org", "."]
    assert kinds[2] == "email"


def test_lower_case_matches_the_engine():
    # As tests/letter_case_test.cc.
    assert T.to_lower("\u0178") == "\u00ff"  # Ÿ pairs with Latin-1 ÿ
    assert T.to_lower("\u017d") == "\u017e"  # Ž
    assert T.to_lower("\u017f") == "\u017f"  # long s stays


def test_not_an_email():
    texts, _ = texts_kinds("a@b x@y.z @home")
    assert texts == ["a", "@", "b", "x", "@", "y", ".", "z", "@", "home"]


def test_non_ascii_and_invalid_bytes():
    raw = b"caf\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80 a\xffb"
    texts, kinds = texts_kinds(raw.decode("utf-8", errors="surrogateescape"))
    assert [t.encode("utf-8", errors="surrogateescape") for t in texts] == \
        [b"caf\xc3\xa9", b"\xe4\xb8\xad\xe6\x96\x87", b"\xf0\x9f\x98\x80", b"a", b"\xff", b"b"]
    assert kinds[2] == "other"
    assert kinds[4] == "other"


def test_empty_and_spaces():
    assert T.tokenize("") == []
    assert T.tokenize(" \t\n \u00a0\u3000") == []


def test_fast_tokenizer_matches_reference_on_random_text():
    alphabet = list("abcXYZ019 .,;:'-@/?!\"<>()%+_\t") + [
        "http://", "https://", "ftp://", "www.", "WWW.", ".com", ".org", "@", "é", "İ", "中",
        "\u00a0", "\u2028", "\u00b5", "\u212a", "😀", "\udcff", "--", "x.y", "1,2"]
    rng = random.Random(5)
    for _ in range(3000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 16)))
        assert T.tokenize(s) == T.tokenize_reference(s), repr(s)


def test_context_tokens_lower_case_and_split():
    assert T.context_tokens("Don't stop: a Well-Known band, 3.14 at www.x.org or a@b.cd!") == [
        "don't", "stop", ":", "a", "well", "-", "known", "band", ",", "<num>", "at", "<url>",
        "or", "<email>", "!"]
    # keydecide::ToLower, not str.lower: U+0130 becomes plain 'i'.
    assert T.context_tokens("\u0130STANBUL \u00c9T\u00c9") == ["istanbul", "\u00e9t\u00e9"]
    assert T.to_lower("\u0139\u0100\u0410\u0401") == "\u013a\u0101\u0430\u0451"


def test_ids_of_the_contract():
    assert (T.PAD, T.BOS, T.SEP) == (0, 1, 2)
    assert [T.app_id(a) for a in ("chat", "search", "code", "editor", "url")] == [3, 4, 5, 6, 7]
    assert T.key_id("a") == 8 and T.key_id("z") == 33
    assert T.key_id("'") == 34 and T.key_id("-") == 35 and T.key_id("\u00e9") == 35
    assert T.WORD_OFFSET == 36
    assert T.WORD_SPECIALS == ["<unk>", "<num>", "<url>", "<email>"]
    assert T.INTENT_LABELS == ["prose", "code", "url", "command"]


def test_interval_buckets():
    cases = {0: 1, 59.9: 1, 60: 2, 99: 2, 100: 3, 149: 3, 150: 4, 219: 4, 220: 5, 349: 5,
             350: 6, 599: 6, 600: 7, 5000: 7}
    for ms, bucket in cases.items():
        assert T.interval_bucket(ms) == bucket, ms


def test_vocab_build_and_id_mapping():
    counts = T.count_tokens(["the cat saw the dog.", "The dog, the cat!", "a well-known cat"])
    vocab = T.Vocab.build(counts, max_words=8)
    # Most frequent first, ties by string; specials first; capped at max_words.
    assert vocab.words[:4] == T.WORD_SPECIALS
    assert vocab.words[4:] == ["the", "cat", "dog", "!"]
    assert vocab.vocab_size == T.WORD_OFFSET + 8
    assert vocab.token_id("the") == 40
    assert vocab.token_id("zebra") == T.WORD_OFFSET + T.UNK
    assert vocab.encode("The cat saw 42 birds at www.example.org") == [
        40, 41, T.WORD_OFFSET, T.WORD_OFFSET + T.NUM, T.WORD_OFFSET, T.WORD_OFFSET,
        T.WORD_OFFSET + T.URL]


def test_vocab_extend_keeps_the_old_words_first():
    counts = {"the": 9, "cat": 5, "dog": 4, "emu": 3, "yak": 1}
    old = T.WORD_SPECIALS + ["dog", "the"]  # a model's order, not today's counts
    vocab = T.Vocab.extend(old, counts, max_words=8, min_count=2)
    assert vocab.words == old + ["cat", "emu"]  # then by count; "yak" is below min_count
    assert T.Vocab.extend(old, counts, max_words=6).words == old  # no room: unchanged


def test_vocab_skips_unstorable_words():
    counts = {"ok": 5, "bad\udcff": 9, "new\nline": 9, "<num>": 100}
    vocab = T.Vocab.build(counts, max_words=10)
    assert vocab.words == T.WORD_SPECIALS + ["ok"]
