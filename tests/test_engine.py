"""Acceptance tests of ``tabuleiro engine``, the JSON-lines protocol (issue 9
part 2, docs/protocol.md), driven in a subprocess as a frontend would:

* whole games of Capivárias, Capulana (3 players) and Toy through ``play`` and
  ``go`` with ``apply``, checked move by move against the Python API;
* every error code, each leaving the game unchanged (``state`` before/after);
* ``stop`` during a 30-second ``go`` answered within 0.5 s, ``ping`` deferred
  until the go has answered, reads answered while it runs;
* seat-bound sessions over whole games checked against the true state: no
  card hidden from the seat (whole word) and no seed ever in its output;
* EOF and ``quit`` exit 0 (also during a go), a 1.5 MB line is refused and the
  session goes on, perft agrees with the API and stops on request;
* the example sessions of docs/protocol.md replay to the same answers.
"""

from __future__ import annotations

import io
import itertools
import json
import shutil
import queue
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Optional, Union

import pytest

import tabuleiro
from tabuleiro import agents, capivarias, capulana, engine
from tests.test_engine_undo import learned

ROOT = Path(__file__).resolve().parents[1]
ENGINE = [sys.executable, "-m", "tabuleiro", "engine"]
#: A seed whose decimal string cannot turn up in an answer by chance.
SEED = 8140392766153901117
CARD_NAMES = {"capivarias": {c.name for c in capivarias.CARDS}, "capulana": {c.name for c in capulana.CARDS}}
WORD = re.compile(r"[A-Za-z0-9_]+")


class Session:
    """A ``tabuleiro engine`` subprocess: requests in, every answer line kept."""

    def __init__(self, argv: Optional[list[str]] = None) -> None:
        self.proc = subprocess.Popen(argv or ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.out: queue.Queue[tuple[float, bytes]] = queue.Queue()
        self.lines: list[str] = []              # every stdout line, in order
        self.stderr = b""
        self.early: dict[Any, dict[str, Any]] = {}
        self.ids = itertools.count(1)
        #: when set, every error answer is followed by a ``state`` that must equal it
        self.guard: Optional[dict[str, Any]] = None
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.out.put((time.monotonic(), line))
        self.out.put((time.monotonic(), b""))

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()

    def send(self, request: Union[dict[str, Any], bytes]) -> float:
        raw = request if isinstance(request, bytes) else json.dumps(request).encode() + b"\n"
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw)
        self.proc.stdin.flush()
        return time.monotonic()

    def next(self, timeout: float = 120) -> tuple[float, dict[str, Any]]:
        """The next answer line (its arrival time and object)."""
        t, raw = self.out.get(timeout=timeout)
        assert raw, "the engine closed its output"
        text = raw.decode("utf-8")
        assert text.endswith("\n") and "\n" not in text[:-1]
        self.lines.append(text)
        obj = json.loads(text)
        assert isinstance(obj, dict) and "id" in obj and isinstance(obj["ok"], bool)
        assert obj["ok"] or set(obj["error"]) == {"code", "message"}
        assert obj["ok"] or obj["error"]["code"] in engine.ERROR_CODES
        return t, obj

    def wait(self, rid: Any, timeout: float = 120) -> dict[str, Any]:
        if rid in self.early:
            return self.early.pop(rid)
        while True:
            _, obj = self.next(timeout)
            if obj["id"] == rid:
                return obj
            self.early[obj["id"]] = obj

    def call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        rid = next(self.ids)
        self.send({"id": rid, "cmd": cmd, **fields})
        r = self.wait(rid)
        assert r["cmd"] == cmd
        return r

    def ok(self, cmd: str, **fields: Any) -> dict[str, Any]:
        r = self.call(cmd, **fields)
        assert r["ok"], r
        return r

    def err(self, code: str, cmd: str, **fields: Any) -> dict[str, Any]:
        r = self.call(cmd, **fields)
        assert not r["ok"] and r["error"]["code"] == code, r
        assert "Traceback" not in r["error"]["message"]
        self.unchanged((cmd, fields))
        return r

    def raw_err(self, code: str, raw: bytes) -> dict[str, Any]:
        self.send(raw)
        _, r = self.next()
        assert not r["ok"] and r["error"]["code"] == code and r["id"] is None, r
        self.unchanged(raw[:60])
        return r

    def unchanged(self, what: Any) -> None:
        if self.guard is not None:
            assert self.ok("state")["state"] == self.guard, f"{what} changed the game"

    def close(self, timeout: float = 10) -> int:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def spawn() -> Any:
    made: list[Session] = []

    def make(argv: Optional[list[str]] = None) -> Session:
        s = Session(argv)
        made.append(s)
        return s

    yield make
    for s in made:
        s.kill()


def on_the_wire(state: Any) -> dict[str, Any]:
    """The full state dict as the protocol sends it: the seed as a decimal string (issue 28)."""
    d = state.to_dict()
    return {**d, "seed": str(d["seed"])}


def outcome_of(state: Any) -> dict[str, Any]:
    o = state.outcome()
    return {"winners": list(o.winners), "winner": o.winner, "returns": list(o.returns), "scores": list(o.scores)}


def search(state_or_view: Any, **params: Any) -> Any:
    return agents.make("ismcts", **params).search(state_or_view)


# --- whole games -----------------------------------------------------------------------------------------


GAMES = [("capivarias", {}), ("capivarias", {"expansion": True}), ("capulana", {"players": 3}), ("toy", {})]
GAME_IDS = ["capivarias", "capivarias-expansion", "capulana-3p", "toy"]


def test_go_passes_the_horizon_knob_through(spawn: Any) -> None:
    """`go` with "horizon" searches as the agent with that knob: false is the
    full-rollout search, true and the default the round horizon."""
    s = spawn()
    s.ok("new", game="capivarias", seed=SEED)
    truth = tabuleiro.load_game("capivarias").new_initial_state(seed=SEED)
    got = {}
    for h in (False, True, None):
        fields = {} if h is None else {"horizon": h}
        r = s.ok("go", iterations=300, seed=2, **fields)
        want = search(truth, iterations=300, seed=2, horizon=h)
        assert [(a["id"], a["visits"]) for a in r["analysis"]] == [(a.move.action, a.visits) for a in want.analysis]
        got[h] = r["analysis"]
    assert got[None] == got[True] != got[False]


@pytest.mark.parametrize("name, params", GAMES, ids=GAME_IDS)
def test_whole_game_through_play_and_go(spawn: Any, name: str, params: dict[str, Any]) -> None:
    s = spawn()
    r = s.ok("new", game=name, seed=SEED, **params)
    assert r["game"] == name and r["seed"] == str(SEED) and r["seat"] is None and r["moves"] == 0
    truth = tabuleiro.load_game(name, **params).new_initial_state(seed=SEED)
    assert r["params"] == truth.game.params and r["info"]["num_players"] == truth.game.num_players
    rng = random.Random(7)
    for step in itertools.count():
        assert s.ok("state")["state"] == on_the_wire(truth)
        if truth.is_terminal:
            break
        if step % 2 == 0:                           # a frontend's move, by notation or by id
            legal = s.ok("legal")
            assert legal["player"] == truth.current_player
            assert [m["id"] for m in legal["moves"]] == truth.legal_actions()
            assert [m["move"] for m in legal["moves"]] == [str(m) for m in truth.legal_moves()]
            m = rng.choice(legal["moves"])
            r = s.ok("play", move=m["move"] if rng.random() < 0.5 else m["id"])
            assert r["move"] == m and r["player"] == truth.current_player
            truth.push(m["id"])
        else:                                       # the engine's move
            want = search(truth, iterations=40, seed=step)
            r = s.ok("go", iterations=40, seed=step, apply=True, top=3)
            assert r["player"] == truth.current_player and r["applied"] and r["agent"] == "ismcts"
            assert r["move"] == {"move": str(want.move), "id": want.move.action}
            assert r["iterations"] == want.iterations and r["stopped"] is False and len(r["analysis"]) <= 3
            assert r["analysis"] == [{"move": str(a.move), "id": a.move.action, "visits": a.visits,
                                      "mean": round(a.mean, 4)}
                                     for a in want.analysis[:3]]
            truth.push(want.move.action)
        assert r["to_move"] == truth.current_player and r["over"] == truth.is_terminal
    assert r["over"] and r["to_move"] is None and r["outcome"] == outcome_of(truth)
    assert sum(r["outcome"]["returns"]) == pytest.approx(0.0 if name != "capulana" else 1.0)
    info = s.ok("info")
    assert info["over"] and info["moves"] == len(truth.history()) and info["to_move"] is None
    assert s.ok("legal")["moves"] == []
    s.err("game_over", "play", move=truth.history()[-1])
    s.err("game_over", "go", iterations=10)
    r = s.ok("undo")                                # back into the game, and replay the same move
    last = truth.pop()
    assert r["moves"] == [{"move": str(last), "id": last.action}] and r["over"] is False
    truth.push(last)
    assert s.ok("play", move=last.action)["outcome"] == outcome_of(truth)
    assert s.close() == 0


def test_tabuleiro_script_runs_the_engine(spawn: Any) -> None:
    # installing the package installs the console script: next to this python, or on PATH
    script = Path(sys.executable).with_name("tabuleiro")
    found = str(script) if script.exists() else shutil.which("tabuleiro")
    assert found, "the tabuleiro console script is not installed next to this python nor on PATH"
    s = spawn([found, "engine"])
    assert s.ok("new", game="capivarias", seed=3)["to_move"] == 0
    assert s.ok("ping") == {"id": 2, "ok": True, "cmd": "ping"}
    assert s.close() == 0


# --- errors ------------------------------------------------------------------------------------------


def test_every_error_leaves_the_game_unchanged(spawn: Any) -> None:
    s = spawn()
    for cmd, fields in [("state", {}), ("view", {"player": 0}), ("legal", {}), ("play", {"move": 0}),
                        ("undo", {}), ("go", {}), ("perft", {"depth": 1})]:
        s.err("no_game", cmd, **fields)
    s.ok("new", game="capulana", players=3, seed=SEED)
    truth = capulana.new_game(players=3, seed=SEED)
    rng = random.Random(3)
    while len(truth.history()) < 9 or len(truth.legal_actions()) < 2:   # a position where a go searches
        m = rng.choice(truth.legal_actions())
        s.ok("play", move=m)
        truth.push(m)
    before = s.ok("state")["state"]
    assert before == on_the_wire(truth)
    s.guard = before                                # each error below is followed by a state check

    s.raw_err("bad_json", b"{not json\n")
    s.raw_err("bad_json", b'{"cmd": "state", "id": 1\n')
    s.raw_err("bad_json", b"\xff\xfe{}\n")
    s.raw_err("bad_json", b'{"cmd": "go", "c": NaN}\n')
    s.raw_err("bad_request", b"[1, 2, 3]\n")
    s.raw_err("bad_request", b'"state"\n')
    s.raw_err("bad_request", b'{"id": [1], "cmd": "state"}\n')
    r = s.raw_err("bad_request", b'{"cmd": 5}\n')
    assert "cmd" in r["error"]["message"]
    s.send(b'{"id": "x"}\n')
    _, r = s.next()
    assert r["id"] == "x" and r["error"]["code"] == "bad_request" and "'cmd'" in r["error"]["message"]
    for cmd, fields, named in [
        ("play", {}, "'move'"),
        ("play", {"move": True}, "'move'"),
        ("play", {"move": ["bid 1"]}, "'move'"),
        ("view", {}, "'player'"),
        ("view", {"player": 3}, "'player'"),
        ("view", {"player": "0"}, "'player'"),
        ("perft", {}, "'depth'"),
        ("perft", {"depth": 2.0}, "'depth'"),
        ("perft", {"depth": 99}, "'depth'"),
        ("undo", {"count": 0}, "'count'"),
        ("new", {}, "'game'"),
        ("new", {"game": "chess"}, "'game'"),
        ("new", {"game": "capivarias", "players": 3}, "players"),
        ("new", {"game": "capulana", "players": 9}, "players"),
        ("new", {"game": "capulana", "players": True}, "players"),
        ("new", {"game": "capivarias", "expansion": 1}, "expansion"),
        ("new", {"game": "toy", "seed": -1}, "'seed'"),
        ("new", {"game": "toy", "seed": 2**64}, "'seed'"),
        ("new", {"game": "toy", "seat": 2}, "'seat'"),
        ("load", {}, "'state'"),
        ("load", {"state": before, "view": before}, "'state'"),
        ("load", {"state": "{}"}, "'state'"),
        ("load", {"view": truth.view(0)}, "'player'"),
        ("load", {"view": truth.view(0), "player": 0, "seat": 1}, "seat"),
        ("go", {"agent": "deep-blue"}, "'agent'"),
        ("go", {"agent": 3}, "'agent'"),
        ("go", {"iterations": -1}, "iterations"),
        ("go", {"iterations": "many"}, "iterations"),
        ("go", {"time": 0}, "time"),
        ("go", {"rollout": "smart"}, "rollout"),
        ("go", {"agent": "random", "iterations": 10}, "iterations"),
        ("go", {"apply": "yes"}, "'apply'"),
        ("go", {"top": -1}, "'top'"),
        ("go", {"agent": "mcts", "level": 3}, "level"),
    ]:
        r = s.err("bad_request", cmd, **fields)
        assert named in r["error"]["message"], (cmd, fields, r)
    r = s.err("bad_request", "go", level=5, iterations=10)      # a level is its own budget
    assert "takes only level and seed" in r["error"]["message"], r
    for bad in (0, 11, "5", 2.5):
        r = s.err("bad_request", "go", level=bad)
        assert "level" in r["error"]["message"], r
    s.err("unknown_command", "fly")
    s.err("unknown_command", "STATE")
    s.err("invalid_move", "play", move="bid 7")
    s.err("invalid_move", "play", move="offer F99")
    s.err("invalid_move", "play", move="")
    s.err("invalid_move", "play", move=10**6)
    s.err("invalid_move", "play", move=-1)
    illegal = next(a for a in range(truth.game.num_distinct_actions) if a not in truth.legal_actions())
    s.err("illegal_move", "play", move=illegal)
    s.err("illegal_move", "play", move=str(truth.MOVE(illegal)))
    s.err("illegal_move", "undo", count=len(truth.history()) + 1)
    broken = dict(before, hands=before["hands"][:2])
    s.err("invalid_state", "load", state=broken)
    s.err("invalid_state", "load", state={"game": "chess"})
    s.err("invalid_state", "load", state=dict(before, game="capivarias"))
    s.err("invalid_state", "load", view=dict(truth.view(1), deck={"count": 99}), player=1)
    s.err("invalid_state", "load", view={"game": "capulana", "players": 3}, player=1)
    s.raw_err("line_too_long", b"{" + b" " * (3 * engine.MAX_LINE // 2) + b"}\n")
    assert s.ok("state")["state"] == before
    # busy: a long go refuses every command that would touch the state, and stop ends it
    rid = next(s.ids)
    s.send({"id": rid, "cmd": "go", "time": 30})
    for cmd, fields in [("new", {"game": "toy"}), ("load", {"state": before}), ("play", {"move": 0}),
                        ("undo", {}), ("go", {}), ("perft", {"depth": 1})]:
        s.err("busy", cmd, **fields)
    assert s.ok("state")["state"] == before         # reads are answered while the go runs
    s.ok("stop")
    assert s.wait(rid)["stopped"] is True
    assert s.ok("state")["state"] == before
    # bound: not_your_seat, forbidden
    s.ok("load", state=before, seat=0)
    assert truth.current_player != 0
    s.guard = truth.view(0)
    s.err("not_your_seat", "view", player=1)
    s.err("not_your_seat", "legal")
    s.err("forbidden", "perft", depth=1)
    s.err("forbidden", "go", iterations=10)         # another player's go must apply its move
    assert s.ok("state")["state"] == truth.view(0)
    s.ok("load", state=before)
    assert s.ok("state")["state"] == before
    assert s.close() == 0


def test_an_internal_error_is_an_answer_never_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: Any, req: Any, rid: Any) -> Any:
        raise RuntimeError("boom F13 " + str(SEED))

    monkeypatch.setitem(engine._HANDLERS, "info", boom)
    out = io.BytesIO()
    lines = [{"id": 1, "cmd": "info"}, {"id": 2, "cmd": "new", "game": "capulana", "seed": SEED, "seat": 0},
             {"id": 3, "cmd": "state"}, {"id": 4, "cmd": "info"}, {"id": 5, "cmd": "state"}]
    inp = io.BytesIO(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    logged: list[str] = []
    assert engine.serve(inp, out, log=logged.append) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a["error"]["code"] if not a["ok"] else "ok" for a in answers] == ["internal", "ok", "ok", "internal", "ok"]
    assert "RuntimeError" in answers[0]["error"]["message"] and "Traceback" not in out.getvalue().decode()
    assert "boom" not in answers[3]["error"]["message"]      # bound: not even the exception's text
    assert answers[2]["state"] == answers[4]["state"]        # and the game is as it was
    assert "Traceback" in logged[0] and logged[1] == "internal error in info: RuntimeError"   # stderr


# --- long lines, EOF, quit ---------------------------------------------------------------------------------------


def test_line_limit_is_exactly_one_mebibyte(spawn: Any) -> None:
    s = spawn()
    req = b'{"id": 1, "cmd": "ping"}'
    s.send(req + b" " * (engine.MAX_LINE - len(req)) + b"\n")
    assert s.next()[1] == {"id": 1, "ok": True, "cmd": "ping"}
    s.send(req + b" " * (engine.MAX_LINE - len(req)) + b"\r\n")
    assert s.next()[1]["ok"]
    s.raw_err("line_too_long", req + b" " * (engine.MAX_LINE + 1 - len(req)) + b"\n")
    s.raw_err("line_too_long", b"x" * (3 * engine.MAX_LINE // 2) + b"\n")    # 1.5 MB, not even JSON
    s.send(b"\n   \n")                              # blank lines are skipped
    assert s.ok("ping")["ok"]
    assert s.close() == 0


def test_a_long_line_at_eof_is_refused_and_the_engine_exits_0(spawn: Any) -> None:
    s = spawn()
    s.send(b"[" * (2 * engine.MAX_LINE))
    assert s.close() == 0
    _, r = s.next()
    assert r["error"]["code"] == "line_too_long"


def test_eof_exits_0(spawn: Any) -> None:
    s = spawn()
    s.ok("new", game="toy", seed=1)
    assert s.close() == 0 and s.stderr == b""


def test_eof_during_a_go_stops_it_answers_and_exits_0(spawn: Any) -> None:
    s = spawn()
    s.ok("new", game="capivarias", seed=5)
    s.send({"id": "g", "cmd": "go", "time": 30})
    time.sleep(0.3)
    t0 = time.monotonic()
    assert s.close() == 0
    assert time.monotonic() - t0 < 2.0
    r = s.wait("g", timeout=1)
    assert r["ok"] and r["stopped"] is True


def test_quit_answers_then_exits_0_even_during_a_go(spawn: Any) -> None:
    s = spawn()
    assert s.ok("quit") == {"id": 1, "ok": True, "cmd": "quit"}
    assert s.proc.wait(10) == 0
    s = spawn()
    s.ok("new", game="capulana", players=4, seed=5)
    s.send({"id": "g", "cmd": "go", "time": 30})
    time.sleep(0.2)
    s.send({"id": "q", "cmd": "quit"})
    _, first = s.next(5)
    _, second = s.next(5)
    assert first["id"] == "g" and first["stopped"] is True and second == {"id": "q", "ok": True, "cmd": "quit"}
    assert s.proc.wait(10) == 0


# --- stop, ping, concurrency ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, params", [("capivarias", {}), ("capulana", {"players": 3})])
def test_stop_ends_a_30_second_go_within_half_a_second(spawn: Any, name: str, params: dict[str, Any]) -> None:
    s = spawn()
    s.ok("new", game=name, seed=SEED, **params)
    truth = tabuleiro.load_game(name, **params).new_initial_state(seed=SEED)
    s.send({"id": "g", "cmd": "go", "time": 30, "apply": True})
    s.send({"id": "p", "cmd": "ping"})               # answered only once the go has answered
    t_go = time.monotonic()
    assert s.ok("info")["running"] == "go"
    assert s.ok("legal")["moves"]                   # reads go on while it searches
    time.sleep(1.0)
    assert "g" not in s.early and "p" not in s.early
    t0 = s.send({"id": "s", "cmd": "stop"})
    t1, go = s.next(5)
    t2, ping = s.next(5)
    t3, stop = s.next(5)
    assert (go["id"], ping["id"], stop["id"]) == ("g", "p", "s")
    assert t1 - t0 < 0.5 and t3 - t0 < 0.5, (t1 - t0, t3 - t0)
    assert 0.9 < t0 - t_go < 5
    assert go["ok"] and go["stopped"] is True and go["iterations"] > 0 and go["applied"]
    assert go["move"]["id"] in truth.legal_actions()
    assert stop == {"id": "s", "ok": True, "cmd": "stop", "stopped": True, "job": "go", "finished": True,
                    "move": go["move"]}
    assert ping == {"id": "p", "ok": True, "cmd": "ping"}
    truth.push(go["move"]["id"])
    assert s.ok("state")["state"] == on_the_wire(truth)
    r = s.ok("stop")                                # nothing to stop
    assert r == {"id": r["id"], "ok": True, "cmd": "stop", "stopped": False}
    assert s.close() == 0


def test_perft_agrees_with_the_api_and_stops(spawn: Any) -> None:
    s = spawn()
    for name, params in [("capivarias", {"expansion": True}), ("capulana", {"players": 2}), ("toy", {})]:
        s.ok("new", game=name, seed=11, **params)
        truth = tabuleiro.load_game(name, **params).new_initial_state(seed=11)
        for _ in range(5):
            a = truth.legal_actions()[-1]
            truth.push(a)
            s.ok("play", move=a)
        for depth in range(0, 6):
            r = s.ok("perft", depth=depth)
            assert r == {"id": r["id"], "ok": True, "cmd": "perft", "depth": depth, "nodes": truth.perft(depth),
                         "stopped": False}
    s.ok("new", game="capulana", players=5, seed=2)
    rid = next(s.ids)
    t0 = s.send({"id": rid, "cmd": "perft", "depth": 30})
    time.sleep(0.3)
    s.err("busy", "perft", depth=1)
    s.send({"id": "s", "cmd": "stop"})
    r = s.wait(rid, timeout=5)
    assert r["stopped"] is True and r["nodes"] is None and time.monotonic() - t0 < 1.0
    assert s.wait("s")["job"] == "perft"
    assert s.close() == 0


def test_level(spawn: Any) -> None:
    s = spawn()
    s.ok("new", game="capivarias", seed=1)
    r = s.call("go", level=3)
    assert r["ok"] and r["agent"] == "level", r
    assert s.ok("info")["level"] is True
    legal = {m["move"] for m in s.ok("legal")["moves"]}
    searching = next(n for n in range(1, 11) if agents.make("level", level=n).agent_for("capivarias").name == "ismcts")
    r = s.call("go", level=searching, apply=True)
    budget = agents.make("level", level=searching).agent_for("capivarias").iterations  # type: ignore[attr-defined]
    assert r["ok"] and r["move"]["move"] in legal and r["iterations"] == budget, r
    assert s.close() == 0


def test_new_takes_each_games_parameters_and_draws_a_seed_when_none_is_given(spawn: Any) -> None:
    s = spawn()
    assert s.ok("new", game="capivarias", first_player=1, seed=3)["to_move"] == 1
    assert s.ok("new", game="capivarias", expansion=True, seed=3)["params"] == {"expansion": True, "first_player": 0}
    assert s.ok("new", game="capulana", seed=3)["info"]["num_players"] == 3
    r = s.ok("new", game="capulana", players=5)
    drawn = r["seed"]
    state = s.ok("state")["state"]
    assert s.ok("new", game="capulana", players=5, seed=drawn)["seed"] == drawn
    assert s.ok("state")["state"] == state == on_the_wire(capulana.new_game(players=5, seed=int(drawn)))
    r = s.ok("new", game="capulana", players=5, seat=2)
    assert "seed" not in r and s.ok("state")["state"]["hands"][2] != state["hands"][2]
    assert s.ok("isready")["ok"]
    assert s.close() == 0


def test_a_bound_toy_session_cannot_take_back_a_card_it_saw(spawn: Any) -> None:
    """A seat takes back only its own moves that showed it nothing new."""
    s = spawn()
    for seed in range(12):
        truth = tabuleiro.load_game("toy").new_initial_state(seed=seed)
        s.ok("new", game="toy", seed=seed, seat=0)
        while not truth.is_terminal:
            before = truth.view(0)
            mover = truth.current_player
            if mover == 0:
                a = truth.legal_actions()[0]
                s.ok("play", move=a)
            else:
                a = search(truth.view(1), iterations=20).move.action
                assert s.ok("go", iterations=20, apply=True)["move"] is None
            truth.push(a)
            after = truth.view(0)
            shown = {c for h in after["hands"] + after["piles"] if isinstance(h, list) for c in h} - \
                {c for h in before["hands"] + before["piles"] if isinstance(h, list) for c in h}
            r = s.call("undo")
            if shown or truth.history() and mover != 0:  # a card shown, or another player's move
                assert r["error"]["code"] == "forbidden", (seed, before, after)
            else:
                assert r["ok"], r
                s.ok("play", move=a)
            assert s.ok("state")["state"] == after
    assert s.close() == 0


# --- views and seats -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, params", GAMES, ids=GAME_IDS)
def test_a_loaded_view_plays_like_the_full_state(spawn: Any, name: str, params: dict[str, Any]) -> None:
    """A bot at a remote table: load the seat's view, go; the same move as from the full state."""
    game = tabuleiro.load_game(name, **params)
    full, bot = spawn(), spawn()
    rng = random.Random(4)
    for k in range(6):
        st = game.new_initial_state(seed=SEED + k)
        for _ in range(rng.randrange(game.info.max_game_length // 2)):
            if st.is_terminal:
                break
            st.push(rng.choice(st.legal_actions()))
        while st.is_terminal:
            st.pop()
        p = st.current_player
        full.ok("load", state=st.to_dict())
        assert full.ok("state")["state"] == on_the_wire(st)
        r = bot.ok("load", view=st.view(p), player=p, seat=p)
        assert r["seat"] == p and r["to_move"] == p
        assert bot.ok("state")["state"] == st.view(p)
        assert [m["id"] for m in bot.ok("legal")["moves"]] == st.legal_actions()
        a = full.ok("go", iterations=60, seed=k)
        b = bot.ok("go", iterations=60, seed=k)
        assert a["move"] == b["move"] and a["analysis"] == b["analysis"]
        r = bot.ok("load", view=st.view(p), player=p)     # unbound: a full world consistent with the view
        assert "seed" in bot.ok("state")["state"]
    assert full.close() == 0 and bot.close() == 0


def cards_hidden(truth: Any, seat: int) -> set[str]:
    """Card names in the full state that the seat's view does not show."""
    names = CARD_NAMES[truth.game.name]

    def words(obj: Any) -> set[str]:
        return set(WORD.findall(json.dumps(obj))) & names

    return words(truth.to_dict()) - words(truth.view(seat))


class Watch:
    """Reads every answer line of a seat-bound session against the truth:
    no card hidden from the seat both before and after the request (a card
    the request itself revealed, or the seat's own move that hid it again, is
    fair), and no seed the game has had."""

    def __init__(self, s: Session, truth: Any, seat: int) -> None:
        self.s, self.truth, self.seat = s, truth, seat
        self.read = len(s.lines)
        self.hidden = cards_hidden(truth, seat)
        self.seeds = {str(truth.to_dict()["seed"])}
        self.lines_checked = 0

    def check(self) -> None:
        now = cards_hidden(self.truth, self.seat)
        self.seeds.add(str(self.truth.to_dict()["seed"]))
        bad = self.hidden & now
        for line in self.s.lines[self.read:]:
            leaked = set(WORD.findall(line)) & bad
            assert not leaked, f"hidden cards {sorted(leaked)} in {line[:300]}"
            for seed in self.seeds:
                assert seed not in line, f"seed {seed} in {line[:300]}"
            self.lines_checked += 1
        self.read = len(self.s.lines)
        self.hidden = now


SEATED = [("capivarias", {}, 0), ("capivarias", {"expansion": True}, 1), ("capulana", {"players": 3}, 1)]


def play_bound_game(s: Session, name: str, params: dict[str, Any], seat: int, seed: int) -> tuple[int, int, int]:
    """A whole game in a session bound to ``seat``, the truth kept beside it
    with the Python API; every answer read by a :class:`Watch`. Returns the
    take-backs done, those refused, and the answer lines read."""
    truth = tabuleiro.load_game(name, **params).new_initial_state(seed=seed)
    watch = Watch(s, truth, seat)
    watch.seeds.add(str(seed))
    r = s.ok("new", game=name, seed=seed, seat=seat, **params)
    assert "seed" not in r and r["seat"] == seat
    watch.check()
    rng = random.Random(seed)
    undos = forbidden_undos = 0
    for step in itertools.count():
        assert s.ok("state")["state"] == truth.view(seat)
        assert s.ok("view")["view"] == truth.view(seat)
        assert s.ok("info")["seat"] == seat
        watch.check()
        if truth.is_terminal:
            break
        p = truth.current_player
        if p == seat:
            if rng.random() < 0.5:
                legal = s.ok("legal")
                assert [m["id"] for m in legal["moves"]] == truth.legal_actions()
                m = rng.choice(legal["moves"])
                r = s.ok("play", move=m["move"])
                assert r["move"] == m
                a = m["id"]
            else:
                want = search(truth.view(seat), iterations=30, seed=step)
                r = s.ok("go", iterations=30, seed=step, apply=True)
                a = want.move.action
                assert r["move"]["id"] == a and len(r["analysis"]) == len(want.analysis)
        else:
            s.err("not_your_seat", "legal")
            s.err("not_your_seat", "view", player=p)
            s.err("forbidden", "go", iterations=5)
            hidden = sorted(cards_hidden(truth, seat))
            if hidden and step % 3 == 0:            # moves naming hidden cards: refused without an echo
                card = rng.choice(hidden)
                for text in (f"offer {card}", f"{card} n+", card, f"discard {card}", f"OP1@0/{card}"):
                    try:
                        truth.parse_move(text)
                        continue                    # legal for the mover: not a probe to refuse
                    except ValueError:
                        pass
                    r = s.call("play", move=text)
                    assert not r["ok"] and r["error"]["code"] in ("invalid_move", "illegal_move"), r
            want = search(truth.view(p), iterations=30, seed=step)
            a = want.move.action
            if step % 4 == 1:                       # a server relays the other player's move
                r = s.ok("play", move=str(want.move))
            else:                                   # the engine plays the other seat
                r = s.ok("go", iterations=30, seed=step, apply=True)
            assert r["move"] is None and r["player"] == p and "analysis" not in r
        truth.push(a)
        assert r["view"] == truth.view(seat) and r["to_move"] == truth.current_player
        moved = r
        watch.check()
        if step % 5 == 4 or p == seat:              # take back (the undo rule: tests/test_engine_undo.py)
            r = s.call("undo")
            if r["ok"]:                             # only the seat's own move that showed it nothing new
                prior = truth.clone()
                prior.pop()
                # judged in worlds the engine does not try (a card name new to the view may still
                # be one the seat could deduce: the last card of a pile whose others it has seen)
                assert p == seat and not learned(prior, a, seat, list(range(10**6, 10**6 + 64))), r
                undone = truth.pop()
                assert r["moves"] == [{"move": str(undone), "id": undone.action}]
                assert r["view"] == truth.view(seat)
                undos += 1
                moved = s.ok("play", move=undone.action)     # and back to where it was
                truth.push(undone)
            else:
                assert r["error"]["code"] == "forbidden", r
                forbidden_undos += 1
            watch.check()
        s.err("forbidden", "perft", depth=1)
    assert moved["over"] and moved["outcome"] == outcome_of(truth)
    s.err("illegal_move", "undo", count=10**6)
    s.err("invalid_state", "load", state=dict(truth.to_dict(), seed=-1), seat=seat)
    watch.check()
    return undos, forbidden_undos, watch.lines_checked


@pytest.mark.parametrize("name, params, seat", SEATED, ids=["capivarias", "capivarias-expansion", "capulana-3p"])
def test_a_seat_bound_session_never_shows_a_hidden_card_or_the_seed(spawn: Any, name: str, params: dict[str, Any],
                                                                     seat: int) -> None:
    s = spawn()
    undos, refused, lines = play_bound_game(s, name, params, seat, SEED)
    assert undos and refused and lines > 200
    assert s.close() == 0
    assert str(SEED).encode() not in s.stderr


@pytest.mark.slow
def test_seat_bound_sessions_over_many_games() -> None:
    """Every seat of every player count, several deals each (about 30 s)."""
    configs = [("capivarias", {}), ("capivarias", {"expansion": True})] + \
        [("capulana", {"players": n}) for n in (2, 3, 4, 5)]
    totals = [0, 0, 0]
    for name, params in configs:
        n = tabuleiro.load_game(name, **params).num_players
        s = Session()
        try:
            for k in range(6):
                seed = random.Random(f"{name}{params}{k}").randrange(10**18, 2**64)
                for i, x in enumerate(play_bound_game(s, name, params, k % n, seed)):
                    totals[i] += x
            assert s.close() == 0
        finally:
            s.kill()
    assert totals[0] > 50 and totals[1] > 50 and totals[2] > 10000


# --- the documentation's sessions ---------------------------------------------------------------------------------


def doc_sessions() -> list[tuple[str, list[tuple[str, str]]]]:
    """The ```session blocks of docs/protocol.md: (first line, [(request, answer)])."""
    text = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    out = []
    for block in re.findall(r"```session\n(.*?)```", text, re.S):
        pairs: list[tuple[str, str]] = []
        for line in block.splitlines():
            if line.startswith("> "):
                pairs.append((line[2:], ""))
            elif line.startswith("< "):
                assert pairs and not pairs[-1][1], line
                pairs[-1] = (pairs[-1][0], line[2:])
        out.append((block.splitlines()[0], pairs))
    return out


def test_the_documented_sessions_replay(spawn: Any) -> None:
    sessions = doc_sessions()
    assert len(sessions) >= 2
    for title, pairs in sessions:
        s = spawn()
        for request, answer in pairs:
            s.send(request.encode() + b"\n")
            if not answer:
                continue
            _, got = s.next()
            assert got == json.loads(answer), (title, request)
        s.close()
