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
95% Wilson interval, and each game as a JSON line with ``--out`` (plain
JSONL, appended to).

``--summary FILE...`` (no OpenSpiel needed) prints the score of the games
in the files, ``.jsonl`` or ``.jsonl.gz``, one line per setting (mode,
simulations, our budget, rollout, horizon, oracle), optionally of deals
``--first-deal`` .. ``--first-deal + --pairs - 1`` only: docs/rl.md's
figures from the kept games (results/vs-openspiel-*.jsonl.gz,
results/README.md), e.g.

    python bench/bench_vs_openspiel_ismcts.py --summary results/vs-openspiel-*.jsonl.gz
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import time
from typing import Any, Optional

from result_files import read_json_lines, refuse_compressed_out


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


#: The keys of a record that name its setting (a key a record lacks is from before it existed).
SETTING = ("mode", "os_sims", "iterations", "time", "rollout", "horizon", "oracle")


def summary(records: list[dict[str, Any]], first_deal: Optional[int] = None, pairs: Optional[int] = None) -> list[str]:
    """One line per setting of ``records``: our score over its games with a
    95% Wilson interval, and the deals played (of ``first_deal`` ..
    ``first_deal + pairs - 1`` only, when given)."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = collections.defaultdict(list)
    for r in records:
        d = r["deal"]
        if first_deal is not None and d < first_deal:
            continue
        if pairs is not None and d >= (first_deal or 0) + pairs:
            continue
        groups[tuple(r.get(k) for k in SETTING)].append(r)
    lines = []
    for key, rs in groups.items():
        score = sum(r["score"] for r in rs)
        lo, hi = wilson(score, len(rs))
        setting = " ".join(f"{k}={v}" for k, v in zip(SETTING, key) if v is not None)
        deals = sorted({r["deal"] for r in rs})
        lines.append(f"{setting}: ours {score:g}/{len(rs)} = {score / len(rs):.3f} (95% {lo:.3f}-{hi:.3f}), "
                     f"deals {deals[0]}-{deals[-1]} ({len(deals)})")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=["time", "iterations"], default="time")
    ap.add_argument("--seconds", type=float, default=0.1)
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--pairs", type=int, default=None, help="deals to play (default 50)")
    ap.add_argument("--first-deal", type=int, default=None,
                    help="deals first-deal .. first-deal+pairs-1 (to split a run; default 0)")
    ap.add_argument("--out", default=None, help="append each game to this plain JSONL file")
    ap.add_argument("--summary", nargs="+", default=None, metavar="FILE",
                    help="print the scores of the games in these files (.jsonl or .jsonl.gz) and stop")
    ap.add_argument("--rollout", choices=["random", "heuristic"], default="random",
                    help="our ismcts's rollout policy (OpenSpiel's is uniform random)")
    ap.add_argument("--horizon", choices=["default", "on", "off"], default="default",
                    help="our ismcts's rollouts end at the round's end (on) or play the game out (off)")
    ap.add_argument("--os-sims", type=int, default=0,
                    help="--mode time: OpenSpiel's simulations per move as given (e.g. from an earlier "
                         "calibration, so that processes splitting a run agree) instead of calibrated")
    a = ap.parse_args()
    if a.summary is not None:
        for f in a.summary:
            print(f)
            for line in summary(read_json_lines(f), a.first_deal, a.pairs):
                print("   ", line)
        return
    if a.pairs is None:
        a.pairs = 50
    if a.first_deal is None:
        a.first_deal = 0
    if a.out is not None:
        try:
            refuse_compressed_out(a.out)
        except ValueError as e:
            ap.error(str(e))

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from tabuleiro import agents, load_game, openspiel

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
