"""Capivárias benchmarks: whole random games in the C loop, apply() +
legal_actions() per step from Python, and the pure-Python reference on the
same work. Run: ``pytest bench/bench_capivarias.py --benchmark-only``."""

from __future__ import annotations

import random

import pytest

from tabuleiro import capivarias
from tests.reference import capivarias as ref

C_GAMES = 20_000
REF_GAMES = 100


@pytest.mark.parametrize("expansion", [False, True], ids=["base", "expansion"])
def test_c_random_games(benchmark, expansion):  # type: ignore[no-untyped-def]
    seeds = iter(range(10**9))
    key = "capivarias_c_random_games" + ("_expansion" if expansion else "")
    benchmark.extra_info.update(units=C_GAMES, unit="games", key=key)
    out = benchmark(lambda: capivarias.random_playouts(C_GAMES, seed=next(seeds), expansion=expansion))
    assert out["games"] == C_GAMES


@pytest.mark.parametrize("expansion", [False, True], ids=["base", "expansion"])
def test_reference_random_games(benchmark, expansion):  # type: ignore[no-untyped-def]
    seeds = iter(range(10**9))
    key = "capivarias_reference_random_games" + ("_expansion" if expansion else "")
    benchmark.extra_info.update(units=REF_GAMES, unit="games", key=key)

    def run() -> None:
        base = next(seeds) * REF_GAMES
        for i in range(REF_GAMES):
            ref.random_game(base + i, expansion, base + i)

    benchmark.pedantic(run, rounds=5, iterations=1)


def test_python_step_loop(benchmark):  # type: ignore[no-untyped-def]
    """apply() + legal_actions() per step, driven from Python."""
    rng = random.Random(1)
    steps = [0]

    def game() -> None:
        s = capivarias.new_game(seed=rng.randrange(2**64))
        n = 0
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
            n += 1
        steps[0] = n

    benchmark.extra_info.update(units=1, unit="games", key="capivarias_python_step_loop_games")
    benchmark(game)
