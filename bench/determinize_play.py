"""The effect on play of Capulana's determinization (issue 13).

``ismcts`` with the new determinization (others' weaving of the current step
drawn uniformly) against the same agent with the old one
(``legacy_determinize=True``: that weaving undone). Paired deals: every deal
(a seed) is played once per seat of the odd agent out, in two line-ups --
one new agent among old ones, and one old agent among new ones -- so the luck
of the deal and of the seat cancels out. The only difference between the
agents is the game table their search runs in (its ``determinize``); both
take the same decisions from the same information.

Reported per player count, each with a 95% interval over deals (t):
* ``share``: the odd agent's mean R11 win share (ties split) minus the fair
  share 1/n (new among old: > 0 means the new determinization plays better);
* ``margin``: the odd agent's final score minus the mean of the others.

Run (about 20 minutes on two busy cores):
    python bench/determinize_play.py --players 3 4 --iterations 300 --minutes 20 --jobs 2 \\
        --out runs/determinize_play.jsonl
Results go to a plain JSON-lines file (``--out``, default
``runs/determinize_play.jsonl``), one game per line; a re-run resumes from
it. ``--summary`` only prints the summary of the file, which may also be a
compressed one: the games behind docs/engine-notes.md's table are kept as
results/determinize_play.jsonl.gz (results/README.md),

    python bench/determinize_play.py --summary --out results/determinize_play.jsonl.gz
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path
from typing import Any

from result_files import read_json_lines, refuse_compressed_out
from tabuleiro import agents, load_game

MASK = (1 << 64) - 1


def mix(*xs: int) -> int:
    h = 0x243F6A8885A308D3
    for x in xs:
        z = (h + x * 0x9E3779B97F4A7C15) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        h = z ^ (z >> 31)
    return h


def play(task: tuple[int, int, int, str, int, int]) -> dict[str, Any]:
    """One game: `players`, deal, the odd seat, the line-up ('new' = one new agent
    among old ones, 'old' = one old among new), iterations, base seed."""
    players, deal, odd, lineup, iterations, seed = task
    games = {False: load_game("capulana", players=players),
             True: load_game("capulana", players=players, legacy_determinize=True)}
    legacy = [(q == odd) == (lineup == "old") for q in range(players)]
    seats = [agents.make("ismcts", iterations=iterations, seed=mix(seed, deal, q) >> 1) for q in range(players)]
    s = games[False].new_initial_state(seed=mix(seed, deal))
    t0 = time.perf_counter()
    while not s.is_terminal:
        p = s.current_player
        world = games[legacy[p]].from_dict(s.to_dict()) if legacy[p] else s
        s.apply(seats[p].choose(world).action)
    returns, scores = s.returns(), s.scores()
    return {"players": players, "deal": deal, "odd": odd, "lineup": lineup, "iterations": iterations,
            "seed": seed, "returns": list(returns), "scores": list(scores),
            "seconds": round(time.perf_counter() - t0, 3)}


def ci(xs: list[float]) -> tuple[float, float, int]:
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else float("nan")), float("nan"), n
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    t = 1.96 if n > 60 else {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 8: 2.36, 10: 2.26, 15: 2.14, 20: 2.09,
                             30: 2.05, 60: 2.0}[min(k for k in (2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 60) if k >= n)]
    return m, t * math.sqrt(var / n), n


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for players in sorted({r["players"] for r in records}):
        per_deal: dict[str, dict[int, tuple[float, float]]] = {}
        for lineup in ("new", "old"):
            by_deal: dict[int, list[dict[str, Any]]] = {}
            for r in records:
                if r["players"] == players and r["lineup"] == lineup:
                    by_deal.setdefault(r["deal"], []).append(r)
            full = {d: rs for d, rs in by_deal.items() if len(rs) == players}   # every seat of the deal played
            share, margin = [], []
            for rs in full.values():
                share.append(sum(r["returns"][r["odd"]] for r in rs) / players - 1 / players)
                margin.append(sum(r["scores"][r["odd"]] - (sum(r["scores"]) - r["scores"][r["odd"]]) / (players - 1)
                                  for r in rs) / players)
            per_deal[lineup] = {d: (sh, mg) for d, sh, mg in zip(full, share, margin)}
            if not full:
                continue
            ms, hs, n = ci(share)
            mm, hm, _ = ci(margin)
            out[f"{players}p odd={lineup}"] = {"deals": n, "games": n * players,
                                               "share_minus_fair": [round(ms, 4), round(hs, 4)],
                                               "margin": [round(mm, 3), round(hm, 3)]}
        # paired over deals played in both line-ups: (new as the odd one) minus (old as the odd one)
        both = sorted(set(per_deal.get("new", {})) & set(per_deal.get("old", {})))
        if both:
            ms, hs, n = ci([per_deal["new"][d][0] - per_deal["old"][d][0] for d in both])
            mm, hm, _ = ci([per_deal["new"][d][1] - per_deal["old"][d][1] for d in both])
            out[f"{players}p new-minus-old"] = {"deals": n, "share": [round(ms, 4), round(hs, 4)],
                                                "margin": [round(mm, 3), round(hm, 3)]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--deals", type=int, default=10_000, help="at most this many deals per player count")
    ap.add_argument("--minutes", type=float, default=20.0, help="stop starting games after this long")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", default="runs/determinize_play.jsonl",
                    help="the games, plain JSONL (appended to; a .jsonl.gz only with --summary)")
    ap.add_argument("--summary", action="store_true", help="only summarize --out")
    a = ap.parse_args()
    out = Path(a.out)
    if a.summary:
        print(json.dumps(summarize(read_json_lines(out)), indent=1))
        return
    try:
        refuse_compressed_out(out)
    except ValueError as e:
        ap.error(str(e))
    out.parent.mkdir(parents=True, exist_ok=True)
    done = read_json_lines(out) if out.exists() else []
    have = {(r["players"], r["deal"], r["odd"], r["lineup"], r["iterations"], r["seed"]) for r in done}
    # deal-major order, so a run cut by the time budget leaves whole deals for each player count
    tasks = [(n, d, q, lineup, a.iterations, a.seed)
             for d in range(a.deals) for n in a.players for lineup in ("new", "old") for q in range(n)]
    tasks = [t for t in tasks if t not in have]
    t_end = time.time() + 60 * a.minutes
    with mp.get_context("fork").Pool(a.jobs) as pool, out.open("a") as f:
        it = pool.imap(play, tasks, chunksize=1)
        for k, rec in enumerate(it):
            f.write(json.dumps(rec) + "\n")
            f.flush()
            done.append(rec)
            if k % 20 == 0:
                print(f"{len(done)} games, {time.strftime('%H:%M:%S')}", file=sys.stderr, flush=True)
            if time.time() > t_end:
                pool.terminate()
                break
    print(json.dumps(summarize(done), indent=1))


if __name__ == "__main__":
    main()
