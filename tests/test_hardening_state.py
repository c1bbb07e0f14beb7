"""Issue 26 (second hardening round): the state, view and PettingZoo findings.

Each test failed before its fix: ``render()`` showed the other players'
weaving of the current step, deep or odd JSON raised ``RecursionError`` or
``TypeError`` instead of ``InvalidStateError``, choosing from another seat's
view named a field instead of saying so, and a raw AEC ``step()`` after the
game raised ``KeyError``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabuleiro
from tabuleiro import GameOverError, InvalidStateError, agents, load_game, load_state, load_view

pytest.importorskip("pettingzoo")
from tabuleiro.envs import capivarias_v0, capulana_v0  # noqa: E402


def _weaving_position() -> Any:
    """The probe's position: 3-player Capulana, ``reset(seed=11)``, random
    moves until player 0 has woven 2 and player 1 is to move."""
    env = capulana_v0.raw_env(players=3, render_mode="ansi")
    env.reset(seed=11)
    rng = random.Random(0)
    for _ in range(2000):
        s = env.state_obj
        d = s.to_dict()
        if d["phase"] == "weave" and d["woven"][0] >= 2 and s.current_player == 1:
            return env
        obs = env.last()[0]
        mask = obs["action_mask"]
        env.step(rng.choice([i for i in range(len(mask)) if mask[i]]))
    raise AssertionError("the probe's position was not reached")


def test_render_shows_the_movers_view_not_the_others_weaving() -> None:
    env = _weaving_position()
    s = env.state_obj
    text = env.render()
    assert text == s.text(1)
    assert "woven 2" not in text
    p0 = next(line for line in text.splitlines() if line.lstrip("* ").startswith("P0"))
    # player 0's row as player 1 sees it: the row before this step's weaving
    seen = tabuleiro.load_view(s.view(1), 1)
    assert p0.split("]")[0] + "]" == [ln for ln in seen.text(1).splitlines() if "P0 [" in ln][0].split("]")[0] + "]"
    assert s.strips(0) != seen.strips(0)                 # the true row differs: it would have leaked


def test_str_of_a_full_state_says_it_shows_everything() -> None:
    env = _weaving_position()
    first = str(env.state_obj).splitlines()[0]
    assert "full state" in first
    assert "woven 2" in str(env.state_obj)


@pytest.mark.parametrize("mod", [capivarias_v0, capulana_v0])
def test_a_raw_step_after_the_game_is_a_game_over_error(mod: Any) -> None:
    env = mod.raw_env()
    with pytest.raises(GameOverError, match="reset"):
        env.step(0)                                      # before any reset
    env.reset(seed=3)
    rng = random.Random(1)
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            mask = obs["action_mask"]
            env.step(rng.choice([i for i in range(len(mask)) if mask[i]]))
    with pytest.raises(GameOverError, match="reset"):
        env.step(0)
    env.reset(seed=4)                                    # and it plays again after a reset
    assert env.agents


def _deep(n: int) -> list[Any]:
    root: list[Any] = []
    x = root
    for _ in range(n):
        x.append([])
        x = x[0]
    return root


def test_deep_nesting_is_an_invalid_state_error() -> None:
    g = load_game("capulana", players=3)
    s = g.new_initial_state(seed=1)
    text = "[" * 10**5
    for call in (g.from_dict, load_state, load_view, lambda t: g.from_view(t, 0),
                 lambda t: agents.make("greedy", seed=1).choose(t)):
        with pytest.raises(InvalidStateError, match="nests too deeply"):
            call(text)
    d = s.to_dict()
    d["hands"][0] = _deep(10**5)
    for call in (g.from_dict, load_state, load_view, lambda t: agents.make("greedy", seed=1).choose(t)):
        with pytest.raises(InvalidStateError, match="nests deeper than"):
            call(d)
    v = s.view(0)
    v["hands"][1] = {"count": 7, "known": _deep(10**4)}
    with pytest.raises(InvalidStateError, match="nests deeper than"):
        g.from_view(v, 0)


def test_non_finite_numbers_and_non_json_values_are_refused() -> None:
    g = load_game("toy")
    d = g.new_initial_state(seed=1).to_dict()
    for bad in (float("nan"), float("inf"), {1, 2}, object()):
        d2 = dict(d, extra=bad)
        with pytest.raises(InvalidStateError):
            g.from_dict(d2)
    with pytest.raises(InvalidStateError, match="must parse"):
        g.from_dict(json.dumps(d)[:-1] + ', "x": NaN}')


def test_a_list_where_a_view_has_a_card_is_an_invalid_state_error() -> None:
    g = load_game("capulana", players=3)
    v = g.new_initial_state(seed=1).view(0)
    v["slots"][1] = ["F01"]
    with pytest.raises(InvalidStateError, match="slots"):
        g.from_view(v, 0)
    t = load_game("toy")
    tv = t.new_initial_state(seed=1).view(0)
    tv["piles"][0] = [[1]]
    with pytest.raises(InvalidStateError, match="pile"):
        t.from_view(tv, 0)


@pytest.mark.parametrize("name,params", [("capulana", {"players": 3}), ("toy", {})])
def test_choosing_from_another_seats_view_says_so(name: str, params: dict[str, Any]) -> None:
    g = load_game(name, **params)
    s = g.new_initial_state(seed=1)
    mover = s.current_player
    other = (mover + 1) % g.num_players
    with pytest.raises(InvalidStateError, match="another seat's view"):
        agents.make("greedy", seed=1).choose(s.view(other))
    with pytest.raises(InvalidStateError, match="another seat's view"):
        g.from_view(s.view(other), mover)


_json = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() |
                     st.text(max_size=6) | st.sampled_from(["F01", "C3", "OBJ1", 3, -1]),
                     lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
                     max_leaves=12)


def _paths(x: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _paths(v, path + (i,))
    return out


@pytest.mark.parametrize("name,params", [("capulana", {"players": 3}), ("capivarias", {"expansion": True}),
                                         ("toy", {})])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_view_or_state_is_loaded_or_refused_with_an_invalid_state_error(
        name: str, params: dict[str, Any], data: st.DataObject) -> None:
    """Any field of a real view or state dict replaced by any JSON value:
    ``from_view``/``from_dict`` either load it or raise ``InvalidStateError``
    (never TypeError, KeyError, RecursionError...)."""
    g = load_game(name, **params)
    s = g.new_initial_state(seed=data.draw(st.integers(0, 50)))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(rng.randrange(12)):
        if s.is_terminal:
            break
        s.push(rng.choice(s.legal_actions()))
    p = s.current_player if s.current_player is not None else 0
    for d, load in ((s.view(p), lambda x: g.from_view(x, p)), (s.to_dict(), g.from_dict)):
        path = data.draw(st.sampled_from(_paths(d)[1:]))
        value = data.draw(_json)
        target = d
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = value
        try:
            load(d)
        except InvalidStateError:
            pass
