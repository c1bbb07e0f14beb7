"""Hostile requests to the engine protocol (issue 26): answers that could not
be encoded, non-finite numbers, deep nesting. Each test drives a session
in-process through :class:`tabuleiro.engine.Engine` (one answer line per
``write``) and reads every answer with a strict parser; one runs the real
``tabuleiro engine`` to show that the process goes on after such a request.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import Any, Optional

import pytest

from tabuleiro import engine


def _no_constant(name: str) -> Any:
    raise AssertionError(f"{name} in an answer: not strict JSON")


def strict(line: bytes) -> dict[str, Any]:
    """One answer line, read strictly: one line, UTF-8 (Python's decoder
    refuses encoded surrogates), JSON without NaN/Infinity, every string
    valid Unicode, the answer shape of docs/protocol.md."""
    assert line.endswith(b"\n") and b"\n" not in line[:-1], line[:200]
    obj = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            x.encode("utf-8")                   # raises on a lone surrogate from a \ud800 escape
        elif isinstance(x, dict):
            stack.extend(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    assert isinstance(obj, dict) and isinstance(obj["ok"], bool) and "id" in obj and "cmd" in obj, obj
    if not obj["ok"]:
        assert set(obj["error"]) == {"code", "message"} and obj["error"]["code"] in engine.ERROR_CODES, obj
        assert "Traceback" not in obj["error"]["message"]
    return obj


class Run:
    """An in-process session: every answer line kept and read strictly."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.lock = threading.Lock()
        self.logs: list[str] = []
        self.engine = engine.Engine(self._write, log=self.logs.append)

    def _write(self, data: bytes) -> None:
        with self.lock:
            self.lines.append(data)

    def send(self, request: Any) -> bool:
        raw = request if isinstance(request, bytes) else json.dumps(request).encode()
        return self.engine.handle_line(raw)

    def answers(self) -> list[dict[str, Any]]:
        with self.lock:
            return [strict(line) for line in self.lines]

    def call(self, request: Any) -> dict[str, Any]:
        """Send a request that answers at once; its answer."""
        n = len(self.lines)
        self.send(request)
        got = self.answers()[n:]
        assert len(got) == 1, got
        return got[0]

    def alive(self) -> None:
        """The session answers a ping (after any running job has answered)."""
        self.engine.finish_job()
        assert self.call({"id": "last", "cmd": "ping"}) == {"id": "last", "ok": True, "cmd": "ping"}
        assert not self.engine.closed


# --- 1. answers that cannot be encoded ----------------------------------------------------------

SURROGATE_LINES = [
    (b'{"id":"\\ud800","cmd":"ping"}', None, "ping"),
    (b'{"id":"a\\udfffb","cmd":"info"}', None, "info"),
    (b'{"id":7,"cmd":"\\ud800"}', 7, None),
    (b'{"id":7,"cmd":"pi\\udc00ng"}', 7, None),
    (b'{"id":8,"cmd":"play","move":"\\ud800"}', 8, "play"),
    (b'{"id":9,"cmd":"new","game":"\\udbff"}', 9, "new"),
    (b'{"id":10,"cmd":"view","player":{"\\ud800":1}}', 10, "view"),
    (b'{"id":11,"cmd":"load","state":{"game":"toy","x":["\\ud800"]}}', 11, "load"),
    (b'{"id":12,"cmd":"ping","\\ud800":1}', 12, "ping"),
]


@pytest.mark.parametrize("seat", [None, 1])
@pytest.mark.parametrize("line, rid, cmd", SURROGATE_LINES)
def test_a_lone_surrogate_gets_one_bad_request_and_the_session_goes_on(line: bytes, rid: Any, cmd: Optional[str],
                                                                       seat: Optional[int]) -> None:
    r = Run()
    r.call({"id": 1, "cmd": "new", "game": "capulana", "players": 3, "seed": 5, "seat": seat})
    state = r.call({"id": 2, "cmd": "state"})["state"]
    a = r.call(line)
    assert a["ok"] is False and a["error"]["code"] == "bad_request" and a["id"] == rid and a["cmd"] == cmd, a
    assert "Unicode" in a["error"]["message"]
    assert r.call({"id": 3, "cmd": "state"})["state"] == state       # nothing changed
    r.alive()


@pytest.mark.parametrize("seat", [None, 0])
def test_a_lone_surrogate_during_a_go_is_answered_and_so_is_the_go(seat: Optional[int]) -> None:
    r = Run()
    r.call({"id": 1, "cmd": "new", "game": "capivarias", "seed": 5, "seat": seat})
    assert r.send({"id": "go", "cmd": "go", "time": 30, "apply": True}) and len(r.lines) == 1
    a = r.call(b'{"id":"\\ud800","cmd":"ping"}')       # refused at once, not deferred as a ping
    assert a["error"]["code"] == "bad_request" and a["id"] is None
    a = r.call(b'{"id":2,"cmd":"\\udc00"}')
    assert a["error"]["code"] == "bad_request" and a["id"] == 2
    r.send({"id": "stop", "cmd": "stop"})
    got = {a["id"]: a for a in r.answers()}
    assert got["go"]["ok"] and got["go"]["applied"] and got["stop"]["finished"], got
    r.alive()


def test_non_finite_numbers_are_bad_json() -> None:
    r = Run()
    for line in (b'{"id":1e999,"cmd":"ping"}', b'{"id":1,"cmd":"ping","x":-1e999}', b'{"id":1,"cmd":"ping","x":[NaN]}',
                 b'{"id":Infinity,"cmd":"ping"}', b'{"id":1,"cmd":"go","time":1e400}', b'{"id":-Infinity}'):
        a = r.call(line)
        assert a["error"]["code"] == "bad_json" and a["id"] is None and a["cmd"] is None, (line, a)
    assert r.call(b'{"id":1e308,"cmd":"ping"}') == {"id": 1e308, "ok": True, "cmd": "ping"}
    r.alive()


class _Weird:
    pass


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "\ud800", _Weird(), {(1, 2): "key"}],
                         ids=["nan", "inf", "surrogate", "object", "tuple-key"])
def test_an_unencodable_answer_becomes_an_internal_error_that_encodes(monkeypatch: pytest.MonkeyPatch,
                                                                      bad: Any) -> None:
    """A bug that puts something unencodable in an answer (here planted in
    ``info`` and in a ``go``'s answer, written from the worker thread) gives
    one ``internal`` answer with the request's id, and the session goes on."""
    r = Run()
    r.call({"id": 1, "cmd": "new", "game": "toy", "seed": 3})
    facts = engine.Engine._facts
    monkeypatch.setattr(engine.Engine, "_facts", lambda self: {**facts(self), "bad": bad})
    a = r.call({"id": "i", "cmd": "info"})
    assert a == {"id": "i", "ok": False, "cmd": "info", "error": {"code": "internal", "message": a["error"]["message"]}}
    after = engine.Engine._after
    monkeypatch.setattr(engine.Engine, "_after", lambda self, st: {**after(self, st), "bad": bad})
    r.send({"id": "g", "cmd": "go", "iterations": 10, "apply": True})
    r.engine.finish_job()
    a = r.answers()[-1]
    assert a["id"] == "g" and a["cmd"] == "go" and a["error"]["code"] == "internal", a
    monkeypatch.undo()
    assert r.call({"id": 3, "cmd": "info"})["moves"] == 1         # the go was applied, its answer was an error
    r.alive()


def test_a_writer_that_raises_closes_the_session_without_an_exception() -> None:
    def write(data: bytes) -> None:
        raise RuntimeError("gone")

    e = engine.Engine(write)
    assert e.handle_line(b'{"id":1,"cmd":"ping"}') is True and e.closed


@pytest.mark.parametrize("request_line", [b'{"id":2,"cmd":"perft","depth":2}',
                                          b'{"id":2,"cmd":"go","iterations":20,"seed":1}'])
def test_a_jobs_slot_is_free_before_its_answer_is_written(request_line: bytes) -> None:
    """A host that reads ``busy`` once a client has seen a job's answer (the
    server's engine-job limit does) must find the job gone. It found it still
    running: the answer was written before the slot was freed, and CI's
    ``test_engine_jobs_are_capped_across_sockets...`` refused a go."""
    seen: list[tuple[Any, bool]] = []
    done = threading.Event()

    def write(data: bytes) -> None:
        answer = json.loads(data)
        seen.append((answer["id"], e.busy))
        if answer["id"] == 3:
            done.set()

    e = engine.Engine(write)
    assert e.handle_line(b'{"id":1,"cmd":"new","game":"capivarias","seed":1}')
    assert e.handle_line(request_line)
    assert e.handle_line(b'{"id":3,"cmd":"ping"}')              # waits for the job's answer
    assert done.wait(30)
    e.finish_job()
    assert seen[0] == (1, False)
    assert (2, False) in seen and seen.index((2, False)) < seen.index((3, False)), seen


def test_the_real_engine_answers_after_a_lone_surrogate() -> None:
    """The issue's case: ``tabuleiro engine`` used to stop answering and exit 0."""
    proc = subprocess.Popen([sys.executable, "-m", "tabuleiro", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b'{"id":1,"cmd":"new","game":"capulana","seed":2,"seat":0}\n'
                         b'{"id":"\\ud800","cmd":"ping"}\n{"id":2,"cmd":"ping"}\n')
        proc.stdin.flush()
        answers = [strict(proc.stdout.readline()) for _ in range(3)]
        assert answers[1]["error"]["code"] == "bad_request" and answers[1]["id"] is None
        assert answers[2] == {"id": 2, "ok": True, "cmd": "ping"}
        assert proc.poll() is None                                     # still running
        proc.stdin.write(b'{"id":3,"cmd":"quit"}\n')
        proc.stdin.flush()
        assert strict(proc.stdout.readline())["id"] == 3
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --- 3. deep nesting ---------------------------------------------------------------------------------------


def _nest(n: int, inner: str = "1") -> str:
    return "[" * n + inner + "]" * n


@pytest.mark.parametrize("seat", [None, 0])
def test_deep_nesting_gets_exactly_one_answer(seat: Optional[int]) -> None:
    r = Run()
    r.call({"id": 1, "cmd": "new", "game": "capulana", "seed": 4, "seat": seat})
    lines = [
        "[" * 10**5,                                                    # the line (under 1 MiB)
        _nest(10**5),
        '{"id":2,"cmd":"load","state":{"game":"capulana","hands":' + _nest(5000) + "}}",
        '{"id":3,"cmd":"go","seed":' + _nest(2000) + "}",
        '{"id":4,"cmd":"go","iterations":' + "{\"a\":" * 3000 + "1" + "}" * 3000 + "}",
        '{"id":5,"cmd":"play","move":' + _nest(engine.MAX_DEPTH) + "}",
        '{"id":6,"cmd":"load","view":' + _nest(900) + ',"player":0}',
    ]
    for line in lines:
        a = r.call(line.encode())
        assert a["error"]["code"] == "bad_json" and a["id"] is None, (line[:50], a)
        assert "nested deeper than 64" in a["error"]["message"]
    # at the limit the request is read, and its fields refused one by one
    a = r.call(('{"id":7,"cmd":"play","move":' + _nest(engine.MAX_DEPTH - 1) + "}").encode())
    assert a["error"]["code"] == "bad_request" and a["id"] == 7
    a = r.call(('{"id":8,"cmd":"load","state":{"game":"capulana","hands":' + _nest(60) + "}}").encode())
    assert a["error"]["code"] == "invalid_state" and a["id"] == 8
    r.alive()
