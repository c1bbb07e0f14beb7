"""Helpers shared by the test modules."""

from __future__ import annotations

from typing import Any


def strings_in(obj: Any) -> set[str]:
    """Every string anywhere in a JSON-like value (keys included)."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings_in(k) | strings_in(v) for k, v in obj.items())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(strings_in(x) for x in obj)) if obj else set()
    return set()


def deny_writes(monkeypatch: Any, path: Any) -> None:
    """Make ``path`` unwritable for this test: read-only modes, and, for
    root (who writes through file modes), ``os.open`` refusing to open it
    for writing as it does for anyone else."""
    import os
    os.chmod(path, 0o444)
    if os.geteuid() == 0:
        real_open = os.open
        target = os.fspath(path)

        def no_write(p: Any, flags: int, *a: Any, **k: Any) -> int:
            if os.fspath(p) == target and flags & (os.O_WRONLY | os.O_RDWR):
                raise PermissionError(13, "Permission denied", target)
            return real_open(p, flags, *a, **k)

        monkeypatch.setattr(os, "open", no_write)
