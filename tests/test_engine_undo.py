"""The undo rule of a seat-bound session (issue 26, docs/protocol.md "The
undo rule"): a seat may take back only moves after which its view held
nothing it did not already know.

The property is checked independently of the engine's own test: for every
prefix of a random game and every seat, each undo the engine allows is
checked against worlds the engine never tries (``determinize`` with seeds
drawn by hypothesis, far from the engine's fixed ones, and the world
``Game.from_view`` builds): the seat's view after the move must be the same
in each of them, after the seat's own move, or after *every* legal move of
another player (the seat is not told which one was played).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabuleiro
from tabuleiro import engine

CONFIGS = [("capivarias", {"expansion": False}), ("capivarias", {"expansion": True})] + \
    [("capulana", {"players": n}) for n in (2, 3, 4, 5)] + [("toy", {})]
CONFIG_IDS = ["capivarias", "capivarias-expansion", "capulana-2p", "capulana-3p", "capulana-4p", "capulana-5p", "toy"]


class Bound:
    """An in-process session bound to a seat."""

    def __init__(self, name: str, params: dict[str, Any], seed: int, seat: int) -> None:
        self.answers: list[dict[str, Any]] = []
        self.engine = engine.Engine(lambda data: self.answers.append(json.loads(data)))
        assert self.call(cmd="new", game=name, seed=seed, seat=seat, **params)["ok"]

    def call(self, **request: Any) -> dict[str, Any]:
        n = len(self.answers)
        self.engine.handle_line(json.dumps({"id": n, **request}).encode())
        assert len(self.answers) == n + 1
        return self.answers[-1]


def learned(before: Any, action: int, seat: int, seeds: list[int]) -> bool:
    """Did the seat's view after ``action`` (played from ``before``) hold
    anything its view before, and the move when it is the seat's own, did
    not determine? Tried in the true world, the ``from_view`` world and a
    determinization per seed."""
    after = before.clone()
    after.push(action)
    want = after.view(seat)
    own = before.current_player == seat
    worlds = [before.clone(), before.game.from_view(before.view(seat), seat)] + \
        [before.determinize(seat, s) for s in seeds]
    for w in worlds:
        assert w.view(seat) == before.view(seat)
        for a in ([action] if own else w.legal_actions()):
            if a not in w.legal_actions():
                continue
            w.push(a)
            if w.view(seat) != want:
                return True
            w.pop()
    return False


def check_undos(name: str, params: dict[str, Any], seed: int, moves: int, seeds: list[int]) -> dict[str, int]:
    """Play a random game (at most ``moves`` moves) in one session per seat;
    after every move ask for an undo; every undo allowed must pass
    :func:`learned`. Counts what happened."""
    game = tabuleiro.load_game(name, **params)
    counts = {"allowed": 0, "refused": 0, "refused_learned": 0}
    for seat in range(game.num_players):
        truth = game.new_initial_state(seed=seed)
        s = Bound(name, params, seed, seat)
        rng = random.Random(seed * 7 + seat)
        for _ in range(moves):
            if truth.is_terminal:
                break
            a = rng.choice(truth.legal_actions())
            before = truth.clone()
            assert s.call(cmd="play", move=a)["ok"]
            truth.push(a)
            r = s.call(cmd="undo")
            if r["ok"]:
                assert not learned(before, a, seat, seeds), (name, params, seed, seat, str(before.peek())
                                                               if before.history() else None, truth.peek())
                assert r["view"] == before.view(seat)
                counts["allowed"] += 1
                assert s.call(cmd="play", move=a)["ok"]
            else:
                assert r["error"]["code"] == "forbidden", r
                counts["refused"] += 1
                counts["refused_learned"] += learned(before, a, seat, seeds)
            assert s.call(cmd="state")["state"] == truth.view(seat)
    return counts


SEEDS = st.lists(st.integers(2**32, 2**63), min_size=4, max_size=4)


@pytest.mark.parametrize("name, params", CONFIGS, ids=CONFIG_IDS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), seeds=SEEDS)
def test_an_allowed_undo_never_took_back_information(name: str, params: dict[str, Any], seed: int,
                                                    seeds: list[int]) -> None:
    check_undos(name, params, seed, 36, seeds)


@pytest.mark.slow
@pytest.mark.parametrize("name, params", CONFIGS, ids=CONFIG_IDS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), seeds=st.lists(st.integers(2**32, 2**63), min_size=16, max_size=16))
def test_an_allowed_undo_never_took_back_information_whole_games(name: str, params: dict[str, Any], seed: int,
                                                                 seeds: list[int]) -> None:
    check_undos(name, params, seed, 10**6, seeds)


def _first(name: str, params: dict[str, Any], seat: int, event: Any, limit: int = 200) -> tuple[Bound, Any]:
    """A bound session and the truth, a random game played up to just after
    the first move of the seat's own for which ``event(before, after)`` (its
    views) holds and which showed the seat something (:func:`learned`): the
    own-move check, since another player's move is never taken back."""
    game = tabuleiro.load_game(name, **params)
    for seed in range(limit):
        truth = game.new_initial_state(seed=seed)
        s = Bound(name, params, seed, seat)
        rng = random.Random(seed)
        while not truth.is_terminal:
            before, own = truth.clone(), truth.current_player == seat
            a = rng.choice(truth.legal_actions())
            assert s.call(cmd="play", move=a)["ok"]
            truth.push(a)
            if own and event(before.view(seat), truth.view(seat)) and learned(before, a, seat, [1, 2, 3]):
                return s, truth
    raise AssertionError("no such move found")


@pytest.mark.parametrize("expansion", [False, True])
def test_the_round_ending_move_of_capivarias_cannot_be_taken_back(expansion: bool) -> None:
    """It deals the next round: a seat could try each ending move, see each deal, undo, choose."""
    for seat in (0, 1):
        s, truth = _first("capivarias", {"expansion": expansion}, seat,
                          lambda b, a: a["round"] != b["round"] and a["winner"] is None)
        r = s.call(cmd="undo")
        assert r["error"]["code"] == "forbidden", r
        assert s.call(cmd="state")["state"] == truth.view(seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_done_that_resolves_a_capulana_auction_cannot_be_taken_back(players: int) -> None:
    for seat in range(players):
        s, truth = _first("capulana", {"players": players}, seat,
                          lambda b, a: b["phase"] == "offer" and a["phase"] == "weave")
        assert s.call(cmd="undo")["error"]["code"] == "forbidden"
        assert s.call(cmd="state")["state"] == truth.view(seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_last_weave_of_a_capulana_step_cannot_be_taken_back(players: int) -> None:
    """It shows how the others wove (R7)."""
    def others_shown(b: dict[str, Any], a: dict[str, Any]) -> bool:
        seat = next(q for q, h in enumerate(a["hands"]) if isinstance(h, list))
        return any(b["capulanas"][q] != a["capulanas"][q] for q in range(len(a["capulanas"])) if q != seat)

    for seat in range(players):
        s, truth = _first("capulana", {"players": players}, seat, others_shown)
        assert s.call(cmd="undo")["error"]["code"] == "forbidden"


def test_a_seats_own_quiet_move_can_be_taken_back() -> None:
    """The rule is not "never": the seat's own move that showed it nothing new (a
    Capivárias move that does not end the round) is taken back, and a
    count=2 take-back across another player's visible move is refused."""
    game = tabuleiro.load_game("capivarias")
    truth = game.new_initial_state(seed=11)
    s = Bound("capivarias", {}, 11, 0)
    a = truth.legal_actions()[0]
    assert s.call(cmd="play", move=a)["ok"]
    r = s.call(cmd="undo")
    assert r["ok"] and r["moves"][0]["id"] == a and r["view"] == truth.view(0)
    assert s.call(cmd="play", move=a)["ok"]
    truth.push(a)
    b = truth.legal_actions()[0]                     # the other player's reply: public, but their choice
    assert s.call(cmd="play", move=b)["ok"]
    assert s.call(cmd="undo", count=2)["error"]["code"] == "forbidden"
    assert s.call(cmd="undo")["error"]["code"] == "forbidden"


def test_no_seat_bound_undo_under_the_legacy_determinization() -> None:
    """A review's case (issue 26): with ``legacy_determinize`` every sampled
    world has the others weaving nothing, so when they really wove nothing
    the seat's game-ending ``stop`` passed the test and could be taken back
    after it showed the final scores. Such a game refuses every seat-bound undo."""
    params = {"players": 2, "legacy_determinize": True}
    g = tabuleiro.load_game("capulana", **params)
    rng = random.Random(0)
    s = g.new_initial_state(seed=0)
    moves = []
    while not s.is_terminal:
        d, seat = s.to_dict(), s.current_player
        last = (d["start_player"] + 1) % 2
        stop = g.parse_move("stop").action
        if d["phase"] == "weave" and stop in s.legal_actions() and (seat != last or d["round"] == 4):
            a = stop                                  # the others weave nothing
        else:
            a = rng.choice(s.legal_actions())
        moves.append(a)
        s.push(a)
    b = Bound("capulana", params, 0, 0)
    for a in moves:
        assert b.call(cmd="play", move=a)["ok"]
    assert b.call(cmd="state")["state"]["phase"] == "over"
    answer = b.call(cmd="undo")
    assert not answer["ok"] and answer["error"]["code"] == "forbidden"
    assert "legacy_determinize" in answer["error"]["message"]
    assert b.call(cmd="state")["state"]["phase"] == "over"        # nothing taken back
    assert tabuleiro.load_game("capulana", players=2).determinize_is_exact
