"""Simulations per second of ``ismcts`` at 1,000 iterations, for the equal-time
item of issue 25 (docs/strength.md, *Where issue 25 stands*): the same 30
positions a game (seeded random play, 10 to 59 plies in), best of 3 passes,
one JSON line of rates. Run it with each build's python, alternating, on an
idle machine, and compare the medians:

    python bench/search_rate.py
    /work/venv-baseline/bin/python bench/search_rate.py

(from a directory where ``import tabuleiro`` finds the build under test).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from tabuleiro import agents, load_game


def positions(game: str, params: dict[str, Any], n: int, seed: int) -> list[Any]:
    """n unfinished positions with a choice, from seeded random play."""
    rng = random.Random(seed)
    out: list[Any] = []
    g = load_game(game, **params)
    while len(out) < n:
        s = g.new_initial_state(seed=rng.randrange(2**63))
        for _ in range(rng.randrange(10, 60)):
            if s.is_terminal:
                break
            s.apply(rng.choice(s.legal_actions()))
        if not s.is_terminal and len(s.legal_actions()) > 1:
            out.append(s)
    return out


def main() -> None:
    rates = {}
    for game, params in [("capulana", {"players": 4}), ("capulana", {"players": 2}), ("capivarias", {})]:
        ps = positions(game, params, 30, 7)
        best = 0.0
        for _ in range(3):
            iterations, t = 0, time.perf_counter()
            for k, s in enumerate(ps):
                iterations += agents.SearchAgent(kind="ismcts", iterations=1000, seed=k).search(s).iterations
            best = max(best, iterations / (time.perf_counter() - t))
        rates[f"{game}{params.get('players', '')}"] = round(best)
    print(json.dumps(rates))


if __name__ == "__main__":
    main()
