"""Showing an arena's results: the :class:`Summary` and its text table
(:func:`format_summary`), the plot (:func:`plot`), and the live progress
bar of a run.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence, Union

from .records import stat_regular
from .stats import _Z95, SPRT

__all__ = ["Summary", "skipped_warning", "format_summary", "plot", "check_plot_path"]


class Summary(dict):  # type: ignore[type-arg]
    """An arena's summary: a JSON-safe dict; ``str()`` is the printed table."""

    def __str__(self) -> str:
        return format_summary(self)


def skipped_warning(summary: Mapping[str, Any]) -> Optional[str]:
    """The warning line for the skipped lines of a summary's file, or None."""
    bad = summary.get("skipped_lines")
    if not bad:
        return None
    shown = ", ".join(str(n) for n in bad[:10]) + (", ..." if len(bad) > 10 else "")
    return (f"warning: {len(bad)} line{'s' if len(bad) > 1 else ''} of the results file skipped "
            f"(line {shown}): not a valid game record of this run")


def _num(x: Optional[float], fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def _elo(x: Optional[float], pair: Mapping[str, Any], fmt: str, side: int = 0) -> str:
    """An Elo or a bound of its interval; a missing bound of a known score
    is infinite (the interval reaches a score of 0 or 1)."""
    if x is None and side and pair.get("score") is not None:
        return "+inf" if side > 0 else "-inf"
    return _num(x, fmt)


def _intervals_disagree(s: Mapping[str, Any]) -> Optional[str]:
    """Why, when it happens, the pair's Elo interval excludes 0 while the
    first agent's win-share interval holds the fair share 0.5 (or the other
    way round): the two are computed differently (docs/arena.md)."""
    p = s.get("pair")
    if not p or p.get("score") is None:
        return None
    row = next((r for r in s["standings"] if r["agent"] == p["agent"]), None)
    if row is None or row.get("vs_fair") is None:
        return None
    lo, hi = p["elo_lo"], p["elo_hi"]
    elo_sure = (lo is None or lo > 0) if p["score"] > 0.5 else (hi is None or hi < 0) if p["score"] < 0.5 else False
    share_sure = row["vs_fair"] != "fair"
    if elo_sure == share_sure:
        return None
    return (f"(the Elo interval {'excludes' if elo_sure else 'holds'} 0 while the win share's "
            f"{'excludes' if share_sure else 'holds'} 0.5: the Elo's is the pentanomial one, a normal interval "
            f"from the spread of the {p['pairs']} complete deal pairs, as fastchess reports it; the win share's "
            f"counts every game, with Student's t over the {s['deals']} deals, wider when deals are few)")


def format_summary(s: Mapping[str, Any]) -> str:
    """The summary as a plain-text report."""
    params = ", ".join(f"{k}={v}" for k, v in s["params"].items())
    lines = [f"{s['game']} ({params}): {s['games']} games over {s['deals']} deals, {s['players']} players"]
    if "sprt" in s:
        t = s["sprt"]
        res = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[t["result"]]
        lines.append(f"SPRT [{t['elo0']:g}, {t['elo1']:g}] ({t['model']}, alpha={t['alpha']:g}, beta={t['beta']:g}): "
                     f"LLR {t['llr']:.2f} in ({t['lower']:.2f}, {t['upper']:.2f}) after {t['pairs']} pairs: {res}"
                     + (f" ({s['extra_games']} games played after the decision not counted)"
                        if s.get("extra_games") else "")
                     + (f"; play went on (stop=no): LLR {t['final_llr']:.2f} after {t['final_pairs']} pairs"
                        if "final_llr" in t and t["result"] is not None else ""))
    if "pair" in s:
        p = s["pair"]
        lines.append(f"{p['agent']} vs {p['opponent']}: W {p['wins']} D {p['draws']} L {p['losses']}; "
                     f"pairs (0, 1/2, 1, 3/2, 2 points) {p['penta']}")
        if p["score"] is not None:
            lines.append(f"  score {p['score']:.3f}, Elo {_elo(p['elo'], p, '+.1f')} "
                         f"(95% {_elo(p['elo_lo'], p, '+.1f', -1)} to {_elo(p['elo_hi'], p, '+.1f', 1)})")
    for p in s.get("head_to_head", []):
        lines.append(f"  {p['agent']} vs {p['opponent']}: W {p['wins']} D {p['draws']} L {p['losses']}, "
                     f"Elo {_elo(p['elo'], p, '+.0f')} (95% {_elo(p['elo_lo'], p, '+.0f', -1)} to "
                     f"{_elo(p['elo_hi'], p, '+.0f', 1)})")
    w = max(len("agent"), *(len(r["agent"]) for r in s["standings"]))
    lines.append(f"{'agent':<{w}}  games  win share (95%)       fair   score  margin  rating (sigma)  ms/move  iter/move")
    for r in sorted(s["standings"], key=lambda r: -(r.get("win_share") or 0.0)):
        tm = s.get("timing", {}).get(r["agent"], {})
        ci = f"({_num(r.get('win_share_lo'), '.3f')}-{_num(r.get('win_share_hi'), '.3f')})"
        mark = {"above": "+", "below": "-", "fair": " ", None: " "}[r.get("vs_fair")]
        lines.append(f"{r['agent']:<{w}}  {r['games']:>5}  {_num(r.get('win_share'), '.3f')} {ci:<13}{mark}  "
                     f"{_num(r.get('fair_share'), '.3f')}  {_num(r.get('mean_score'), '6.2f')}  "
                     f"{_num(r.get('mean_margin'), '+6.2f')}  {_num(r.get('rating_mu'), '6.2f')} "
                     f"({_num(r.get('rating_sigma'), '.2f')})  {_num(tm.get('ms_per_move'), '7.2f')}  "
                     f"{_num(tm.get('iterations_per_move'), '9.0f')}")
    marks = {r.get("vs_fair") for r in s["standings"]}
    if marks & {"above", "below"}:
        lines.append(f"(+ / -: the win share's 95% interval lies wholly above / below the fair share "
                     f"{1.0 / s['players']:.3f})")
    why = _intervals_disagree(s)
    if why:
        lines.append(why)
    if s.get("note"):
        lines.append(s["note"])
    warn = skipped_warning(s)
    if warn:
        lines.append(warn)
    return "\n".join(lines)


def plot(summary: Mapping[str, Any], path: Union[str, os.PathLike[str]]) -> None:
    """Win shares and ratings with their intervals, and for an SPRT the LLR
    against the deal pairs counted (the text report's unit), into a PNG
    (needs matplotlib). Legends sit below the panels, off every line.
    """
    plt = _pyplot()
    fig = _figure(summary)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(str(path), dpi=100, bbox_inches="tight")
    plt.close(fig)


def _pyplot() -> Any:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'tabuleiro[arena]'") from None
    return plt


def _legends_below(fig: Any, axes: Sequence[Any]) -> None:
    """Each panel's legend under its axis label, where it covers no line
    (placed once the layout is known)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        below = ax.get_tightbbox(renderer).y0                  # the lowest of its ticks and labels
        y = ax.transAxes.inverted().transform((0.0, below))[1]
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, y - 0.02), ncol=2, fontsize="small", frameon=False)


def _figure(summary: Mapping[str, Any]) -> Any:
    """The figure :func:`plot` writes."""
    plt = _pyplot()
    rows = [r for r in summary["standings"] if r.get("win_share") is not None]
    rows.sort(key=lambda r: r["win_share"])
    has_rating = any(r.get("rating_mu") is not None for r in rows)
    panels = 1 + has_rating + ("sprt" in summary)
    # one row per agent, no more: the panel is as tall as its rows need
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 2.0 + 0.35 * len(rows)), squeeze=False)
    ax = axes[0][0]
    ys = list(range(len(rows)))
    xs = [r["win_share"] for r in rows]
    lo = [r["win_share"] - (r["win_share_lo"] if r["win_share_lo"] is not None else r["win_share"]) for r in rows]
    hi = [(r["win_share_hi"] if r["win_share_hi"] is not None else r["win_share"]) - r["win_share"] for r in rows]
    ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=4, color="tab:blue")
    ax.axvline(1.0 / summary["players"], ls="--", color="grey", label="fair share")
    ax.set_yticks(ys)
    ax.set_yticklabels([r["agent"] for r in rows])
    ax.set_ylim(-0.5, len(rows) - 0.5)
    ax.set_xlabel("win share (95% interval)")
    legends = [ax]
    title = f"{summary['game']}, {summary['players']} players: {summary['games']} games, {summary['deals']} deals"
    if "pair" in summary and summary["pair"]["elo"] is not None:
        p = summary["pair"]
        title += f"\nElo {p['elo']:+.0f} ({_elo(p['elo_lo'], p, '+.0f', -1)} to {_elo(p['elo_hi'], p, '+.0f', 1)})"
    ax.set_title(title, fontsize="medium")
    col = 1
    if has_rating:
        ax = axes[0][col]
        col += 1
        mus = [r["rating_mu"] for r in rows]
        err = [_Z95 * r["rating_sigma"] for r in rows]
        ax.errorbar(mus, ys, xerr=err, fmt="s", capsize=4, color="tab:green")
        ax.set_yticks(ys)
        ax.set_yticklabels([r["agent"] for r in rows])
        ax.set_ylim(-0.5, len(rows) - 0.5)
        ax.set_xlabel("OpenSkill Plackett-Luce mu (+- 1.96 sigma)")
        ax.set_title("ratings", fontsize="medium")
    if "sprt" in summary:
        t = summary["sprt"]
        ax = axes[0][col]
        ll = [x[1] for x in t["trajectory"]]
        pairs = list(range(len(ll)))          # the trajectory holds the LLR after each complete deal pair
        ax.plot(pairs, ll, color="tab:purple", label="LLR")
        ax.axhline(t["upper"], ls="--", color="tab:green", label=f"accept H1 ({t['upper']:.2f})")
        ax.axhline(t["lower"], ls="--", color="tab:red", label=f"accept H0 ({t['lower']:.2f})")
        ax.set_xlim(0, max(1, pairs[-1]))
        span = max(t["upper"], *ll) - min(t["lower"], *ll)
        ax.set_ylim(min(t["lower"], *ll) - 0.08 * span, max(t["upper"], *ll) + 0.08 * span)
        ax.set_xlabel("deal pairs")
        ax.set_ylabel("LLR")
        ax.set_title(f"SPRT [{t['elo0']:g}, {t['elo1']:g}] {t['model']}: {t['result'] or 'undecided'} "
                     f"after {t['pairs']} pairs", fontsize="medium")
        legends.append(ax)
    fig.tight_layout()
    _legends_below(fig, legends)
    return fig


def check_plot_path(path: Union[str, os.PathLike[str]]) -> None:
    """Refuse, before any game, a plot path that cannot take the PNG: not a
    regular file, under a file, unwritable, or of a format matplotlib cannot
    write (matplotlib itself is needed). Missing directories are created
    when the plot is written.

    :raises ValueError: naming the path and the problem; ImportError
        without matplotlib.
    """
    p = os.fspath(path)
    what = f"plot file {p!r}"
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'tabuleiro[arena]'") from None
    suffix = os.path.splitext(p)[1].lower().lstrip(".")
    kinds = FigureCanvasBase.get_supported_filetypes()
    if suffix and suffix not in kinds:
        raise ValueError(f"{what}: matplotlib cannot write .{suffix} files (it writes {', '.join(sorted(kinds))})")
    st = stat_regular(p, what, ValueError)
    if st is not None:
        probe = (os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK, False)
    else:
        ancestor = Path(os.path.abspath(p)).parent
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            raise ValueError(f"{what} is under a file, not in a directory")
        if ancestor != Path(os.path.abspath(p)).parent:
            if not os.access(ancestor, os.W_OK | os.X_OK):
                raise ValueError(f"{what} cannot be written: its directory {str(ancestor)!r} is not writable")
            return
        probe = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NONBLOCK, True)
    try:
        os.close(os.open(p, probe[0], 0o666))
    except OSError as e:
        raise ValueError(f"{what} cannot be written: {e.strerror or e}") from None
    if probe[1]:
        os.unlink(p)


class _Progress:
    """A rich progress bar (games, rate, ETA, standings or LLR), or nothing."""

    def __init__(self, enabled: bool, total: int, done: int) -> None:
        self.bar: Any = None
        self.t0 = time.perf_counter()
        self.start_done = done
        if not enabled:
            return
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        except ImportError:
            return
        console = Console(stderr=True)
        if not console.is_terminal:
            return
        self.bar = Progress(TextColumn("[bold]arena"), BarColumn(bar_width=24), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]}"), TextColumn("ETA"), TimeRemainingColumn(),
                            TextColumn("{task.fields[status]}"), console=console, refresh_per_second=4)
        self.task = self.bar.add_task("games", total=total, completed=done, rate="", status="")
        self.bar.start()

    def update(self, done: int, status: str) -> None:
        if self.bar is None:
            return
        dt = time.perf_counter() - self.t0
        rate = (done - self.start_done) / dt if dt > 0 else 0.0
        self.bar.update(self.task, completed=done, rate=f"{rate:,.1f} games/s", status=status)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


class _Standings:
    """Running win shares for the progress bar (cheap, incremental)."""

    def __init__(self, labels: Sequence[str]) -> None:
        self.share = {lab: [0.0, 0] for lab in labels}

    def add(self, r: Mapping[str, Any]) -> None:
        ret = r["returns"]
        top = max(ret)
        nw = sum(1 for x in ret if x == top)
        for p, lab in enumerate(r["seats"]):
            v = self.share[lab]
            v[0] += (1.0 / nw) if ret[p] == top else 0.0
            v[1] += 1

    def text(self, sprt_state: Optional[tuple[float, SPRT]]) -> str:
        if sprt_state is not None:
            llr, s = sprt_state
            return f"LLR {llr:+.2f} ({s.lower:.2f}, {s.upper:.2f})"
        best = sorted(((v[0] / v[1] if v[1] else 0.0, lab) for lab, v in self.share.items()), reverse=True)[:3]
        return "win share: " + "  ".join(f"{lab} {x:.2f}" for x, lab in best)
