"""Recompute docs/rl.md's figures on the round horizon from the kept games.

    python bench/horizon_figures.py            # the arena files only (seconds)
    python bench/horizon_figures.py --rounds   # also the round statistics (self-play, about 2 minutes)

The kept games, results/horizon/*.jsonl.gz (``--dir`` reads another
directory's ``.jsonl`` or ``.jsonl.gz`` files), were made by ``tabuleiro
arena capivarias`` (then compressed, ``gzip -9n``):

    h2h_2k          --agents ismcts:iterations=2000,horizon=true ismcts:iterations=2000,horizon=false --deals 300 --seed 21
    h2h_t02         --agents ismcts:iterations=0,time=0.02,horizon=true ismcts:iterations=0,time=0.02,horizon=false --deals 200 --seed 23
    h2h_t05         the same at time=0.05, --deals 100 --seed 11
    *_vs_91         --agents AGENT ismcts:iterations=91 --deals 100 --seed 7, AGENT one of
                    ismcts:iterations=20000 (full: before the horizon was the default; horizon=false now),
                    ismcts:iterations=20000,horizon=true, mcts:iterations=20000 (full, as above),
                    mcts:iterations=20000 (horizon: the default now), ismcts:iterations=20000,rollout=heuristic (horizon)

(all with --jobs 2). Win shares and their intervals are the arena's (each
deal one sample, Student's t); paired differences are per deal over the same
deals, with a normal 95% interval.
"""

from __future__ import annotations

import argparse
import collections
import statistics
from pathlib import Path

from result_files import RESULTS, existing, read_results, summarize_file
from tabuleiro import agents, capivarias

HERE = RESULTS / "horizon"


def per_deal(path: Path) -> dict[int, float]:
    """The first-listed agent's score per deal (win 1, tie 0.5), summed over its seats."""
    out: dict[int, float] = collections.defaultdict(float)
    for g in read_results(path):
        name = g["agents"][0]
        seat = g["seats"].index(name)
        out[g["deal"]] += (g["returns"][seat] + 1) / 2
    return out


def paired(root: Path, a: str, b: str) -> str:
    pa, pb = existing(root / a), existing(root / b)
    if pa is None or pb is None:
        return f"{a} - {b}: not in {root}"
    x, y = per_deal(pa), per_deal(pb)
    d = [(x[k] - y[k]) / 2 for k in x]          # per game
    m, se = statistics.mean(d), statistics.stdev(d) / len(d) ** 0.5
    return f"{a} - {b}: {m:+.3f} ({m - 1.96 * se:+.3f} to {m + 1.96 * se:+.3f}) over {len(d)} deals"


def rounds(name: str, games: int, **params: object) -> str:
    bot = agents.make(name, seed=3, **params)
    c: collections.Counter[str] = collections.Counter()
    for k in range(games):
        s = capivarias.new_game(seed=k)
        starter = s.current_player
        while not s.is_terminal:
            w = s.to_dict()["round_wins"]
            s.push(bot.choose(s))
            w2 = s.to_dict()["round_wins"]
            if w2 != w:
                c["tie" if w2[0] > w[0] and w2[1] > w[1] else "starter" if w2[starter] > w[starter] else "other"] += 1
                starter = s.current_player
    n = sum(c.values())
    return (f"{name} {params}: {n} rounds, the starter won {c['starter'] / n:.2f}, the other {c['other'] / n:.2f}, "
            f"tied {c['tie'] / n:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", action="store_true", help="also the round statistics from fresh self-play")
    ap.add_argument("--dir", type=Path, default=HERE, help="where the games are (default: results/horizon)")
    a = ap.parse_args()
    names = sorted({f.name.removesuffix(".gz") for f in a.dir.glob("*.jsonl*")
                    if f.name.endswith((".jsonl", ".jsonl.gz"))})
    for name in names:
        f = existing(a.dir / name)
        assert f is not None
        s = summarize_file(f)
        first = next(r for r in s["standings"] if r["agent"] == s["agents"][0])
        print(f"{name}: {first['agent']} {first['win_share']:.3f} ({first['win_share_lo']:.3f}-"
              f"{first['win_share_hi']:.3f}) in {s['games']} games; ms/move "
              + ", ".join(f"{k} {v['ms_per_move']:.1f}" for k, v in s["timing"].items()))
    print(paired(a.dir, "ismcts-horizon_vs_91.jsonl", "ismcts-full_vs_91.jsonl"))
    print(paired(a.dir, "mcts-horizon_vs_91.jsonl", "mcts-full_vs_91.jsonl"))
    print(paired(a.dir, "ismcts-horizon-heuristic_vs_91.jsonl", "ismcts-horizon_vs_91.jsonl"))
    if a.rounds:
        print(rounds("greedy", 1500))
        print(rounds("random", 1500))
        print(rounds("ismcts", 150, iterations=300, horizon=False))


if __name__ == "__main__":
    main()
