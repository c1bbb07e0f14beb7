"""A state the API accepts never leads, by legal play, to one it rejects
(DESIGN.md; issue 26 item 2).

Random legal play over both games, every player count, Capivárias with and
without the expansion (and either first player): every state reached
round-trips through ``from_dict`` and every seat's view through
``from_view``, and every determinization is itself a loadable state. The
state check enforces the counts the rules imply (tests/test_core_state_check.py);
this is the guard that it never rejects anything play reaches.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabuleiro

CONFIGS = [("capulana", {"players": n}) for n in range(2, 6)] + [
    ("capivarias", {"expansion": e, "first_player": f}) for e in (False, True) for f in (0, 1)]


def _check_state(g: Any, s: Any, rng: random.Random) -> None:
    d = s.to_dict()
    back = g.from_dict(d)
    assert back == s and back.to_dict() == d
    for p in range(g.num_players):
        v = s.view(p)
        assert g.from_view(v, p).view(p) == v
        w = s.determinize(p, seed=rng.randrange(2 ** 64))
        assert g.from_dict(w.to_dict()) == w


def _play(name: str, params: dict[str, Any], seed: int, every: int) -> int:
    """Play one random game from seed, checking every `every`-th state and the last; the states checked."""
    g = tabuleiro.load_game(name, **params)
    rng = random.Random(seed)
    s = g.new_initial_state(seed=seed)
    checked = k = 0
    while True:
        if k % every == 0 or s.is_terminal:
            _check_state(g, s, rng)
            checked += 1
        if s.is_terminal:
            return checked
        s.push(rng.choice(s.legal_actions()))
        k += 1


@pytest.mark.parametrize("name,params", CONFIGS, ids=[f"{n}-{p}" for n, p in CONFIGS])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 64 - 1))
def test_every_reached_state_loads(name: str, params: dict[str, Any], seed: int) -> None:
    assert _play(name, params, seed, every=1) > 10


@pytest.mark.slow
@pytest.mark.parametrize("name,params", CONFIGS, ids=[f"{n}-{p}" for n, p in CONFIGS])
def test_every_reached_state_loads_many_games(name: str, params: dict[str, Any]) -> None:
    for seed in range(40):
        _play(name, params, 1000 + seed, every=1)


@pytest.mark.parametrize("name,params", CONFIGS, ids=[f"{n}-{p}" for n, p in CONFIGS])
def test_loaded_states_play_on_to_loadable_states(name: str, params: dict[str, Any]) -> None:
    """From a state loaded from a dict (and from a view), play goes on to
    states that load: the check is closed under play from what it accepts."""
    g = tabuleiro.load_game(name, **params)
    rng = random.Random(7)
    for seed in range(3):
        s = g.new_initial_state(seed=seed)
        for _ in range(rng.randrange(0, 60)):
            if s.is_terminal:
                break
            s.push(rng.choice(s.legal_actions()))
        for start in (g.from_dict(s.to_dict()), None if s.is_terminal else g.from_view(s.view(s.current_player))):
            if start is None:
                continue
            t = start.clone()
            while not t.is_terminal:
                t.push(rng.choice(t.legal_actions()))
                assert g.from_dict(t.to_dict()) == t
