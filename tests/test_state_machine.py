"""A hypothesis state machine through the public API of every game
(Capivárias with and without the expansion, Capulana with 2 to 5 players,
Toy): random legal pushes, garbage and illegal pushes, pops, clones, views,
determinizations, pickling, dict round trips, dicts with one thing changed,
small searches and the simple agents, with the invariants checked after
every step.

Every step either works or raises one of the package's errors
(``tabuleiro.TabuleiroError`` subclasses, ``TypeError`` for a wrong type,
``IndexError`` for a pop from an empty stack); anything else fails.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import tabuleiro
from tabuleiro import agents

PACKAGE_ERRORS = (tabuleiro.TabuleiroError, TypeError)

CONFIGS = [("capivarias", {"expansion": False}), ("capivarias", {"expansion": True})] + \
    [("capulana", {"players": n}) for n in range(2, 6)] + [("toy", {})]

GARBAGE = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.integers(-2**70, 2**70), st.text(max_size=12),
    st.binary(max_size=4), st.lists(st.integers(0, 5), max_size=2), st.sampled_from(
        ["", "pass", "bid 9", "offer F99", "F01 x+", "F01 n>9", "discard", "discard ZZ", "C1@3", "C1@0/ZZ",
         "play 0", "play 7", "play 1 2", "done done", "stop\x00", "OP1@2/C3/C3", "\u00e9", " " * 3]),
)


def paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) below the root of a JSON-like value."""
    out = []
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for k, v in items:
        out.append((prefix + (k,), v))
        out += paths(v, prefix + (k,))
    return out


def get(obj: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def mutate(d: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """``d`` with one thing changed: a key dropped, two cards swapped, a card
    moved or duplicated, a number or a flag changed, a type changed."""
    d = copy.deepcopy(d)
    every = paths(d)
    strings = [(p, v) for p, v in every if isinstance(v, str) and p[0] != "game"]
    numbers = [(p, v) for p, v in every if isinstance(v, int) and not isinstance(v, bool)]
    lists = [(p, v) for p, v in every if isinstance(v, list)]
    kinds = ["drop", "number", "type", "none"] + ["swap", "duplicate", "move"] * bool(strings) + ["flag"]
    kind = rng.choice(kinds)
    if kind == "drop":
        p, _ = rng.choice(every)
        del get(d, p[:-1])[p[-1]]
    elif kind == "number" and numbers:
        p, n = rng.choice(numbers)
        get(d, p[:-1])[p[-1]] = rng.choice([n + rng.choice([-2, -1, 1, 2]), -1, 0, 1, 4, 9, 10, 2**31, 2**63,
                                            2**64, -2**63 - 1])
    elif kind == "type":
        p, v = rng.choice(every)
        get(d, p[:-1])[p[-1]] = rng.choice([str(v), [v], {"x": v}, 1.5, True])
    elif kind == "none":
        p, _ = rng.choice(every)
        get(d, p[:-1])[p[-1]] = None
    elif kind == "swap" and len(strings) >= 2:
        (p, v), (q, w) = rng.sample(strings, 2)
        get(d, p[:-1])[p[-1]], get(d, q[:-1])[q[-1]] = w, v
    elif kind == "duplicate" and len(strings) >= 2:
        (p, _), (_, w) = rng.sample(strings, 2)
        get(d, p[:-1])[p[-1]] = w
    elif kind == "move" and lists:
        p, v = rng.choice(strings)
        parent = get(d, p[:-1])
        if isinstance(parent, list):
            parent.pop(p[-1])
            rng.choice([lst for _, lst in paths(d) if isinstance(lst, list)] or [parent]).append(v)
    elif kind == "flag":
        flags = [(p, v) for p, v in every if isinstance(v, bool)]
        if flags:
            p, v = rng.choice(flags)
            get(d, p[:-1])[p[-1]] = not v
        else:
            kind = "none"
    return kind, d


class GameMachine(RuleBasedStateMachine):
    """One game at a time, played through its public API; ``model`` is the
    move stack as the test pushed it, with the dict before each push."""

    def __init__(self) -> None:
        super().__init__()
        self.state: Any = None
        self.model: list[tuple[int, dict[str, Any]]] = []

    @initialize(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**64 - 1), warmup=st.integers(0, 40))
    def start(self, config: tuple[str, dict[str, Any]], seed: int, warmup: int) -> None:
        name, params = config
        self.game = tabuleiro.load_game(name, **params)
        self.state = self.game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(warmup):              # mid-game states too, not only openings
            if self.state.is_terminal:
                break
            self.push_tracked(rng.choice(self.state.legal_actions()))

    # --- helpers -------------------------------------------------------------------------------
    def push_tracked(self, move: Any) -> None:
        before = self.state.to_dict()
        self.state.push(move)
        action = move if isinstance(move, int) else self.state.peek().action
        self.model.append((action, before))

    def check_usable(self, s: Any, rng: random.Random, moves: int = 12) -> None:
        """A loaded state works: legal moves, pushes, round trips."""
        for _ in range(moves):
            d = s.to_dict()
            again = type(s).from_dict(d)
            assert again == s and again.to_dict() == d
            if s.is_terminal:
                assert s.legal_actions() == [] and s.current_player is None
                break
            legal = s.legal_actions()
            assert legal, "an unfinished state with no legal move"
            s.push(rng.choice(legal))
        assert pickle.loads(pickle.dumps(s)) == s

    # --- rules ---------------------------------------------------------------------------------------
    @precondition(lambda self: not self.state.is_terminal)
    @rule(data=st.data(), form=st.sampled_from(["id", "notation", "move"]))
    def push_legal(self, data: st.DataObject, form: str) -> None:
        a = data.draw(st.sampled_from(self.state.legal_actions()))
        move = {"id": a, "notation": str(self.state.MOVE(a)), "move": self.state.MOVE(a)}[form]
        self.push_tracked(move)
        assert self.state.peek().action == a

    @rule(garbage=GARBAGE)
    def push_garbage(self, garbage: Any) -> None:
        before, history = self.state.to_dict(), self.state.history()
        try:
            self.state.push(garbage)
        except PACKAGE_ERRORS:
            pass
        else:
            # a well-formed legal move may come out of the garbage (an id, a notation)
            legal_before = type(self.state).from_dict(before).legal_actions()
            assert self.state.peek().action in legal_before, garbage
            self.model.append((self.state.peek().action, before))
            return
        assert self.state.to_dict() == before and self.state.history() == history

    @rule(data=st.data(), form=st.sampled_from(["id", "notation", "move"]))
    def push_illegal(self, data: st.DataObject, form: str) -> None:
        legal = set(self.state.legal_actions())
        n = self.game.num_distinct_actions
        a = data.draw(st.integers(0, n - 1).filter(lambda x: x not in legal))
        move = {"id": a, "notation": str(self.state.MOVE(a)), "move": self.state.MOVE(a)}[form]
        before, history = self.state.to_dict(), self.state.history()
        try:
            self.state.push(move)
        except (tabuleiro.IllegalMoveError, tabuleiro.InvalidMoveError) as e:
            assert isinstance(e, tabuleiro.IllegalMoveError) or form == "notation", (form, a, e)
        else:
            # only a notation that names several ids (a Capivárias capiolin: "V2") may resolve to a legal one
            pushed = self.state.peek()
            assert form == "notation" and str(pushed) == move and pushed.action in legal, (form, a, move)
            self.model.append((pushed.action, before))
            return
        assert self.state.to_dict() == before and self.state.history() == history

    @rule()
    def pop(self) -> None:
        if not self.model:
            try:
                self.state.pop()
            except IndexError:
                return
            raise AssertionError("pop from an empty stack did not raise IndexError")
        action, before = self.model.pop()
        assert self.state.pop().action == action
        assert self.state.to_dict() == before

    @rule(data=st.data())
    def clone(self, data: st.DataObject) -> None:
        c = self.state.clone()
        assert c == self.state and c.history() == self.state.history() and c.root() == self.state.root()
        before = self.state.to_dict()
        if not c.is_terminal:
            c.push(data.draw(st.sampled_from(c.legal_actions())))
            assert self.state.to_dict() == before and c.history() != self.state.history()
        assert copy.deepcopy(self.state) == self.state

    @rule()
    def view(self) -> None:
        for p in range(self.game.num_players):
            v = self.state.view(p)
            assert "seed" not in v
            json.dumps(v)

    @rule(player=st.integers(0, 4), seed=st.integers(0, 2**64 - 1))
    def determinize(self, player: int, seed: int) -> None:
        if player >= self.game.num_players:
            try:
                self.state.determinize(player, seed)
            except ValueError:               # an argument out of range: a plain ValueError, as documented
                return
            raise AssertionError(f"determinize accepted player {player}")
        w = self.state.determinize(player, seed)
        assert w.view(player) == self.state.view(player)
        assert w.is_terminal == self.state.is_terminal and w.current_player == self.state.current_player
        assert type(w).from_dict(w.to_dict()) == w
        assert w == self.state.determinize(player, seed)

    @rule()
    def pickle_round_trip(self) -> None:
        again = pickle.loads(pickle.dumps(self.state))
        assert again == self.state and again.history() == self.state.history()
        assert again.to_dict() == self.state.to_dict() and again.game == self.game

    @rule()
    def dict_round_trip(self) -> None:
        d = self.state.to_dict()
        for loaded in (type(self.state).from_dict(d), self.game.from_dict(d), self.game.from_dict(self.state.to_json())):
            assert loaded == self.state and loaded.to_dict() == d and loaded.history() == []
            assert loaded.legal_actions() == self.state.legal_actions()

    @rule(seed=st.integers(0, 2**32))
    def mutated_dict(self, seed: int) -> None:
        rng = random.Random(seed)
        kind, d = mutate(self.state.to_dict(), rng)
        try:
            s = type(self.state).from_dict(d)
        except tabuleiro.InvalidStateError:
            return
        except Exception as e:  # noqa: BLE001 - reported
            raise AssertionError(f"from_dict of a dict with one {kind} raised {type(e).__name__}: {e}\n{d}") from e
        self.check_usable(s, rng)
        if not s.is_terminal:
            m = agents.make("flatmc", iterations=20, seed=seed).choose(s)
            assert m in s.legal_moves()

    @rule(kind=st.sampled_from(["ismcts", "mcts", "flatmc"]), threads=st.integers(1, 2), seed=st.integers(0, 2**64 - 1),
          rollout=st.sampled_from(["random", "heuristic"]))
    def search(self, kind: str, threads: int, seed: int, rollout: str) -> None:
        bot = agents.make(kind, iterations=20, threads=threads, seed=seed, rollout=rollout)
        before = self.state.to_dict()
        if self.state.is_terminal:
            try:
                bot.choose(self.state)
            except tabuleiro.GameOverError:
                return
            raise AssertionError("a search on a finished game did not raise GameOverError")
        assert bot.choose(self.state) in self.state.legal_moves()
        table = bot.analyse(self.state)
        assert {a.move for a in table} <= set(self.state.legal_moves()) and sum(a.visits for a in table) <= 20
        assert self.state.to_dict() == before and self.state.history() == [a for a, _ in self.model]

    @rule(name=st.sampled_from(["random", "greedy"]), seed=st.integers(0, 2**64 - 1))
    def simple_agent(self, name: str, seed: int) -> None:
        bot = agents.make(name, seed=seed)
        if self.state.is_terminal:
            try:
                bot.choose(self.state)
            except tabuleiro.GameOverError:
                return
            raise AssertionError(f"{name} chose on a finished game")
        assert bot.choose(self.state) in self.state.legal_moves()

    # --- invariants --------------------------------------------------------------------------------
    @invariant()
    def legal_actions_are_sorted_and_match_the_mask(self) -> None:
        if self.state is None:
            return
        legal = self.state.legal_actions()
        assert legal == sorted(set(legal))
        mask = self.state.legal_action_mask()
        assert len(mask) == self.game.num_distinct_actions
        assert [a for a, bit in enumerate(mask) if bit] == legal and set(mask) <= {0, 1}
        assert [m.action for m in self.state.legal_moves()] == legal
        assert (legal == []) == self.state.is_terminal == (self.state.current_player is None)

    @invariant()
    def history_is_the_pushes_minus_the_pops(self) -> None:
        if self.state is None:
            return
        assert self.state.history() == [a for a, _ in self.model]

    @invariant()
    def outcome_and_returns(self) -> None:
        if self.state is None:
            return
        r = self.state.returns()
        assert len(r) == self.game.num_players == len(self.state.scores())
        if self.state.is_terminal:
            assert self.state.outcome() is not None
        else:
            assert self.state.outcome() is None and all(x == 0.0 for x in r)


GameMachine.TestCase.settings = settings(max_examples=100, stateful_step_count=30, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.filter_too_much])
TestGameMachine = GameMachine.TestCase


@pytest.mark.parametrize("name,params", [("capivarias", {}), ("capivarias", {"expansion": True}),
                                         ("capulana", {"players": 2}), ("capulana", {"players": 5})])
def test_whole_game_pops_back_to_the_root_through_every_position(name: str, params: dict[str, Any]) -> None:
    """The move stack keeps a copy every few actions and replays the rest: a
    whole game popped move by move passes back through every position it
    played, and a clone taken midway carries its own stack to the root."""
    rng = random.Random(5)
    s = tabuleiro.load_game(name, **params).new_initial_state(seed=11)
    seen = [s.to_dict()]
    mid = None
    while not s.is_terminal:
        s.push(rng.choice(s.legal_actions()))
        seen.append(s.to_dict())
        if len(seen) == 20:
            mid = s.clone()
    assert len(seen) > 30 and mid is not None
    played = s.history()
    for k in range(len(played), 0, -1):
        assert s.pop().action == played[k - 1]
        assert s.to_dict() == seen[k - 1], k
        assert s.history() == played[:k - 1]
    with pytest.raises(IndexError):
        s.pop()
    assert mid.history() == played[:19]
    while mid.history():
        mid.pop()
    assert mid.to_dict() == seen[0] and mid.root() == s
