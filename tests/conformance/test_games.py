"""One game-generic conformance suite, run on every registered game and
parameter set (``tests/conformance/_support.py`` makes them from the
registry; a newly registered game fails ``test_every_registered_game_is_listed``
until ``tests/conformance/games/<game>.py`` says what its cards are).

Every check runs on seeded positions reached by uniformly random play (roots,
positions along the games, terminal positions): the GameInfo facts, legal
actions and their mask, notation round trips, the move stack (push / pop /
peek / history / root), clone / copy / deepcopy / pickle, the dict and JSON
round trips, the view / determinize contract, outcome and returns, the error
classes (and that a failed call leaves the state as it was), from_dict's
errors, perft, every agent and random_playouts.
"""

from __future__ import annotations

import ast
import copy
import io
import json
import pickle
import random
import re
import tokenize
from pathlib import Path
from typing import Any, Callable

import pytest

import tabuleiro
from tabuleiro import (GameOverError, IllegalMoveError, InvalidMoveError, InvalidStateError, Move, Outcome, State,
                       agents)
from tests.conformance._support import (AGENT_NAMES, CASE_BY_ID, CASES, GAME_PARAMS, card_names_in, case_seed,
                                        hidden_zones, positions, profile, random_games)

CASE_IDS = [c.id for c in CASES]
case_param = pytest.mark.parametrize("case_id", CASE_IDS)


def game_of(case_id: str) -> tabuleiro.Game:
    return CASE_BY_ID[case_id].game


def snapshot(s: State) -> tuple[Any, ...]:
    """Everything a failed call must leave unchanged."""
    return (s.clone(), s.to_dict(), s.history(), s.legal_actions(), s.current_player)


def assert_unchanged(s: State, snap: tuple[Any, ...]) -> None:
    clone, d, hist, legal, player = snap
    assert s == clone
    assert s.to_dict() == d
    assert s.history() == hist
    assert s.legal_actions() == legal
    assert s.current_player == player


# --- the registry -------------------------------------------------------------------------------


def test_every_registered_game_is_listed() -> None:
    registered = tabuleiro.games()
    assert registered == sorted(registered)
    missing = set(registered) - set(GAME_PARAMS)
    assert not missing, f"registered games without parameter sets in tests/conformance/_support.py: {missing}"
    assert set(GAME_PARAMS) <= set(registered), "parameter sets of a game that is not registered"
    assert all(GAME_PARAMS[name] for name in registered)
    for name in registered:   # what the suites must know of its cards, in its own module
        module = profile(name)
        assert callable(module.hidden_zones) and module.CARDS.names, f"tests/conformance/games/{name}.py"
    assert len(set(CASE_IDS)) == len(CASE_IDS)


def _code_tokens_naming_a_game(path: Path) -> list[tuple[int, str]]:
    """(line, token) of each token of ``path`` that names a registered game,
    docstrings and comments aside."""
    src = path.read_text(encoding="utf-8")
    docs: set[int] = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
                    isinstance(first.value.value, str):
                docs.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    pattern = re.compile("|".join(map(re.escape, tabuleiro.games())), re.IGNORECASE)
    return [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(src).readline)
            if t.type != tokenize.COMMENT and t.start[0] not in docs and pattern.search(t.string)]


def test_the_adapters_and_this_suite_name_no_game() -> None:
    """Issue 27: OpenSpiel's games, PettingZoo's envs and these suites are
    made from the registry; game knowledge is in the games' own modules."""
    package = Path(tabuleiro.__file__).parent
    files = [package / "openspiel.py", *sorted((package / "envs").glob("*.py")),
             Path(__file__).parent / "_support.py"]
    assert len(files) >= 4 and all(f.exists() for f in files)
    named = {f.name: _code_tokens_naming_a_game(f) for f in files}
    assert all(not v for v in named.values()), named


@case_param
def test_game_object(case_id: str) -> None:
    case = CASE_BY_ID[case_id]
    game = case.game
    assert isinstance(game, tabuleiro.Game)
    assert game.name == case.name
    assert tabuleiro.load_game(case.name, **dict(case.params)) is game
    assert {k: v for k, v in game.params.items() if k in dict(case.params)} == dict(case.params)
    assert game == tabuleiro.load_game(case.name, **game.params) and hash(game) == hash(tabuleiro.load_game(case.name, **game.params))
    assert pickle.loads(pickle.dumps(game)) == game
    s = game.new_initial_state(seed=1)
    assert isinstance(s, State) and s.game is game
    assert s == game.new_initial_state(seed=1)


@case_param
def test_game_info(case_id: str) -> None:
    game = game_of(case_id)
    info = game.info
    assert isinstance(info, tabuleiro.GameInfo)
    assert info.name == game.name
    assert isinstance(info.num_players, int) and 1 <= info.num_players <= 5
    assert info.num_players == game.num_players
    if "players" in game.params:
        assert info.num_players == game.params["players"]
    assert isinstance(info.num_distinct_actions, int) and info.num_distinct_actions > 0
    assert info.num_distinct_actions == game.num_distinct_actions == game.MOVE.NUM_ACTIONS
    assert info.min_utility < info.max_utility
    assert isinstance(info.hidden_information, bool)
    assert isinstance(info.max_game_length, int) and info.max_game_length > 0
    for final, actions in random_games(case_id, 30):
        assert final.is_terminal
        assert 0 < len(actions) <= info.max_game_length
        assert len(final.legal_action_mask()) == info.num_distinct_actions
        assert len(final.returns()) == len(final.scores()) == info.num_players


# --- legal actions and notation ---------------------------------------------------------------


@case_param
def test_legal_actions(case_id: str) -> None:
    game = game_of(case_id)
    n = game.num_distinct_actions
    for s in positions(case_id):
        legal = s.legal_actions()
        assert legal == sorted(set(legal)), "sorted and unique"
        assert all(isinstance(a, int) and 0 <= a < n for a in legal)
        assert bool(legal) == (not s.is_terminal)
        assert (s.current_player is None) == s.is_terminal
        if not s.is_terminal:
            assert 0 <= s.current_player < game.num_players
        mask = s.legal_action_mask()
        assert isinstance(mask, bytes) and len(mask) == n
        assert set(mask) <= {0, 1}
        assert [a for a in range(n) if mask[a]] == legal
        assert [m.action for m in s.legal_moves()] == legal


@case_param
def test_notation_round_trip(case_id: str) -> None:
    game = game_of(case_id)
    for s in positions(case_id):
        moves = s.legal_moves()
        assert len({str(m) for m in moves}) == len(moves), "notation unique among legal moves"
        for m in moves:
            assert isinstance(m, Move) and isinstance(m, s.MOVE)
            text = str(m)
            assert game.parse_move(text, state=s) == m
            assert s.parse_move(text) == m
            assert s.parse_move(m.action) == m and s.parse_move(m) == m
            assert game.action_to_string(m.action) == text == str(s.MOVE(m.action))


@case_param
def test_action_to_string_agrees_with_move_str_for_every_id(case_id: str) -> None:
    """RULES part 3: every in-range id is a well-formed move; the game's
    ``action_to_string`` and ``str(Move(a))`` are both its notation."""
    game = game_of(case_id)
    bad = [(a, game.action_to_string(a), str(game.MOVE(a))) for a in range(game.num_distinct_actions)
           if game.action_to_string(a) != str(game.MOVE(a))]
    assert not bad, f"{len(bad)} ids disagree, e.g. (id, action_to_string, str(Move)): {bad[:5]}"


# --- the move stack ---------------------------------------------------------------------------


@case_param
def test_push_pop_peek_history(case_id: str) -> None:
    rng = random.Random(case_seed(case_id, "push-pop"))
    for s in positions(case_id):
        before = s.clone()
        d = s.to_dict()
        h = s.history()
        pushed: list[int] = []
        for _ in range(rng.randint(1, 6)):
            if s.is_terminal:
                break
            a = rng.choice(s.legal_actions())
            how = rng.randrange(3)
            s.push(a if how == 0 else str(s.MOVE(a)) if how == 1 else s.MOVE(a))
            pushed.append(a)
            assert s.peek() == s.MOVE(a)
            assert s.history() == h + pushed
        for a in reversed(pushed):
            assert s.pop() == s.MOVE(a)
        assert s == before and s.to_dict() == d and s.history() == h
        if not s.is_terminal:
            a = s.legal_actions()[0]
            s.apply(a)
            assert s.history() == h + [a]
            s.pop()
            assert s == before


def test_pop_and_peek_on_an_empty_stack() -> None:
    for c in CASES:
        s = c.game.new_initial_state(seed=3)
        with pytest.raises(IndexError):
            s.pop()
        with pytest.raises(IndexError):
            s.peek()
        assert s == c.game.new_initial_state(seed=3)


@case_param
def test_root_and_history_reproduce_the_state(case_id: str) -> None:
    for s in positions(case_id):
        r = s.root()
        assert r.history() == []
        for a in s.history():
            r.push(a)
        assert r == s and r.to_dict() == s.to_dict() and r.history() == s.history()
    for final, actions in random_games(case_id, 4):
        assert final.history() == list(actions)
        assert final.root().history() == [] and final.root() == final.game.from_dict(final.root().to_dict())
        replay = final.root()
        for a in actions:
            replay.push(a)
        assert replay == final


@case_param
def test_clone_copy_deepcopy_pickle(case_id: str) -> None:
    for s in positions(case_id):
        d = s.to_dict()
        for c in (s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
            assert c is not s and type(c) is type(s)
            assert c == s and c.to_dict() == d and c.history() == s.history()
            assert c.game == s.game and c.root() == s.root()
            if not c.is_terminal:
                c.push(c.legal_actions()[-1])
                assert s.to_dict() == d, "a copy is independent"
                c.pop()
                assert c == s
        if not s.is_terminal:
            c = s.clone()
            s.push(s.legal_actions()[0])
            assert c.to_dict() == d, "the original is independent of its copy"
            s.pop()
        p = pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL))
        assert p == s and p.history() == s.history() and p.game == s.game


# --- dicts ----------------------------------------------------------------------------------------


@case_param
def test_dict_and_json_round_trips(case_id: str) -> None:
    game = game_of(case_id)
    for s in positions(case_id):
        d = s.to_dict()
        text = json.dumps(d)
        assert s.to_json() == json.dumps(d, separators=(",", ":"))
        for loaded in (game.from_dict(json.loads(text)), game.from_dict(text), type(s).from_dict(json.loads(text))):
            assert type(loaded) is type(s)
            assert loaded == s and loaded.to_dict() == d
            assert loaded.history() == [] and loaded.root() == loaded
            assert loaded.legal_actions() == s.legal_actions()
            assert loaded.current_player == s.current_player
            assert loaded.returns() == s.returns() and loaded.scores() == s.scores()
            for p in range(game.num_players):
                assert loaded.view(p) == s.view(p)
                assert loaded.infostate_key(p) == s.infostate_key(p)
        assert type(s).from_dict(d).game.num_players == game.num_players
        # the loaded state plays on exactly like the original (chance included)
        if not s.is_terminal:
            rng = random.Random(case_seed(case_id, "dict-replay"))
            a, b = s.clone(), game.from_dict(d)
            while not a.is_terminal:
                act = rng.choice(a.legal_actions())
                a.push(act)
                b.push(act)
                assert a == b
            assert b.is_terminal and a.returns() == b.returns()


@case_param
def test_from_dict_of_non_dicts(case_id: str) -> None:
    game = game_of(case_id)
    for bad in (None, 0, 1.5, [], ["x"], set(), "not json", "[1, 2]", "17", "null", b"[]", b"\xff\xfe",
                bytearray(b"{}")):
        for load in (game.from_dict, game.STATE.from_dict):
            with pytest.raises(InvalidStateError) as info:
                load(bad)
            assert isinstance(info.value, ValueError)


@case_param
def test_from_dict_of_bytes_that_are_not_utf8(case_id: str) -> None:
    """from_dict reads str and bytes as JSON; bytes that are not UTF-8 are not JSON."""
    game = game_of(case_id)
    for bad in (b"\x80", b'{"game": "\xc3("}'):
        with pytest.raises(InvalidStateError) as info:
            game.from_dict(bad)
        assert isinstance(info.value, ValueError)


@case_param
def test_from_dict_with_a_key_removed(case_id: str) -> None:
    game = game_of(case_id)
    for s in positions(case_id)[::3]:
        d = s.to_dict()
        for path, smaller in dicts_with_a_key_removed(d):
            for load in (game.from_dict, game.STATE.from_dict):
                with pytest.raises(InvalidStateError) as info:
                    load(copy.deepcopy(smaller))
                assert isinstance(info.value, ValueError), path
        assert s.to_dict() == d


def dicts_with_a_key_removed(d: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``d`` with one key removed: each top-level key, and each key of the
    fixed-shape dicts inside its lists (segments, offers)."""
    out = []
    for k in d:
        smaller = copy.deepcopy(d)
        del smaller[k]
        out.append((k, smaller))
        v = d[k]
        if isinstance(v, list):
            for i, item in enumerate(v):
                if isinstance(item, dict):
                    for kk in item:
                        smaller = copy.deepcopy(d)
                        del smaller[k][i][kk]
                        out.append((f"{k}[{i}].{kk}", smaller))
    return out


# --- hidden information --------------------------------------------------------------------------


@case_param
def test_view_and_determinize(case_id: str) -> None:
    game = game_of(case_id)
    for s in positions(case_id):
        player = s.current_player
        for p in range(game.num_players):
            v = s.view(p)
            key = s.infostate_key(p)
            for seed in (0, 1, 2**64 - 1):
                w = s.determinize(p, seed)
                assert type(w) is type(s) and w.game == s.game
                assert w.view(p) == v
                assert w.infostate_key(p) == key
                assert w.current_player == player
                assert w.legal_actions() == s.legal_actions() or p != player
                assert w == s.determinize(p, seed), "determinize is a function of its seed"
            # depends only on the view and the seed: two states with equal views
            a, b = s.determinize(p, 11), s.determinize(p, 12)
            assert a.view(p) == b.view(p) == v
            assert a.determinize(p, 5) == b.determinize(p, 5) == s.determinize(p, 5)
            assert a.determinize(p, 5).to_dict() == b.determinize(p, 5).to_dict()


@case_param
def test_view_hides_the_seed_and_hidden_cards(case_id: str) -> None:
    game = game_of(case_id)
    for s in positions(case_id):
        d = s.to_dict()
        assert "seed" in d
        seed_text = str(d["seed"])
        for p in range(game.num_players):
            v = s.view(p)
            assert "seed" not in v
            text = json.dumps(v)
            assert seed_text not in text
            json.loads(text)  # JSON-safe
            shown = card_names_in(game.name, v)
            hidden = hidden_zones(s, p)
            assert not shown & hidden, f"view({p}) shows hidden cards {sorted(shown & hidden)}"
        with pytest.raises(ValueError):
            s.view(game.num_players)
        with pytest.raises(ValueError):
            s.determinize(-1, 0)
        with pytest.raises(ValueError):
            s.determinize(0, -1)


# --- outcome and returns ----------------------------------------------------------------------------


@case_param
def test_outcome_and_returns(case_id: str) -> None:
    info = game_of(case_id).info
    for s in positions(case_id):
        r = s.returns()
        assert len(r) == info.num_players and all(isinstance(x, float) for x in r)
        if not s.is_terminal:
            assert s.outcome() is None
            assert r == [0.0] * info.num_players
            continue
        o = s.outcome()
        assert isinstance(o, Outcome)
        assert o.returns == tuple(r) and o.scores == tuple(s.scores())
        assert all(info.min_utility <= x <= info.max_utility for x in r)
        top = max(r)
        if min(r) == top:
            assert o.winners == () and o.winner is None
        else:
            assert o.winners == tuple(p for p, x in enumerate(r) if x == top)
            assert o.winner == (o.winners[0] if len(o.winners) == 1 else None)
        assert s.legal_actions() == [] and s.current_player is None


@case_param
def test_returns_sum_to_the_utility_sum(case_id: str) -> None:
    """GameInfo.utility_sum (OpenSpiel's utility kind) is a fact of the
    rules: every finished game's returns sum to it (None: no constant sum)."""
    info = game_of(case_id).info
    assert info.utility_sum is None or isinstance(info.utility_sum, float)
    if info.utility_sum is None:
        return
    assert info.min_utility * info.num_players <= info.utility_sum <= info.max_utility * info.num_players
    for final, _ in random_games(case_id, 30):
        assert sum(final.returns()) == pytest.approx(info.utility_sum, abs=1e-9)


# --- errors ---------------------------------------------------------------------------------------------


def expect(exc: type[BaseException], f: Callable[[], Any], s: State) -> None:
    snap = snapshot(s)
    with pytest.raises(exc) as info:
        f()
    assert isinstance(info.value, ValueError)
    assert type(info.value) is exc, f"{type(info.value).__name__}: {info.value}"
    assert_unchanged(s, snap)


@case_param
def test_error_classes_leave_the_state_unchanged(case_id: str) -> None:
    game = game_of(case_id)
    n = game.num_distinct_actions
    rng = random.Random(case_seed(case_id, "errors"))
    for s in positions(case_id):
        for push in (s.push, s.apply):
            for bad in (-1, n, n + 1000, 2**70, -(2**70), 1.5, None, True, False, b"0", [0], "", "garbage ###",
                        "\x00", "play", "offer", "discard"):
                expect(InvalidMoveError, lambda: push(bad), s)  # noqa: B023
        for bad in (-1, n, 1.5, None, True, "garbage ###"):
            expect(InvalidMoveError, lambda: s.parse_move(bad), s)  # noqa: B023
            expect(InvalidMoveError, lambda: game.parse_move(bad, state=s), s)  # noqa: B023
        expect(InvalidMoveError, lambda: game.parse_move("garbage ###"), s)
        for bad in (-1, n, True, 1.5):
            with pytest.raises(InvalidMoveError):
                game.action_to_string(bad)
        legal = set(s.legal_actions())
        illegal = [a for a in range(n) if a not in legal]
        for a in [illegal[0], illegal[-1]] + rng.sample(illegal, min(5, len(illegal))):
            expect(IllegalMoveError, lambda: s.push(a), s)  # noqa: B023
            expect(IllegalMoveError, lambda: s.push(s.MOVE(a)), s)  # noqa: B023
            expect(IllegalMoveError, lambda: s.parse_move(a), s)  # noqa: B023
        if s.is_terminal:
            for a in rng.sample(range(n), min(10, n)):
                expect(IllegalMoveError, lambda: s.push(a), s)  # noqa: B023
                expect(IllegalMoveError, lambda: s.push(str(s.MOVE(a))), s)  # noqa: B023


# --- perft ------------------------------------------------------------------------------------------------


@case_param
def test_perft(case_id: str) -> None:
    for s in positions(case_id)[::2]:
        d = s.to_dict()
        legal = s.legal_actions()
        assert s.perft(0) == 1
        assert s.perft(1) == len(legal)
        total = 0
        for a in legal:
            c = s.clone()
            c.push(a)
            total += c.perft(1)
        assert s.perft(2) == total
        assert s.to_dict() == d


# --- agents ----------------------------------------------------------------------------------------------


def make_agent(name: str, seed: int) -> agents.Agent:
    if name in ("random", "greedy"):
        return agents.make(name, seed=seed)
    return agents.make(name, iterations=100, seed=seed)


@case_param
@pytest.mark.parametrize("agent_name", AGENT_NAMES)
def test_agents(case_id: str, agent_name: str) -> None:
    all_positions = positions(case_id)
    live = [s for s in all_positions if not s.is_terminal]
    picks = [live[0], live[len(live) // 2], live[-1]]
    bot = make_agent(agent_name, 7)
    assert bot.name == agent_name
    for s in picks:
        snap = snapshot(s)
        m = bot.choose(s)
        assert_unchanged(s, snap)
        assert isinstance(m, s.MOVE) and m in s.legal_moves()
        assert bot.choose(s) == m, "deterministic"
        assert make_agent(agent_name, 7).choose(s) == m, "deterministic for a fixed seed"
        # same view, same move: the agent cannot see the cards hidden from the mover
        assert bot.choose(s.determinize(s.current_player, 99)) == m
        analysis = bot.analyse(s)
        assert_unchanged(s, snap)
        assert analysis and all(a.move in s.legal_moves() for a in analysis)
    for s in all_positions:
        if s.is_terminal:
            snap = snapshot(s)
            with pytest.raises(GameOverError) as info:
                bot.choose(s)
            assert isinstance(info.value, ValueError)
            with pytest.raises(GameOverError):
                bot.analyse(s)
            assert_unchanged(s, snap)


# --- random playouts -------------------------------------------------------------------------------------


@case_param
def test_random_playouts(case_id: str) -> None:
    game = game_of(case_id)
    st = game.random_playouts(50, seed=1)
    assert st["games"] == 50
    assert not st["stopped"]
    assert 50 <= st["actions"] <= 50 * game.info.max_game_length
    assert len(st["wins"]) == len(st["returns_sum"]) == len(st["score_sum"]) == game.num_players
    assert 0 <= st["draws"] <= 50
    assert all(0 <= w <= 50 for w in st["wins"])
    assert game.random_playouts(50, seed=1) == st, "seeded"
