"""Search benchmarks: simulations (iterations) per second per agent and game
from the opening, with 1 and 2 threads.
Run: ``pytest bench/bench_search.py --benchmark-only``."""

from __future__ import annotations

import pytest

from tabuleiro import _capivarias, _capulana, capivarias, capulana

ITER = {"capivarias": 20_000, "capulana4": 4_000}
KINDS = {"flatmc": 0, "mcts": 1, "ismcts": 2}


def opening(game: str):  # type: ignore[no-untyped-def]
    if game == "capivarias":
        return _capivarias, capivarias.new_game(seed=1), 1.4
    return _capulana, capulana.new_game(players=4, seed=1), 0.7


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("game", list(ITER))
def test_search_simulations(benchmark, game, kind, threads):  # type: ignore[no-untyped-def]
    core, state, c = opening(game)
    n = ITER[game]
    benchmark.extra_info.update(units=n, unit="simulations", key=f"{game}_{kind}_{threads}t")
    best, stats, iterations, nodes, full = benchmark.pedantic(
        core.search, args=(state, KINDS[kind], 7, n, 0.0, c, 0, threads, 1 << 20), rounds=3, iterations=1)
    assert iterations == n
