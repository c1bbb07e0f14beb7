"""Agents play from a seat's view (issue 9, part 1): ``agent.choose(s) ==
agent.choose(s.view(p))`` and likewise ``analyse`` for the player p to move,
for every agent, game and player count; views that no legal game can show are
refused with InvalidStateError."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tabuleiro
from tabuleiro import InvalidStateError, agents

CASES = [("capivarias", {}), ("capivarias", {"expansion": True}), ("capulana", {"players": 2}),
         ("capulana", {"players": 3}), ("capulana", {"players": 4}), ("capulana", {"players": 5}), ("toy", {})]
IDS = ["capivarias", "capivarias-expansion", "capulana-2p", "capulana-3p", "capulana-4p", "capulana-5p", "toy"]
BOTS = [agents.make("random", seed=1), agents.make("greedy", seed=2), agents.make("flatmc", iterations=24, seed=3),
        agents.make("mcts", iterations=24, seed=4), agents.make("ismcts", iterations=24, seed=5),
        agents.make("level", level=2, seed=6), agents.make("level", level=3, seed=7)]


def positions(game: tabuleiro.Game, count: int, seed: int) -> list[Any]:
    """`count` unfinished positions from seeded random play, spread over whole games."""
    out = []
    r = random.Random(seed)
    while len(out) < count:
        s = game.new_initial_state(seed=r.randrange(2**64))
        stops = sorted(r.sample(range(game.info.max_game_length), 4))
        for step in range(game.info.max_game_length):
            if s.is_terminal:
                break
            if stops and step == stops[0]:
                stops.pop(0)
                out.append(s.clone())
            s.push(r.choice(s.legal_actions()))
    return out[:count]


def check(name: str, params: dict[str, Any], count: int) -> None:
    game = tabuleiro.load_game(name, **params)
    for s in positions(game, count, seed=len(name) + game.num_players):
        p = s.current_player
        view = s.view(p)
        assert game.from_view(view).view(p) == view
        for bot in BOTS:
            assert bot.choose(s) == bot.choose(view), (bot, s.to_dict())
            assert bot.choose(s) == bot.choose(json.dumps(view))       # a view received as JSON
        for search in (BOTS[4], BOTS[5]):     # ismcts, and a level that searches
            assert search.analyse(s) == search.analyse(view)


@pytest.mark.parametrize("name, params", CASES, ids=IDS)
def test_agents_choose_the_same_from_the_view(name: str, params: dict[str, Any]) -> None:
    check(name, params, 25)


@pytest.mark.slow
@pytest.mark.parametrize("name, params", CASES, ids=IDS)
def test_agents_choose_the_same_from_the_view_on_500_positions(name: str, params: dict[str, Any]) -> None:
    check(name, params, 500)


@pytest.mark.parametrize("name, params", CASES, ids=IDS)
def test_a_view_no_game_can_show_is_refused(name: str, params: dict[str, Any]) -> None:
    game = tabuleiro.load_game(name, **params)
    s = positions(game, 1, seed=9)[0]
    view = s.view(s.current_player)
    with pytest.raises(TypeError):
        agents.make("greedy").choose([])                            # not a state nor a view at all
    bad_views: list[Any] = ["not json", {"game": name}, dict(view, to_move=7)]
    broken = json.loads(json.dumps(view))
    if name == "capivarias":
        broken["segments"][0]["river"] = {"modifier": 99}          # no card has that river side
    elif name == "capulana":
        broken["deck"] = {"count": broken["deck"]["count"] + 5}    # more cards than the game has
    else:
        broken["stock"] = {"count": 5}
    bad_views.append(broken)
    for bad in bad_views:
        with pytest.raises(InvalidStateError):
            agents.make("greedy").choose(bad)
        if isinstance(bad, dict) and bad.get("game") == name:
            with pytest.raises(InvalidStateError):
                game.from_view(bad, 0)
