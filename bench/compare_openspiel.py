"""Ours against OpenSpiel's C++ bots, in one process and one run.

    python bench/compare_openspiel.py [--seconds-per-bench 3]

Measures simulations per second from the opening of:
  * OpenSpiel MCTSBot (C++, random rollouts) on its native connect_four,
  * OpenSpiel ISMCTSBot (C++, random rollouts) on its native hearts (after the deal),
  * our mcts on Capivárias and our ismcts on 4-player Capulana (single thread, and 2 threads),
and prints the ratios the search issue asks for. Needs ``pip install open_spiel``.
"""

from __future__ import annotations

import argparse
import random
import time


def rate(fn, sims: int, seconds: float) -> float:  # type: ignore[no-untyped-def]
    """Best simulations/second over repeated calls lasting about `seconds`."""
    best, start = 0.0, time.perf_counter()
    while True:
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best = max(best, sims / dt)
        if time.perf_counter() - start > seconds:
            return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds-per-bench", type=float, default=3.0)
    args = ap.parse_args()
    secs = args.seconds_per_bench

    import pyspiel

    from tabuleiro import capivarias, capulana

    results = {}
    c4 = pyspiel.load_game("connect_four")
    sims = 20_000

    def os_mcts() -> None:
        bot = pyspiel.MCTSBot(c4, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, sims, 1000, False, 1, False)
        bot.step(c4.new_initial_state())

    results["openspiel MCTSBot connect_four"] = rate(os_mcts, sims, secs)

    hearts = pyspiel.load_game("hearts")
    hs = hearts.new_initial_state()
    rng = random.Random(1)
    while hs.is_chance_node():
        hs.apply_action(rng.choice(hs.chance_outcomes())[0])
    hsims = 5_000

    def os_ismcts() -> None:
        bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 2), 2.0, hsims, -1,
                                pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
        bot.step(hs)

    results["openspiel ISMCTSBot hearts"] = rate(os_ismcts, hsims, secs)

    cv = capivarias.new_game(seed=1)
    cp = capulana.new_game(players=4, seed=1)
    for threads in (1, 2):
        results[f"tabuleiro mcts capivarias {threads}t"] = rate(
            lambda: cv._search(1, 7, sims, 0.0, 1.4, False, False, False, False, False, threads, 1 << 20), sims, secs)
        results[f"tabuleiro ismcts capulana4 {threads}t"] = rate(
            lambda: cp._search(2, 7, hsims, 0.0, 0.7, False, True, True, False, False, threads, 1 << 20), hsims, secs)

    for k, v in results.items():
        print(f"{k:<40} {v:>12,.0f} simulations/s")
    m, i = results["openspiel MCTSBot connect_four"], results["openspiel ISMCTSBot hearts"]
    for t in (1, 2):
        r1 = results[f"tabuleiro mcts capivarias {t}t"] / m
        r2 = results[f"tabuleiro ismcts capulana4 {t}t"] / i
        print(f"ratio mcts capivarias {t}t / MCTSBot connect_four = {r1:.2f}x (target >= 2)")
        print(f"ratio ismcts capulana4 {t}t / ISMCTSBot hearts = {r2:.2f}x (target >= 1)")


if __name__ == "__main__":
    main()
