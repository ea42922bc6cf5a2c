"""keydecide_train.phrase_eval: the phrase file's parser, the half rule, the scoring and the
summary, with a fake predictor (no engine). The shipped phrase file is checked too.

Run with: /usr/bin/python3 -m pytest training/tests/test_phrase_eval.py
"""

import hashlib
import json

import pytest

from keydecide_train import phrase_eval as E


def line(context: str, answers: str, kind: str = "thanks") -> str:
    return f"{context}\t{answers}\t{kind}\t{E.half_of(context)}"


# --- parsing ---------------------------------------------------------------

def test_half_is_the_parity_of_the_md5s_last_hex_digit():
    for context in ["", "Happy new ", "Hi Anna,\\n", "Thanks for your help. See you "]:
        digit = int(hashlib.md5(context.encode("utf-8")).hexdigest()[-1], 16)
        assert E.half_of(context) == ("tune" if digit % 2 == 0 else "test")


def test_parse_keeps_spaces_escapes_and_order():
    text = "\n".join(["# a comment", "", line("Let me know if you have any ", "questions,concerns",
                                              "request"),
                      line("", "Hi, Hey,Hello", "greeting"), line("Hi Anna,\\n", "I,Thanks")])
    phrases = E.parse_phrases(text)
    assert [p.context for p in phrases] == ["Let me know if you have any ", "", "Hi Anna,\n"]
    assert phrases[0].answers == ["questions", "concerns"]
    assert phrases[1].answers == ["Hi", "Hey", "Hello"]
    assert phrases[2].raw_context == "Hi Anna,\\n"
    assert [p.line for p in phrases] == [3, 4, 5]
    assert phrases[0].kind == "request" and phrases[0].half == E.half_of(phrases[0].raw_context)


def test_unescape():
    assert E.unescape("a\\nb\\tc\\\\d\\x") == "a\nb\tc\\d\\x"


@pytest.mark.parametrize("bad, message", [
    ("Happy new \tyear\twish", "fields"),
    ("Happy new \t \twish\t" + E.half_of("Happy new "), "no acceptable"),
    ("Happy new \tyear\tparty\t" + E.half_of("Happy new "), "kind"),
    ("Happy new \tnew year\twish\t" + E.half_of("Happy new "), "space"),
    ("Happy new \tyear\twish\tmaybe", "half"),
])
def test_parse_refuses_malformed_lines(bad, message):
    with pytest.raises(ValueError, match=message):
        E.parse_phrases("# header\n" + bad)


def test_parse_refuses_a_wrong_half_and_a_repeated_context():
    wrong = "tune" if E.half_of("Get well ") == "test" else "test"
    with pytest.raises(ValueError, match="md5"):
        E.parse_phrases(f"Get well \tsoon\twish\t{wrong}")
    assert E.parse_phrases(f"Get well \tsoon\twish\t{wrong}", check_halves=False)
    with pytest.raises(ValueError, match="again"):
        E.parse_phrases(line("Get well ", "soon") + "\n" + line("Get well ", "better"))


def test_position():
    assert E.position_of("") == "start"
    assert E.position_of("Happy new ") == "start"
    assert E.position_of("Let me know if you have any ") == "mid"
    assert E.position_of("Thanks for your help. See you ") == "after_punct"
    assert E.position_of("Hi Anna,\n") == "after_punct"


# --- scoring ---------------------------------------------------------------

def test_rank_of_compares_case_insensitively_unless_exact():
    assert E.rank_of(["the", "Year", "years"], ["year"]) == 1
    assert E.rank_of(["the", "Year"], ["year"], exact_case=True) == -1
    assert E.rank_of(["a", "b"], ["c"]) == -1
    assert E.rank_of(["I'm", "I"], ["i'm"]) == 0


def fake_engine(table):
    calls = []

    def predict(context, k):
        calls.append((context, k))
        return table.get(context, [])[:k]

    return predict, calls


def phrases_for(*rows):
    return E.parse_phrases("\n".join(line(*row) for row in rows))


def test_score_and_summary_count_top1_and_top3():
    phrases = phrases_for(("Happy new ", "year", "wish"), ("Get well ", "soon", "wish"),
                          ("Thank you for your ", "help,time", "thanks"),
                          ("See you ", "soon,later", "signoff"))
    predict, calls = fake_engine({
        "Happy new ": ["year", "York"],                 # rank 0
        "Get well ": ["done", "known", "Soon"],         # rank 2, case-insensitive
        "Thank you for your ": ["own", "a", "b", "time"],  # rank 3: a miss at 3
        "See you ": [],                                 # nothing
    })
    results = E.score(phrases, predict, depth=10)
    assert [r.rank for r in results] == [0, 2, 3, -1]
    assert calls[0] == ("Happy new ", 10)
    summary = E.summarize(results)
    assert summary["all"] == {"n": 4, "top1": 0.25, "top3": 0.5}
    assert summary["kind"]["wish"] == {"n": 2, "top1": 0.5, "top3": 1.0}
    assert summary["kind"]["thanks"]["top3"] == 0.0
    assert list(summary["kind"]) == ["signoff", "thanks", "wish"]  # KINDS order, present only
    halves = summary["half"]
    assert sum(t["n"] for t in halves.values()) == 4
    assert sum(t["n"] for t in summary["position"].values()) == 4


def test_score_cuts_a_longer_answer_to_depth_and_exact_case():
    phrases = phrases_for(("Hi ", "there", "greeting"))
    results = E.score(phrases, lambda c, k: ["There", "x", "y", "z"], depth=2, exact_case=True)
    assert results[0].candidates == ["There", "x"] and results[0].rank == -1


def test_worst_misses_order():
    phrases = phrases_for(("a ", "x", "reply"), ("b ", "x,y,z", "reply"), ("c ", "x", "reply"),
                          ("d ", "x", "reply"), ("e ", "x", "reply"))
    predict, _ = fake_engine({"a ": ["x"], "b ": [], "c ": ["q", "r", "s", "t", "x"],
                              "d ": ["q", "r", "s", "x"], "e ": []})
    worst = E.worst_misses(E.score(phrases, predict), 10)
    # Not found first, more acceptable words first; then the deepest rank.
    assert [r.phrase.context for r in worst] == ["b ", "e ", "c ", "d "]
    assert len(E.worst_misses(E.score(phrases, predict), 2)) == 2


def test_trace_line_is_json():
    phrases = phrases_for(("Hi Anna,\\n", "I", "greeting"))
    r = E.score(phrases, lambda c, k: ["The", "I"])[0]
    row = json.loads(E.trace_line(r))
    assert row["context"] == "Hi Anna,\n" and row["rank"] == 1
    assert row["top1"] is False and row["top3"] is True and row["position"] == "after_punct"


def test_main_check_on_a_small_file(tmp_path, capsys):
    f = tmp_path / "p.tsv"
    f.write_text("# h\n" + line("Happy new ", "year", "wish") + "\n")
    assert E.main(["--phrases", str(f), "--check"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["phrases"] == 1 and out["kind"]["wish"] == 1


def test_main_scores_through_the_cli_backend_with_a_fake_keydecide(tmp_path, capsys):
    f = tmp_path / "p.tsv"
    f.write_text(line("Happy new ", "year", "wish") + "\n" + line("Get well ", "soon", "wish") + "\n")
    fake = tmp_path / "keydecide"  # `predict --contexts FILE ...`: one JSON line a context
    fake.write_text("#!/usr/bin/python3\n"
                    "import json, sys\n"
                    "for c in open(sys.argv[3], encoding='utf-8').read().splitlines():\n"
                    "    words = ['year'] if c == 'Happy new ' else ['done']\n"
                    "    print(json.dumps({'context': c, 'candidates': words}))\n")
    fake.chmod(0o755)
    trace = tmp_path / "trace.jsonl"
    assert E.main(["--phrases", str(f), "--backend", "cli", "--keydecide", str(fake), "--json",
                   "--trace", str(trace)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["all"] == {"n": 2, "top1": 0.5, "top3": 0.5}
    assert len(trace.read_text().splitlines()) == 2


# --- the shipped phrase set ------------------------------------------------

def test_the_shipped_phrase_set():
    text = E.DEFAULT_PHRASES.read_text(encoding="utf-8")
    assert text.startswith("#") and "2026-12-07" in text[:800] and "never" in text[:800]
    phrases = E.parse_phrases(text)  # shape, kinds, the half column, no repeated context
    assert len(phrases) >= 300
    assert {p.kind for p in phrases} == set(E.KINDS)
    for half in E.HALVES:
        assert sum(p.half == half for p in phrases) >= 100
    positions = [E.position_of(p.context) for p in phrases]
    for position in E.POSITIONS:  # about a third each
        assert positions.count(position) >= len(phrases) // 5
    assert sum(p.context == "" for p in phrases) <= 3
