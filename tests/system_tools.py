"""What a test does when a system tool it drives (Node.js, Emscripten,
Chromium) is absent: skipped with the reason and the Debian package that
provides it, on a developer's machine; failed under CI (``CI`` set, as
``.ci/run`` sets it), because ``.ci/run`` installs every such tool with apt
and a skip there would hide a broken install rather than a missing one."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def tool_missing(reason: str) -> NoReturn:
    """Skip (or, under CI, fail) the running test, saying why."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; .ci/run installs it, so under CI this is an error, not a skip")
    pytest.skip(f"{reason}; .ci/run installs it")
