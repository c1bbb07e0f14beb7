"""Issue 28: every number the protocol sends survives a JavaScript ``JSON.parse``.

A JavaScript client holds every JSON number as a double, so an integer past
2^53 - 1 comes back rounded: a seed of ``2784038556176488383`` would load as
``...488400``, another game. The engine sends seeds as decimal strings and
takes either form back; these tests read every answer the way a browser does
(:func:`js_roundtrip`) and load what they got.
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabuleiro
from tabuleiro import engine
from tabuleiro._wire import SAFE_INT, _encode, _encode_answer, _safe_ints

GAMES = [("capivarias", {}), ("capivarias", {"expansion": True}), ("capulana", {"players": 3}),
         ("capulana", {"players": 5}), ("toy", {})]
BIG_SEED = 2784038556176488383                     # the seed: JSON.parse gives ...488400


def _js_number(text: str) -> Any:
    """A JSON number as JavaScript holds it: a double."""
    return float(text)


def _js_out(obj: Any) -> Any:
    """What ``JSON.stringify`` writes for a double: an integral one as an integer."""
    if isinstance(obj, float):
        return int(obj) if math.isfinite(obj) and obj == int(obj) else obj
    if isinstance(obj, dict):
        return {k: _js_out(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_js_out(v) for v in obj]
    return obj


def js_roundtrip(line: str) -> Any:
    """``JSON.parse`` then back to Python values, as a browser would send them again."""
    return _js_out(json.loads(line, parse_int=_js_number, parse_float=_js_number))


class Session:
    """An in-process engine session whose answers are read as JavaScript reads them."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.engine = engine.Engine(self.lines.append)
        self.n = 0

    def raw(self, **req: Any) -> tuple[dict[str, Any], Any]:
        self.n += 1
        self.engine.handle_line(json.dumps({"id": self.n, **req}).encode())
        line = self.lines.pop().decode()
        assert not self.lines
        exact, seen = json.loads(line), js_roundtrip(line)
        assert exact["id"] == self.n
        return exact, seen

    def ok(self, **req: Any) -> Any:
        exact, seen = self.raw(**req)
        assert exact["ok"], exact
        assert seen == exact, "an answer changed when read as doubles"
        return seen

    def err(self, code: str, **req: Any) -> str:
        exact, _ = self.raw(**req)
        assert not exact["ok"] and exact["error"]["code"] == code, exact
        return str(exact["error"]["message"])


def _ints(obj: Any) -> list[int]:
    if isinstance(obj, dict):
        return [i for v in obj.values() for i in _ints(v)]
    if isinstance(obj, list):
        return [i for v in obj for i in _ints(v)]
    return [obj] if isinstance(obj, int) and not isinstance(obj, bool) else []


@pytest.mark.parametrize("name, params", GAMES, ids=[f"{n}{p}" for n, p in GAMES])
def test_states_survive_a_parser_that_keeps_only_doubles(name: str, params: dict[str, Any]) -> None:
    """A whole game: every answer reads the same as doubles, and every state a
    browser would send back loads as exactly the game it came from."""
    s = Session()
    r = s.ok(cmd="new", game=name, seed=BIG_SEED, **params)
    assert r["seed"] == str(BIG_SEED)
    truth = tabuleiro.load_game(name, **params).new_initial_state(seed=BIG_SEED)
    rng = random.Random(name + str(params))
    big = 0
    while True:
        got = s.ok(cmd="state")["state"]
        assert got == {**truth.to_dict(), "seed": str(truth.to_dict()["seed"])}
        big += truth.to_dict()["seed"] > SAFE_INT
        echo = Session()                       # a second engine loads what the browser holds
        echo.ok(cmd="load", state=got)
        assert echo.ok(cmd="state")["state"] == got
        for p in range(truth.game.num_players):
            view = s.ok(cmd="view", player=p)["view"]
            assert all(abs(i) <= SAFE_INT for i in _ints(view))
            assert echo.ok(cmd="load", view=view, player=p)["to_move"] == truth.current_player
        if truth.is_terminal:
            break
        move = rng.choice(truth.legal_actions())
        answer = s.ok(cmd="play", move=move)
        assert all(abs(i) <= SAFE_INT for i in _ints(answer))
        truth.push(move)
    assert big > 0, "the game never held a seed past 2^53: the test proved nothing"


def test_a_seed_is_a_string_out_and_either_form_in() -> None:
    s = Session()
    a = s.ok(cmd="new", game="toy", seed=str(BIG_SEED))
    b_exact, _ = s.raw(cmd="state")
    c = Session()
    assert c.ok(cmd="new", game="toy", seed=BIG_SEED)["seed"] == a["seed"] == str(BIG_SEED)
    assert c.ok(cmd="state") == {**b_exact, "id": c.n}
    drawn = c.ok(cmd="new", game="toy")["seed"]         # drawn by the engine: a string too
    assert isinstance(drawn, str) and 0 <= int(drawn) < 2**64
    st_ = c.ok(cmd="state")["state"]
    numeric = {**st_, "seed": int(st_["seed"])}         # an integer seed (protocol 1, Python) still loads
    c.ok(cmd="load", state=numeric)
    assert c.ok(cmd="state")["state"] == st_
    assert c.ok(cmd="info")["protocol"] == 2


@pytest.mark.parametrize("bad", ["", "007", "-1", "+1", "1e3", " 1", "1.0", "0x10", "18446744073709551616",
                                 "١٢٣", "9" * 21, 2**64, -1, 1.5, True, [], {}])
def test_a_bad_seed_is_refused_where_it_enters(bad: Any) -> None:
    s = Session()
    msg = s.err("bad_request", cmd="new", game="toy", seed=bad)
    assert "seed" in msg
    s.ok(cmd="new", game="toy", seed=1)
    assert "seed" in s.err("bad_request", cmd="go", agent="random", seed=bad)
    state = s.ok(cmd="state")["state"]
    if isinstance(bad, str):
        assert "seed" in s.err("invalid_state", cmd="load", state={**state, "seed": bad})
    assert s.ok(cmd="state")["state"] == state         # nothing changed


def test_a_go_takes_a_string_seed_like_the_integer() -> None:
    """The agent's seed, too: the same move either way (an iteration budget, waited for)."""
    moves = []
    for seed in (BIG_SEED, str(BIG_SEED)):
        lines: list[bytes] = []
        e = engine.Engine(lines.append)
        e.handle_line(b'{"id": 1, "cmd": "new", "game": "capivarias", "seed": 5}')
        e.handle_line(json.dumps({"id": 2, "cmd": "go", "agent": "ismcts", "iterations": 50, "seed": seed}).encode())
        deadline = time.monotonic() + 60
        while len(lines) < 2 and time.monotonic() < deadline:     # the go answers from its worker thread
            time.sleep(0.01)
        answer = json.loads(lines[1])
        assert answer["ok"] and not answer["stopped"], answer
        moves.append(answer["move"])
    assert moves[0] == moves[1]


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.integers(min_value=-2**70, max_value=2**70) | st.booleans() | st.none() | st.text(max_size=3),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=3), kids, max_size=4),
                    max_leaves=20))
def test_safe_ints_turns_only_large_integers_into_strings(obj: Any) -> None:
    out = _safe_ints(obj)

    def same(a: Any, b: Any) -> None:
        if isinstance(a, dict):
            assert isinstance(b, dict) and list(a) == list(b)
            for k in a:
                same(a[k], b[k])
        elif isinstance(a, list):
            assert isinstance(b, list) and len(a) == len(b)
            for x, y in zip(a, b):
                same(x, y)
        elif isinstance(a, int) and not isinstance(a, bool) and abs(a) > SAFE_INT:
            assert b == str(a)
        else:
            assert b is a or b == a and type(b) is type(a)

    same(obj, out)
    assert js_roundtrip(json.dumps(out)) == out


#: integers on both sides of SAFE_INT (16 and 17 digits), floats whose repr has long digit runs, and digit strings
_LEAVES = (st.integers(min_value=-2**70, max_value=2**70) | st.sampled_from([SAFE_INT, SAFE_INT + 1, -SAFE_INT - 1,
                                                                            10**15, 10**16, -(10**16), 0.9999999999999999,
                                                                            -0.12345678901234568, 1.2345678901234567e-05])
           | st.floats(allow_nan=False, allow_infinity=False) | st.booleans() | st.none()
           | st.from_regex(r"\A-?[0-9]{15,20}\Z") | st.text(alphabet="0123456789.e-", max_size=24)
           | st.text(alphabet='0123456789.e-"\\', max_size=24) | st.text(max_size=3))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=3), st.recursive(
    _LEAVES, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=3), kids, max_size=4),
    max_leaves=20), max_size=5), _LEAVES)
def test_the_answer_encoder_equals_the_full_walk(answer: dict[str, Any], rid: Any) -> None:
    """The engine encodes an answer once and walks it only when its line
    holds a long run of digits: byte for byte what walking every answer
    gave, ``id`` echoed as sent."""
    answer = {"id": rid, **{k: v for k, v in answer.items() if k != "id"}}
    want = _encode({k: v if k == "id" else _safe_ints(v) for k, v in answer.items()})
    assert _encode_answer(answer) == want


def test_an_id_is_echoed_exactly_even_past_two_to_the_53() -> None:
    lines: list[bytes] = []
    e = engine.Engine(lines.append)
    e.handle_line(b'{"id": 18446744073709551615, "cmd": "ping"}')
    assert json.loads(lines[0])["id"] == 2**64 - 1
