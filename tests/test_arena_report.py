"""The arena's report (issue 28, "Arena report"): the plot's legends lie
off its lines, its SPRT axis counts deal pairs as the text does, its rows
leave no blank gap; the text says what its marks and infinite bounds mean
and why the Elo and win-share intervals can disagree.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from tabuleiro import arena
from tabuleiro.arena import report


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("arena") / "s.jsonl"
    return arena.run("capivarias", ["greedy", "random"], deals=200, seed=5, out=out, jobs=1,
                     sprt=arena.SPRT(elo0=0, elo1=50)), out


def test_the_plot_counts_pairs_and_keeps_legends_off_the_lines(decided: Any, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    s, _ = decided
    fig = report._figure(s)
    renderer = fig.canvas.get_renderer()
    sprt_ax = fig.axes[-1]
    assert sprt_ax.get_xlabel() == "deal pairs"                          # the text report's unit
    assert sprt_ax.get_xlim() == (0, s["sprt"]["pairs"])                  # no blank after the last pair
    assert f"after {s['sprt']['pairs']} pairs" in sprt_ax.get_title()
    x, y = sprt_ax.lines[0].get_data()
    assert list(x) == list(range(s["sprt"]["pairs"] + 1)) and list(y) == [t[1] for t in s["sprt"]["trajectory"]]
    legends = 0
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        legends += 1
        box, area = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        assert box.y1 <= area.y0, ax.get_title()                          # wholly below the panel
        assert not box.overlaps(ax.xaxis.label.get_window_extent(renderer))
    assert legends == 2
    rows = len(s["standings"])
    for ax in fig.axes[:-1]:                                              # one row per agent, no gap
        lo, hi = ax.get_ylim()
        assert hi - lo == rows
    report.plot(s, tmp_path / "p.png")
    assert (tmp_path / "p.png").stat().st_size > 5000


def test_the_text_says_what_its_marks_and_bounds_mean(decided: Any) -> None:
    s, _ = decided
    text = arena.format_summary(s)
    assert "to +inf)" in text and "to -)" not in text                      # greedy never lost a pair
    assert re.findall(r"\(\d\.\d{3}-\d\.\d{3}\)([+ -])", text) == ["+", "-"]     # greedy above, random below
    assert "(+ / -: the win share's 95% interval lies wholly above / below the fair share 0.500)" in text


def test_the_text_says_why_elo_and_win_share_intervals_disagree(decided: Any) -> None:
    """Six deal pairs, one lost and five won: the pentanomial (normal) Elo
    interval excludes 0 while the win share's (Student's t) holds 0.5."""
    s, out = decided
    records = [r for r in arena.read_results(out) if r["deal"] < 6]
    for r in records:
        a = r["seats"].index("greedy")
        won = r["deal"] > 0
        r["returns"] = [0.0, 0.0]
        r["returns"][a], r["returns"][1 - a] = (1.0, -1.0) if won else (-1.0, 1.0)
        r["scores"] = [10, 10]
        r["scores"][a] = 20 if won else 5
    small = arena.summarize(records)
    assert small["pair"]["penta"] == [1, 0, 0, 0, 5]
    assert small["pair"]["elo_lo"] > 0 and small["standings"][0]["vs_fair"] == "fair"
    text = arena.format_summary(small)
    assert "the Elo interval excludes 0 while the win share's holds 0.5" in text
    assert "6 complete deal pairs" in text and "Student's t over the 6 deals" in text
    agree = copy.deepcopy(dict(s))
    assert "Elo interval" not in arena.format_summary(agree)              # said only when they disagree
