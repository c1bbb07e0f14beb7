"""State.try_push and the player checks of the observation calls: the
adapters' fast paths (issue 27).

``try_push`` agrees with ``push`` on every id: True and the same state when the id is
legal, False and the state untouched (position and move stack) when it is
not, out-of-range ids included; a non-integer (a bool, a float, a string)
is a TypeError, the state untouched.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabuleiro

GAMES = [("capivarias", {}), ("capulana", {"players": 3}), ("toy", {})]


def _state_after(name: str, params: dict[str, int], seed: int, plies: int) -> tabuleiro.State:
    s = tabuleiro.load_game(name, **params).new_initial_state(seed=seed)
    for k in range(plies):
        if s.is_terminal:
            break
        legal = s.legal_actions()
        s.push(legal[(seed + k) % len(legal)])
    return s


@pytest.mark.parametrize("name,params", GAMES, ids=[g[0] for g in GAMES])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32), plies=st.integers(0, 60), data=st.data())
def test_try_push_agrees_with_push(name: str, params: dict[str, int], seed: int, plies: int,
                                   data: st.DataObject) -> None:
    s = _state_after(name, params, seed, plies)
    n = s.game.num_distinct_actions
    legal = s.legal_actions()
    ids = st.integers(-3, n + 3) | st.integers(-(2 ** 70), 2 ** 70)
    if legal:
        ids = ids | st.sampled_from(legal)
    a = data.draw(ids)
    t = s.clone()
    ok = t.try_push(a)
    assert ok == (a in legal)
    if ok:
        u = s.clone()
        u.push(a)
        assert t == u and t.history() == u.history() == s.history() + [a]
    else:
        assert t == s and t.history() == s.history()


def test_try_push_takes_numpy_integers_and_refuses_other_types() -> None:
    s = tabuleiro.load_game("capivarias").new_initial_state(seed=3)
    a = s.legal_actions()[0]
    for bad in (True, False, np.bool_(True), float(a), str(a), None, [a]):
        with pytest.raises(TypeError, match="an action is an integer id"):
            s.try_push(bad)  # type: ignore[arg-type]
        assert s.history() == []
    assert s.try_push(np.int64(a)) and s.history() == [a]


def test_try_push_after_the_end_is_false() -> None:
    s = _state_after("toy", {}, 2, 100)
    assert s.is_terminal
    before = s.history()
    assert not any(s.try_push(a) for a in range(s.game.num_distinct_actions))
    assert s.history() == before


@pytest.mark.parametrize("bad", [True, np.bool_(False), 2, -1, 1.0, "0", None])
def test_observation_and_observe_into_check_the_player(bad: object) -> None:
    """Both write nothing for a player that is not an int seat (the check is C's)."""
    s = tabuleiro.load_game("toy").new_initial_state(seed=2)
    obs = np.full(s.game.observation_size, 7.0, np.float32)
    mask = np.full(s.game.num_distinct_actions, 9, np.int8)
    with pytest.raises(ValueError, match="player must be an integer in"):
        s.observation(bad, out=obs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="player must be an integer in"):
        s.observe_into(bad, obs, mask)  # type: ignore[arg-type]
    assert (obs == 7.0).all() and (mask == 9).all()
