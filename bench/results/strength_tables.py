"""Print docs/strength.md's tables from the results files in this directory.

    python bench/results/strength_tables.py

Each table is ``arena.summarize_file`` of one ``strength-*.jsonl`` (made by
the commands in docs/strength.md), so the published figures are recomputed
from the kept games alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabuleiro import arena

HERE = Path(__file__).resolve().parent
FILES = ["strength-capivarias.jsonl"] + [f"strength-capulana-{n}p.jsonl" for n in (2, 3, 4, 5)]


def _f(x: Any, fmt: str) -> str:
    return "–" if x is None else format(x, fmt)


def table(path: Path) -> str:
    s = arena.summarize_file(path)
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


def main() -> None:
    for name in FILES:
        p = HERE / name
        if p.exists() and p.stat().st_size:
            print(table(p))
            print()


if __name__ == "__main__":
    main()
