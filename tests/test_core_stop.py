"""Stop flags in the C loops (issue 26, items 3 and 4).

A ``StopFlag`` that is already set when a search, a perft or random playouts
start ends them before any work (0 iterations, no node counted, no game
played), and a flag set while ``State.perft`` runs ends it within 0.1 s
(asserted with a 10x slack, < 1 s: machines are noisy).
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

import tabuleiro
from tabuleiro import agents, engine
from tabuleiro.agents import StopFlag

GAMES = [("toy", {}), ("capivarias", {}), ("capivarias", {"expansion": True}), ("capulana", {"players": 3})]


def _wide_position() -> Any:
    """The Capulana position of issue 26 item 3: 97 legal moves (a weaving turn)."""
    s = tabuleiro.load_game("capulana", players=2).new_initial_state(seed=1)
    rng = random.Random(1)
    for _ in range(17):
        s.push(rng.choice(s.legal_actions()))
    assert len(s.legal_actions()) == 97
    return s


def _set_flag() -> StopFlag:
    flag = StopFlag()
    flag.set()
    return flag


# --- item 4: a flag set before the search starts ---------------------------------------------------------


@pytest.mark.parametrize("name,params", GAMES)
@pytest.mark.parametrize("kind", ["flatmc", "mcts", "ismcts"])
@pytest.mark.parametrize("budget", [{"iterations": 10 ** 7}, {"iterations": 100}, {"time": 30.0},
                                    {"iterations": 10 ** 7, "threads": 2}])
def test_preset_flag_runs_no_iteration(name: str, params: dict[str, Any], kind: str, budget: dict[str, Any]) -> None:
    """Decided (csrc/search/search.h): 0 iterations, and the move returned is
    the legal move with the lowest id (nothing was searched)."""
    s = tabuleiro.load_game(name, **params).new_initial_state(seed=4)
    r = agents.make(kind, seed=1, **budget).search(s, stop=_set_flag())
    assert r.iterations == 0
    assert r.stopped is True
    assert r.move.action == s.legal_actions()[0]
    assert all(a.visits == 0 for a in r.analysis)


@pytest.mark.parametrize("n", [10 ** 9, 10])
def test_preset_flag_plays_no_random_game(n: int) -> None:
    g = tabuleiro.load_game("capivarias")
    st = g._core.random_playouts(n, 1, _set_flag())
    assert st["games"] == 0 and st["actions"] == 0 and st["stopped"] is True


def test_unset_flag_changes_nothing() -> None:
    s = tabuleiro.load_game("capivarias").new_initial_state(seed=4)
    a = agents.make("ismcts", iterations=300, seed=1).search(s, stop=StopFlag())
    b = agents.make("ismcts", iterations=300, seed=1).search(s)
    assert a.iterations == b.iterations == 300 and not a.stopped
    assert a.analysis == b.analysis


# --- item 3: perft polls the flag ------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [1, 2, 3, 6])
def test_perft_with_a_preset_flag_counts_nothing(depth: int) -> None:
    s = _wide_position()
    assert s.perft(depth, stop=_set_flag()) is None


def test_perft_with_an_unset_flag_counts_as_without() -> None:
    s = _wide_position()
    for depth in range(4):
        assert s.perft(depth, stop=StopFlag()) == s.perft(depth)
    assert s.perft(3) == 242906


@pytest.mark.parametrize("bad", ["stop", 1, True, threading.Event()])
def test_perft_stop_must_be_a_stop_flag(bad: Any) -> None:
    with pytest.raises(TypeError, match="stop"):
        _wide_position().perft(2, stop=bad)


def test_perft_stop_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        _wide_position().perft(2, StopFlag())  # type: ignore[misc]


def _stop_latency(run: Any) -> tuple[Any, float]:
    """Run run(flag) on a thread, set the flag after 0.3 s; (its result, seconds from set to return)."""
    flag = StopFlag()
    out: dict[str, Any] = {}

    def work() -> None:
        out["result"] = run(flag)
        out["t"] = time.monotonic()

    t = threading.Thread(target=work)
    t.start()
    time.sleep(0.3)
    t0 = time.monotonic()
    flag.set()
    t.join(30)
    assert not t.is_alive(), "the perft did not end within 30 s of the stop"
    return out["result"], out["t"] - t0


def test_perft_stops_within_a_tenth_of_a_second() -> None:
    """Depth 8 from 97 moves would run for hours; the flag ends it (0.1 s
    required, < 1 s asserted: a 10x slack for a loaded machine)."""
    s = _wide_position()
    result, latency = _stop_latency(lambda flag: s.perft(8, stop=flag))
    assert result is None
    assert latency < 1.0


def test_engine_perft_is_one_stoppable_call() -> None:
    """The engine's perft path hands the flag to State.perft (no Python walk above it)."""
    s = _wide_position()
    result, latency = _stop_latency(lambda flag: engine._perft(s, 8, flag))
    assert result is None and latency < 1.0
    assert engine._perft(s, 3, StopFlag()) == 242906
    assert engine._perft(s, 3, _set_flag()) is None
