"""Recompute docs/rl.md's figures against the stand-in for OpenSpiel's bot
(``ismcts:iterations=91,horizon=false``) from the kept games.

    python bench/proxy_figures.py                 # results/proxy/*.jsonl.gz
    python bench/proxy_figures.py --dir DIR       # another directory's .jsonl or .jsonl.gz files

For each file: the first-listed agent's score (win 1, tie 0.5) with the
arena's 95% interval (each deal one sample, Student's t), and for the
experiments on the same 300 deals (``--seed 21``) the paired difference from
plain ``ismcts:iterations=20000`` per deal, with a normal 95% interval.
PIMC's files (records of ``bench/pimc_experiment.py``, an experiment not
kept: docs/rl.md says how to run it from history) are paired with each other.
The commands that made each file are in results/README.md.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
from pathlib import Path
from typing import Optional, Sequence

from result_files import RESULTS, existing, read_json_lines, read_results, summarize_file

HERE = RESULTS / "proxy"
#: The baseline of the paired differences, and the experiments paired with it.
BASE = "ismcts20000-vs-ismcts91.jsonl"
PAIRED = ["ismcts20000-lastturn-vs-ismcts91.jsonl", "ismcts20000-starters-vs-ismcts91.jsonl",
          "ismcts20000-lastturn-starters-vs-ismcts91.jsonl", "ismcts20000-mast0.2-vs-ismcts91.jsonl",
          "ismcts20000-mast1.0-vs-ismcts91.jsonl", "ismcts20000-mast0.2-lastturn-vs-ismcts91.jsonl",
          "ismcts20000-vnet128-vs-ismcts91.jsonl", "ismcts20000-vnet128mix0.5-vs-ismcts91.jsonl",
          "ismcts20000-keyset-vs-ismcts91.jsonl", "ismcts20000-c0.9-vs-ismcts91.jsonl",
          "ismcts20000-c2.0-vs-ismcts91.jsonl", "ismcts2000-vs-ismcts91.jsonl",
          "ismcts100000-vs-ismcts91.jsonl"]
#: PIMC's games and ismcts's on the same deals (not arena files).
PIMC = ("pimc20x1500-vs-ismcts91.jsonl", "ismcts30000-pimcdeals-vs-ismcts91.jsonl")


def _score(ret: float) -> float:
    return 1.0 if ret > 0 else 0.5 if ret == 0 else 0.0


def per_deal(path: Path) -> dict[int, float]:
    """The first-listed agent's mean score per deal over its games of the deal
    (an arena file), or the recorded score per deal (a PIMC file)."""
    games: dict[int, list[float]] = collections.defaultdict(list)
    if path.name.removesuffix(".gz") in PIMC:
        for r in read_json_lines(path):
            games[r["deal"]].append(r["score"])
    else:
        for g in read_results(path):
            seat = g["seats"].index(g["agents"][0])
            games[g["deal"]].append(_score(g["returns"][seat]))
    return {d: sum(v) / len(v) for d, v in games.items()}


def paired(new: Path, base: Path) -> str:
    """The mean per-deal difference ``new - base`` over the deals both played."""
    x, y = per_deal(new), per_deal(base)
    common = sorted(set(x) & set(y))
    d = [x[k] - y[k] for k in common]
    m, se = statistics.mean(d), statistics.stdev(d) / len(d) ** 0.5
    return f"{m:+.3f} ({m - 1.96 * se:+.3f} to {m + 1.96 * se:+.3f}) over {len(d)} deals"


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=HERE, help="where the games are (default: results/proxy)")
    a = ap.parse_args(argv)
    names = sorted({f.name.removesuffix(".gz") for f in a.dir.glob("*.jsonl*")
                    if f.name.endswith((".jsonl", ".jsonl.gz"))})
    base = existing(a.dir / BASE)
    for name in names:
        f = existing(a.dir / name)
        assert f is not None
        if name in PIMC:
            scores = per_deal(f)
            print(f"{name}: {statistics.mean(scores.values()):.3f} over {len(scores)} deals")
            continue
        s = summarize_file(f)
        first = next(r for r in s["standings"] if r["agent"] == s["agents"][0])
        line = (f"{name}: {first['agent']} {first['win_share']:.3f} ({first['win_share_lo']:.3f}-"
                f"{first['win_share_hi']:.3f}) in {s['games']} games")
        if base is not None and name in PAIRED:
            line += f"; minus {BASE}: {paired(f, base)}"
        print(line)
    a_, b_ = (existing(a.dir / n) for n in PIMC)
    if a_ is not None and b_ is not None:
        print(f"{PIMC[0]} - {PIMC[1]}: {paired(a_, b_)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
