"""Strength against what a user would otherwise pick (issue 12): our
``ismcts`` against OpenSpiel's Python ISMCTSBot (random-rollout evaluator)
running on the registered ``tabuleiro_capivarias``, in paired games (each
deal played twice, seats swapped).

    python bench/bench_vs_openspiel_ismcts.py --mode time --seconds 0.1 --pairs 50
    python bench/bench_vs_openspiel_ismcts.py --mode iterations --iterations 30 --pairs 50
    python bench/bench_vs_openspiel_ismcts.py --mode iterations --iterations 200 --pairs 25 --first-deal 25

    python bench/bench_vs_openspiel_ismcts.py --mode time --os-sims 91 --rollout heuristic --pairs 25 --first-deal 25
    python bench/bench_vs_openspiel_ismcts.py --mode time --os-sims 91 --horizon on --pairs 25 --first-deal 25

(``--first-deal`` splits a run over processes: each takes its own deals;
``--os-sims`` fixes OpenSpiel's simulations per move so that they agree, e.g.
at what a first run calibrated; ``--rollout`` and ``--horizon`` are our
ismcts's rollout policy and horizon, ``default`` the game's.)

``--mode time``: both get about ``--seconds`` per move (ours: ``time=``;
OpenSpiel's: its simulations per move calibrated beforehand to that time,
since its bot takes a simulation count only). ``--mode iterations``: both get
the same number of simulations. Prints our score (win 1, draw 0.5) with a
95% Wilson interval, and each game as a JSON line with ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main() -> None:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from tabuleiro import agents, load_game, openspiel

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=["time", "iterations"], default="time")
    ap.add_argument("--seconds", type=float, default=0.1)
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--pairs", type=int, default=50)
    ap.add_argument("--first-deal", type=int, default=0, help="deals first-deal .. first-deal+pairs-1 (to split a run)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--rollout", choices=["random", "heuristic"], default="random",
                    help="our ismcts's rollout policy (OpenSpiel's is uniform random)")
    ap.add_argument("--horizon", choices=["default", "on", "off"], default="default",
                    help="our ismcts's rollouts end at the round's end (on) or play the game out (off)")
    ap.add_argument("--os-sims", type=int, default=0,
                    help="--mode time: OpenSpiel's simulations per move as given (e.g. from an earlier "
                         "calibration, so that processes splitting a run agree) instead of calibrated")
    a = ap.parse_args()
    openspiel.register()
    game = pyspiel.load_game("tabuleiro_capivarias")

    def os_bot(sims: int, seed: int):  # type: ignore[no-untyped-def]
        rs = np.random.RandomState(seed)
        return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=sims,
                                random_state=rs)

    def calibrated_sims() -> int:   # OpenSpiel's simulations per move that fit in --seconds
        st = game.new_initial_state()
        st.apply_action(0)
        bot = os_bot(20, 0)
        t = time.perf_counter()
        for _ in range(3):
            bot.step(st)
        per_sim = (time.perf_counter() - t) / 60
        return max(1, int(a.seconds / per_sim))

    if a.mode == "time":
        os_sims = a.os_sims if a.os_sims > 0 else calibrated_sims()
        ours_kw = {"time": a.seconds, "iterations": 0}
    else:
        os_sims = a.iterations
        ours_kw = {"iterations": a.iterations}
    # the effective value goes into every record: rows without the key are from before the knob (full rollouts)
    ours_kw["horizon"] = (load_game("capivarias").search_defaults["horizon"] if a.horizon == "default"
                          else a.horizon == "on")
    print(f"mode={a.mode} OpenSpiel sims/move={os_sims} ours={ours_kw} rollout={a.rollout} pairs={a.pairs}",
          flush=True)
    out = open(a.out, "a") if a.out else None
    score, n, t0 = 0.0, 0, time.perf_counter()
    for d in range(a.first_deal, a.first_deal + a.pairs):
        for our_seat in (0, 1):
            bot = os_bot(os_sims, 1000 * d + our_seat)
            ours = agents.make("ismcts", seed=1000 * d + our_seat, rollout=a.rollout, **ours_kw)
            st = game.new_initial_state()
            st.apply_action(d % game.max_chance_outcomes())
            moves = 0
            while not st.is_terminal():
                p = st.current_player()
                act = ours.choose(st._st).action if p == our_seat else bot.step(st)
                st.apply_action(act)
                moves += 1
            r = st.returns()[our_seat]
            s = 1.0 if r > 0 else 0.5 if r == 0 else 0.0
            score += s
            n += 1
            if out:
                out.write(json.dumps({"mode": a.mode, "deal": d, "our_seat": our_seat, "score": s, "moves": moves,
                                      "os_sims": os_sims, "rollout": a.rollout, **ours_kw}) + "\n")
                out.flush()
        lo, hi = wilson(score, n)
        print(f"after {n} games: ours {score}/{n} = {score / n:.3f} (95% {lo:.3f}-{hi:.3f}) "
              f"{time.perf_counter() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
