"""shift_head_bias: only the named bias moves, by the shift; the rest of the file stays."""

import pytest

from conftest import need_torch, run_module

torch = need_torch()

from keydecide_train.export import model_from_file  # noqa: E402
from test_weight_format import export_en  # noqa: E402


def test_intent_shift_moves_one_class_bias_only(tmp_path):
    src = export_en(tmp_path)
    out = tmp_path / "shifted.safetensors"
    done = run_module("shift_head_bias", str(src), str(out), "--head", "intent", "--label", "code",
                      "--shift", "1.5", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    before, words = model_from_file(src)
    after, words_after = model_from_file(out)
    assert words_after == words
    code = list(before.cfg.intent_labels).index("code")
    delta = after.heads.intent.bias - before.heads.intent.bias
    assert delta[code].item() == pytest.approx(1.5)
    assert all(delta[i].item() == 0 for i in range(len(delta)) if i != code)
    a, b = before.state_dict(), after.state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a if k != "heads.intent.bias")


def test_intent_needs_a_known_label(tmp_path):
    src = export_en(tmp_path)
    done = run_module("shift_head_bias", str(src), str(tmp_path / "x.safetensors"), "--head",
                      "intent", "--label", "poetry", "--shift", "1", capture_output=True, text=True)
    assert done.returncode != 0 and "--label must be one of" in done.stderr
