"""The default ``ismcts`` at 1,000 iterations on search_rate.py's 30 positions
a game, as a pytest-benchmark suite: simulations per second, so that
``compare_builds.py`` can put issue 25's equal-time figure (today's build
against the baseline's) in lockstep rather than in runs taken in turns:

    python bench/compare_builds.py --abi3 --baseline a03cd1a bench_search_rate.py

One call searches each of the 30 positions once (seeds 0-29, as
``search_rate.py`` does).
"""

from __future__ import annotations

from typing import Any

import pytest

from search_rate import positions
from tabuleiro import agents

SETUPS = {"capulana4": ("capulana", {"players": 4}), "capulana2": ("capulana", {"players": 2}),
          "capivarias": ("capivarias", {})}
ITERATIONS = 1000


@pytest.mark.parametrize("setup", list(SETUPS))
def test_search_rate(benchmark: Any, setup: str) -> None:
    game, params = SETUPS[setup]
    ps = positions(game, params, 30, 7)

    def one_pass() -> int:
        return sum(agents.SearchAgent(kind="ismcts", iterations=ITERATIONS, seed=k).search(s).iterations
                   for k, s in enumerate(ps))

    benchmark.extra_info.update(units=ITERATIONS * len(ps), unit="simulations", key=f"search_rate_{setup}")
    assert benchmark.pedantic(one_pass, rounds=5, iterations=1, warmup_rounds=1) == ITERATIONS * len(ps)
