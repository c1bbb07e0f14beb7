"""Acceptance test: no error message raised by apply, parse_move, from_dict or
the agents contains a card the mover cannot see, or the seed.

Over seeded random states of every game and parameter set (Capivárias with
and without the expansion, Capulana for 2 to 5 players, Toy), errors are
provoked and their messages read:

* moves (``push``/``apply``/``parse_move``/``game.parse_move``): illegal ids
  (as ids, notation and Move objects; every illegal id whose notation names a
  hidden card, up to a cap, and a random sample), hidden cards written as
  moves, garbage text, out-of-range ids, wrong types. The reader is the mover
  ``p = current_player`` (on a finished game: any player). A message must not
  contain the seed's decimal string, nor name a card hidden from ``p`` (the
  card names in ``to_dict()`` but not in ``view(p)``) other than the cards
  the input itself names (echoing the mover's own input tells them nothing).
  Because that echo allowance could hide a message saying *where* a named
  card lies, each provoked error is also raised on determinizations for
  ``p`` (same view, other hidden cards, other seed): its class and message
  must be identical there, i.e. a function of the mover's view and input.
  An ``IllegalMoveError`` carries the full ``to_dict()`` as ``.state``.
* ``from_dict`` of mutated dicts (a key dropped, a card duplicated, a hidden
  card swapped in for a visible one, an unknown card, a bad seed): the reader
  supplied the dict, so the message must not contain the seed and may name
  only cards present in the supplied dict.
* agents: choosing on a finished game, ``make`` with bad parameters,
  ``choose`` on things that are not states.

Card names match as whole words (``C1`` does not match inside ``C12``); cards
that are numbers (Toy's) are named in context (``play 3``, ``card 3``, ``[1,
3]``; see ``_support.NumberedCards``). What a game's cards are is in its own
module under ``tests/conformance/games/``.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Optional

import pytest

import tabuleiro
from tabuleiro import GameOverError, IllegalMoveError, InvalidStateError, State, agents, toy
from tests.conformance._support import (AGENT_NAMES, CARD_NAMES, CASE_BY_ID, CASES, card_names_in,
                                        card_names_in_text, cards, case_seed, hidden_from, named_cards, positions)

CASE_IDS = [c.id for c in CASES]

#: illegal ids tried per state: those naming hidden cards (up to the cap), then a random sample
HIDDEN_ID_CAP = 10
RANDOM_IDS = 4


# --- reading messages --------------------------------------------------------------------------


def check_message(game: str, message: str, *, hidden: set[str], exempt: set[str], seeds: list[str],
                  what: str) -> None:
    for seed in seeds:
        assert seed not in message, f"{what}: the seed {seed} is in the message {message!r}"
    leaked = named_cards(game, message, hidden - exempt)
    assert not leaked, f"{what}: the message {message!r} names hidden cards {sorted(leaked)}"


def raised(f: Callable[[], Any]) -> Optional[BaseException]:
    try:
        f()
    except Exception as e:  # noqa: BLE001 - every error message is read
        return e
    return None


# --- the provocations -------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def id_cards(case_id: str) -> tuple[frozenset[str], ...]:
    """The card names each action id's notation names."""
    game = CASE_BY_ID[case_id].game
    return tuple(frozenset(card_names_in_text(game.name, str(game.MOVE(a)))) for a in range(game.num_distinct_actions))


def move_provocations(case_id: str, s: State, hidden: set[str],
                      rng: random.Random) -> Iterator[tuple[str, set[str], Callable[[State], Any]]]:
    """(label, cards the input names, call on a state) for each error to provoke."""
    game = s.game
    n = game.num_distinct_actions
    name = game.name
    legal = set(s.legal_actions())
    cards = id_cards(case_id)
    illegal = [a for a in range(n) if a not in legal]
    naming_hidden = [a for a in illegal if cards[a] & hidden]
    ids = rng.sample(naming_hidden, min(HIDDEN_ID_CAP, len(naming_hidden)))
    ids += rng.sample(illegal, min(RANDOM_IDS, len(illegal)))
    for a in ids:
        text = str(game.MOVE(a))
        named = set(cards[a])
        yield f"push({a})", named, lambda st, a=a: st.push(a)
        yield f"apply({a})", named, lambda st, a=a: st.apply(a)
        yield f"parse_move({a})", named, lambda st, a=a: st.parse_move(a)
        yield f"push(Move({a}))", named, lambda st, a=a: st.push(st.MOVE(a))
        yield f"push({text!r})", named, lambda st, t=text: st.push(t)
        yield f"parse_move({text!r})", named, lambda st, t=text: st.parse_move(t)
        yield f"game.parse_move({text!r}, state)", named, lambda st, t=text: st.game.parse_move(t, state=st)
    # hidden cards written as moves, in every shape the games' notations have
    for c in rng.sample(sorted(hidden), min(3, len(hidden))):
        for text in (c, f"discard {c}", f"offer {c}", f"{c} n+", f"{c} r>1", f"play {c}", f"{c}@0", f"{c}@1/{c}",
                     f"{c}/{c}"):
            named = card_names_in_text(name, text)
            yield f"push({text!r})", named, lambda st, t=text: st.push(t)
            yield f"parse_move({text!r})", named, lambda st, t=text: st.parse_move(t)
    # garbage, out of range, wrong types
    for text in ("garbage", "", "   ", "C99", "F99 n+", "play 7", "play 0", "discard", "offer", "bid 9", "OP1@7",
                 "V2", "V3@4", "KC/", "/C1", "F01 x+", "done done", "\x00"):
        named = card_names_in_text(name, text)
        yield f"push({text!r})", named, lambda st, t=text: st.push(t)
        yield f"parse_move({text!r})", named, lambda st, t=text: st.parse_move(t)
        yield f"game.parse_move({text!r})", named, lambda st, t=text: st.game.parse_move(t)
    other_move = next(tabuleiro.load_game(g).MOVE(0) for g in tabuleiro.games() if g != name)   # another game's
    for bad in (-1, n, n + 7, 2**70, -(2**70), 1.5, float("nan"), None, True, False, b"0", [0], {"a": 1},
                other_move):
        yield f"push({bad!r})", set(), lambda st, b=bad: st.push(b)
        yield f"parse_move({bad!r})", set(), lambda st, b=bad: st.parse_move(b)
    for bad in (-1, n, True, 1.5):
        yield f"action_to_string({bad!r})", set(), lambda st, b=bad: st.game.action_to_string(b)


@dataclass(frozen=True)
class Provoked:
    label: str
    exempt: frozenset[str]      # the cards the input itself names
    hidden: frozenset[str]      # the cards hidden from the reader
    seeds: tuple[str, ...]      # the state's seed and its determinization's seed
    error: type[BaseException]
    message: str
    state_attr_ok: bool         # the error's .state is the full to_dict() (asked of IllegalMoveError only)
    in_world: Optional[tuple[type[BaseException], str]]  # the same call in a determinization for the reader


@lru_cache(maxsize=None)
def provoked_move_errors(case_id: str) -> tuple[Provoked, ...]:
    """Every move error provoked on the case's random states (and the same
    call on a determinization for the reader, same view, other hidden cards).
    Only classes and texts are kept (no exception objects, no tracebacks)."""
    rng = random.Random(case_seed(case_id, "leaks"))
    game = CASE_BY_ID[case_id].game
    out = []
    for s in positions(case_id, 4, 6):
        d = s.to_dict()
        p = s.current_player
        readers = [p] if p is not None else list(range(game.num_players))
        hidden = frozenset().union(*(hidden_from(s, q) for q in readers))
        world = s.determinize(readers[0], rng.randrange(2**64))
        assert world.view(readers[0]) == s.view(readers[0])
        seeds = (str(d["seed"]), str(world.to_dict()["seed"]))
        for label, exempt, call in move_provocations(case_id, s, set(hidden), rng):
            st = s.clone()
            e = raised(lambda: call(st))  # noqa: B023
            if e is None:
                continue  # a legal move written another way: nothing raised, nothing to read
            assert st == s, f"{label} raised and changed the state"
            wt = world.clone()
            ew = raised(lambda: call(wt))  # noqa: B023
            assert wt == world, f"{label} raised and changed the state"
            out.append(Provoked(label, frozenset(exempt), hidden, seeds, type(e), str(e),
                                getattr(e, "state", None) == d,
                                None if ew is None else (type(ew), str(ew))))
    assert len(out) > 1000
    assert sum(bool(r.hidden) for r in out) > len(out) // 2, "most errors are read with cards hidden from the reader"
    return tuple(out)


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_move_errors_do_not_leak(case_id: str) -> None:
    game = CASE_BY_ID[case_id].game
    for r in provoked_move_errors(case_id):
        assert issubclass(r.error, (ValueError, TypeError)), f"{r.label}: {r.error.__name__}: {r.message}"
        check_message(game.name, r.message, hidden=set(r.hidden), exempt=set(r.exempt), seeds=list(r.seeds),
                      what=r.label)


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_move_errors_depend_only_on_the_view(case_id: str) -> None:
    """The same input raises the same error class and message in a state with
    the mover's view: a message cannot say where a hidden card lies."""
    for r in provoked_move_errors(case_id):
        assert r.in_world == (r.error, r.message), (
            f"{r.label}: the error depends on cards hidden from the mover: {r.error.__name__}({r.message!r}) "
            f"here, {r.in_world} in a world with the same view")


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_illegal_move_error_carries_the_full_state(case_id: str) -> None:
    """The full state stays available to code (``.state``), never in the text."""
    records = provoked_move_errors(case_id)
    bad = [(r.label, r.message) for r in records if r.error is IllegalMoveError and not r.state_attr_ok]
    assert not bad, f"{len(bad)} IllegalMoveErrors without .state == to_dict(), e.g. {bad[:3]}"
    assert any(r.error is IllegalMoveError for r in records)


# --- from_dict ------------------------------------------------------------------------------------------


def card_at(game: str, value: Any, in_list: bool) -> Optional[str]:
    return cards(game).card_at(value, in_list)  # type: ignore[no-any-return]


def card_leaves(game: str, obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(path, card) of every card in a state dict (not dict keys: Capulana's
    ``known`` is keyed by card, and is read whole)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)):
                yield from card_leaves(game, v, path + (k,))
            elif (c := card_at(game, v, False)) is not None:
                yield path + (k,), c
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            if isinstance(v, (dict, list)):
                yield from card_leaves(game, v, path + (i,))
            elif (c := card_at(game, v, True)) is not None:
                yield path + (i,), c


def get(d: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        d = d[k]
    return d


def put_card(game: str, d: Any, path: tuple[Any, ...], card: str) -> None:
    cards(game).put(get(d, path[:-1]), path[-1], card)


def mutated_dicts(s: State, rng: random.Random) -> Iterator[tuple[str, Any]]:
    game = s.game.name
    d = s.to_dict()
    p = s.current_player
    # a key dropped, at the top and inside the fixed-shape dicts
    for k in d:
        m = copy.deepcopy(d)
        del m[k]
        yield f"without {k!r}", m
        if isinstance(d[k], list):
            for i, item in enumerate(d[k]):
                if isinstance(item, dict):
                    for kk in item:
                        m = copy.deepcopy(d)
                        del m[k][i][kk]
                        yield f"without {k}[{i}].{kk}", m
    leaves = list(card_leaves(game, d))
    hidden = sorted(hidden_from(s, p if p is not None else 0))
    visible_leaves = [(path, c) for path, c in leaves if c not in hidden]
    card_lists = sorted({path[:-1] for path, _ in leaves if isinstance(path[-1], int)}, key=str)
    # a card duplicated into another card list (and into its own)
    for path, c in rng.sample(leaves, min(6, len(leaves))):
        for target in rng.sample(card_lists, min(2, len(card_lists))) + [path[:-1]]:
            m = copy.deepcopy(d)
            dest = get(m, target)
            if isinstance(dest, list):
                dest.append(get(d, path))
                yield f"{c} from {path} duplicated into {target}", m
    # a hidden card swapped in for a visible one
    for h in rng.sample(hidden, min(4, len(hidden))):
        for path, c in rng.sample(visible_leaves, min(3, len(visible_leaves))):
            m = copy.deepcopy(d)
            put_card(game, m, path, h)
            yield f"hidden {h} swapped in for {c} at {path}", m
    # unknown cards
    for path, c in rng.sample(leaves, min(2, len(leaves))):
        for unknown in ("Z9", "F99", 7, 0, ["C1"]):
            m = copy.deepcopy(d)
            get(m, path[:-1])[path[-1]] = unknown
            yield f"unknown card {unknown!r} for {c} at {path}", m
    # bad seeds
    for bad in (str(d["seed"]), float(d["seed"]), -1, 2**64, None, True, [d["seed"]], {"seed": d["seed"]}):
        m = copy.deepcopy(d)
        m["seed"] = bad
        yield f"seed {type(bad).__name__}", m
    # JSON text that is not JSON, or not a dict
    text = s.to_json()
    for cut in (len(text) - 1, len(text) // 2, 1):
        yield f"JSON cut at {cut}", text[:cut]
        yield f"JSON bytes cut at {cut}", text[:cut].encode()
    yield "JSON list", json.dumps([d])
    yield "not UTF-8", text.encode()[:-2] + b"\xff}"


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_from_dict_errors_do_not_leak(case_id: str) -> None:
    rng = random.Random(case_seed(case_id, "from_dict"))
    game = CASE_BY_ID[case_id].game
    all_cards = set(CARD_NAMES[game.name])
    raised_count = 0
    for s in positions(case_id, 4, 6)[::2]:
        d = s.to_dict()
        seed = str(d["seed"])
        for label, m in mutated_dicts(s, rng):
            for load in (game.from_dict, game.STATE.from_dict):
                e = raised(lambda: load(m))  # noqa: B023
                if e is None:
                    continue  # some mutations still describe a loadable state
                raised_count += 1
                assert isinstance(e, InvalidStateError), f"{label}: {type(e).__name__}: {e}"
                message = str(e)
                assert seed not in message, f"{label}: the seed is in the message {message!r}"
                if isinstance(m, dict):
                    supplied = card_names_in(game.name, m)
                else:
                    supplied = card_names_in_text(game.name, m if isinstance(m, str) else m.decode("latin-1"))
                foreign = named_cards(game.name, message, all_cards - supplied)
                assert not foreign, f"{label}: {message!r} names cards not in the supplied dict: {sorted(foreign)}"
        assert s.to_dict() == d
    assert raised_count > 100


# --- agents ---------------------------------------------------------------------------------------------------


BAD_AGENT_PARAMS: list[tuple[str, dict[str, Any]]] = [
    ("ismcts", {"iterations": -1}), ("ismcts", {"iterations": "10"}), ("mcts", {"iterations": 0}),
    ("flatmc", {"time": 0.0, "iterations": 10}), ("ismcts", {"c": float("nan")}), ("mcts", {"c": -1.0}),
    ("ismcts", {"rollout": "smart"}), ("ismcts", {"threads": 0}), ("ismcts", {"max_nodes": 1}),
    ("ismcts", {"shaped": 1}), ("mcts", {"prior": "yes"}), ("ismcts", {"horizon": "on"}), ("ismcts", {"bogus": 1}), ("random", {"seed": -1}),
    ("greedy", {"seed": 2**64}), ("random", {"iterations": 10}), ("alphazero", {}), ("ismcts", {"seed": 1.5}),
]


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_agent_errors_do_not_leak(case_id: str) -> None:
    game = CASE_BY_ID[case_id].game
    finished = [s for s in positions(case_id) if s.is_terminal]
    live = [s for s in positions(case_id) if not s.is_terminal][:3]
    assert finished
    for s in finished + live:
        d = s.to_dict()
        seed = str(d["seed"])
        readers = [s.current_player] if s.current_player is not None else list(range(game.num_players))
        hidden = set().union(*(hidden_from(s, q) for q in readers))
        msgs: list[tuple[str, str]] = []
        if s.is_terminal:
            for name in AGENT_NAMES:
                bot = agents.make(name, seed=3) if name in ("random", "greedy") else agents.make(name, iterations=10)
                for what, call in (("choose", bot.choose), ("analyse", bot.analyse)):
                    with pytest.raises(GameOverError) as info:
                        call(s)
                    assert isinstance(info.value, ValueError)
                    msgs.append((f"{name}.{what}(finished game)", str(info.value)))
        for name, params in BAD_AGENT_PARAMS:
            with pytest.raises((TypeError, ValueError)) as info:
                agents.make(name, **params)
            msgs.append((f"make({name!r}, {params})", str(info.value)))
        bot = agents.make("ismcts", iterations=10)
        # agents take states and seats' views (issue 9): a full dict or its JSON is
        # refused as a view, a finished game's view has no one to move
        for bad in (d, s.to_json()) + ((s.view(readers[0]),) if s.is_terminal else ()):
            with pytest.raises((InvalidStateError, GameOverError)) as info:
                bot.choose(bad)
            msgs.append((f"choose({type(bad).__name__})", str(info.value)))
        with pytest.raises(TypeError) as info:
            bot.choose(None)
        msgs.append(("choose(None)", str(info.value)))
        for label, message in msgs:
            check_message(game.name, message, hidden=hidden, exempt=set(), seeds=[seed], what=label)
        assert s.to_dict() == d


def test_every_game_is_covered() -> None:
    assert {c.name for c in CASES} == set(tabuleiro.games())


def test_the_card_matcher() -> None:
    """The checker itself: whole words for named cards, context for Toy's numbers."""
    assert named_cards("capivarias", "card C12 moved, OP1/C1", {"C1", "C12", "C2", "OP1", "P1"}) == {"C1", "C12", "OP1"}
    assert named_cards("capulana", "offer F13 r>2 after F130", {"F13", "F01"}) == {"F13"}
    toy_cards = set(CARD_NAMES["toy"])
    for message, named in [
        ("illegal move 'play 3' (id 2): it is not one of player 1's legal moves now", {"3"}),
        ("action id 6 is not in [0, 6)", set()),
        ("hands[1]: unknown card 7 (cards are 1..6)", set()),
        ("card 4 is in two places (hands[0] and stock)", {"4"}),
        ("cards missing from the state: 1, 5", {"1", "5"}),
        ("to_move must be an integer in [0, 1] or null", set()),
        ("player 1 holds [2, 5]", {"2", "5"}),
        ("P1 hand: 2 6, stock: 2 cards", {"2", "6"}),
    ]:
        assert named_cards("toy", message, toy_cards) == named, message
    s = toy.new_game(seed=1)
    assert hidden_from(s, 0) == {str(c) for c in s.to_dict()["hands"][1] + s.to_dict()["stock"]}


# --- the text a seat is shown ------------------------------------------------------------------


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_a_seats_text_depends_only_on_its_view(case_id: str) -> None:
    """``text(p)`` (what a frontend or ``render()`` shows seat ``p``) is the
    same for every state with the same ``view(p)``: the true one and its
    determinizations for ``p``. So it cannot show a hidden card, nor another
    player's weaving of the current step (issue 26: ``render()`` did)."""
    case = CASE_BY_ID[case_id]
    rng = random.Random(case_seed(case_id, "text"))
    for s in positions(case_id, n_games=3, per_game=8):
        for p in range(case.game.num_players):
            shown = s.text(p)
            assert f"player {p}'s view" in shown.splitlines()[0]
            for _ in range(2):
                other = s.determinize(p, rng.randrange(2**64))
                assert other.text(p) == shown, (case_id, p, s.to_json())
            # (bare-number cards would match "hand: 2 cards"; the equality above covers them)
            hidden = hidden_from(s, p) if cards(case.name).words_in_text else set()
            assert not card_names_in_text(case.name, shown) & hidden, (case_id, p, shown)


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_str_of_a_state_is_the_full_state_and_says_so(case_id: str) -> None:
    s = positions(case_id, n_games=1, per_game=2)[1]
    assert str(s) == s.text()
    assert "full state" in str(s).splitlines()[0]
