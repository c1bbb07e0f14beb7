"""Differential test: the Capulana C engine against the pure-Python reference.

After every action of 500 seeded random games for each of 2, 3, 4 and 5
players, both must agree on the sorted legal actions, to_dict(), scores(),
returns(), is_terminal and the player to move; the notation of every chosen
action must agree too.
"""

from __future__ import annotations

import random

import pytest

from tabuleiro import capulana
from tests.reference import capulana as ref

GAMES = 500          # per player count
CHUNKS = 5


def oracle_scores(oracle: ref.State, memo: dict) -> list[int]:
    """oracle.scores(), memoised on everything it reads (rows, hand sizes,
    row lengths): the reference's R10 scan dominates the run time otherwise."""
    key = (tuple(map(tuple, oracle.visible)), tuple(map(len, oracle.hands)), tuple(map(len, oracle.rows)),
           tuple(oracle.objectives))
    if key not in memo:
        memo[key] = oracle.scores()
    return memo[key]


def play_both(players: int, seed: int) -> int:
    """Play one random game in both engines, comparing after every action."""
    eng = capulana.new_game(players=players, seed=seed)
    oracle = ref.State.new_game(players, seed)
    choose = random.Random(seed ^ 0xC0FFEE)
    steps = 0
    memo: dict = {}
    while True:
        where = f"players={players} seed={seed} step={steps}"
        legal = eng.legal_actions()
        assert legal == oracle.legal_actions(), where
        assert eng.to_dict() == oracle.to_dict(), where
        assert eng.scores() == oracle_scores(oracle, memo), where
        assert eng.returns() == oracle.returns(), where
        assert eng.is_terminal == oracle.is_terminal, where
        assert eng.current_player == oracle.current_player, where
        if eng.is_terminal:
            return steps
        a = choose.choice(legal)
        assert str(capulana.Move(a)) == ref.action_to_string(a), where
        eng.apply(a)
        oracle.apply(a)
        steps += 1


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engine_matches_reference(players: int, chunk: int) -> None:
    per = GAMES // CHUNKS
    steps = 0
    for i in range(chunk * per, (chunk + 1) * per):
        steps += play_both(players, seed=7_919 * i + 1_000 * players + 13)
    assert steps > per * 40 * players // 2  # whole games were played, not stubs
