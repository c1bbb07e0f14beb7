"""Arena overhead: Capivárias games per second of ``random`` against ``random``
in one process (``jobs=1``: the worker's game loop in this process), which is
what the harness costs since the game itself runs at hundreds of thousands of
games a second in C (``game.random_playouts``, measured here too).

Run: ``pytest bench/bench_arena.py --benchmark-only`` (rates are printed at
the end); the target is at least 5,000 games a second per worker process.
``python bench/bench_arena.py`` prints the same figures without pytest.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import tabuleiro
from tabuleiro import arena

DEALS = 2500            # 5,000 games a round
AGENTS = ["random", "random"]


def _loop(n_deals: int) -> None:
    """The worker's loop alone: play and build the records (what each worker process does)."""
    cfg = arena._Config("capivarias", tabuleiro.load_game("capivarias").params,
                        tuple(arena.parse_agent(a) for a in AGENTS), 1)
    arena._Worker(cfg).play_many(arena.schedule(2, 2, n_deals, seed=1))


def _run(n_deals: int, out: Any) -> dict[str, Any]:
    """The whole of ``arena.run`` with jobs=1: play, write the JSONL, summarize."""
    if out is not None:
        Path(out).unlink(missing_ok=True)
    return arena.run("capivarias", AGENTS, deals=n_deals, seed=1, jobs=1, out=out)


def test_arena_worker_loop(benchmark: Any) -> None:
    benchmark.extra_info.update(units=2 * DEALS, unit="games", key="arena_worker_loop_random_capivarias")
    benchmark.pedantic(_loop, args=(DEALS,), rounds=3, iterations=1)


def test_arena_run_with_jsonl(benchmark: Any, tmp_path: Path) -> None:
    benchmark.extra_info.update(units=2 * DEALS, unit="games", key="arena_run_jsonl_random_capivarias")
    benchmark.pedantic(_run, args=(DEALS, tmp_path / "b.jsonl"), rounds=3, iterations=1)


def test_c_random_playouts(benchmark: Any) -> None:
    n = 100_000
    game = tabuleiro.load_game("capivarias")
    benchmark.extra_info.update(units=n, unit="games", key="capivarias_c_random_playouts")
    benchmark.pedantic(game.random_playouts, args=(n,), kwargs={"seed": 1}, rounds=3, iterations=1)


def main() -> int:
    """Best of 5 rounds, in games per wall-clock second and per CPU second of
    this process (on a shared machine the CPU figure is the steadier one)."""
    import tempfile

    rows = []
    game = tabuleiro.load_game("capivarias")
    with tempfile.TemporaryDirectory() as d:
        for name, n, fn in [("worker loop (play + records)", 2 * DEALS, lambda: _loop(DEALS)),
                            ("arena.run jobs=1 (+ JSONL + summary)", 2 * DEALS,
                             lambda: _run(DEALS, Path(d) / "b.jsonl")),
                            ("C random_playouts", 100_000, lambda: game.random_playouts(100_000, seed=1))]:
            times = [_timed(fn) for _ in range(5)]
            rows.append((name, n / min(t[0] for t in times), n / min(t[1] for t in times)))
    print(f"{'capivarias, random vs random':<40} {'games/s wall':>14} {'games/CPU-s':>14}")
    for name, wall, cpu in rows:
        print(f"{name:<40} {wall:>14,.0f} {cpu:>14,.0f}")
    return 0


def _timed(fn: Any) -> tuple[float, float]:
    t, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t, time.process_time() - c


if __name__ == "__main__":
    sys.exit(main())
