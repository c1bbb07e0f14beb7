"""The games' JSON layer in C (csrc/state_json.h, csrc/<game>_json.c): the
state dict of RULES.md part 4 and every seat's view, for random reachable
states of every game and player count, against the rules of part 4 written
here as an independent oracle; the C driver csrc/tests/test_json.c under the
sanitizers (buffer bounds, no seed in a view)."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabuleiro
from tabuleiro import _core
from tabuleiro.capivarias import CARDS as CV_CARDS

ROOT = Path(__file__).resolve().parents[1]
CASES = [("toy", {}), ("capivarias", {}), ("capivarias", {"expansion": True})] + \
    [("capulana", {"players": n}) for n in range(2, 6)]
IDS = [f"{name}-{'-'.join(f'{k}{v}' for k, v in p.items()) or 'default'}" for name, p in CASES]
CV_MODIFIER = {c.name: c.modifier for c in CV_CARDS}


def reachable(name: str, params: dict[str, Any], seed: int, steps: int) -> Any:
    """The state after up to ``steps`` random legal moves from a new game."""
    s = tabuleiro.load_game(name, **params).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        s.push(rng.choice(s.legal_actions()))
    return s


def spec_view(d: dict[str, Any], player: int) -> dict[str, Any]:
    """What ``player`` may see of the full dict ``d``, by RULES.md part 4
    (R6, R7, R20): the oracle the C views are held to."""
    v = copy.deepcopy(d)
    del v["seed"]
    if d["game"] == "toy":
        v["hands"][1 - player] = {"count": len(d["hands"][1 - player])}
        v["stock"] = {"count": len(d["stock"])}
    elif d["game"] == "capivarias":
        for seg in v["segments"]:
            seg["river"] = {"modifier": CV_MODIFIER[seg["river"]]}
        pile = d["pile"]
        v["pile"] = {"count": len(pile), "top_modifier": CV_MODIFIER[pile[0]] if pile else None}
    else:
        for q in range(d["players"]):
            if q == player:
                continue
            w = d["woven"][q]
            v["hands"][q] = {"count": len(d["hands"][q]) + w,
                             "known": sorted(c for c, h in d["known"].items() if h == q)}
            v["capulanas"][q] = d["capulanas"][q][:len(d["capulanas"][q]) - w]
            v["woven"][q] = 0
        for o in v["offers"] + ([v["open_offer"]] if v["open_offer"] else []):
            if o["player"] != player:
                o["cards"] = {"count": len(o["cards"])}
        v["deck"] = {"count": len(d["deck"])}
    return v


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 200))
def test_views_are_the_rules_of_part_4(name: str, params: dict[str, Any], seed: int, steps: int) -> None:
    s = reachable(name, params, seed, steps)
    d = s.to_dict()
    assert d["seed"] >= 0 and d["game"] == name
    for p in range(s.game.num_players):
        v = s.view(p)
        assert v == spec_view(d, p)
        assert list(v) == [k for k in d if k != "seed"]            # the dict's key order, seed left out
        assert _core.state_json(s, p) == json.dumps(v, separators=(",", ":"))
        assert str(d["seed"]) not in _core.state_json(s, p)


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 200))
def test_state_dicts_round_trip(name: str, params: dict[str, Any], seed: int, steps: int) -> None:
    s = reachable(name, params, seed, steps)
    text = s.to_json()
    assert text == json.dumps(s.to_dict(), separators=(",", ":"))        # compact, ASCII, json.dumps's order
    assert text.isascii()
    t = s.game.from_dict(s.to_dict())
    assert t == s and t.to_json() == text
    assert tabuleiro.load_state(text) == s
    assert s.game._core.decode(s._encode()).to_json() == text


def test_the_seed_is_written_in_full() -> None:
    """The seed spans [0, 2**64): written as an unsigned decimal, never negative."""
    for seed in (0, 1, 2**63 - 1, 2**63, 2**64 - 1):
        s = tabuleiro.load_game("toy").new_initial_state(seed=seed)
        d = s.to_dict()
        assert 0 <= d["seed"] < 2**64 and f'"seed":{d["seed"]}' in s.to_json()


def test_a_bad_viewer_is_refused_before_c() -> None:
    s = tabuleiro.load_game("capulana", players=3).new_initial_state(seed=1)
    for bad in (-1, 3, True, "0", 1.0):
        with pytest.raises(ValueError, match="player must be an integer"):
            s.view(bad)  # type: ignore[arg-type]


@pytest.mark.slow
def test_c_json_driver_clean_under_sanitizers(tmp_path_factory: pytest.TempPathFactory) -> None:
    """csrc/tests/test_json.c under AddressSanitizer and UBSan: every game,
    every parameter combination, random games; every state dict and view
    fits SR_MAX_JSON, smaller buffers are refused in bounds, every dict and
    view reads back to the same position, texts cut short or corrupted are
    refused without showing the seed, events are JSON arrays (~30 s)."""
    from test_c_core import configure

    build = configure(tmp_path_factory, "asan_json", "TABULEIRO_SANITIZE", "test_json")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0", UBSAN_OPTIONS="print_stacktrace=1")
    res = subprocess.run([str(build / "test_json"), str(ROOT / "python/tabuleiro/data"), "8"],
                         capture_output=True, text=True, env=env)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "runtime error" not in out and "AddressSanitizer" not in out and ": 1 passed" in out, out


# --- notation: the C reader against the Python readers it replaced (kept here as the oracle) ---------

class _Invalid(Exception):
    pass


class _Illegal(Exception):
    pass


def _ref_toy(text: str, legal: Any) -> int:
    parts = text.split()
    if len(parts) == 2 and parts[0] == "play" and parts[1] in ("1", "2", "3", "4", "5", "6"):
        return int(parts[1]) - 1
    raise _Invalid(f"a Toy move is 'play N' with N in 1..6, not {text!r}")


def _ref_capulana(text: str, legal: Any) -> int:
    from tabuleiro.capulana import CARDS, ORIENTATIONS, PLACEMENTS

    by_name = {c.name: c for c in CARDS}

    def fabric(name: str) -> int:
        card = by_name.get(name)
        if card is None or not card.is_fabric:
            raise _Invalid(f"unknown fabric card {name!r} in move {text!r}")
        return card.index

    parts = text.split()
    if parts == ["done"]:
        return 61
    if parts == ["stop"]:
        return 62
    if len(parts) == 2 and parts[0] == "bid":
        if parts[1] in ("0", "1", "2", "3", "4"):
            return int(parts[1])
        raise _Invalid(f"slot in {text!r} must be 0..4")
    if len(parts) == 2 and parts[0] == "offer":
        return 5 + fabric(parts[1])
    if len(parts) == 2:
        c = fabric(parts[0])
        p = parts[1]
        if len(p) < 2 or p[0] not in ORIENTATIONS or p[1:] not in PLACEMENTS:
            raise _Invalid(f"placement in {text!r} must be n or r followed by + >1 >2 >3 <1 <2 <3")
        return 63 + 14 * c + 7 * ORIENTATIONS.index(p[0]) + PLACEMENTS.index(p[1:])
    raise _Invalid(f"not a Capulana move: {text!r}")


def _ref_capivarias(text: str, legal: Any) -> int:
    by_name = {c.name: c for c in CV_CARDS}
    C = len(CV_CARDS)

    def index(name: str) -> int:
        card = by_name.get(name)
        if card is None:
            raise _Invalid(f"unknown card {name!r} in move {text!r}")
        return card.index

    def enc(card: int, seg: int, target: int) -> int:
        return ((card * 4) + seg) * (C + 1) + target

    t = text.strip()
    if t.startswith("discard "):
        return enc(index(t[8:].strip()), 3, C)
    head, slash, target = t.partition("/")
    name, at, seg_text = head.partition("@")
    card = index(name)
    tgt = index(target) if slash else C
    if at:
        if seg_text not in ("0", "1", "2"):
            raise _Invalid(f"segment in {text!r} must be 0, 1 or 2")
        return enc(card, int(seg_text), tgt)
    if slash:
        return enc(card, 3, tgt)
    if CV_CARDS[card].kind == "capiolin":
        if legal is None:
            raise _Invalid(f"capiolin notation {text!r} needs the position: use Move.parse(text, state=...) "
                           f"or {name}@<segment>")
        for a in legal:
            if a // (C + 1) // 4 == card and not (a // (C + 1) % 4 == 3 and a % (C + 1) == C):
                return a
        raise _Illegal(f"illegal move {text!r}: {name} cannot be played now")
    return enc(card, 0, C)


REFERENCE = {"toy": _ref_toy, "capulana": _ref_capulana, "capivarias": _ref_capivarias}
PIECES = ["play", "bid", "offer", "done", "stop", "discard", "discard ", "F13", "F01", "F56", "I1", "F99", "r>2",
          "n+", "r<3", "x>1", "n", "r>", "C3", "OP1", "KX", "V2", "V3", "V4", "X5", "C1", "@", "@1", "@3", "/", "/C3",
          "/V2", "0", "1", "4", "5", "6", "7", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u2028", "\x1c", "\x85",
          "'", '"', "\\", "\x00", "\x7f", "é", "\u200b", "\ufeff", "\ue000", "\U0001f600", "\ud800", "\uffff"]


@pytest.mark.parametrize(("name", "params"), [("toy", {}), ("capulana", {"players": 3}),
                                              ("capivarias", {"expansion": True})])
@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=6),
       noise=st.text(st.characters(exclude_categories=["Cn"]), max_size=3),   # see pytext.h: unassigned code points
       seed=st.integers(0, 2**32), steps=st.integers(0, 40))
def test_notation_is_read_as_the_python_readers_did(name: str, params: dict[str, Any], pieces: list[str],
                                                    noise: str, seed: int, steps: int) -> None:
    """The C reader (csrc/<game>_json.c) gives the id, the exception class
    and the message (the text quoted as Python's repr) of the Python reader
    it replaced, with and without a position, on texts near the notation.
    Unassigned code points are left out: Python's repr escapes them by its
    own version's Unicode table, csrc/pytext.c shows them as they are."""
    text = "".join(pieces) + noise
    s = reachable(name, params, seed, steps)
    for state in (None, s):
        legal = None if state is None else state.legal_actions()
        try:
            want: Any = ("ok", REFERENCE[name](text, legal))
        except _Invalid as e:
            want = ("invalid", str(e))
        except _Illegal as e:
            want = ("illegal", str(e))
        try:
            got: Any = ("ok", tabuleiro.load_game(name, **params).parse_move(text).action if state is None
                        else type(s).MOVE.parse(text, state=state).action if name == "capivarias"
                        else type(s).MOVE.parse(text).action)
        except tabuleiro.IllegalMoveError as e:
            got = ("illegal", str(e))
        except tabuleiro.InvalidMoveError as e:
            got = ("invalid", str(e))
        assert got == want, text


# --- state dicts and views: the C reader against the Python readers it replaced ------------------

from tests.reference import state_loaders as OLD  # noqa: E402
from tabuleiro._fields import check_plain  # noqa: E402

ODD_VALUES: list[Any] = [None, True, False, 0, 1, -1, 7, 2**31, -(2**31) - 1, 2**63, 2**64, 10**30, 1.5, 2.0, -0.0,
                         1e16, 1e-05, "", "F13", "C3", "OP1", "I1", "OBJ1", "offer", "F30 r>1", "F30 x>1", "x" * 70,
                         "é\u00a0\ud800", [], {}, ["F01"], [1, 2], {"count": 2}, {"count": 1, "known": []},
                         {"modifier": 1}, (1, 2), ("F01",), [[]], {"player": 0, "slot": 0, "cards": []}]


def _paths(v: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(v, dict):
        for k, x in v.items():
            out += _paths(x, at + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += _paths(x, at + (i,))
    return out


def _mutate(d: Any, rng: random.Random, n: int) -> Any:
    """d with n random edits: a value replaced, a key removed or added, a list cut or grown, an int moved."""
    d = copy.deepcopy(d)
    for _ in range(n):
        path = rng.choice(_paths(d))
        parent, key = (None, None) if not path else (d, path[-1])
        for k in path[:-1]:
            parent = parent[k]
        here = d if parent is None else parent[key]
        op = rng.randrange(6)
        if op == 0 and parent is not None:
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif op == 1 and isinstance(parent, dict):
            del parent[key]
        elif op == 2 and isinstance(here, dict):
            here[rng.choice(["seed", "extra", "count", "cards", "player", str(rng.randrange(5))])] = \
                copy.deepcopy(rng.choice(ODD_VALUES))
        elif op == 3 and isinstance(here, list) and here:
            del here[rng.randrange(len(here))]
        elif op == 4 and isinstance(here, list):
            here.insert(rng.randrange(len(here) + 1),
                        copy.deepcopy(rng.choice(here) if here and rng.random() < 0.5 else rng.choice(ODD_VALUES)))
        elif op == 5 and parent is not None and isinstance(here, int) and not isinstance(here, bool):
            parent[key] = here + rng.choice([-1, 1, 40])
    return d


def _outcome(f: Any) -> Any:
    try:
        s = f()
    except (ValueError, TypeError) as e:
        return (type(e).__name__, str(e))
    return ("ok", s.to_json() if hasattr(s, "to_json") else s)


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 120), edits=st.integers(0, 3), pick=st.integers(0, 2**32))
def test_dicts_and_views_load_as_the_python_readers_did(name: str, params: dict[str, Any], seed: int, steps: int,
                                                       edits: int, pick: int) -> None:
    """from_dict, from_view, params_from_dict and the loose encoding of a
    reachable state's dict and views, edited at random (a value replaced by
    an odd one, a key dropped or added, a list cut or grown, a tuple where a
    list goes), give what the Python readers gave: the same state, or the
    same exception class and message (tests/reference/state_loaders.py)."""
    s = reachable(name, params, seed, steps)
    g = s.game
    rng = random.Random(pick)
    d = _mutate(s.to_dict(), rng, edits)
    title = g.title
    assert _outcome(lambda: g.from_dict(d)) == \
        _outcome(lambda: OLD.old_from_dict(g, check_plain(d, f"invalid {title} state: it")))
    assert _outcome(lambda: type(g).params_from_dict(d)) == \
        _outcome(lambda: OLD.PARAMS[name](check_plain(d, f"invalid {title} state: it")))
    assert _outcome(lambda: g._encode_dict(d)) == \
        _outcome(lambda: OLD.ENCODE[name](g, check_plain(d, f"invalid {title} state: it")))
    p = pick % g.num_players
    v = _mutate(s.view(p), rng, edits)
    assert _outcome(lambda: g.from_view(v, p)) == \
        _outcome(lambda: OLD.old_from_view(g, check_plain(v, f"invalid {title} view: it"), p))


# --- events: sr_events_json against the Python feed it replaced ------------------------------------

from tests.reference import events as OLD_EVENTS  # noqa: E402


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_events_are_the_python_feeds(name: str, params: dict[str, Any], seed: int) -> None:
    """Every move of a random game, seen from every seat: Game.public_events
    (written in C) equals the Python feed it replaced
    (tests/reference/events.py), rounds, auctions, weaving and the end included."""
    g = tabuleiro.load_game(name, **params)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    kinds: set[str] = set()
    while not s.is_terminal:
        a = rng.choice(s.legal_actions())
        for p in range(g.num_players):
            got = g.public_events(s, a, p)
            assert got == OLD_EVENTS.old_public_events(g, s, a, p)
            kinds.update(e["kind"] for e in got)
        s.push(a)
    assert "over" in kinds


def test_events_refuse_what_public_events_refused() -> None:
    g = tabuleiro.load_game("toy")
    s = g.new_initial_state(seed=2)
    with pytest.raises(tabuleiro.IllegalMoveError):
        g.public_events(s, 1, 0)                       # play 2 is not in player 0's hand
    with pytest.raises(ValueError, match="player must be an integer"):
        g.public_events(s, 2, 2)
    with pytest.raises(tabuleiro.IllegalMoveError):
        _core.events_json(s, 1, 0)                     # the binding checks legality itself too


def test_python_names_the_registrys_facts() -> None:
    """What both hosts read from the registry in C (the WebAssembly engine
    has nothing else): a game's title, which parameters are true/false, and
    whether its determinization is exact, agree with the Python classes."""
    for name in tabuleiro.games():
        for p in tabuleiro.load_game(name).param_specs():
            assert p.type in (bool, int)
        g = tabuleiro.load_game(name)
        facts = _core.game_facts(g._core)
        assert facts["title"] == g.title
        assert facts["param_is_bool"] == [t is bool for t in g.PARAM_TYPES.values()]
        assert facts["exact_determinize"] is g.determinize_is_exact is True
    legacy = tabuleiro.load_game("capulana", legacy_determinize=True)
    assert _core.game_facts(legacy._core)["exact_determinize"] is legacy.determinize_is_exact is False


_DROP = object()


def _edited(base: Any, path: tuple[Any, ...], odd: Any) -> Any:
    d = copy.deepcopy(base)
    parent = d
    for k in path[:-1]:
        parent = parent[k]
    if odd is _DROP:
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(odd)
    return d


def _same_as_before(g: Any, d: Any, v: Any, p: int) -> None:
    title = g.title
    if d is not None:
        assert _outcome(lambda: g.from_dict(d)) == \
            _outcome(lambda: OLD.old_from_dict(g, check_plain(d, f"invalid {title} state: it"))), d
    if v is not None:
        assert _outcome(lambda: g.from_view(v, p)) == \
            _outcome(lambda: OLD.old_from_view(g, check_plain(v, f"invalid {title} view: it"), p)), v


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_each_field_replaced_loads_as_before(name: str, params: dict[str, Any]) -> None:
    """Every top-level field of a mid-game dict and view replaced by each
    odd value, or removed: the C reader answers as the Python readers did.
    Systematic where the random edits above rarely reach (an open offer of
    ``true``, which a view rebuild must refuse as Python did)."""
    s = reachable(name, params, 5, 30)
    p = 1
    for base, is_view in ((s.to_dict(), False), (s.view(p), True)):
        for key in list(base) + ["extra"]:
            for odd in ODD_VALUES + [_DROP]:
                if odd is _DROP and key not in base:
                    continue
                e = _edited(base, (key,), odd)
                _same_as_before(s.game, None if is_view else e, e if is_view else None, p)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_every_field_replaced_loads_as_before(name: str, params: dict[str, Any]) -> None:
    """As above for every path of the dict and the view, at three points of a game (~1 min)."""
    for steps in (0, 25, 60):
        s = reachable(name, params, 11, steps)
        p = steps % s.game.num_players
        for base, is_view in ((s.to_dict(), False), (s.view(p), True)):
            for path in _paths(base)[1:]:
                for odd in ODD_VALUES + [_DROP]:
                    if odd is _DROP and not isinstance(path[-1], str):
                        continue
                    e = _edited(base, path, odd)
                    _same_as_before(s.game, None if is_view else e, e if is_view else None, p)
