"""keydecide.native over the built libkeydecide.so.1 (KEYDECIDE_LIBRARY) and the repository's
models (KEYDECIDE_MODEL_DIR), in this process and through a keydecided started here
(KEYDECIDED); keydecide.client against the same daemon."""

import os
import subprocess
import tempfile
import time

import pytest

import keydecide
from keydecide import KeydecideError
from keydecide import native
from keydecide.client import Client

MODELS = os.environ.get("KEYDECIDE_MODEL_DIR")
KEYDECIDED = os.environ.get("KEYDECIDED")


@pytest.fixture(scope="module")
def engine():
    with keydecide.Engine(language="en,zh", model_dir=MODELS) as e:
        yield e


@pytest.fixture(scope="module")
def daemon():
    if not KEYDECIDED:
        pytest.skip("KEYDECIDED is not set")
    work = tempfile.mkdtemp()
    os.chmod(work, 0o700)
    sock = os.path.join(work, "kd.sock")
    proc = subprocess.Popen([KEYDECIDED, "--socket", sock, "--lang", "en,zh", "--quiet"]
                            + (["--model-dir", MODELS] if MODELS else []))
    for _ in range(600):
        if os.path.exists(sock):
            break
        time.sleep(0.1)
    yield sock
    proc.terminate()
    assert proc.wait(timeout=30) == 0


def test_completion_and_fields(engine):
    assert engine.languages == ["en", "zh"]
    s = engine.session(n_candidates=5)
    d = s.type("see you tomo")
    assert d.composition == "tomo" and d.preedit == "tomo"
    assert d.candidates[0].text == "tomorrow"
    assert d.candidates[0].kind == "completion"
    assert len(d.candidates) == 5
    assert d.tier == "full_model" and d.intent == "prose"
    assert 0.0 <= d.popup_probability <= 1.0 and d.decide_us > 0
    d = s.commit("tomorrow")
    assert d.composition == "tomorrow"
    d = s.type(" ")
    assert d.composition == "" and all(c.kind == "next_word" for c in d.candidates)


def test_autocorrect_and_its_undo(engine):
    s = engine.session()
    d = s.type("I saw teh")
    assert d.autocorrect_apply and d.autocorrect_replacement == "the"
    s.autocorrect("the")
    s.type(" ")
    d = s.backspace()
    assert d.candidates[0].text == "teh" and d.candidates[0].kind == "typed"
    assert not d.autocorrect_apply
    d = s.commit("teh")
    assert d.composition == "teh" and not d.autocorrect_apply


def test_autocorrect_off(engine):
    d = engine.session(autocorrect="off").type("I saw teh")
    assert not d.autocorrect_apply and d.autocorrect_replacement == "the"


def test_pinyin(engine):
    s = engine.session(lang="zh", n_candidates=5)
    d = s.type("nihaozhongguo")
    assert d.preedit == "ni'hao'zhong'guo"
    assert d.candidates[0].text == "你好中国" and d.candidates[0].kind == "sentence"
    d = s.commit("你好")
    assert d.composition == "zhongguo"


def _pick_zhongguo(session):
    """Types "zhongguoren" and picks the word 中国 by its id: "ren" is left to convert."""
    d = session.type("zhongguoren")
    assert all(c.id > 0 for c in d.candidates)
    assert len({c.id for c in d.candidates}) == len(d.candidates)
    zhongguo = next(c for c in d.candidates if c.text == "中国")
    d = session.pick(zhongguo.id)
    assert d.composition == "ren"
    with pytest.raises(KeydecideError) as e:  # an edit came since: stale
        session.pick(zhongguo.id)
    assert e.value.code == native.INVALID_ARGUMENT
    assert session.decide().composition == "ren"


def test_pick_by_id(engine):
    assert native.library().kd_abi_revision() >= 2
    _pick_zhongguo(engine.session(lang="zh", n_candidates=10))
    s = engine.session(n_candidates=5)
    d = s.type("see you tomo")
    assert d.candidates[0].text == "tomorrow"
    assert s.pick(d.candidates[0].id).composition == "tomorrow"


def test_pick_through_the_daemon(daemon):
    with keydecide.Engine.connect(daemon) as remote:
        _pick_zhongguo(remote.session(lang="zh", n_candidates=10))
    c = Client(daemon)
    s = c.open_session(lang="zh")
    d = c.key(s, "zhongguoren", k=10)["decision"]
    zhongguo = next(x for x in d["candidates"] if x["text"] == "中国")
    assert c.pick(s, zhongguo["id"])["decision"]["composition"] == "ren"
    with pytest.raises(keydecide.client.KeydecideError) as e:
        c.pick(s, zhongguo["id"])
    assert e.value.code == "invalid_text"
    c.close()


def test_errors_are_exceptions(engine):
    s = engine.session()
    with pytest.raises(KeydecideError) as e:
        s.commit("two words")
    assert e.value.code == native.INVALID_ARGUMENT
    with pytest.raises(KeydecideError) as e:
        engine.session(lang="fr")
    assert e.value.code == native.ERR_NOT_SUPPORTED
    with pytest.raises(KeydecideError):
        engine.session(app="spreadsheet")
    with pytest.raises(KeydecideError) as e:
        keydecide.Engine(model_dir="/nonexistent/models")
    assert e.value.code == native.ERR_NOT_FOUND
    s.close()
    with pytest.raises(KeydecideError):
        s.type("x")


def test_daemon_through_the_library(daemon):
    with keydecide.Engine.connect(daemon) as remote:
        assert remote.languages == ["en", "zh"]
        s = remote.session(n_candidates=3)
        d = s.type("see you tomo")
        assert d.candidates[0].text == "tomorrow"
        d = s.type("I saw teh")
        assert d.autocorrect_apply
        s.autocorrect(d.autocorrect_replacement)
        s.type(" ")
        assert s.backspace().candidates[0].kind == "typed"
        z = remote.session(lang="zh")
        assert z.type("nihao").candidates[0].text == "你好"


def test_daemon_through_the_socket_client(daemon):
    c = Client(daemon)
    assert c.hello()["protocol"] == 1
    s = c.open_session(autocorrect="eager", no_learn=True)
    d = c.key(s, "I saw teh")["decision"]
    assert d["autocorrect"]["apply"] and d["autocorrect"]["replacement"] == "the"
    c.autocorrect(s, "the")
    c.key(s, " ")
    d = c.backspace(s)["decision"]
    assert d["candidates"][0] == {**d["candidates"][0], "text": "teh", "kind": "typed"}
    off = c.open_session(autocorrect="off")
    assert not c.key(off, "I saw teh")["decision"]["autocorrect"]["apply"]
    c.close()


def test_a_learning_daemon_learns_but_not_from_no_learn_sessions(tmp_path):
    """keydecided --personal --store: words typed through the daemon reach the store (after a
    clean stop at the latest); a no_learn session's words never do."""
    keydecide_cli = os.environ.get("KEYDECIDE")
    if not KEYDECIDED or not keydecide_cli:
        pytest.skip("KEYDECIDED or KEYDECIDE is not set")
    os.chmod(tmp_path, 0o700)
    sock, store = str(tmp_path / "kd.sock"), str(tmp_path / "user.db")
    proc = subprocess.Popen([KEYDECIDED, "--socket", sock, "--lang", "en", "--quiet",
                             "--personal", "--store", store]
                            + (["--model-dir", MODELS] if MODELS else []))
    try:
        for _ in range(600):
            if os.path.exists(sock):
                break
            time.sleep(0.1)
        c = Client(sock)
        secret = c.open_session(no_learn=True)
        c.key(secret, "my password is Xqvlorp and again Xqvlorp ")
        s = c.open_session()
        c.key(s, "we met Zorblax today. then Zorblax left ")
        c.close()
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    listed = subprocess.run([keydecide_cli, "personal", "list", "--store", store],
                            capture_output=True, text=True, check=True).stdout
    assert "Zorblax" in listed
    assert "Xqvlorp" not in listed


def test_text_with_a_nul_is_refused(engine):
    # The C ABI reads strings up to their first NUL: "hel\x00lo" would type "hel" and say OK.
    with engine.session() as s:
        for call in (s.type, s.set_context, s.commit, s.autocorrect):
            with pytest.raises(ValueError, match="NUL"):
                call("hel\x00lo")
        assert s.type("hel").composition == "hel"  # the session was left as it was


def test_a_missing_library_is_an_import_error_naming_the_path(tmp_path):
    missing = str(tmp_path / "nowhere" / "libkeydecide.so.1")
    code = ("import keydecide\n"
            "try:\n"
            "    keydecide.Engine()\n"
            "except ImportError as e:\n"
            "    print('ImportError', e)\n")
    env = dict(os.environ, KEYDECIDE_LIBRARY=missing)
    out = subprocess.run(["/usr/bin/python3", "-c", code], env=env, capture_output=True,
                         text=True, timeout=60)
    assert "ImportError" in out.stdout, out.stdout + out.stderr
    assert missing in out.stdout
