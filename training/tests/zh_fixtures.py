"""Fixtures of the zh tests: the tiny inline Chinese corpus (tiny_zh_corpus.py) and its
cache, built once per session. Import the fixtures into a test module to use them."""

import pytest

from conftest import TRAINING


@pytest.fixture(scope="session")
def tiny_zh_config():
    pytest.importorskip("numpy", reason="numpy is not importable")
    from keydecide_train import dataset as D
    return D.load_config(TRAINING / "config" / "tiny_zh.json")


@pytest.fixture(scope="session")
def tiny_zh_data(tmp_path_factory, tiny_zh_config):
    """data/zh-like directory with the inline corpus, lexicon and token cache."""
    from keydecide_train import zh_data
    from keydecide_train.tiny_zh_corpus import write_tiny_zh_data
    root = write_tiny_zh_data(tmp_path_factory.mktemp("tiny_zh") / "data")
    zh_data.ensure_cache(root, tiny_zh_config, log=lambda s: None)
    return root
