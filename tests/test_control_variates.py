"""Control variates in the search's rollouts (issue 25): the option, its
defaults, and what it must do to a rollout's value: keep its mean, lower its
variance."""

from __future__ import annotations

import math
import statistics
from typing import Any

import pytest

from tabuleiro import agents, capivarias, capulana, load_game
from tabuleiro.agents import SearchAgent, make


def _played(seed: int, plies: int) -> Any:
    s = capivarias.new_game(seed=seed)
    for _ in range(plies):
        s.push(s.legal_moves()[0])
    return s


def _means(state: Any, **params: Any) -> dict[str, float]:
    return {str(a.move): a.mean for a in make("flatmc", **params).analyse(state)}


def test_only_capivarias_has_a_rollout_baseline() -> None:
    assert load_game("capivarias").search_defaults["control_variates"] is True
    assert load_game("capivarias", expansion=True).search_defaults["control_variates"] is True
    assert load_game("capulana").search_defaults["control_variates"] is False
    assert load_game("toy").search_defaults["control_variates"] is False


def test_ismcts_takes_them_by_default_and_flatmc_and_mcts_do_not() -> None:
    s = _played(4, 3)
    for kind, default in (("ismcts", True), ("mcts", False), ("flatmc", False)):
        plain = make(kind, iterations=400, seed=2, control_variates=False).analyse(s)
        corrected = make(kind, iterations=400, seed=2, control_variates=True).analyse(s)
        assert plain != corrected, kind
        assert make(kind, iterations=400, seed=2).analyse(s) == (corrected if default else plain), kind


def test_a_time_budget_or_rollouts_to_the_end_do_not_take_them_by_default() -> None:
    """A time budget (here one that the iterations end first, so that the
    search is deterministic) and horizon=False search with plain rollouts."""
    s = _played(4, 3)
    for extra in ({"time": 1000.0}, {"horizon": False}):
        plain = make("ismcts", iterations=300, seed=2, control_variates=False, **extra).analyse(s)
        assert make("ismcts", iterations=300, seed=2, **extra).analyse(s) == plain, extra
        assert make("ismcts", iterations=300, seed=2, control_variates=True, **extra).analyse(s) != plain, extra


def test_heuristic_rollouts_do_not_take_them() -> None:
    """They correct by the uniform rollout's expectation: asked for with
    heuristic rollouts they are refused; by default they are off there."""
    with pytest.raises(ValueError, match="control_variates need rollout='random'"):
        make("ismcts", rollout="heuristic", control_variates=True)
    s = _played(4, 3)
    heuristic = dict(iterations=300, seed=2, rollout="heuristic")
    assert make("ismcts", **heuristic).analyse(s) == make("ismcts", control_variates=False, **heuristic).analyse(s)


@pytest.mark.parametrize("bad", [1, "yes", 0.5])
def test_a_non_bool_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="control_variates"):
        SearchAgent(control_variates=bad)


def test_nothing_changes_where_a_game_has_no_baseline() -> None:
    s = capulana.new_game(players=3, seed=5)
    for kind in ("flatmc", "mcts", "ismcts"):
        on = make(kind, iterations=200, seed=1, control_variates=True).analyse(s)
        assert on == make(kind, iterations=200, seed=1, control_variates=False).analyse(s)


@pytest.mark.parametrize("seed, plies", [(4, 0), (4, 7), (11, 7)])
def test_the_rollouts_mean_is_unchanged(seed: int, plies: int) -> None:
    """flatmc's root means are rollout means (40,000 iterations: 5,000 to
    10,000 rollouts a root move). A corrected rollout draws the same moves
    as a plain one (one draw a step in both), so the two means differ only
    by the corrections, each of mean zero: within 0.04 (the largest gap seen
    is 0.02). Clipping each corrected value to [-1, 1] had pulled the means
    near -1 up by 0.08 (11 after 7)."""
    s = _played(seed, plies)
    plain = _means(s, iterations=40_000, seed=5, control_variates=False)
    corrected = _means(s, iterations=40_000, seed=5, control_variates=True)
    assert plain.keys() == corrected.keys()
    assert max(abs(plain[m] - corrected[m]) for m in plain) < 0.04


def test_the_rollouts_variance_falls() -> None:
    """Each root move's mean over 2,000 rollouts, from 24 seeds: their spread,
    pooled over the moves, is 0.70 of the plain one's with control variates
    (about half the variance)."""
    s = _played(4, 3)
    spread = {}
    for cv in (False, True):
        means = [_means(s, iterations=2_000, seed=seed, control_variates=cv) for seed in range(24)]
        spread[cv] = math.sqrt(statistics.mean(statistics.variance([m[mv] for m in means]) for mv in means[0]))
    assert spread[True] < 0.8 * spread[False]


def test_the_capivarias_ladder_keeps_plain_rollouts() -> None:
    """The levels were calibrated with plain rollouts, and pin them."""
    for level, (name, params) in agents.LEVELS["capivarias"].items():
        if name == "ismcts":
            assert params["control_variates"] is False, level
