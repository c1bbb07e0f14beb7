"""A fuzz test of the engine protocol (issue 26): arbitrary JSON values,
strings with lone surrogates, non-finite numbers, deep nesting, random
commands and fields, in plain and seat-bound sessions, some arriving while a
``go`` runs. Every request gets exactly one strict-JSON answer and the
session stays alive (a last ``ping`` is answered). In-process, through
:class:`tabuleiro.engine.Engine`; tests/test_engine_hardening.py runs the
real ``tabuleiro engine`` on the surrogate case.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabuleiro import engine
from tests.test_engine_hardening import Run

COMMANDS = ["ping", "isready", "info", "new", "load", "state", "view", "legal", "play", "undo", "go", "perft", "stop",
            "PING", "nope", ""]
FIELDS = ["game", "seed", "seat", "players", "expansion", "first_player", "state", "view", "player", "move", "count",
          "depth", "agent", "level", "iterations", "time", "c", "rollout", "threads", "max_nodes", "shaped", "prior",
          "horizon", "apply", "top", "legacy_determinize", "x"]
#: placeholders replaced in the encoded line by what json.dumps will not write
SPECIAL = {"\x00BIG\x00": ["1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1e308", "-0.0", "9" * 400],
           "\x00DEEP\x00": ["[" * 64 + "]" * 64, "[" * 65 + "]" * 65, "[" * 5000 + "]" * 5000, "{\"a\":" * 80 + "1"
                            + "}" * 80]}

surrogates = st.sampled_from(["\ud800", "\udfff", "a\udc00b", "\udbff\ud800"])
texts = st.one_of(st.text(max_size=8), surrogates, st.sampled_from(list(SPECIAL)),
                  st.sampled_from(["capulana", "capivarias", "toy", "ismcts", "random", "done", "bid 1", "F13",
                                   "OP1@0", "stop"]))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.integers(-3, 70),
                    st.floats(allow_nan=False, allow_infinity=False), texts)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                        st.dictionaries(texts, inner, max_size=3)), max_leaves=8)
#: go budgets that end by themselves quickly (the fuzz's other fields may still ask for a long one)
SMALL_GO = st.fixed_dictionaries({"iterations": st.integers(0, 30)}, optional={"agent": st.sampled_from(
    ["random", "greedy", "ismcts", "mcts", "flatmc"]), "apply": st.booleans(), "seed": st.integers(0, 9)})


@st.composite
def request(draw: Any) -> bytes:
    kind = draw(st.integers(0, 9))
    if kind == 0:                                   # any JSON value at all, or any bytes
        return draw(st.one_of(values.map(lambda v: _encode(v)), st.binary(max_size=30)))
    req: dict[str, Any] = {}
    if draw(st.booleans()):
        req["id"] = draw(scalars)
    req["cmd"] = draw(st.one_of(st.sampled_from(COMMANDS), texts, values))
    if req["cmd"] == "go" and draw(st.booleans()):
        req.update(draw(SMALL_GO))
    for key in draw(st.lists(st.one_of(st.sampled_from(FIELDS), texts), max_size=4)):
        req[key] = draw(values)
    return _encode(req, draw(st.randoms(use_true_random=False)))


def _encode(value: Any, rnd: Optional[Any] = None) -> bytes:
    line = json.dumps(value)                        # ensure_ascii: surrogates become \ud800 escapes
    for mark, options in SPECIAL.items():
        token = json.dumps(mark)
        while token in line:
            line = line.replace(token, options[rnd.randrange(len(options))] if rnd else options[0], 1)
    return line.encode()


def _cmd(line: bytes) -> Any:
    try:
        req = json.loads(line)
        return req.get("cmd") if isinstance(req, dict) else None
    except (ValueError, RecursionError):
        return None


def session(seat: Optional[int], game: str, lines: list[bytes], during_go: bool) -> None:
    r = Run()
    expected = 0                                    # answers owed
    r.call({"id": "new", "cmd": "new", "game": game, "seed": 1, "seat": seat})
    expected += 1
    if during_go:
        r.send({"id": "go", "cmd": "go", "time": 30, "apply": True})
        expected += 1
    for line in lines:
        if _cmd(line) == "quit":
            continue
        assert r.send(line) is True
        expected += 1 if line.strip() else 0
    r.engine.finish_job()
    assert not r.engine.closed
    answers = r.answers()                           # each read strictly
    assert len(answers) == expected, (len(answers), expected)
    assert sum(a["id"] == "go" for a in answers) == int(during_go)
    r.alive()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seat=st.sampled_from([None, 0, 1]), game=st.sampled_from(["capulana", "capivarias", "toy"]),
       lines=st.lists(request(), min_size=1, max_size=8), during_go=st.booleans())
def test_every_request_gets_one_strict_answer_and_the_session_lives(seat: Optional[int], game: str,
                                                                    lines: list[bytes], during_go: bool) -> None:
    session(seat, game, lines, during_go)


def test_the_hostile_lines_of_issue_26() -> None:
    lines = [b'{"id":"\\ud800","cmd":"ping"}', b'{"id":1e999}', b"[" * 10**5, b'{"id":1,"cmd":"\\ud800"}',
             b'{"id":2,"cmd":"go","seed":' + b"[" * 3000 + b"]" * 3000 + b"}", b'{"cmd":"load","state":'
             + b'{"a":' * 3000 + b"1" + b"}" * 3000 + b"}"]
    for seat in (None, 0):
        for during_go in (False, True):
            session(seat, "capulana", lines, during_go)
