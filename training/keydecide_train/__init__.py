"""keydecide's training pipeline: text preparation, simulated typing, the typing model,
training and export (training/README.md).

A plain package, run from the repository root with training/ on the import path, so that
every relative path (data/en, training/config/..., models/layouts/...) means what it says:

  PYTHONPATH=training /usr/bin/python3 -m keydecide_train.train --config ... --out ...

Each module with a command line is run with -m the same way; the tests
(training/tests, `/usr/bin/python3 -m pytest -q training/tests`) find the package through
training/pytest.ini.
"""
