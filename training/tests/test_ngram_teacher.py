"""ngram_teacher: the ARPA teacher over the model's words, its batched log-distributions equal to
ARPA back-off computed one word at a time, and the contexts read off a batch's tokens."""

import json
import math

import numpy as np
import pytest
import torch

from keydecide_train import ngram_teacher as N
from keydecide_train import tokens as T

WORDS = ["<unk>", "<num>", "<url>", "<email>", ",", ".", "the", "have", "any", "questions",
         "new", "year", "happy", "zzz"]
ARPA = r"""\data\
ngram 1=10
ngram 2=8
ngram 3=3

\1-grams:
-99	<s>	-0.5
-1.0	</s>
-1.2	the	-0.3
-1.5	have	-0.2
-2.0	any	-0.4
-2.5	questions	-0.1
-2.6	new	-0.2
-3.0	happy	-0.3
-2.9	year	-0.1
-4.0	ideas

\2-grams:
-0.7	<s> the	-0.1
-0.9	<s> happy	-0.2
-0.5	have any	-0.2
-0.9	any questions	-0.05
-1.1	any new
-0.8	happy new	-0.3
-0.6	new questions
-0.4	new year

\3-grams:
-0.1	have any questions
-0.3	have any new
-0.05	happy new year

\end\
"""
V = len(WORDS)
S, U = V, V + 1


def arrays():
    return N.build(ARPA.splitlines(), WORDS)


def test_the_teacher_keeps_what_the_vocabulary_can_say():
    a = arrays()
    assert not np.isfinite(a["unigram"][WORDS.index(",")])  # no punctuation in speech
    assert not np.isfinite(a["unigram"][WORDS.index("zzz")])
    assert a["unigram"][WORDS.index("the")] == pytest.approx(-1.2 * math.log(10))
    assert len(a["bigram_word"]) == 8 and len(a["trigram_word"]) == 3  # "ideas" is no model word


@pytest.mark.parametrize("older,last", [("have", "any"), ("happy", "new"), ("any", "new"),
                                        (S, "happy"), (U, "the"), ("zzz", "any"),
                                        ("questions", "year")])
def test_batched_log_probs_equal_back_off_one_word_at_a_time(older, last):
    a = arrays()
    teacher = N.NgramTeacher(a)
    o = older if isinstance(older, int) else WORDS.index(older)
    l = last if isinstance(last, int) else WORDS.index(last)
    if o < V and not np.isfinite(a["unigram"][o]):
        o = U
    got = teacher.log_probs(torch.tensor([o]), torch.tensor([l]))[0]
    known = [i for i in range(V) if np.isfinite(a["unigram"][i])]
    ref = np.array([N.reference_logp(a, o, l, w) for w in known])
    ref = ref - np.log(np.exp(ref).sum())  # renormalised over the known words
    assert np.allclose(got[known].numpy(), ref, atol=2e-3)
    assert torch.isinf(got[WORDS.index(",")])


def test_happy_new_year_is_what_the_teacher_expects():
    teacher = N.NgramTeacher(arrays())
    p = teacher.log_probs(torch.tensor([WORDS.index("happy")]), torch.tensor([WORDS.index("new")]))
    assert int(p[0].argmax()) == WORDS.index("year")


def test_contexts_from_tokens():
    teacher = N.NgramTeacher(arrays())
    ctx = teacher.ctx_of_word(WORDS)
    assert int(ctx[WORDS.index(".")]) == S and int(ctx[WORDS.index("zzz")]) == U
    assert int(ctx[WORDS.index("new")]) == WORDS.index("new")
    w = lambda s: T.WORD_OFFSET + WORDS.index(s)  # noqa: E731
    tokens = torch.tensor([[T.BOS, 3, w("happy"), w("new"), w("."), w("have"), T.SEP]])
    older, last = teacher.contexts(tokens, ctx)
    assert last.tolist()[0][2:6] == [WORDS.index("happy"), WORDS.index("new"), S,
                                     WORDS.index("have")]
    assert older.tolist()[0][3] == WORDS.index("happy") and older.tolist()[0][4] == U
    assert older.tolist()[0][5] == S  # after a full stop, the sentence start


def test_malformed_arpa_names_its_line():
    with pytest.raises(ValueError, match="ARPA line 3"):
        N.read_arpa(["\\data\\", "\\1-grams:", "x the"])


def test_the_training_loss_is_the_kl_to_the_teacher_where_no_letter_is_typed():
    # TrainModule.ngram_loss on a hand-made batch: at [SEP] after "happy new" the teacher's
    # distribution; a student whose logits are that distribution has KL 0 there, another more.
    from keydecide_train import train as TR
    teacher = N.NgramTeacher(arrays())
    ctx = teacher.ctx_of_word(WORDS)
    w = lambda s: T.WORD_OFFSET + WORDS.index(s)  # noqa: E731
    tokens = torch.tensor([[T.BOS, 3, w("happy"), w("new"), T.SEP, 40, 41]])
    module = TR.TrainModule.__new__(TR.TrainModule)
    torch.nn.Module.__init__(module)
    object.__setattr__(module, "ngram", teacher)
    module.ngram_ctx, module.ngram_positions = ctx, 100
    idx = torch.tensor([4])  # the [SEP] position
    target = teacher.log_probs(torch.tensor([WORDS.index("happy")]),
                               torch.tensor([WORDS.index("new")]))
    same = target.masked_fill(~teacher.known, -30.0)
    where, kl = module.ngram_loss({"tokens": tokens}, idx, same, torch.tensor([True]))
    assert where.tolist() == [0] and abs(float(kl[0])) < 1e-4
    _, kl_flat = module.ngram_loss({"tokens": tokens}, idx, torch.zeros(1, V), torch.tensor([True]))
    assert float(kl_flat[0]) > 0.5


def test_a_run_with_the_teacher_trains(tiny_data, tiny_config, tmp_path):
    # The tiny run with an n-gram teacher over its own vocabulary (every word followed by "the"):
    # finite losses that fall, and the model file written.
    from keydecide_train import export
    from keydecide_train import train as TR
    cfg = json.loads(json.dumps(tiny_config))
    out = tmp_path / "plain"
    TR.train(cfg, tiny_data, out, device="cpu", max_steps=5, log=lambda s: None, progress=False)
    words = export.verify_model_file(out / "model.safetensors")[2]
    lines = ["\\data\\", "\\1-grams:", "-99\t<s>\t-0.3"]
    lines += [f"-3.0\t{x}\t-0.2" for x in words[4:] if x.isalpha()]
    lines += ["\\2-grams:"] + [f"-0.1\t{x} the" for x in words[4:] if x.isalpha() and x != "the"]
    lines += ["\\end\\"]
    npz = tmp_path / "teacher.npz"
    np.savez(npz, **N.build(lines, words))
    cfg["train"].update(ngram_teacher=str(npz), ngram_weight=0.5)
    hist = TR.train(cfg, tiny_data, tmp_path / "taught", device="cpu", max_steps=20,
                    log=lambda s: None, progress=False)["history"]
    assert all(math.isfinite(h["loss/word"]) and math.isfinite(h["loss/lm"]) for h in hist)
    assert hist[-1]["loss/word"] < hist[0]["loss/word"]
    assert (tmp_path / "taught" / "model.safetensors").exists()
