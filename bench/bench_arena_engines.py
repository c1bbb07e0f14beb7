"""External-engine overhead: games per second of a worker whose two seats
are both external engines that play uniformly at random, so that what is
measured is the arena's side of the protocol (the seat's view encoded, the
legal moves, one write of ``load`` + ``go``, two answers read and checked)
plus the engine's own turn-around: the C engine
(examples/random-engine/random_engine.c, compiled here with ``cc -O2``),
whose turn-around is a few microseconds, and the sample Node engine
(examples/flatmc-engine/engine.mjs, ``mode=random``).

Run: ``python bench/bench_arena_engines.py`` (best of 5 rounds, Capivárias
and the toy game, games per wall second and per CPU second of the worker
process; the engines' CPU is not in the second figure), or
``pytest bench/bench_arena_engines.py --benchmark-only``. The target is at
least 500 games a second per worker. Needs ``cc`` and ``node`` on PATH.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tabuleiro
from tabuleiro import arena

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "flatmc-engine" / "engine.mjs"
C_SOURCE = ROOT / "examples" / "random-engine" / "random_engine.c"
DEALS = 250               # 500 games a round
_BUILT: dict[str, str] = {}


def c_engine() -> str:
    """The C random engine, compiled once into a temporary directory."""
    if "c" not in _BUILT:
        cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if cc is None:
            raise SystemExit("the benchmark needs a C compiler (cc) on PATH")
        tmp = tempfile.mkdtemp(prefix="tabuleiro-bench-")
        atexit.register(shutil.rmtree, tmp, True)
        exe = str(Path(tmp) / "random_engine")
        subprocess.run([cc, "-O2", "-o", exe, str(C_SOURCE)], check=True)
        _BUILT["c"] = exe
    return _BUILT["c"]


def _worker(game: str, tc: Any = "5+0.05", kind: str = "c") -> Any:
    if kind == "c":
        cmd = [c_engine()]
    else:
        node = shutil.which("node")
        if node is None:
            raise SystemExit("the benchmark needs node on PATH")
        cmd = [node, str(SAMPLE)]
    engines = [arena.Engine(cmd=cmd, options={"mode": "random"}, name=n) for n in ("a", "b")]
    cfg = arena._Config(game, tabuleiro.load_game(game).params, tuple(arena.parse_agent(e) for e in engines), 1,
                        tc=None if tc is None else arena.parse_tc(tc), margin=0.1)
    return arena._Worker(cfg)


def _rounds(game: str, n_deals: int, rounds: int = 5, kind: str = "c") -> tuple[float, float, float]:
    """Best games/s (wall, worker CPU) over ``rounds``, engines started once
    beforehand (as a worker keeps them), and the moves per game."""
    w = _worker(game, kind=kind)
    plan = arena.schedule(2, 2, n_deals, seed=1)
    try:
        w.play_many(plan[:4])                       # start the engine processes
        best_wall = best_cpu = 0.0
        moves = 0
        for _ in range(rounds):
            t, c = time.perf_counter(), time.process_time()
            recs = w.play_many(plan)
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            assert all(r["termination"] == "normal" for r in recs)
            moves = sum(len(r["moves"]) for r in recs) / len(recs)
            best_wall = max(best_wall, len(recs) / wall)
            best_cpu = max(best_cpu, len(recs) / max(cpu, 1e-9))
        return best_wall, best_cpu, moves
    finally:
        w.close()


def test_engine_worker_loop_capivarias(benchmark: Any) -> None:
    w = _worker("capivarias")
    plan = arena.schedule(2, 2, DEALS, seed=1)
    benchmark.extra_info.update(units=len(plan), unit="games", key="arena_engines_random_capivarias")
    try:
        benchmark.pedantic(w.play_many, args=(plan,), rounds=3, iterations=1, warmup_rounds=1)
    finally:
        w.close()


def pipe_round_trip_us(n: int = 20000) -> float:
    """The machine's floor under any engine: microseconds for one line
    written to ``cat`` through a pipe and read back (best of 3 runs of n)."""
    p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert p.stdin is not None and p.stdout is not None
    fd_in, fd_out = p.stdin.fileno(), p.stdout.fileno()
    best = float("inf")
    try:
        for _ in range(3):
            t = time.perf_counter()
            for _ in range(n):
                os.write(fd_in, b"x\n")
                os.read(fd_out, 64)
            best = min(best, (time.perf_counter() - t) / n * 1e6)
    finally:
        p.kill()
        p.wait()
    return best


def main() -> int:
    print(f"{'two random external engines, tc 5+0.05':<40} {'games/s wall':>14} {'games/CPU-s':>14} {'moves/game':>11}")
    for kind in ("c", "node"):
        for game in ("capivarias", "toy"):
            wall, cpu, moves = _rounds(game, DEALS, kind=kind)
            print(f"{game + ', ' + kind + ' engines':<40} {wall:>14,.0f} {cpu:>14,.0f} {moves:>11.1f}")
    rtt = pipe_round_trip_us()
    # one round trip a decision (load + go in one write, two answers back)
    print(f"this machine's pipe round trip (a line through cat and back): {rtt:.1f} us; with nothing else to do, "
          f"a worker could play at most {1e6 / (rtt * 39.8):,.0f} Capivarias games (39.8 decisions) a second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
