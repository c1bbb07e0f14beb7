"""Differential test: the C engine against the pure-Python reference.

After every action of thousands of seeded random games (half with the
expansion) both must agree on the sorted legal actions, to_dict(), scores(),
is_terminal and returns().
"""

from __future__ import annotations

import random

import pytest

from tabuleiro import capivarias
from tests.reference import capivarias as ref

GAMES = 2000
CHUNKS = 8


def play_both(seed: int, expansion: bool) -> int:
    """Play one random game in both engines, comparing after every action."""
    eng = capivarias.new_game(seed=seed, expansion=expansion)
    oracle = ref.State.new_game(seed, expansion)
    choose = random.Random(seed ^ 0x5EED)
    steps = 0
    while True:
        where = f"seed={seed} expansion={expansion} step={steps}"
        legal = eng.legal_actions()
        assert legal == oracle.legal_actions(), where
        assert eng.to_dict() == oracle.to_dict(), where
        assert eng.scores() == oracle.scores(), where
        assert eng.is_terminal == oracle.is_terminal, where
        assert eng.returns() == oracle.returns(), where
        assert eng.current_player == oracle.current_player, where
        if eng.is_terminal:
            return steps
        a = choose.choice(legal)
        assert str(capivarias.Move(a)) == oracle.action_to_string(a), where
        eng.apply(a)
        oracle.apply(a)
        steps += 1


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_matches_reference(chunk: int) -> None:
    per = GAMES // CHUNKS
    steps = 0
    for i in range(chunk * per, (chunk + 1) * per):
        steps += play_both(seed=1_000_003 * i + 17, expansion=bool(i % 2))
    assert steps > per * 40  # whole games were played, not stubs
