"""A real ``tabuleiro serve`` on 127.0.0.1 for the serve tests and the bench.

:class:`ServerProcess` starts the server as a subprocess on a free port with
its own database, waits for ``/health``, and can be SIGKILLed and started
again on the same database. The HTTP helpers use the standard library; the
WebSocket ones the ``websockets`` client.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Optional

CARD_TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m tabuleiro serve`` with ``args``, its stderr kept in ``log``."""

    def __init__(self, db: Path, *args: str, port: Optional[int] = None) -> None:
        self.db = db
        self.args = list(args)
        self.port = port or free_port()
        self.log = db.with_suffix(".log")
        self.proc: Optional[subprocess.Popen[bytes]] = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> "ServerProcess":
        logf = open(self.log, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "tabuleiro", "serve", "--port", str(self.port),
                                      "--db", str(self.db), *self.args], stdout=logf, stderr=logf,
                                     cwd=str(self.db.parent))
        logf.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                if http("GET", self.url + "/health", timeout=1.0)[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not answer /health in time")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> int:
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        return int(self.proc.returncode)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def rss_kib(self) -> int:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0


def http(method: str, url: str, body: Any = None, *, headers: Optional[dict[str, str]] = None,
         raw: Optional[bytes] = None, timeout: float = 10.0) -> tuple[int, Any]:
    """(status, decoded JSON body or text) of one request."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json",
                                                                          **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def create_table(server: ServerProcess, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    status, out = http("POST", server.url + "/tables", {"game": game, "seats": seats, **extra})
    assert status == 201, out
    return dict(out)


def words(obj: Any) -> set[str]:
    """Every alphanumeric word of every string (keys included) in a JSON value."""
    out: set[str] = set()

    def visit(v: Any) -> None:
        if isinstance(v, str):
            word = []
            for ch in v + " ":
                if ch in CARD_TOKEN_CHARS:
                    word.append(ch)
                elif word:
                    out.add("".join(word))
                    word = []
        elif isinstance(v, dict):
            for k, x in v.items():
                visit(k)
                visit(x)
        elif isinstance(v, list):
            for x in v:
                visit(x)

    visit(obj)
    return out


class LeakChecker:
    """Checks that what a seat received never names a card hidden from it.

    For a table whose seed is known, the game is replayed locally from the
    moves the seat is shown (every move of a game whose moves are all
    public, such as Capivárias). Hidden at ply k: the words of the full
    state ``to_dict()`` that no view of the seat up to ply k holds. A
    message received at ply k leaks when it holds one of them."""

    def __init__(self, game: str, params: dict[str, Any], seed: int, seat: int) -> None:
        import tabuleiro

        self.state = tabuleiro.load_game(game, **params).new_initial_state(seed=seed)
        self.seat = seat
        self.shown: set[str] = words(self.state.view(seat))
        self.messages = 0
        self.leaks: list[str] = []
        self.view_mismatches = 0

    def advance(self, ply: int, moves: list[dict[str, Any]]) -> None:
        while len(self.state.history()) < ply:
            m = moves[len(self.state.history())]
            assert m["move"] is not None, "a move the seat may not see: this game cannot be replayed"
            self.state.push(m["move"])
            self.shown |= words(self.state.view(self.seat))

    def check(self, msg: dict[str, Any]) -> None:
        self.messages += 1
        if msg.get("type") == "view":
            self.advance(msg["ply"], msg["moves"])
            if msg["view"] != json.loads(json.dumps(self.state.view(self.seat))):
                self.view_mismatches += 1
        full = self.state.to_dict()
        full.pop("seed", None)
        hidden = words(full) - self.shown
        leaked = words(msg) & hidden
        if leaked:
            self.leaks.append(f"ply {len(self.state.history())}: {sorted(leaked)}")
