"""Ctrl-C and stopping: every long C loop (searches, random playouts, perft)
runs on a worker thread while the calling thread runs Python's signal
handlers every 20 ms, so SIGINT ends it with KeyboardInterrupt within a
fraction of a second; the state searched is untouched; a custom SIGINT
handler still runs; searches work from other threads; a StopFlag set from
another thread ends a search early with a legal move.

Signals go to child processes: the child prints ``ready`` right before the
long call, the parent waits for that line, sleeps 0.3 s, sends SIGINT and
times the child until it exits. ``TABULEIRO_TEST_PYTHON`` names another
interpreter for the children (to run them against another build).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tabuleiro import agents, capivarias, capulana

ROOT = Path(__file__).resolve().parents[1]
PYTHON = os.environ.get("TABULEIRO_TEST_PYTHON", sys.executable)
LIMIT = 1.0          # seconds from SIGINT to the child's exit

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

PRELUDE = """
import random, signal, sys, time
# Python's own Ctrl-C handling, as a user at a terminal has it: a child of a
# shell's background job starts with SIGINT ignored, and Python then keeps it so
signal.signal(signal.SIGINT, signal.default_int_handler)
from tabuleiro import agents, capivarias, capulana

def midgame(game):
    rng = random.Random(4)
    s = capivarias.new_game(seed=4, expansion=True) if game == "capivarias" else capulana.new_game(players=3, seed=4)
    for _ in range(12):
        s.apply(rng.choice(s.legal_actions()))
    return s

def ready():
    print("ready", flush=True)
"""


class Interrupted:
    def __init__(self, returncode: int, elapsed: float, stdout: str, stderr: str) -> None:
        self.returncode, self.elapsed, self.stdout, self.stderr = returncode, elapsed, stdout, stderr

    def __repr__(self) -> str:
        return (f"exit {self.returncode} {self.elapsed:.3f} s after SIGINT\nstdout:\n{self.stdout[-1500:]}\n"
                f"stderr:\n{self.stderr[-1500:]}")


def interrupt(body: str, *, ready_timeout: float = 30.0, exit_timeout: float = 15.0) -> Interrupted:
    """Run PRELUDE + body in a child; SIGINT it 0.3 s after it prints ``ready``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    code = PRELUDE + textwrap.dedent(body)
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen([PYTHON, "-c", code], stdout=subprocess.PIPE, stderr=err, cwd=str(ROOT), env=env)
        assert p.stdout is not None
        fd = p.stdout.fileno()
        out = b""
        try:
            deadline = time.monotonic() + ready_timeout
            while b"ready\n" not in out:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    pytest.fail(f"the child did not get ready in {ready_timeout} s: {out!r}")
                chunk = os.read(fd, 4096)
                if not chunk:
                    p.wait()
                    err.seek(0)
                    pytest.fail(f"the child exited ({p.returncode}) before it was ready: {out!r}\n{err.read()}")
                out += chunk
            time.sleep(0.3)
            assert p.poll() is None, "the long call ended by itself before the signal"
            t0 = time.monotonic()
            p.send_signal(signal.SIGINT)
            try:
                p.wait(exit_timeout)
            except subprocess.TimeoutExpired:
                pass
            if p.poll() is None:
                pytest.fail(f"the child still ran {exit_timeout} s after SIGINT")
            elapsed = time.monotonic() - t0
            out += p.stdout.read()
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stdout.close()
        err.seek(0)
        return Interrupted(p.returncode, elapsed, out.decode(), err.read())


def assert_keyboard_interrupt(r: Interrupted) -> None:
    assert "KeyboardInterrupt" in r.stderr and r.elapsed < LIMIT, r


# --- Ctrl-C ends every long loop ---------------------------------------------------------------------------

KINDS = ["flatmc", "mcts", "ismcts"]
SEARCH_CASES = [(game, threads, budget, KINDS[i % 3])
                for i, (game, threads, budget) in enumerate(
                    (g, t, b) for g in ("capivarias", "capulana") for t in (1, 2) for b in ("time", "iterations"))]


@pytest.mark.parametrize("game,threads,budget,kind", SEARCH_CASES)
def test_ctrl_c_ends_a_search(game: str, threads: int, budget: str, kind: str) -> None:
    params = "iterations=0, time=60" if budget == "time" else "iterations=10**9"
    assert_keyboard_interrupt(interrupt(f"""
        s = midgame({game!r})
        bot = agents.make({kind!r}, {params}, threads={threads}, seed=1)
        ready()
        bot.choose(s)
    """))


@pytest.mark.parametrize("game", ["capivarias", "capulana"])
def test_ctrl_c_ends_random_playouts(game: str) -> None:
    call = ("capivarias.random_playouts(10**9, seed=1)" if game == "capivarias"
            else "capulana.random_playouts(10**9, seed=1, players=3)")
    assert_keyboard_interrupt(interrupt(f"""
        ready()
        {call}
    """))


@pytest.mark.parametrize("game", ["capivarias", "capulana"])
def test_ctrl_c_ends_perft(game: str) -> None:
    assert_keyboard_interrupt(interrupt(f"""
        s = midgame({game!r})
        ready()
        s.perft(20)
    """))


@pytest.mark.parametrize("game", ["capivarias", "capulana"])
@pytest.mark.parametrize("call", ["search", "perft"])
def test_interrupted_state_is_unchanged(game: str, call: str) -> None:
    """The child catches the KeyboardInterrupt and compares the state with
    what it was before the long call; it goes on running normally after."""
    run = ("agents.make('ismcts', iterations=0, time=60, threads=2, seed=1).choose(s)" if call == "search"
           else "s.perft(20)")
    r = interrupt(f"""
        s = midgame({game!r})
        before, history = s.to_dict(), list(s.history()) if hasattr(s, "history") else None
        ready()
        try:
            {run}
        except KeyboardInterrupt:
            assert s.to_dict() == before, "the state changed"
            assert history is None or s.history() == history
            assert agents.make("mcts", iterations=50, seed=2).choose(s) in s.legal_moves()
            print("OK", flush=True)
        else:
            print("no KeyboardInterrupt", flush=True)
    """)
    assert r.returncode == 0 and "OK" in r.stdout and r.elapsed < LIMIT, r


@pytest.mark.parametrize("call", ["search", "random_playouts", "perft"])
def test_custom_sigint_handler_runs(call: str) -> None:
    """A handler installed with signal.signal is the one that runs (here it
    records the call, then raises KeyboardInterrupt itself)."""
    run = {"search": "agents.make('mcts', iterations=0, time=60, threads=2, seed=1).choose(s)",
           "random_playouts": "capulana.random_playouts(10**9, seed=1, players=4)",
           "perft": "s.perft(20)"}[call]
    r = interrupt(f"""
        calls = []
        def handler(signum, frame):
            calls.append(signum)
            print("handler ran", flush=True)
            raise KeyboardInterrupt("from the custom handler")
        signal.signal(signal.SIGINT, handler)
        s = midgame("capivarias")
        ready()
        try:
            {run}
        finally:
            print("calls", calls, flush=True)
    """)
    assert_keyboard_interrupt(r)
    assert "handler ran" in r.stdout and f"calls [{int(signal.SIGINT)}]" in r.stdout, r
    assert "from the custom handler" in r.stderr, r


# --- other threads ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", ["capivarias", "capulana"])
def test_search_from_a_non_main_thread(kind: str, game: str) -> None:
    """Signal handlers only run in the main thread: a search from another
    thread must neither fail on that nor hang."""
    s = capivarias.new_game(seed=3) if game == "capivarias" else capulana.new_game(players=4, seed=3)
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["move"] = agents.make(kind, iterations=2000, threads=2, seed=1).choose(s)
        except BaseException as e:  # noqa: BLE001 - reported below
            result["error"] = e

    t = threading.Thread(target=work, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), "the search did not return"
    assert "error" not in result, result
    assert result["move"] in s.legal_moves()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game", ["capivarias", "capulana"])
@pytest.mark.parametrize("how", ["choose", "analyse"])
def test_stop_flag_from_another_thread_ends_a_search(how: str, game: str, threads: int) -> None:
    """A StopFlag set from a timer thread ends a time=60 search early: it
    returns (does not raise) its best move so far, a legal one."""
    s = capivarias.new_game(seed=8) if game == "capivarias" else capulana.new_game(players=3, seed=8)
    before = s.to_dict()
    flag = agents.StopFlag()
    bot = agents.make("ismcts", iterations=0, time=60, threads=threads, seed=1)
    timer = threading.Timer(0.3, flag.set)
    t0 = time.monotonic()
    timer.start()
    try:
        result = bot.choose(s, stop=flag) if how == "choose" else bot.analyse(s, stop=flag)
    finally:
        timer.cancel()
    elapsed = time.monotonic() - t0
    assert elapsed < 0.3 + LIMIT, elapsed
    move = result if how == "choose" else result[0].move
    assert move in s.legal_moves() and s.to_dict() == before
    assert flag.is_set()


def test_a_stop_flag_set_before_the_search_still_gives_a_move() -> None:
    flag = agents.StopFlag()
    flag.set()
    s = capivarias.new_game(seed=9)
    t0 = time.monotonic()
    move = agents.make("mcts", iterations=0, time=60, seed=1).choose(s, stop=flag)
    assert time.monotonic() - t0 < LIMIT and move in s.legal_moves()
