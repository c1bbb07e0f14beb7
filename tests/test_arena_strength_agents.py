"""bench/strength_agents.py, the experimental agents of issue 25's SPRT runs
(docs/strength.md, *Against the baseline build*): they choose what their
docstrings say from the search's own root statistics, refuse bad
parameters, and play in the arena as ``module:attr`` factory specs.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from tabuleiro import agents, arena, capivarias

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def strength_agents(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``bench.strength_agents`` importable, as from the repository's root."""
    monkeypatch.syspath_prepend(str(ROOT))
    import importlib
    mod = importlib.import_module("bench.strength_agents")
    yield mod
    sys.modules.pop("bench.strength_agents", None)


def _position(seed: int) -> Any:
    s = capivarias.new_game(seed=seed)
    for _ in range(3):
        s.push(s.legal_moves()[0])
    return s


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lcb_child_picks_the_highest_lower_bound_of_the_same_search(strength_agents: Any, seed: int) -> None:
    state = _position(seed)
    table = agents.SearchAgent(kind="ismcts", iterations=300, seed=7).analyse(state)
    for z in (0.0, 0.5, 1.0, 1e6):
        got = strength_agents.lcb(seed=7, z=z, iterations=300).choose(state)
        tried = [a for a in table if a.visits > 0]
        best = max(a.mean - z / math.sqrt(a.visits) for a in tried)
        chosen = next(a for a in tried if a.move == got)
        assert chosen.mean - z / math.sqrt(chosen.visits) == best
    # z = 0 is the max child (best mean); a huge z the most visited one (the robust child, today's move)
    assert strength_agents.lcb(seed=7, z=0.0, iterations=300).choose(state) == \
        max((a for a in table if a.visits), key=lambda a: (a.mean, a.visits, -a.move.action)).move
    assert strength_agents.lcb(seed=7, z=1e6, iterations=300).choose(state) == table[0].move


@pytest.mark.parametrize("bad", [{"z": -1.0}, {"z": float("nan")}, {"z": True}, {"iterations": 0},
                                 {"iterations": True}, {"iterations": 2.5}])
def test_lcb_child_refuses_bad_parameters(strength_agents: Any, bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(bad))):
        strength_agents.lcb(seed=0, **bad)


def test_lcb_child_plays_in_the_arena_as_a_factory_spec(strength_agents: Any, tmp_path: Path) -> None:
    s = arena.run("capivarias", ["bench.strength_agents:lcb:z=1.0,iterations=50", "ismcts:iterations=50"],
                  deals=2, seed=3, jobs=1, out=tmp_path / "l.jsonl")
    assert s["games"] == 4
    again = arena.run("capivarias", ["bench.strength_agents:lcb:z=1.0,iterations=50", "ismcts:iterations=50"],
                      deals=2, seed=3, jobs=1)
    assert again["pair"] == s["pair"]      # seeded from the deal and the seat: the same games
