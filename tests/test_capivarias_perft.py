"""Perft fixtures (tests/perft/capivarias.perft) agreed by the C engine and the
pure-Python reference."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabuleiro import capivarias
from tests.reference import capivarias as ref

FIXTURES = [
    tuple(int(x) for x in line.split())
    for line in (Path(__file__).parent / "perft" / "capivarias.perft").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def test_fixture_file_is_not_empty() -> None:
    assert len(FIXTURES) >= 6


@pytest.mark.parametrize("seed, expansion, depth, nodes", FIXTURES)
def test_perft(seed: int, expansion: int, depth: int, nodes: int) -> None:
    assert capivarias.new_game(seed=seed, expansion=bool(expansion)).perft(depth) == nodes
    assert ref.perft(ref.State.new_game(seed, bool(expansion)), depth) == nodes
