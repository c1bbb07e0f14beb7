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
