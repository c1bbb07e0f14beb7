"""The package type-checks (its .pyi stubs describe the extension modules)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mypy_clean() -> None:
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports", "--no-incremental",
                          str(ROOT / "python" / "tabuleiro")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
