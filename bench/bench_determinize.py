"""Capulana determinize: microseconds per call, the old one (legacy_determinize=True)
and the new one (issue 13) in the same run, for 2-5 players at the start of
the game, in the auction (offer phase, half the offers made) and mid-weaving
(the last player of the weaving step to move: every other player has woven).
Each figure is the best of 5 runs of CALLS calls from Python (one
``State.determinize`` each, a new State object per call); ``clone`` is the
same loop with ``State.clone()``, the Python cost a call pays anyway.

Run: ``python bench/bench_determinize.py`` (about half a minute).
``pytest bench/bench_determinize.py --benchmark-only`` measures the same
calls (calls per second) for ``bench/compare_builds.py``.
"""

from __future__ import annotations

import functools
import random
import time
from typing import Any

import pytest

from tabuleiro import load_game

CALLS = 2000


def positions(players: int, seed: int = 7) -> dict[str, tuple[Any, int]]:
    g = load_game("capulana", players=players)
    rng = random.Random(seed)
    out: dict[str, tuple[Any, int]] = {}
    s = g.new_initial_state(seed=seed)
    out["start"] = (s.clone(), s.current_player)
    while True:
        d = s.to_dict()
        if "auction" not in out and d["phase"] == "offer" and len(d["offers"]) == players and d["open_offer"] is None:
            out["auction"] = (s.clone(), s.current_player)
        p = s.current_player
        if (d["phase"] == "weave" and d["round"] == 2 and d["woven"][p] == 0
                and sum(d["weave_done"]) == players - 1):
            out["mid-weaving"] = (s.clone(), p)
            return out
        legal = s.legal_actions()
        s.apply(legal[-1] if d["phase"] == "offer" and rng.random() < 0.6 else rng.choice(legal))
        if s.is_terminal:
            seed += 1
            s = g.new_initial_state(seed=seed)


@functools.lru_cache(maxsize=None)
def _positions(players: int) -> dict[str, tuple[Any, int]]:
    return positions(players)


@pytest.mark.parametrize("kind", ["clone", "old", "new"])
@pytest.mark.parametrize("position", ["start", "auction", "mid-weaving"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_determinize(benchmark, players: int, position: str, kind: str) -> None:  # type: ignore[no-untyped-def]
    s, p = _positions(players)[position]
    if kind == "old":
        s = load_game("capulana", players=players, legacy_determinize=True).from_dict(s.to_dict())

    calls = 10 * CALLS      # a round of some 10 ms: shorter ones are mostly timer and scheduler noise

    def run() -> None:
        if kind == "clone":
            for _ in range(calls):
                s.clone()
        else:
            for k in range(calls):
                s.determinize(p, k)

    benchmark.extra_info.update(units=calls, unit="calls", key=f"determinize_{players}p_{position}_{kind}")
    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)


def per_call(fn: Any) -> float:
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for k in range(CALLS):
            fn(k)
        best = min(best, time.perf_counter() - t)
    return best / CALLS * 1e6


def main() -> None:
    print(f"{'players':>7} {'position':<12} {'clone':>7} {'old µs':>8} {'new µs':>8}")
    for players in (2, 3, 4, 5):
        legacy = load_game("capulana", players=players, legacy_determinize=True)
        for name, (s, p) in positions(players).items():
            old = legacy.from_dict(s.to_dict())
            c = per_call(lambda k: s.clone())
            a = per_call(lambda k: old.determinize(p, k))
            b = per_call(lambda k: s.determinize(p, k))
            print(f"{players:>7} {name:<12} {c:7.2f} {a:8.2f} {b:8.2f}")


if __name__ == "__main__":
    main()
