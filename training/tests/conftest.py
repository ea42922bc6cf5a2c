"""Shared test setup: a tiny inline corpus, torch-optional skips, running a module.

Run with: /usr/bin/python3 -m pytest -q training/tests   (no data/ needed; training/pytest.ini
puts training/ on the import path, so the tests import keydecide_train)
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

TRAINING = Path(__file__).resolve().parents[1]
REPO_ROOT = TRAINING.parent


def run_module(module: str, *args: str, **kwargs) -> subprocess.CompletedProcess:
    """Run `python3 -m keydecide_train.<module> ARGS` as the README says: from the
    repository root with PYTHONPATH=training. kwargs go to subprocess.run."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TRAINING), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", f"keydecide_train.{module}", *args],
                          cwd=REPO_ROOT, env=env, **kwargs)


def need_torch():
    """Import torch or skip the calling module with a clear reason."""
    return pytest.importorskip(
        "torch", reason="PyTorch is not importable (Debian: apt-get install python3-torch; "
                        "use /usr/bin/python3)")


@pytest.fixture(scope="session")
def tiny_config():
    pytest.importorskip("numpy", reason="numpy is not importable")
    from keydecide_train import dataset as D
    return D.load_config(TRAINING / "config" / "tiny.json")


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory, tiny_config):
    """data/en-like directory with the inline corpus and its token cache."""
    from keydecide_train import dataset as D
    from keydecide_train.tiny_corpus import write_tiny_data
    root = write_tiny_data(tmp_path_factory.mktemp("tiny") / "data")
    D.ensure_cache(root, tiny_config, log=lambda s: None)
    return root
