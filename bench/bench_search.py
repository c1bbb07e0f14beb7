"""Search benchmarks: simulations (iterations) per second per agent and game
from the opening, with 1 and 2 threads (each thread searching ITER
iterations); each the fastest of 15 calls of 40-60 ms, since on a shared
machine a few calls are slowed, those with two threads the most.
Run: ``pytest bench/bench_search.py --benchmark-only``."""

from __future__ import annotations

import pytest

from tabuleiro import capivarias, capulana

ITER = {"capivarias": 20_000, "capulana4": 4_000}
KINDS = {"flatmc": 0, "mcts": 1, "ismcts": 2}


def opening(game: str):  # type: ignore[no-untyped-def]
    if game == "capivarias":
        return capivarias.new_game(seed=1), 1.4, False
    return capulana.new_game(players=4, seed=1), 0.7, True


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("game", list(ITER))
def test_search_simulations(benchmark, game, kind, threads):  # type: ignore[no-untyped-def]
    state, c, capulana_policy = opening(game)
    n = ITER[game] * threads
    benchmark.extra_info.update(units=n, unit="simulations", key=f"{game}_{kind}_{threads}t")
    best, stats, iterations, nodes, full, stopped = benchmark.pedantic(
        state._search, args=(KINDS[kind], 7, n, 0.0, c, False, capulana_policy, capulana_policy, False, False, threads, 1 << 20),
        rounds=15, iterations=1, warmup_rounds=1)
    assert iterations == n
