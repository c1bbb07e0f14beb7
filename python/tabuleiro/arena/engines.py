"""External engines in an arena: programs in any language that speak the
engine protocol (docs/protocol.md) on stdin/stdout (:class:`Engine`).

The arena starts one process per seat per worker and reuses it from game to
game. Before each of its decisions it sends the seat's view, bound to the
seat, and asks for a move, in one write::

    {"id": 7, "cmd": "load", "view": {...}, "player": 1, "seat": 1}
    {"id": 8, "cmd": "go", "player": 1, "legal": [{"move": "X5", "id": 1072}, ...], "seed": "...",
     "remaining": 4.93, "increment": 0.05, ...the engine's options...}

and reads the two answers (``{"id": 7, "ok": true, ...}``, then
``{"id": 8, "ok": true, "move": {"move": "X5", "id": 1072}}``; ``move`` may
also be the action id or the move's notation). The engine never receives the
full state or the deal's seed: the view is ``State.view(seat)``, and the
``seed`` of a ``go`` is a hash of the engine's own seed, its seat and that
view, so it tells the engine nothing it did not know (the same view gives
the same seed, whichever process or machine plays the game).

What loses the game for the engine's seat (:class:`Forfeit`): an answer
later than its clock allows plus the margin (``timeout``; the process is
killed and restarted), a move that is not legal, an ``ok: false`` answer or
a line that is not JSON (``illegal``), and a process that exits or closes
its output (``crash``). After any of them the process is replaced before its
next decision. Every wait has a deadline: the clock's, or the engine's
``timeout`` when there is no time control.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import select
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from typing import IO, Any, Mapping, Optional, Sequence

from .._fields import parse_loose as _parse_loose
from .clock import Clock

__all__ = ["Engine", "Forfeit", "EngineProcess", "TERMINATIONS", "parse_engine_def", "parse_engine_option"]

#: How a game ends: normally, or lost by the seat of an engine that went
#: over its time, answered an illegal or unreadable move, or crashed.
TERMINATIONS = ("normal", "timeout", "illegal", "crash")

#: Fields of a ``go`` the arena writes itself: an option may not set them.
_RESERVED = frozenset({"cmd", "id", "apply", "legal", "player", "seat", "view", "state", "remaining",
                       "increment", "movetime", "moves_to_go"})
_NAME_RE = re.compile(r"^[A-Za-z0-9_.\-]+$")
_MAX_LINE = 1 << 24
_ENCODE = json.JSONEncoder(separators=(",", ":")).encode


@dataclass(frozen=True)
class Engine:
    """An external engine: the command that starts it, the ``options`` added
    to every ``go`` it is sent (``iterations=200``, ``agent=greedy``;
    ``time=auto`` asks the arena for a thinking time from the clock), its
    ``name`` (its label is ``engine:NAME``), ``timeout``: the seconds it may
    take to start and to answer a move when there is no time control, and
    ``seed``: its own seed, mixed into each ``go``'s seed.

    >>> e = Engine(cmd=["tabuleiro", "engine"], options={"iterations": 200}, name="tab")
    >>> e.label, e.cmd, e.options
    ('engine:tab', ('tabuleiro', 'engine'), {'iterations': 200})
    >>> Engine(cmd=["tabuleiro", "engine"], options={"apply": True})
    Traceback (most recent call last):
    ...
    ValueError: engine 'tabuleiro': option 'apply' is a field the arena sets itself
    """

    cmd: Sequence[str]
    options: Mapping[str, Any] = field(default_factory=dict)
    name: Optional[str] = None
    timeout: float = 30.0
    seed: int = 0

    def __post_init__(self) -> None:
        cmd = [self.cmd] if isinstance(self.cmd, str) else self.cmd
        if not isinstance(cmd, (list, tuple)) or not cmd or not all(isinstance(c, str) and c for c in cmd):
            raise ValueError(f"an engine's cmd is a non-empty list of strings, not {self.cmd!r}")
        object.__setattr__(self, "cmd", tuple(cmd))
        name = self.name if self.name is not None else os.path.basename(cmd[0])
        if not isinstance(name, str) or not _NAME_RE.match(name):
            raise ValueError(f"engine name {name!r}: use letters, digits, '_', '-' and '.'")
        object.__setattr__(self, "name", name)
        if not isinstance(self.options, Mapping):
            raise ValueError(f"engine {name!r}: options must be a mapping, not {type(self.options).__name__}")
        opts = dict(self.options)
        for k, v in opts.items():
            if not isinstance(k, str) or not k.isidentifier():
                raise ValueError(f"engine {name!r}: option {k!r} is not a name")
            if k in _RESERVED:
                raise ValueError(f"engine {name!r}: option {k!r} is a field the arena sets itself")
            if not (v is None or isinstance(v, (str, bool, int)) or (isinstance(v, float) and math.isfinite(v))):
                raise ValueError(f"engine {name!r}: option {k}={v!r} is not a number, string, boolean or null")
        if "seed" in opts:
            s = opts.pop("seed")
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 2**64:
                raise ValueError(f"engine {name!r}: option seed={s!r} is not an integer in [0, 2**64)")
            object.__setattr__(self, "seed", s)
        object.__setattr__(self, "options", opts)
        t = self.timeout
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not (math.isfinite(t) and t > 0):
            raise ValueError(f"engine {name!r}: timeout must be a positive number of seconds, not {t!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 2**64:
            raise ValueError(f"engine {name!r}: seed must be an integer in [0, 2**64), not {self.seed!r}")

    @property
    def label(self) -> str:
        """The engine's label in results and tables: ``engine:NAME``."""
        return f"engine:{self.name}"

    def check(self) -> None:
        """Start the engine once and wait for its answer to ``ping`` (at most
        ``timeout`` seconds), so that a bad command is refused before any game.

        :raises ValueError: naming the engine and what went wrong.

        >>> Engine(cmd=["/nonexistent/engine"]).check()
        Traceback (most recent call last):
        ...
        ValueError: engine 'engine': cannot start '/nonexistent/engine': no such program
        """
        exe = self.cmd[0]
        if not hasattr(select, "poll"):
            raise ValueError(f"engine {self.name!r}: external engines need a POSIX system (Linux, macOS): "
                             "the arena waits on their pipes with poll()")
        if shutil.which(exe) is None:
            raise ValueError(f"engine {self.name!r}: cannot start {exe!r}: no such program")
        proc = EngineProcess(self, None)
        try:
            proc.start()
        except Forfeit as f:
            raise ValueError(f"engine {self.name!r} ({shlex.join(self.cmd)}): {f.detail}") from None
        finally:
            proc.close()


def parse_engine_def(text: str) -> Engine:
    """An :class:`Engine` from ``--engine NAME=CMD`` (``CMD`` split as a shell would).

    >>> parse_engine_def("tab=tabuleiro engine").cmd
    ('tabuleiro', 'engine')
    >>> parse_engine_def("tabuleiro engine")
    Traceback (most recent call last):
    ...
    ValueError: --engine 'tabuleiro engine': not NAME=CMD
    """
    name, sep, cmd = text.partition("=")
    name = name.strip()
    if not sep or not name or not _NAME_RE.match(name):
        raise ValueError(f"--engine {text!r}: not NAME=CMD")
    try:
        argv = shlex.split(cmd)
    except ValueError as e:
        raise ValueError(f"--engine {text!r}: cannot split the command: {e}") from None
    if not argv:
        raise ValueError(f"--engine {text!r}: no command after '='")
    return Engine(cmd=argv, name=name)


def parse_engine_option(text: str) -> tuple[str, str, Any]:
    """``NAME:key=value`` of ``--engine-option``: (engine name, key, value).

    >>> parse_engine_option("tab:iterations=200")
    ('tab', 'iterations', 200)
    >>> parse_engine_option("iterations=200")
    Traceback (most recent call last):
    ...
    ValueError: --engine-option 'iterations=200': not NAME:key=value
    """
    name, sep, kv = text.partition(":")
    key, sep2, value = kv.partition("=")
    if not sep or not sep2 or not name.strip() or not key.strip().isidentifier():
        raise ValueError(f"--engine-option {text!r}: not NAME:key=value")
    return name.strip(), key.strip(), _parse_loose(value.strip())


class Forfeit(Exception):
    """An engine lost the game it was playing: ``termination`` is one of
    ``timeout``, ``illegal``, ``crash`` and ``detail`` says what happened.

    >>> f = Forfeit("illegal", "answered e4")
    >>> f.termination, str(f)
    ('illegal', 'illegal: answered e4')
    """

    def __init__(self, termination: str, detail: str) -> None:
        super().__init__(f"{termination}: {detail}")
        self.termination = termination
        self.detail = detail


def _pdeathsig() -> Any:
    """On Linux, a pre-exec hook that kills the engine when the thread that
    started it dies (so a hung engine never outlives a killed worker)."""
    if not os.path.exists("/proc/self"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def hook() -> None:
        prctl(1, 9)          # PR_SET_PDEATHSIG, SIGKILL

    return hook


class EngineProcess:
    """One running engine: requests written as JSON lines, answers read with
    deadlines (``select`` on the pipe; nothing ever blocks past one).

    >>> import sys
    >>> p = EngineProcess(Engine(cmd=[sys.executable, "-m", "tabuleiro", "engine"], name="tab"), None)
    >>> p.start(); p.request([{"cmd": "ping"}], 30.0)[0]["ok"]
    True
    >>> p.close()
    """

    def __init__(self, engine: Engine, log_path: Optional[str]) -> None:
        self.engine = engine
        self.log_path = log_path
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.buf = b""
        self.next_id = 1
        self.log: Optional[IO[bytes]] = None
        self.poller: Any = None

    def note(self, text: str) -> None:
        """A line of the arena's own in the engine's log file."""
        if self.log is not None:
            try:
                self.log.write(f"[arena {time.strftime('%H:%M:%S')}] {text}\n".encode())
                self.log.flush()
            except (OSError, ValueError):
                pass

    def start(self) -> None:
        """Start the process and wait for its answer to ``ping``.

        :raises Forfeit: ``crash`` when it cannot be started or does not answer.
        """
        self.kill()
        if self.log_path is not None:
            os.makedirs(os.path.dirname(self.log_path) or ".", exist_ok=True)
            self.log = open(self.log_path, "ab", buffering=0)
        try:
            self.proc = subprocess.Popen(self.engine.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self.log if self.log is not None else subprocess.DEVNULL,
                                         bufsize=0, preexec_fn=_pdeathsig(), close_fds=True)
        except OSError as e:
            raise Forfeit("crash", f"cannot start {shlex.join(self.engine.cmd)!r}: {e.strerror or e}") from None
        self.buf = b""
        assert self.proc.stdout is not None
        self.poller = select.poll()
        self.poller.register(self.proc.stdout.fileno(), select.POLLIN)
        self.note(f"started pid {self.proc.pid}: {shlex.join(self.engine.cmd)}")
        ans = self.request([{"cmd": "ping"}], self.engine.timeout)[0]
        if ans.get("ok") is not True:
            raise Forfeit("crash", f"did not answer ping with ok: {_short(ans)}")

    @property
    def alive(self) -> bool:
        """Whether the process is running."""
        return self.proc is not None and self.proc.poll() is None

    def send(self, lines: Sequence[str]) -> None:
        """Write encoded request lines in one write.

        :raises Forfeit: ``crash`` when the engine's input is closed.
        """
        assert self.proc is not None and self.proc.stdin is not None
        data = ("\n".join(lines) + "\n").encode()
        fd = self.proc.stdin.fileno()
        try:
            while data:
                n = os.write(fd, data)
                data = data[n:]
        except (BrokenPipeError, ConnectionResetError, OSError) as e:
            raise Forfeit("crash", f"its input is closed ({type(e).__name__}); exit status "
                          f"{self.proc.poll()}") from None

    def read_line(self, deadline: float) -> bytes:
        """The next line of output, waiting until ``deadline`` (a ``perf_counter`` time).

        :raises Forfeit: ``timeout`` past the deadline, ``crash`` at the end
            of its output, ``illegal`` for a line over 16 MiB.
        """
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            nl = self.buf.find(b"\n")
            if nl >= 0:
                line, self.buf = self.buf[:nl], self.buf[nl + 1:]
                return line
            if len(self.buf) > _MAX_LINE:
                raise Forfeit("illegal", "wrote a line over 16 MiB")
            left = deadline - time.perf_counter()
            if left <= 0:
                raise Forfeit("timeout", "no answer in time")
            if not self.poller.poll(max(1, math.ceil(left * 1000))):
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                code = self.proc.poll()
                if code is None:
                    try:
                        code = self.proc.wait(0.2)
                    except subprocess.TimeoutExpired:
                        code = None
                raise Forfeit("crash", "closed its output" + (f" (exit status {code})" if code is not None
                                                              else ""))
            self.buf += chunk

    def answer(self, rid: int, deadline: float) -> dict[str, Any]:
        """The answer to request ``rid`` (answers to earlier requests are skipped).

        :raises Forfeit: as :meth:`read_line`, and ``illegal`` for a line
            that is not a JSON object.
        """
        while True:
            line = self.read_line(deadline).strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except (ValueError, UnicodeDecodeError):
                raise Forfeit("illegal", f"answered a line that is not JSON: {_short(line)}") from None
            if not isinstance(obj, dict):
                raise Forfeit("illegal", f"answered JSON that is not an object: {_short(line)}")
            got = obj.get("id")
            if got == rid:
                return obj
            if isinstance(got, int) and not isinstance(got, bool) and got < rid:
                continue                 # a late answer to an earlier request
            raise Forfeit("illegal", f"answered id {got!r} to request {rid}: {_short(line)}")

    def request(self, reqs: Sequence[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        """Send requests (ids are given here) and read their answers within ``timeout`` seconds."""
        ids = []
        lines = []
        for r in reqs:
            rid = self.next_id
            self.next_id += 1
            ids.append(rid)
            lines.append(_ENCODE(dict(r, id=rid)))
        deadline = time.perf_counter() + timeout
        self.send(lines)
        return [self.answer(rid, deadline) for rid in ids]

    def kill(self) -> None:
        """Kill the process at once (a hung or misbehaving engine)."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:      # pragma: no cover - a process that ignores SIGKILL
                pass
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    if f is not None:
                        f.close()
                except OSError:
                    pass
            self.proc = None
        if self.log is not None:
            self.log.close()
            self.log = None

    def close(self) -> None:
        """Ask the engine to ``quit`` (0.5 s to exit), then kill it."""
        if self.alive:
            assert self.proc is not None
            try:
                self.send([_ENCODE({"id": self.next_id, "cmd": "quit"})])
                self.proc.wait(0.5)
            except (Forfeit, subprocess.TimeoutExpired):
                pass
        self.kill()


def _short(x: Any, n: int = 80) -> str:
    s = x.decode("utf-8", "replace") if isinstance(x, bytes) else x if isinstance(x, str) else repr(x)
    return s if len(s) <= n else s[:n] + "..."


def engine_seed(own: int, seat: int, view_json: str) -> int:
    """The seed sent with a ``go``: a hash of the engine's own seed, its seat
    and the view it was sent (so nothing it did not know)."""
    h = hashlib.blake2b(view_json.encode(), digest_size=8, key=f"{own}:{seat}".encode())
    return int.from_bytes(h.digest(), "little")


class EngineSeat:
    """The engine playing one seat in a worker: its process (started when
    first needed, replaced after a forfeit) and :meth:`decide`."""

    def __init__(self, engine: Engine, seat: int, log_path: Optional[str]) -> None:
        self.engine = engine
        self.seat = seat
        self.proc = EngineProcess(engine, log_path)
        opts = {k: v for k, v in engine.options.items() if not (k == "time" and v == "auto")}
        # the options, encoded once: the tail of every go
        self.go_tail = "".join(f",{_ENCODE(k)}:{_ENCODE(v)}" for k, v in opts.items()) + "}"
        self.auto_time = engine.options.get("time") == "auto"
        self.restarts = 0
        # games begun at this seat in this worker: the log names a game by it, never
        # by its deal (the log is the engine's stderr file, which it could read)
        self.games = 0
        self.texts: dict[int, str] = {}          # action id -> '{"move":...,"id":...}'

    def decide(self, st: Any, clock: Optional[Clock]) -> int:
        """The engine's move in ``st`` (its seat to move): the view and the
        clock are sent, the answer read by the deadline and checked.

        :raises Forfeit: when the engine loses the game (the process is then killed).
        """
        try:
            return self._decide(st, clock)
        except Forfeit as f:
            self.proc.note(f"game {self.games} at seat {self.seat} lost by {f.termination}: {f.detail}")
            self.proc.kill()
            self.restarts += 1
            raise

    def _legal(self, st: Any, actions: Sequence[int]) -> str:
        """The legal moves as the protocol's ``legal`` answer lists them
        (an action's notation depends on its id alone: cached)."""
        texts = self.texts
        try:
            return "[" + ",".join([texts[a] for a in actions]) + "]"
        except KeyError:
            to_text = st.game.action_to_string
            for a in actions:
                if a not in texts:
                    texts[a] = f'{{"move":{_ENCODE(to_text(a))},"id":{a}}}'
            return "[" + ",".join([texts[a] for a in actions]) + "]"

    def _decide(self, st: Any, clock: Optional[Clock]) -> int:
        p = self.seat
        proc = self.proc
        if not proc.alive:
            proc.start()
        view_json = _ENCODE(st.view(p))
        actions = st.legal_actions()
        rid = proc.next_id
        proc.next_id += 2
        go = (f'{{"id":{rid + 1},"cmd":"go","player":{p},"legal":{self._legal(st, actions)},'
              f'"seed":"{engine_seed(self.engine.seed, p, view_json)}"')
        if clock is not None:
            if clock.tc.movetime is not None:
                go += f',"movetime":{clock.tc.movetime!r}'
            else:
                go += f',"remaining":{round(clock.remaining, 6)!r},"increment":{clock.tc.increment!r}'
                if clock.tc.moves is not None:
                    go += f',"moves_to_go":{clock.moves_to_go()}'
            if self.auto_time:
                go += f',"time":{round(clock.suggest(), 6)!r}'
        go += self.go_tail
        load = f'{{"id":{rid},"cmd":"load","view":{view_json},"player":{p},"seat":{p}}}'
        limit = clock.deadline() if clock is not None else self.engine.timeout
        t0 = time.perf_counter()
        deadline = t0 + limit
        proc.send([load, go])
        loaded = proc.answer(rid, deadline)
        if loaded.get("ok") is not True:
            raise Forfeit("illegal", f"refused its view: {_short(loaded.get('error', loaded))}")
        ans = proc.answer(rid + 1, deadline)
        elapsed = time.perf_counter() - t0
        if clock is not None and not clock.charge(elapsed):
            raise Forfeit("timeout", f"answered after {elapsed:.3f} s, over its {clock.budget():.3f} s "
                          f"(+{clock.margin:g} s margin)")
        if ans.get("ok") is not True:
            raise Forfeit("illegal", f"answered go with an error: {_short(ans.get('error', ans))}")
        move = ans.get("move")
        a = _action_of(st, move)
        if a is None or a not in actions:
            raise Forfeit("illegal", f"answered {_short(json.dumps(move))}, not a legal move")
        return a


def _action_of(st: Any, move: Any) -> Optional[int]:
    """The action id of a ``move`` answer: ``{"move": text, "id": n}``, ``n`` or the notation."""
    if isinstance(move, dict):
        if isinstance(move.get("id"), int) and not isinstance(move.get("id"), bool):
            return int(move["id"])
        move = move.get("move")
    if isinstance(move, int) and not isinstance(move, bool):
        return move
    if isinstance(move, str):
        try:
            return int(st.parse_move(move).action)
        except Exception:        # any notation the game cannot read
            return None
    return None
