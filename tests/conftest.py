"""Shared pytest set-up for tests/.

The test modules import their helpers as ``tests.helpers``, ``tests.reference``
and so on, so the project root must be importable wherever pytest is started
from (cibuildwheel runs ``pytest {project}/tests`` from another directory).
pyproject.toml's ``pythonpath = ["."]`` does that when its pytest table is the
configuration in use; this covers runs that use another configuration (``-c``,
``--rootdir``, a copied tree). Conftest files are imported before the test
modules of their directory, so this is in time.

The package under test is always the installed one: the sources live in
python/tabuleiro, so nothing here shadows ``import tabuleiro``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
