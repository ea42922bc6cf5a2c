"""Shared test setup: training/ on sys.path, a tiny inline corpus, torch-optional skips.

Run with: /usr/bin/python3 -m pytest -q training/tests   (no data/ needed)
"""

import sys
from pathlib import Path

import pytest

TRAINING = Path(__file__).resolve().parents[1]
if str(TRAINING) not in sys.path:
    sys.path.insert(0, str(TRAINING))


def need_torch():
    """Import torch or skip the calling module with a clear reason."""
    return pytest.importorskip(
        "torch", reason="PyTorch is not importable (Debian: apt-get install python3-torch; "
                        "use /usr/bin/python3)")


@pytest.fixture(scope="session")
def tiny_config():
    pytest.importorskip("numpy", reason="numpy is not importable")
    import dataset as D
    return D.load_config(TRAINING / "config" / "tiny.json")


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory, tiny_config):
    """data/en-like directory with the inline corpus and its token cache."""
    import dataset as D
    from tiny_corpus import write_tiny_data
    root = write_tiny_data(tmp_path_factory.mktemp("tiny") / "data")
    D.ensure_cache(root, tiny_config, log=lambda s: None)
    return root
