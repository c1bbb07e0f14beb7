"""Print docs/strength.md's tables from the kept games.

    python bench/strength_tables.py                 # results/strength-*.jsonl.gz
    python bench/strength_tables.py --dir runs      # a new run's plain strength-*.jsonl

Each table is the arena's summary (``arena.summarize_file``) of one
``strength-*.jsonl.gz`` under results/ (made by the commands in
docs/strength.md, then compressed), so the published figures are recomputed
from the kept games alone. In a directory holding both a plain ``.jsonl``
and its ``.jsonl.gz``, the plain file (a run in progress) is read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

from result_files import RESULTS, existing, summarize_file

FILES = ["strength-capivarias.jsonl"] + [f"strength-capulana-{n}p.jsonl" for n in (2, 3, 4, 5)]


def _f(x: Any, fmt: str) -> str:
    return "–" if x is None else format(x, fmt)


def table(path: Path) -> str:
    s = summarize_file(path)
    params = ", ".join(f"{k}={v}" for k, v in s["params"].items())
    out = [f"### {s['game']} ({params})", "",
           f"{s['games']} games, {s['deals']} deals, fair share {1 / s['players']:.3f}.", "",
           "| agent | games | win share (95%) | mean score | mean margin | OpenSkill mu (sigma) | ms/move |",
           "|---|---:|---|---:|---:|---|---:|"]
    for r in sorted(s["standings"], key=lambda r: -r["win_share"]):
        t = s["timing"][r["agent"]]
        mark = {"above": " ▲", "below": " ▼"}.get(r["vs_fair"] or "", "")
        out.append(f"| `{r['agent']}` | {r['games']} | {r['win_share']:.3f} "
                   f"({_f(r['win_share_lo'], '.3f')}–{_f(r['win_share_hi'], '.3f')}){mark} | "
                   f"{r['mean_score']:.1f} | {r['mean_margin']:+.1f} | "
                   f"{_f(r['rating_mu'], '.1f')} ({_f(r['rating_sigma'], '.1f')}) | "
                   f"{_f(t['ms_per_move'], '.1f')} |")
    if "head_to_head" in s:
        order = [r["agent"] for r in sorted(s["standings"], key=lambda r: -r["win_share"])]
        score = {}
        for h in s["head_to_head"]:
            if h["score"] is not None:
                score[h["agent"], h["opponent"]] = h["score"]
                score[h["opponent"], h["agent"]] = 1 - h["score"]
        short = [a.replace(":iterations=", " ").replace("000 ", "k ") for a in order]
        short = [a[:-3] + "k" if a.endswith("000") else a for a in short]
        out += ["", "Head to head: the row agent's score against the column agent "
                    f"({s['head_to_head'][0]['pairs']} deal pairs each).", "",
                "| | " + " | ".join(short) + " |", "|---|" + "---:|" * len(order)]
        for a, sa in zip(order, short):
            cells = ["" if a == b else _f(score.get((a, b)), ".2f") for b in order]
            out.append(f"| {sa} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=RESULTS,
                    help="where the strength-*.jsonl[.gz] files are (default: results/)")
    a = ap.parse_args(argv)
    for name in FILES:
        p = existing(a.dir / name)
        if p is not None and p.stat().st_size:
            print(table(p))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
