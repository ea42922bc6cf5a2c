"""fit_intent_head: the fit learns separable classes, the penalty holds it at its start, the
class weights move the boundary, and a state file of the wrong size is refused."""

import json
import struct

import numpy as np
import pytest

from keydecide_train.fit_intent_head import (fit_head, load_states, per_class_accuracy,
                                             read_head)


def blobs(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    centres = np.array([[3.0, 0, 0, 0], [0, 3.0, 0, 0], [0, 0, 3.0, 0]])
    y = rng.integers(0, 3, n)
    return centres[y] + rng.normal(size=(n, 4)), y


def test_fit_separates_classes_from_a_blank_head():
    rng = np.random.default_rng(0)
    x, y = blobs(3000, rng)
    w0, b0 = np.zeros((3, 4)), np.zeros(3)
    assert per_class_accuracy(w0, b0, x, y) != [1.0, 1.0, 1.0]
    w, b = fit_head(x, y, w0, b0, l2=0.0, class_weights=np.ones(3))
    assert min(per_class_accuracy(w, b, *blobs(1000, rng))) > 0.95


def test_a_strong_penalty_keeps_the_start():
    rng = np.random.default_rng(1)
    x, y = blobs(2000, rng)
    w0, b0 = rng.normal(size=(3, 4)), np.zeros(3)
    w, _ = fit_head(x, y, w0, b0, l2=1e4, class_weights=np.ones(3))
    assert np.abs(w - w0).max() < 0.05


def test_class_weights_move_the_boundary():
    rng = np.random.default_rng(2)
    x, y = blobs(3000, rng)
    x[:, :2] *= 0.3  # classes 0 and 1 overlap: the weights decide the shared points
    w0, b0 = np.zeros((3, 4)), np.zeros(3)
    w1, b1 = fit_head(x, y, w0, b0, 0.0, np.array([1.0, 0.1, 1.0]))
    w2, b2 = fit_head(x, y, w0, b0, 0.0, np.array([0.1, 1.0, 1.0]))
    assert per_class_accuracy(w1, b1, x, y)[0] > per_class_accuracy(w2, b2, x, y)[0]
    assert per_class_accuracy(w2, b2, x, y)[1] > per_class_accuracy(w1, b1, x, y)[1]


def test_reads_a_head_and_checks_the_state_file(tmp_path):
    w = np.arange(8, dtype=np.float16).reshape(2, 4)
    b = np.array([0.5, -1], dtype=np.float16)
    header = {"__metadata__": {"config": json.dumps({"intent_labels": ["prose", "code"]})},
              "heads.intent.weight": {"dtype": "F16", "shape": [2, 4], "data_offsets": [0, 16]},
              "heads.intent.bias": {"dtype": "F16", "shape": [2], "data_offsets": [16, 20]}}
    raw = json.dumps(header).encode()
    (tmp_path / "m.safetensors").write_bytes(struct.pack("<Q", len(raw)) + raw + w.tobytes()
                                            + b.tobytes())
    labels, rw, rb = read_head(tmp_path / "m.safetensors")
    assert labels == ["prose", "code"]
    np.testing.assert_array_equal(rw, w.astype(np.float32))
    np.testing.assert_array_equal(rb, b.astype(np.float32))
    (tmp_path / "l.tsv").write_text("code\tint x;\nprose\tthe dog\n", encoding="utf-8")
    np.zeros(8, dtype=np.float32).tofile(tmp_path / "s.f32")
    x, y = load_states(tmp_path / "l.tsv", tmp_path / "s.f32", labels, 4)
    assert x.shape == (2, 4) and y.tolist() == [1, 0]
    np.zeros(7, dtype=np.float32).tofile(tmp_path / "s.f32")
    with pytest.raises(ValueError):
        load_states(tmp_path / "l.tsv", tmp_path / "s.f32", labels, 4)
