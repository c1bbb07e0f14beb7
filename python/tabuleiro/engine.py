"""The engine protocol: JSON lines on stdin/stdout, for frontends in any language.

``tabuleiro engine`` (or ``python -m tabuleiro engine``) reads one JSON object
per line and answers each with one JSON object per line; docs/protocol.md is
the reference (commands, fields, error codes, seat binding, example sessions).
The shape is UCI's: a line loop whose ``go`` runs on a worker thread, so that
``stop`` is read while the search runs and ends it with its best move so far.

This module is a thin layer over the public API (``load_game``, ``State``,
``Game.from_view``, ``agents``); nothing here knows a game's rules. The wire
format (reading a request line and its fields, writing strict-JSON answers)
is in ``_wire``, the seat-bound undo rule in ``_undo_rule``. In-process
use (tests, other Python code) runs a session over any pair of binary streams:

>>> import io, json
>>> from tabuleiro import engine
>>> requests = b'{"id": 1, "cmd": "new", "game": "toy", "seed": 3}\\n{"id": 2, "cmd": "legal"}\\n'
>>> out = io.BytesIO()
>>> engine.serve(io.BytesIO(requests), out)
0
>>> [json.loads(line) for line in out.getvalue().splitlines()][1]
{'id': 2, 'ok': True, 'cmd': 'legal', 'player': 0, 'moves': [{'move': 'play 1', 'id': 0}, {'move': 'play 6', 'id': 5}]}
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import secrets
import sys
import threading
import traceback
from typing import Any, BinaryIO, Callable, Optional

import tabuleiro

from . import agents
from ._errors import IllegalMoveError, InvalidMoveError, InvalidStateError
from ._game import game_class
from ._undo_rule import UNDO_WORLDS, undo_refusal
from ._wire import (_MISSING, ERROR_CODES, MAX_DEPTH, MAX_LINE, SAFE_INT, ProtocolError, _bad, _bool_field, _echoable,
                    _encode, _encode_answer, _int_field, _is_int, _read_request, _seed_field, _seed_value, _short,
                    _str_field, _unicode_problem, _valid_unicode)

__all__ = ["ERROR_CODES", "MAX_DEPTH", "MAX_LINE", "SAFE_INT", "UNDO_WORLDS", "PROTOCOL_VERSION", "Engine", "main",
           "serve"]

#: 2: seeds are sent as decimal strings (issue 28); 1: as JSON integers.
PROTOCOL_VERSION = 2
#: The agent parameters ``go`` passes to ``agents.make`` (each agent takes a subset).
AGENT_PARAMS = ("iterations", "time", "c", "rollout", "threads", "seed", "max_nodes", "shaped", "prior", "horizon",
                "control_variates")
#: Commands refused with ``busy`` while a ``go`` or ``perft`` runs (they change or search the state).
BUSY_COMMANDS = frozenset({"new", "load", "play", "undo", "go", "perft"})
#: How long ``stop``/``quit``/EOF wait for a running job to answer (searches poll their flag every few ms).
_JOIN_SECONDS = 10.0


def _move(m: Any) -> dict[str, Any]:
    return {"move": str(m), "id": m.action}


def _outcome(state: Any) -> Optional[dict[str, Any]]:
    o = state.outcome()
    if o is None:
        return None
    return {"winners": list(o.winners), "winner": o.winner, "returns": list(o.returns), "scores": list(o.scores)}


# --- the session -------------------------------------------------------------------------------------------


@dataclasses.dataclass
class _Job:
    """A running ``go`` or ``perft`` on the worker thread."""

    kind: str
    rid: Any
    stop: agents.StopFlag
    thread: Optional[threading.Thread] = None
    #: what ``stop`` reports of the finished go's move (None: hidden or not a go)
    move: Optional[dict[str, Any]] = None


class Engine:
    """One protocol session: a game (or none), an optional seat binding, at
    most one running job. ``handle_line`` takes one request line (bytes,
    without its line ending) and returns False once the session should end;
    responses go to ``write`` (one encoded line each, from one thread at a
    time)."""

    def __init__(self, write: Callable[[bytes], None], *, log: Callable[[str], None] = lambda s: None) -> None:
        self._write_raw = write
        self._log = log
        self._wlock = threading.Lock()
        self._lock = threading.RLock()         # the game state, the job slot and the pending pings
        self._state: Any = None
        self._seat: Optional[int] = None
        self._job: Optional[_Job] = None
        self._pending: list[tuple[Any, str]] = []
        self.closed = False                    # the output is gone: the session ends

    # --- output -------------------------------------------------------------------------------------------
    def _emit(self, obj: dict[str, Any]) -> None:
        """Write one answer: the single place every answer goes through, from
        any thread. It never raises. The answer is encoded whole as strict
        JSON (no NaN/Infinity) in strict UTF-8 before anything is written; an
        answer that cannot be (a bug: requests are checked where they enter)
        becomes an ``internal`` error answer that can, with ``id`` and
        ``cmd`` kept only if they encode. A failing output ends the session."""
        data = _encode_answer(obj)
        if data is None:
            self._log("an answer could not be encoded as strict JSON (a bug)")
            rid, cmd = obj.get("id"), obj.get("cmd")
            data = _encode({"id": rid if _echoable(rid) else None, "ok": False,
                            "cmd": cmd if isinstance(cmd, str) and _valid_unicode(cmd) else None,
                            "error": {"code": "internal", "message": "the answer could not be encoded as "
                                      "strict JSON; please report it"}})
            if data is None:                    # pragma: no cover - constants and checked scalars encode
                data = b'{"id":null,"ok":false,"cmd":null,"error":{"code":"internal","message":"unencodable"}}\n'
        with self._wlock:
            if self.closed:
                return
            try:
                self._write_raw(data)
            except Exception:  # noqa: BLE001 - broken pipe, closed file, a caller's writer: the output is gone
                self.closed = True

    def _ok(self, rid: Any, cmd: Optional[str], fields: dict[str, Any]) -> None:
        self._emit({"id": rid, "ok": True, "cmd": cmd, **fields})

    def _error(self, rid: Any, cmd: Optional[str], code: str, message: str) -> None:
        self._emit({"id": rid, "ok": False, "cmd": cmd, "error": {"code": code, "message": _short(message)}})

    def refuse_long_line(self) -> None:
        """Answer a line longer than :data:`MAX_LINE` (the caller drops its bytes)."""
        self._error(None, None, "line_too_long", f"request lines are at most {MAX_LINE} bytes; this one was "
                    "longer and was discarded")

    # --- the loop's entry point -----------------------------------------------------------------------------
    def handle_line(self, raw: bytes) -> bool:
        """Answer one request line with exactly one answer (a ``go`` or
        ``perft`` answers later, from its job); False when the session should
        end (``quit``). It never raises: a bug becomes an ``internal`` answer."""
        try:
            return self._handle_line(raw)
        except Exception as e:  # noqa: BLE001 - pragma: no cover - the handlers catch their own; last guard
            self._internal(None, None, e)
            return True

    def _handle_line(self, raw: bytes) -> bool:
        if not raw.strip():
            return True                         # blank lines are ignored
        try:
            req = _read_request(raw)
        except ProtocolError as e:
            self._error(None, None, e.code, e.message)
            return True
        rid = req.get("id") if isinstance(req, dict) else None
        if isinstance(rid, (dict, list)):
            self._error(None, None, "bad_request", "field 'id' must be a JSON scalar (string, number, "
                        "true, false or null)")
            return True
        if not isinstance(req, dict):
            self._error(None, None, "bad_request", f"a request is a JSON object, not {type(req).__name__}")
            return True
        problem = _unicode_problem(req)
        if problem is not None:                 # nothing of it is read, and id/cmd are echoed only if they encode
            cmd = req.get("cmd")
            self._error(rid if _echoable(rid) else None, cmd if isinstance(cmd, str) and _valid_unicode(cmd)
                        else None, "bad_request", problem)
            return True
        cmd = req.get("cmd")
        if not isinstance(cmd, str):
            self._error(rid, None, "bad_request", "missing field 'cmd' (a string)" if cmd is None
                        else "field 'cmd' must be a string")
            return True
        if cmd == "quit":
            self.finish_job()
            self._ok(rid, cmd, {})
            return False
        if cmd == "stop":
            self._stop(rid)
            return True
        handler = _HANDLERS.get(cmd)
        if handler is None:
            self._error(rid, cmd, "unknown_command", f"unknown command {_short(json.dumps(cmd), 60)}; the commands "
                        f"are {', '.join(sorted(_HANDLERS))}, stop, quit")
            return True
        with self._lock:
            try:
                if self._job is not None and cmd in ("ping", "isready"):
                    self._pending.append((rid, cmd))    # answered when the job has answered
                    return True
                if self._job is not None and cmd in BUSY_COMMANDS:
                    raise ProtocolError("busy", f"a {self._job.kind} is running: send stop, or wait for its answer "
                                        f"(ping answers once it is done)")
                fields = handler(self, req, rid)
            except ProtocolError as e:
                self._error(rid, cmd, e.code, e.message)
                return True
            except Exception as e:  # noqa: BLE001 - never a traceback on stdout
                self._internal(rid, cmd, e)
                return True
            if fields is not None:
                self._ok(rid, cmd, fields)
        return True

    def _internal(self, rid: Any, cmd: Optional[str], e: BaseException) -> None:
        if self._seat is None:
            self._log("".join(traceback.format_exception(type(e), e, e.__traceback__)).rstrip())
            detail = f"{type(e).__name__}: {_short(str(e), 160)}"
        else:                                   # a bound session logs nothing that could hold a hidden card
            self._log(f"internal error in {cmd}: {type(e).__name__}")
            detail = type(e).__name__
        if isinstance(e, MemoryError):
            detail = "out of memory (lower max_nodes or threads)"
        self._error(rid, cmd, "internal", f"internal error ({detail}); please report it")

    # --- jobs ---------------------------------------------------------------------------------------------
    def _start(self, job: _Job, work: Callable[[], None]) -> None:
        def run() -> None:
            try:
                work()
            except BaseException as e:  # noqa: BLE001 - the job must answer and free the slot
                self._end_job(lambda: self._internal(job.rid, job.kind, e))

        job.thread = threading.Thread(target=run, name=f"tabuleiro-engine-{job.kind}", daemon=True)
        self._job = job
        job.thread.start()

    def _end_job(self, answer: Callable[[], None]) -> None:
        """Free the job's slot, then write its answer (``answer()``), then
        answer the waiting pings, all under the lock. The slot is free before
        the answer is out, so a host that reads :attr:`busy` once a client has
        seen the answer never finds the finished job still running."""
        with self._lock:
            self._job = None
            answer()
            pending, self._pending = self._pending, []
            for rid, cmd in pending:
                self._ok(rid, cmd, {})

    @property
    def busy(self) -> bool:
        """True while a ``go`` or ``perft`` runs on the worker thread."""
        return self._job is not None

    def stop_job_later(self) -> Optional[Callable[[], None]]:
        """For a host that caps a job's time (the server does): a function
        that asks the running job to stop (its answer still comes through
        ``write``), or None when no job runs."""
        job = self._job
        return None if job is None else job.stop.set

    def finish_job(self) -> Optional[_Job]:
        """Stop the running job (if any) and wait for its answer; the job or None."""
        with self._lock:
            job = self._job
        if job is None:
            return None
        job.stop.set()
        if job.thread is not None:
            job.thread.join(_JOIN_SECONDS)
        return job

    def _stop(self, rid: Any) -> None:
        job = self.finish_job()
        with self._lock:
            if job is None:
                self._ok(rid, "stop", {"stopped": False})
                return
            finished = self._job is not job
            self._ok(rid, "stop", {"stopped": True, "job": job.kind, "finished": finished,
                                   "move": job.move if finished else None})

    # --- state helpers ----------------------------------------------------------------------------------------
    def _need_state(self) -> Any:
        if self._state is None:
            raise ProtocolError("no_game", "no game yet: send new or load first")
        return self._state

    def _seat_field(self, req: dict[str, Any], game: Any) -> Optional[int]:
        n = game.num_players
        v = req.get("seat")
        if v is None:
            return None
        if not _is_int(v) or not 0 <= v < n:
            raise _bad(f"field 'seat' must be a player in [0, {n - 1}] or null, not {_short(json.dumps(v), 60)}")
        return int(v)

    def _bind(self, state: Any, seat: Optional[int]) -> None:
        self._state = state
        self._seat = seat

    def _push(self, state: Any, action: int) -> dict[str, Any]:
        """Play an action on the session's state; in a seat-bound session, the
        answer's ``events``: what the seat saw happen (``Game.public_events``)."""
        events = state.game.public_events(state, action, self._seat) if self._seat is not None else None
        state.push(action)
        return {} if events is None else {"events": events}

    def _after(self, state: Any) -> dict[str, Any]:
        """The fields every move-changing answer carries."""
        out: dict[str, Any] = {"to_move": state.current_player, "over": state.is_terminal,
                               "outcome": _outcome(state)}
        if self._seat is not None:
            out["view"] = state.view(self._seat)
        return out

    def _visible(self, player: Optional[int]) -> bool:
        """May the seat be told this player's move?"""
        return self._seat is None or player == self._seat

    def _facts(self) -> dict[str, Any]:
        st = self._state
        if st is None:
            return {"game": None}
        g = st.game
        return {"game": g.name, "params": g.params, "info": dataclasses.asdict(g.info), "seat": self._seat,
                "to_move": st.current_player, "over": st.is_terminal, "moves": len(st.history())}

    # --- commands ------------------------------------------------------------------------------------------------
    def cmd_ping(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return {}

    def cmd_info(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "version": tabuleiro.__version__, "games": tabuleiro.games(),
                "agents": list(agents.NAMES), "level": True, "running": self._job.kind if self._job
                else None, **self._facts()}

    def cmd_new(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        name = _str_field(req, "game")
        if name not in tabuleiro.games():
            raise _bad(f"field 'game' must be one of {', '.join(tabuleiro.games())}, not {_short(json.dumps(name), 60)}")
        game_cls = game_class(name)
        known = {p for g in tabuleiro.games() for p in game_class(g).PARAM_TYPES}
        params = {k: req[k] for k in sorted(known) if k in req and req[k] is not None}
        others = sorted(set(params) - set(game_cls.PARAM_TYPES))
        if others:
            raise _bad(f"{name} does not take {', '.join(others)}; its parameters are "
                       f"{', '.join(game_cls.PARAM_TYPES) or '(none)'}")
        try:
            game = tabuleiro.load_game(name, **params)
        except (TypeError, ValueError) as e:
            raise _bad(str(e)) from None
        seed = _seed_field(req)
        if seed is None:
            seed = secrets.randbits(64)
        seat = self._seat_field(req, game)
        self._bind(game.new_initial_state(seed=seed), seat)
        out = self._facts()
        if seat is None:
            out["seed"] = str(seed)
        return out

    def cmd_load(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        has_state, has_view = req.get("state") is not None, req.get("view") is not None
        if has_state == has_view:
            raise _bad("give either 'state' (a full state dict) or 'view' and 'player' (a seat's view)")
        d = req["state"] if has_state else req["view"]
        what = "state" if has_state else "view"
        if not isinstance(d, dict):
            raise _bad(f"field {what!r} must be a JSON object (a {what} dict), not {type(d).__name__}")
        secret = has_state and (self._seat is not None or req.get("seat") is not None)
        if has_state and isinstance(d.get("seed"), str):   # what `state` sends (JavaScript rounds past 2^53)
            try:
                d = {**d, "seed": _seed_value(d["seed"], "seed")}
            except ProtocolError:
                raise ProtocolError("invalid_state", "the state's 'seed' must be an integer in [0, 2^64) or its "
                                    "decimal string") from None
        try:
            game = tabuleiro.game_of(d)
        except (InvalidStateError, TypeError, ValueError) as e:
            raise ProtocolError("invalid_state", self._state_message(str(e), secret, what)) from None
        seat = self._seat_field(req, game)
        if has_state:
            try:
                state = game.from_dict(d)
            except (InvalidStateError, ValueError) as e:
                raise ProtocolError("invalid_state", self._state_message(str(e), secret, what)) from None
        else:
            player = req.get("player", seat)
            if player is None:
                raise _bad("missing field 'player' (whose view this is)")
            if not _is_int(player) or not 0 <= player < game.num_players:
                raise _bad(f"field 'player' must be a player in [0, {game.num_players - 1}], "
                           f"not {_short(json.dumps(player), 60)}")
            if seat is not None and seat != player:
                raise _bad(f"a view is player {player}'s: the session can be bound to seat {player} only, "
                           f"not {seat}")
            try:
                state = game.from_view(d, player)
            except (InvalidStateError, ValueError) as e:
                raise ProtocolError("invalid_state", _short(str(e))) from None
        self._bind(state, seat)
        return self._facts()

    @staticmethod
    def _state_message(message: str, secret: bool, what: str) -> str:
        if secret:
            return (f"the {what} cannot be loaded (the reason is not shown in a seat-bound session, since it may "
                    "name hidden cards: load it unbound to read it)")
        return message

    def cmd_state(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        st = self._need_state()
        if self._seat is not None:
            return {"state": st.view(self._seat), "seat": self._seat}
        d = st.to_dict()
        if "seed" in d:
            d["seed"] = str(d["seed"])
        return {"state": d, "seat": None}

    def cmd_view(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        st = self._need_state()
        n = st.game.num_players
        player = _int_field(req, "player", lo=0, hi=n - 1,
                            default=self._seat if self._seat is not None else _MISSING)
        if not self._visible(player):
            raise ProtocolError("not_your_seat", f"this session is bound to seat {self._seat}: "
                                f"only its view is shown")
        return {"player": player, "view": st.view(player)}

    def cmd_legal(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        st = self._need_state()
        p = st.current_player
        if p is not None and not self._visible(p):
            raise ProtocolError("not_your_seat", f"player {p} is to move: a session bound to seat {self._seat} "
                                "lists legal moves only on its own turn (others' moves would show their cards)")
        return {"player": p, "moves": [_move(m) for m in st.legal_moves()]}

    def cmd_play(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        st = self._need_state()
        if "move" not in req:
            raise _bad("missing field 'move' (notation or action id)")
        mv = req["move"]
        if not isinstance(mv, str) and not _is_int(mv):
            raise _bad(f"field 'move' must be a notation string or an action id, not {_short(json.dumps(mv), 60)}")
        if st.is_terminal:
            raise ProtocolError("game_over", "the game is over: there is no move to play (undo, new or load)")
        p = st.current_player
        own = self._visible(p)
        try:
            m = st.parse_move(mv)
        except InvalidMoveError as e:
            raise ProtocolError("invalid_move", str(e) if own else
                                f"not a move of this game (the text is not repeated to seat {self._seat})") from None
        except IllegalMoveError as e:
            raise ProtocolError("illegal_move", str(e) if own else
                                f"not a legal move for player {p} now (the move is not repeated to seat "
                                f"{self._seat})") from None
        seen = self._push(st, m.action)
        return {"move": _move(m) if own else None, "player": p, **self._after(st), **seen}

    def cmd_undo(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        st = self._need_state()
        count = _int_field(req, "count", lo=1, hi=1 << 31, default=1)
        history = st.history()
        if count > len(history):
            raise ProtocolError("illegal_move", f"cannot take back {count} move(s): {len(history)} played since "
                                "the game was started or loaded")
        if self._seat is not None:              # the undo rule (docs/protocol.md)
            refusal = undo_refusal(st, self._seat, count)
            if refusal is not None:
                raise ProtocolError("forbidden", refusal)
        undone = []
        for _ in range(count):
            m = st.pop()
            p = st.current_player
            undone.append(_move(m) if self._visible(p) else None)
        return {"moves": undone, **self._after(st)}

    def cmd_perft(self, req: dict[str, Any], rid: Any) -> Optional[dict[str, Any]]:
        st = self._need_state()
        depth = _int_field(req, "depth", lo=0, hi=64)
        if self._seat is not None:
            raise ProtocolError("forbidden", "perft counts depend on hidden cards: not in a seat-bound session")
        job = _Job("perft", rid, agents.StopFlag())
        root = st.clone()

        def work() -> None:
            nodes = _perft(root, depth, job.stop)
            self._end_job(lambda: self._ok(rid, "perft", {"depth": depth, "nodes": nodes, "stopped": nodes is None}))

        self._start(job, work)
        return None

    def cmd_go(self, req: dict[str, Any], rid: Any) -> Optional[dict[str, Any]]:
        st = self._need_state()
        apply = _bool_field(req, "apply", False)
        top = _int_field(req, "top", lo=0, hi=1 << 31, default=None)
        agent, name = _make_agent(req)
        if st.is_terminal:
            raise ProtocolError("game_over", "the game is over: there is nothing to search")
        p = st.current_player
        own = self._visible(p)
        if not own and not apply:
            raise ProtocolError("forbidden", f"a go for player {p} in a session bound to seat {self._seat} must "
                                "apply its move (\"apply\": true): the move is not shown to the seat")
        # the agent sees the mover's view only (a bound session never hands it the truth)
        source = st.view(p) if self._seat is not None else st.clone()
        job = _Job("go", rid, agents.StopFlag())

        def work() -> None:
            res = agent.search(source, stop=job.stop)
            self._end_job(lambda: answer(res))

        def answer(res: Any) -> None:
            out: dict[str, Any] = {"move": _move(res.move) if own else None, "player": p, "agent": name}
            if own:
                analysis = [{"move": str(a.move), "id": a.move.action, "visits": a.visits,
                             "mean": round(a.mean, 4) if math.isfinite(a.mean) else None}
                            for a in res.analysis]
                out.update(analysis=analysis[:top] if top is not None else analysis,
                           iterations=res.iterations, nodes=res.nodes)
                job.move = out["move"]
            out.update(stopped=bool(res.stopped), applied=apply)
            if apply:
                seen = self._push(self._state, res.move.action)
                out.update(self._after(self._state), **seen)
            self._ok(rid, "go", out)

        self._start(job, work)
        return None


def _make_agent(req: dict[str, Any]) -> tuple[Any, str]:
    """The agent a go asks for: ``agent`` and its parameters, or ``level``."""
    name = _str_field(req, "agent", default=None)
    params = {k: req[k] for k in AGENT_PARAMS if k in req and req[k] is not None}
    if "seed" in params:
        params["seed"] = _seed_field(req)
    if req.get("level") is not None or name == "level":
        if name not in (None, "level"):
            raise _bad("give either 'agent' (with its parameters) or 'level', not both")
        level = _int_field(req, "level", lo=-(1 << 62), hi=1 << 62)
        try:
            return agents.make("level", level=level, **params), "level"
        except (TypeError, ValueError) as e:
            raise _bad(str(e)) from None
    name = "ismcts" if name is None else name
    if name not in agents.NAMES:
        raise _bad(f"field 'agent' must be one of {', '.join(agents.NAMES)} (or give 'level'), "
                   f"not {_short(json.dumps(name), 60)}")
    accepted = {f.name for f in dataclasses.fields(agents.make(name))} - {"kind"}
    unknown = sorted(set(params) - accepted)
    if unknown:
        raise _bad(f"agent {name!r} does not take {', '.join(unknown)}; it takes {', '.join(sorted(accepted))}")
    if "time" in params and "iterations" not in params and "iterations" in accepted:
        params["iterations"] = 0                 # a time budget alone
    try:
        return agents.make(name, **params), name
    except (TypeError, ValueError) as e:
        raise _bad(str(e)) from None


def _perft(state: Any, depth: int, stop: agents.StopFlag) -> Optional[int]:
    """``state.perft(depth)`` in one C call that ``stop`` ends within a few
    milliseconds (None when stopped): C polls the flag (issue 26)."""
    nodes = state.perft(depth, stop=stop)
    return None if nodes is None else int(nodes)


_HANDLERS: dict[str, Callable[[Engine, dict[str, Any], Any], Optional[dict[str, Any]]]] = {
    "ping": Engine.cmd_ping,
    "isready": Engine.cmd_ping,
    "info": Engine.cmd_info,
    "new": Engine.cmd_new,
    "load": Engine.cmd_load,
    "state": Engine.cmd_state,
    "view": Engine.cmd_view,
    "legal": Engine.cmd_legal,
    "play": Engine.cmd_play,
    "undo": Engine.cmd_undo,
    "go": Engine.cmd_go,
    "perft": Engine.cmd_perft,
}


# --- the line loop ------------------------------------------------------------------------------------------------


def serve(inp: BinaryIO, out: BinaryIO, *, log: Optional[Callable[[str], None]] = None) -> int:
    """Run a session: requests from ``inp`` (bytes, one JSON object a line)
    until ``quit`` or EOF, responses to ``out`` (flushed after each line).
    Returns the exit status (0). A line over :data:`MAX_LINE` bytes is
    answered with ``line_too_long`` and skipped without being held in memory."""

    def write(data: bytes) -> None:
        out.write(data)
        out.flush()

    engine = Engine(write, log=log or (lambda s: None))
    try:
        while not engine.closed:
            line = inp.readline(MAX_LINE + 2)   # the longest line, with \r\n
            if not line:
                break                            # EOF
            if len(line) == MAX_LINE + 2 and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):
                    line = inp.readline(1 << 16)  # drop the rest of the line, a piece at a time
                engine.refuse_long_line()
                continue
            body = line[:-1] if line.endswith(b"\n") else line
            body = body[:-1] if body.endswith(b"\r") else body
            if len(body) > MAX_LINE:
                engine.refuse_long_line()
                continue
            if not engine.handle_line(body):
                break
    finally:
        engine.finish_job()
    return 0


def _stderr_log(message: str) -> None:
    try:
        sys.stderr.write(f"tabuleiro engine: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def main() -> int:
    """``tabuleiro engine``: serve stdin/stdout. File descriptor 1 is kept
    for the protocol alone: anything else that writes to stdout (Python's
    ``print``, C code) is sent to stderr."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        return serve(sys.stdin.buffer, out, log=_stderr_log)
    except KeyboardInterrupt:
        return 130
    finally:
        try:
            out.close()
        except OSError:
            pass
