"""Batched stepping speed (issue 12): environment steps per second of a
batch of Capivárias games, with random legal actions chosen in C and with
actions passed from numpy, with and without observations and masks, next
to the engine's own random-playout speed on the same machine (the ratio is
what carries over between machines; the machine is shared and noisy).

    python bench/bench_vector.py [--n 1024] [--steps 300] [--threads 1] [--game capivarias]

``pytest bench/bench_vector.py --benchmark-only`` measures the four batch
loops (batch of 1,024 Capivárias games, one thread) as steps per second, for
``bench/compare_builds.py``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import tabuleiro


def _rate(fn, n, steps):
    fn()
    t = time.perf_counter()
    for _ in range(steps):
        fn()
    return n * steps / (time.perf_counter() - t)


MODES = {"c_bare": (False, False), "c_full": (False, True), "numpy_bare": (True, False), "numpy_full": (True, True)}


def test_batch_steps(benchmark, mode: str = "c_bare") -> None:  # type: ignore[no-untyped-def]
    """One of the four loops of main(): 100 steps of a batch of 1,024 games."""
    n, steps = 1024, 100
    from_numpy, with_obs = MODES[mode]
    b = tabuleiro.load_game("capivarias").batch(n, seed=1, threads=1)
    c = b._core
    rng = np.random.default_rng(0)
    c.bind(*(b._owned if with_obs else (None, None) + b._owned[2:]))
    c.reset()
    fn = (lambda: b.step(b.sample_actions(rng))) if from_numpy else (lambda: c.step(None))

    def run() -> None:
        for _ in range(steps):
            fn()

    benchmark.extra_info.update(units=n * steps, unit="steps", key=f"vector_capivarias_{mode}")
    benchmark.pedantic(run, rounds=15, iterations=1, warmup_rounds=1)   # the fastest of 15: memory-bound, noisy


def test_batch_steps_c_full(benchmark) -> None:  # type: ignore[no-untyped-def]
    test_batch_steps(benchmark, "c_full")


def test_batch_steps_numpy_bare(benchmark) -> None:  # type: ignore[no-untyped-def]
    test_batch_steps(benchmark, "numpy_bare")


def test_batch_steps_numpy_full(benchmark) -> None:  # type: ignore[no-untyped-def]
    test_batch_steps(benchmark, "numpy_full")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="capivarias")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    a = ap.parse_args()
    game = tabuleiro.load_game(a.game)
    b = game.batch(a.n, seed=1, threads=a.threads)
    c = b._core
    rng = np.random.default_rng(0)
    full = b._owned          # obs, mask, rewards, done, player, length, legal, num_legal (writable)
    bare = (None, None) + full[2:]
    rows = []

    def best(label, bufs, fn):
        c.bind(*bufs)
        c.reset()
        r = max(_rate(fn, a.n, a.steps) for _ in range(a.repeat))
        rows.append((label, r))

    t = time.perf_counter()
    pl = game.random_playouts(20000, seed=1)
    engine = pl["actions"] / (time.perf_counter() - t)
    best("random actions in C, no obs/mask", bare, lambda: c.step(None))
    best("random actions in C, obs + mask", full, lambda: c.step(None))
    best("actions from numpy, no obs/mask", bare, lambda: b.step(b.sample_actions(rng)))
    best("actions from numpy, obs + mask", full, lambda: b.step(b.sample_actions(rng)))
    print(f"{a.game}: batch of {a.n}, {a.steps} steps, threads={a.threads}")
    print(f"  {'engine random_playouts (one thread, no batch)':48s} {engine / 1e6:7.2f} M actions/s  1.00")
    for label, r in rows:
        print(f"  {label:48s} {r / 1e6:7.2f} M steps/s    {r / engine:.2f}")


if __name__ == "__main__":
    main()
