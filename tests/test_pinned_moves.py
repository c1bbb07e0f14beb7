"""Agents make the moves pinned from the reference build.

tests/fixtures/pinned_moves.json holds positions of both games (as
``State.to_dict()``) and, for each, the move and the ``analyse()`` table of a
set of seeded agents, recorded by tests/fixtures/make_pinned_moves.py with an
earlier build. Agents are deterministic given their parameters and the state,
so a rewrite of the engine, the search or the determinization that keeps
behaviour must reproduce these exactly (means to 1e-9). Regenerate the fixture
only for a deliberate change of behaviour, and say so in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabuleiro import agents, capivarias, capulana

FIXTURE = Path(__file__).parent / "fixtures" / "pinned_moves.json"
DATA = json.loads(FIXTURE.read_text(encoding="utf-8"))
AGENTS = [(name, params) for name, params in DATA["agents"]]


def label(name: str, params: dict[str, Any]) -> str:
    return name + "".join(f"-{k}={v}" for k, v in params.items())


CASES = [
    pytest.param(pos["state"], AGENTS[row["agent"]], row, id=f"{pos['id']}-{label(*AGENTS[row['agent']])}")
    for pos in DATA["positions"]
    for row in pos["results"]
]


def load(d: dict[str, Any]) -> Any:
    game = {"capivarias": capivarias, "capulana": capulana}[d["game"]]
    return game.State.from_dict(d)


def test_fixture_covers_both_games_and_every_agent() -> None:
    games = {pos["state"]["game"] for pos in DATA["positions"]}
    assert games == {"capivarias", "capulana"}
    assert any(pos["state"].get("phase") == "weave" for pos in DATA["positions"])
    assert {name for name, _ in AGENTS} == set(agents.NAMES)
    assert len(CASES) == len(DATA["positions"]) * len(AGENTS)


@pytest.mark.parametrize("state_dict, agent, expected", CASES)
def test_pinned_move(state_dict: dict[str, Any], agent: tuple[str, dict[str, Any]], expected: dict[str, Any]) -> None:
    name, params = agent
    state = load(state_dict)
    before = state.to_dict()

    assert agents.make(name, **params).choose(state).action == expected["move"]

    got = [(m.action, visits, mean) for m, visits, mean in agents.make(name, **params).analyse(state)]
    assert [(a, v) for a, v, _ in got] == [(a, v) for a, v, _ in expected["analyse"]]
    assert [mean for _, _, mean in got] == pytest.approx([mean for _, _, mean in expected["analyse"]], abs=1e-9)

    assert state.to_dict() == before   # agents never mutate the state they are given


def test_the_round_horizon_changes_capivarias_searches_only() -> None:
    """Rows 7-9 are rows 2-4 with the game's default horizon: Capivárias
    rolls out to the round's last take (other results), Capulana has no horizon
    (the same results, bit for bit)."""
    pairs = [(2, 7), (3, 8), (4, 9)]
    for old, new in pairs:
        assert AGENTS[old][1] == {**AGENTS[new][1], "horizon": False} and AGENTS[old][0] == AGENTS[new][0]
    differ = {"capivarias": 0, "capulana": 0}
    for pos in DATA["positions"]:
        rows = {row["agent"]: row for row in pos["results"]}
        for old, new in pairs:
            differ[pos["state"]["game"]] += rows[old]["analyse"] != rows[new]["analyse"]
    assert differ["capulana"] == 0
    n_capivarias = sum(pos["state"]["game"] == "capivarias" for pos in DATA["positions"])
    assert n_capivarias >= 6 and differ["capivarias"] == len(pairs) * n_capivarias
