"""Perft fixtures (tests/perft/capulana.perft) agreed by the C engine and the
pure-Python reference, for 2 and 4 players, from new games and from positions
before the auction, inside a weaving step and in round 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabuleiro import capulana
from tests.reference import capulana as ref


def _parse(line: str) -> tuple[int, int, int, int, tuple[int, ...]]:
    head, _, path = line.partition("@")
    players, seed, depth, nodes = (int(x) for x in head.split())
    return players, seed, depth, nodes, tuple(int(a) for a in path.split(",") if a.strip())


FIXTURES = [
    _parse(line)
    for line in (Path(__file__).parent / "perft" / "capulana.perft").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def test_fixture_file_covers_2_and_4_players() -> None:
    assert {f[0] for f in FIXTURES} == {2, 4}
    assert len(FIXTURES) >= 8


#: Above this many nodes the pure-Python reference takes seconds: its half of
#: those fixtures runs with the slow tests (CI), the engine's always.
REFERENCE_QUICK_NODES = 20_000


@pytest.mark.parametrize("players, seed, depth, nodes, path", FIXTURES)
def test_perft(players: int, seed: int, depth: int, nodes: int, path: tuple[int, ...]) -> None:
    s = capulana.new_game(players=players, seed=seed)
    for a in path:
        s.apply(a)
    assert s.perft(depth) == nodes


@pytest.mark.parametrize("players, seed, depth, nodes, path", [
    pytest.param(*f, marks=pytest.mark.slow) if f[3] > REFERENCE_QUICK_NODES else f for f in FIXTURES])
def test_reference_perft(players: int, seed: int, depth: int, nodes: int, path: tuple[int, ...]) -> None:
    r = ref.State.new_game(players, seed)
    for a in path:
        r.apply(a)
    assert ref.perft(r, depth) == nodes


def test_perft_small_depths() -> None:
    s = capulana.new_game(players=3, seed=11)
    assert s.perft(0) == 1
    assert s.perft(1) == 3
    assert s.perft(2) == 3 * 7          # each bid, then 7 offers (no done: R4)
    with pytest.raises(ValueError):
        s.perft(-1)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    assert s.perft(0) == 1 and s.perft(1) == 0 and s.perft(3) == 0
