"""Tuning an agent's parameters by SPSA (``tabuleiro tune``), as fishtest
and OpenBench tune chess engines.

SPSA (simultaneous perturbation stochastic approximation, Spall 1992) moves
every parameter at once. Parameters are scaled to [0, 1] over their range
(``lo..hi``). At step ``k`` (1-based) of ``N``, with ``Δ`` a random vector
of ±1 (seeded by the step):

* perturbation ``c_k = c / k^γ`` with ``c = c_end · N^γ``, so ``c_N = c_end``;
* learning rate ``a_k = a / (A + k)^α`` with ``a = r_end · c_end² · (A + N)^α``,
  so ``a_N / c_N² = r_end`` (fishtest's ``r_end``);
* ``θ+ = θ + c_k Δ`` and ``θ- = θ - c_k Δ`` (clipped to the range) play
  paired games: against ``--against``, each plays the same deals in both
  seatings; without it, ``θ+`` plays ``θ-`` on a deal in both seatings;
  with more than two players (Capulana), ``θ+`` and ``θ-`` take alternate
  seats and then the other ones, or, against ``--against``, each plays a
  deal in every seat with ``--against`` in the rest;
* the result ``r`` is ``θ+``'s points minus ``θ-``'s (a win 1, a draw ½;
  with more than two players, the win shares of a side's seats, scaled to
  the same [-2, 2] a deal), and
  ``θ ← θ + (a_k / c_k) · r · Δ``, clipped to the range.

Defaults (the schedules of Spall's guidelines, as fishtest's): ``α = 0.602``,
``γ = 0.101``, ``A = N / 10``, ``c_end = 0.1`` of each range and
``r_end = 0.05`` (in range-scaled units: a step moves θ by at most
``2 · r_end · c_end`` = 1% of a range at the end). The tuned values are the mean of θ
over the last fifth of the steps (Polyak-Ruppert averaging).

Every step's games are seeded from the run's seed and the step, so a run
resumes from its JSONL file (one header line, then one line per step) and
ends where an uninterrupted run would, with deterministic agents.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from .._game import Game, load_game
from .engines import Engine
from .scheduling import _MASK, _mix, deal_seed
from .specs import AgentEntry, parse_agent
from .stats import _pair_points
from .worker import _Config, _Worker

__all__ = ["TuneParam", "SPSA", "spsa", "tune", "parse_param", "add_parser", "main"]

TUNE_MARK = "tabuleiro tune"
_PARAM_RE = re.compile(r"^([A-Za-z_]\w*)=([-+0-9.eE]+)\.\.([-+0-9.eE]+)(?:@([-+0-9.eE]+))?$")


@dataclass(frozen=True)
class TuneParam:
    """A tuned parameter: its name, its range and where it starts (default the middle).

    >>> parse_param("c=0.3..3.0")
    TuneParam(name='c', lo=0.3, hi=3.0, start=1.65)
    """

    name: str
    lo: float
    hi: float
    start: float

    def scale(self, x: float) -> float:
        """``x`` in [0, 1] over the range.

        >>> TuneParam("p", 0.0, 2.0, 1.0).scale(0.5)
        0.25
        """
        return (x - self.lo) / (self.hi - self.lo)

    def unscale(self, u: float) -> float:
        """The value at ``u`` in [0, 1] (clipped to the range).

        >>> TuneParam("p", 0.0, 2.0, 1.0).unscale(1.5)
        2.0
        """
        return self.lo + min(1.0, max(0.0, u)) * (self.hi - self.lo)


def parse_param(text: str) -> TuneParam:
    """``NAME=LO..HI`` or ``NAME=LO..HI@START`` (``--param``).

    :raises ValueError: naming the bad text.

    >>> parse_param("p=0..2@0.5").start
    0.5
    >>> parse_param("p=2..0")
    Traceback (most recent call last):
    ...
    ValueError: --param 'p=2..0': the range 2.0..0.0 is empty (LO must be below HI)
    """
    m = _PARAM_RE.match(text.strip())
    if not m:
        raise ValueError(f"--param {text!r}: not NAME=LO..HI or NAME=LO..HI@START")
    try:
        lo, hi = float(m.group(2)), float(m.group(3))
        start = float(m.group(4)) if m.group(4) else (lo + hi) / 2
    except ValueError:
        raise ValueError(f"--param {text!r}: LO, HI and START must be numbers") from None
    if not all(math.isfinite(x) for x in (lo, hi, start)):
        raise ValueError(f"--param {text!r}: LO, HI and START must be finite")
    if not lo < hi:
        raise ValueError(f"--param {text!r}: the range {lo}..{hi} is empty (LO must be below HI)")
    if not lo <= start <= hi:
        raise ValueError(f"--param {text!r}: START {start} is outside {lo}..{hi}")
    return TuneParam(m.group(1), lo, hi, start)


@dataclass(frozen=True)
class SPSA:
    """SPSA's schedules (see the module docstring): ``c_end`` (the last
    perturbation, a fraction of each range), ``r_end`` (the last
    ``a_k / c_k²``), ``A`` (default a tenth of the steps), ``alpha``, ``gamma``.

    >>> s = SPSA()
    >>> round(s.c_k(100, 100), 4), round(s.a_k(100, 100) / s.c_k(100, 100) ** 2, 4)
    (0.1, 0.05)
    """

    c_end: float = 0.1
    r_end: float = 0.05
    A: Optional[float] = None
    alpha: float = 0.602
    gamma: float = 0.101

    def _A(self, steps: int) -> float:
        return self.A if self.A is not None else steps / 10

    def c_k(self, k: int, steps: int) -> float:
        """The perturbation at step ``k`` (1-based) of ``steps``."""
        return float(self.c_end * (steps ** self.gamma) / (k ** self.gamma))

    def a_k(self, k: int, steps: int) -> float:
        """The learning rate at step ``k`` (1-based) of ``steps``."""
        A = self._A(steps)
        a = self.r_end * self.c_end ** 2 * (A + steps) ** self.alpha
        return float(a / (A + k) ** self.alpha)


def _delta(seed: int, k: int, n: int) -> list[int]:
    """Step ``k``'s ±1 perturbation directions (seeded by the run and the step)."""
    x = _mix(_mix(seed, 0x5B5A), k)
    out = []
    for i in range(n):
        out.append(1 if (_mix(x, i) >> 63) & 1 else -1)
    return out


Objective = Callable[[Mapping[str, float], Mapping[str, float], int], float]


def spsa(objective: Objective, params: Sequence[TuneParam], steps: int, *, seed: int = 0,
         schedule: SPSA = SPSA(), history: Sequence[Mapping[str, Any]] = (),
         on_step: Optional[Callable[[dict[str, Any]], None]] = None) -> dict[str, float]:
    """Run SPSA for ``steps`` steps and return the tuned values.

    ``objective(plus, minus, k)`` plays step ``k`` between the parameter
    values ``plus`` and ``minus`` and returns ``plus``'s result minus
    ``minus``'s (positive when ``plus`` did better). ``history``: the steps
    already done (the lines of a results file), resumed from; ``on_step``
    is called with each new step's line.

    >>> import random
    >>> def noisy(plus, minus, k):    # the best x is 0.7
    ...     rng = random.Random(k)
    ...     f = lambda v: -(v["x"] - 0.7) ** 2
    ...     return (f(plus) - f(minus)) * 20 + rng.gauss(0, 0.5)
    >>> out = spsa(noisy, [TuneParam("x", 0.0, 1.0, 0.2)], 400, seed=1)
    >>> abs(out["x"] - 0.7) < 0.07
    True
    """
    theta = [p.scale(p.start) for p in params]
    done = 0
    path: list[list[float]] = []
    for line in history:
        theta = [p.scale(float(line["theta"][p.name])) for p in params]
        done = int(line["step"])
        path.append(theta)
    for k in range(done + 1, steps + 1):
        ck, ak = schedule.c_k(k, steps), schedule.a_k(k, steps)
        d = _delta(seed, k, len(params))
        plus = {p.name: p.unscale(t + ck * di) for p, t, di in zip(params, theta, d)}
        minus = {p.name: p.unscale(t - ck * di) for p, t, di in zip(params, theta, d)}
        r = float(objective(plus, minus, k))
        theta = [min(1.0, max(0.0, t + ak / ck * r * di)) for t, di in zip(theta, d)]
        line = {"step": k, "result": r, "c_k": ck, "a_k": ak, "delta": d, "plus": plus, "minus": minus,
                "theta": {p.name: p.unscale(t) for p, t in zip(params, theta)}}
        path.append(theta)
        if on_step is not None:
            on_step(line)
    return averaged(params, path)


def averaged(params: Sequence[TuneParam], path: Sequence[Sequence[float]]) -> dict[str, float]:
    """The tuned values: the mean of θ over the last fifth of the steps
    (Polyak-Ruppert averaging: the last θ alone still carries the noise of
    the last few steps).

    >>> averaged([TuneParam("x", 0.0, 10.0, 5.0)], [[0.1], [0.2], [0.3], [0.4], [0.5]])
    {'x': 5.0}
    """
    if not path:
        return {p.name: p.start for p in params}
    tail = path[len(path) - max(1, len(path) // 5):]
    return {p.name: p.unscale(sum(t[i] for t in tail) / len(tail)) for i, p in enumerate(params)}


# --- playing the games of a step ------------------------------------------------------------

def _fill(template: str, values: Mapping[str, float]) -> str:
    def sub(m: re.Match[str]) -> str:
        return repr(round(values[m.group(1)], 6))
    return re.sub(r"\{(\w+)\}", sub, template)


def _entry(template: str, values: Mapping[str, float], engines: Mapping[str, Engine], label: str) -> AgentEntry:
    """The agent of a template with the values filled in: a spec string, or
    an ``engine:NAME`` whose options hold ``{name}`` placeholders."""
    if template.strip().startswith("engine:"):
        name = template.strip()[len("engine:"):]
        eng = engines.get(name)
        if eng is None:
            raise ValueError(f"--agent {template!r}: no engine named {name!r}")
        opts = {k: (_loose_num(_fill(v, values)) if isinstance(v, str) else v) for k, v in eng.options.items()}
        return AgentEntry(label, engine=dataclasses.replace(eng, options=opts))
    return dataclasses.replace(parse_agent(_fill(template, values), engines), label=label)


def _loose_num(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _check_template(template: str, params: Sequence[TuneParam], engines: Mapping[str, Engine]) -> None:
    names = set(re.findall(r"\{(\w+)\}", template))
    if template.strip().startswith("engine:"):
        eng = engines.get(template.strip()[len("engine:"):])
        if eng is None:
            raise ValueError(f"--agent {template!r}: no engine named {template.strip()[7:]!r} (--engine NAME=CMD)")
        for v in eng.options.values():
            if isinstance(v, str):
                names |= set(re.findall(r"\{(\w+)\}", v))
    given = {p.name for p in params}
    if names != given:
        missing, extra = sorted(given - names), sorted(names - given)
        raise ValueError(f"--agent {template!r}: its placeholders {sorted(names)} and the --param names "
                         f"{sorted(given)} differ" + (f" (no placeholder for {missing})" if missing else "")
                         + (f" (no --param for {extra})" if extra else ""))
    _entry(template, {p.name: p.start for p in params}, engines, "check")      # a bad spec fails here


def _lineups(players: int, against: bool) -> list[tuple[int, ...]]:
    """The seatings of one deal of an SPSA step: 0 is θ+, 1 is θ-, 2 the
    fixed opponent. θ+ against θ-: both seatings (more than two players:
    alternate seats, then the others); against the opponent: each of θ+
    and θ- in every seat, the opponent in the rest.

    >>> _lineups(2, False), _lineups(2, True)
    ([(0, 1), (1, 0)], [(0, 2), (2, 0), (1, 2), (2, 1)])
    >>> _lineups(3, False)
    [(0, 1, 0), (1, 0, 1)]
    >>> _lineups(3, True)
    [(0, 2, 2), (2, 0, 2), (2, 2, 0), (1, 2, 2), (2, 1, 2), (2, 2, 1)]
    """
    if not against:
        return [tuple(i % 2 for i in range(players)), tuple(1 - i % 2 for i in range(players))]
    return [tuple(side if i == seat else 2 for i in range(players)) for side in (0, 1) for seat in range(players)]


class _GameObjective:
    """Plays one SPSA step's games, each deal in every seating of
    :func:`_lineups`, and returns θ+'s points less θ-'s: with two players a
    game's pair points (a win 1, a draw ½), with more its seats' win shares
    (the game's returns), scaled so that a deal's result lies in [-2, 2]
    as with two."""

    def __init__(self, game: Game, template: str, against: Optional[str], engines: Mapping[str, Engine],
                 seed: int, pairs: int, tc: Any, margin: float, log_dir: Optional[str]) -> None:
        self.game, self.template, self.engines = game, template, engines
        self.against = None if against is None else dataclasses.replace(parse_agent(against, engines),
                                                                         label="against")
        self.seed, self.pairs, self.tc, self.margin, self.log_dir = seed, pairs, tc, margin, log_dir
        self.games = 0
        self.terms: dict[str, int] = {}

    def __call__(self, plus: Mapping[str, float], minus: Mapping[str, float], k: int) -> float:
        ents = [_entry(self.template, plus, self.engines, "plus"), _entry(self.template, minus, self.engines, "minus")]
        if self.against is not None:
            ents.append(self.against)
        cfg = _Config(self.game.name, self.game.params, tuple(ents), self.seed, tc=self.tc, margin=self.margin,
                      log_dir=self.log_dir)
        w = _Worker(cfg)
        n = self.game.num_players
        lineups = _lineups(n, self.against is not None)
        scale = 2.0 / n if self.against is not None else 1.0      # more than two players: [-2, 2] a deal
        try:
            pts = [0.0, 0.0]
            for j in range(self.pairs):
                deal = (k - 1) * self.pairs + j
                ds = deal_seed(self.seed, deal)
                for lineup in lineups:
                    rec = w.play((deal, ds, lineup))
                    self.games += 1
                    t = rec.get("termination", "normal")
                    self.terms[t] = self.terms.get(t, 0) + 1
                    ret = rec["returns"]
                    for seat, who in enumerate(lineup):
                        if who < 2:
                            pts[who] += _pair_points(ret[seat], ret[1 - seat]) if n == 2 else scale * ret[seat]
            return pts[0] - pts[1]
        finally:
            w.close()


def _header(game: Game, template: str, params: Sequence[TuneParam], against: Optional[str], seed: int,
            steps: int, pairs: int, schedule: SPSA) -> dict[str, Any]:
    return {"v": 1, "run": TUNE_MARK, "game": game.name, "params": game.params, "agent": template,
            "tune": [dataclasses.asdict(p) for p in params], "against": against, "seed": seed, "steps": steps,
            "pairs": pairs, "spsa": dataclasses.asdict(schedule)}


def _read_history(path: str, header: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The steps of a tune file of the same run (a torn last line is dropped).

    :raises ValueError: for a file of another run, naming what differs.
    """
    lines: list[dict[str, Any]] = []
    with open(path, "rb") as f:
        raw = f.read().splitlines()
    if not raw:
        return []
    try:
        head = json.loads(raw[0])
    except ValueError:
        raise ValueError(f"{path!r} is not a tune results file (its first line is not a tune header)") from None
    if not isinstance(head, dict) or head.get("run") != TUNE_MARK:
        raise ValueError(f"{path!r} is not a tune results file (its first line is not a tune header)")
    differ = [k for k in header if head.get(k) != json.loads(json.dumps(header[k]))]
    if differ:
        raise ValueError(f"{path!r} holds another tuning run ({', '.join(differ)} differ): give a new --out")
    for i, b in enumerate(raw[1:], 2):
        try:
            line = json.loads(b)
        except ValueError:
            if i == len(raw):
                break                       # torn by a crash: played again
            raise ValueError(f"{path!r}: line {i} is not JSON") from None
        if line.get("step") != len(lines) + 1:
            raise ValueError(f"{path!r}: line {i} is not step {len(lines) + 1}")
        lines.append(line)
    return lines


def plot_tune(lines: Sequence[Mapping[str, Any]], params: Sequence[TuneParam], path: Union[str, os.PathLike[str]],
              title: str = "") -> None:
    """Each parameter's path over the steps, one panel each (matplotlib), saved to ``path``.

    Example: ``plot_tune(steps, [parse_param("c=0.3..3")], "tune.png")``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(params), 1, figsize=(7, 2.4 * len(params) + 0.6), squeeze=False, sharex=True)
    ks = [ln["step"] for ln in lines]
    scaled = [[p.scale(float(ln["theta"][p.name])) for p in params] for ln in lines]
    tuned = averaged(params, scaled)
    for ax, p in zip(axes[:, 0], params):
        th = [ln["theta"][p.name] for ln in lines]
        half = [ln["c_k"] * (p.hi - p.lo) for ln in lines]
        ax.fill_between(ks, [max(p.lo, t - h) for t, h in zip(th, half)],
                        [min(p.hi, t + h) for t, h in zip(th, half)], color="C0", alpha=0.15, lw=0,
                        label="θ ± c_k (the perturbed values)")
        ax.plot(ks, th, lw=1.2, color="C0", label=f"{p.name}: θ after each step")
        ax.axhline(tuned[p.name], color="C3", ls="--", lw=1,
                   label=f"tuned {tuned[p.name]:.3g} (mean of the last fifth)")
        ax.axhline(p.start, color="0.4", ls=":", lw=1, label=f"start {p.start:g}")
        ax.set_ylim(p.lo, p.hi)
        ax.set_ylabel(p.name)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper right", fontsize=7)
    axes[-1, 0].set_xlabel("SPSA step")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def tune(game: Union[str, Game], agent: str, params: Sequence[Union[str, TuneParam]], *, games: int,
         against: Optional[str] = None, seed: int = 0, pairs: int = 1, out: Optional[str] = None,
         plot_to: Optional[str] = None, schedule: SPSA = SPSA(), engines: Optional[Mapping[str, Engine]] = None,
         tc: Any = None, tc_margin: float = 0.1, progress: bool = False,
         game_params: Optional[Mapping[str, Any]] = None) -> dict[str, Any]:
    """Tune ``agent`` (a spec with ``{name}`` placeholders, e.g.
    ``"ismcts:c={c},iterations=200"``, or ``engine:NAME`` whose options hold
    them) over ``params`` by SPSA with about ``games`` games, and return
    ``{"values": {...}, "steps": N, "games": n, "terminations": {...}}``.
    ``out``: a JSONL file to resume from; ``plot_to``: each parameter's path.

    Example: ``tune("capivarias", "ismcts:c={c},iterations=200", ["c=0.1..3"], games=400, against="ismcts:iterations=200")``.
    """
    g = game if isinstance(game, Game) else load_game(game, **dict(game_params or {}))
    ps = [p if isinstance(p, TuneParam) else parse_param(p) for p in params]
    if not ps:
        raise ValueError("give at least one --param NAME=LO..HI")
    if len({p.name for p in ps}) != len(ps):
        raise ValueError("a --param is given twice")
    engines = dict(engines or {})
    if isinstance(pairs, bool) or not isinstance(pairs, int) or pairs < 1:
        raise ValueError(f"pairs must be a positive integer, not {pairs!r}")
    per_step = pairs * len(_lineups(g.num_players, against is not None))
    if isinstance(games, bool) or not isinstance(games, int) or games < per_step:
        raise ValueError(f"--games must be at least {per_step} (one step: {per_step} games), not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK:
        raise ValueError(f"seed must be an integer in [0, 2**64), not {seed!r}")
    _check_template(agent, ps, engines)
    if plot_to is not None:
        from .report import check_plot_path
        check_plot_path(plot_to)
        if out is not None and os.path.realpath(plot_to) == os.path.realpath(out):
            raise ValueError(f"plot file {plot_to!r} is the results file")
    if against is not None:
        parse_agent(against, engines)
    steps = games // per_step
    for e in engines.values():
        e.check()
    if isinstance(tc, str):
        from .clock import parse_tc
        tc = parse_tc(tc)
    log_dir = None if out is None else os.path.splitext(out)[0] + ".engines"
    obj = _GameObjective(g, agent, against, engines, seed, pairs, tc, tc_margin, log_dir)
    header = _header(g, agent, ps, against, seed, steps, pairs, schedule)
    history: list[dict[str, Any]] = []
    fh = None
    if out is not None:
        if os.path.exists(out) and os.path.getsize(out) > 0:
            history = _read_history(out, header)
            with open(out, "r+b") as f:          # drop a torn last line
                keep = f.read().splitlines(keepends=True)
                good = 1 + len(history)
                f.seek(0)
                f.truncate()
                f.write(b"".join(keep[:good]))
        else:
            os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
            with open(out, "w") as hf:
                hf.write(json.dumps(header, separators=(",", ":")) + "\n")
        fh = open(out, "a")
    lines = list(history)
    bar: Any = None
    if progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        bar = Progress(TextColumn("tune"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       TextColumn("{task.description}"), transient=False, console=Console(stderr=True))
        bar.start()
        task = bar.add_task("", total=steps, completed=len(history))

    def on_step(line: dict[str, Any]) -> None:
        lines.append(line)
        if fh is not None:
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")
            fh.flush()
        if bar is not None:
            bar.update(task, advance=1, description=" ".join(f"{k}={v:.3g}" for k, v in line["theta"].items()))

    try:
        values = spsa(obj, ps, steps, seed=seed, schedule=schedule, history=history, on_step=on_step)
    finally:
        if bar is not None:
            bar.stop()
        if fh is not None:
            fh.close()
    if plot_to is not None and lines:
        try:
            plot_tune(lines, ps, plot_to,
                      title=f"SPSA on {agent} ({g.name}, {steps} steps, {steps * per_step} games)")
        except OSError as e:
            raise ValueError(f"cannot write the plot {plot_to!r}: {e.strerror or e} (the steps are saved)") from None
    return {"values": values, "steps": steps, "games": obj.games + len(history) * per_step,
            "terminations": obj.terms}


# --- the command ---------------------------------------------------------------------------------

def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``tune`` subcommand on an ``add_subparsers()`` object.

    Example: ``add_parser(argparse.ArgumentParser().add_subparsers())``.
    """
    from .._cli_params import add_param_options
    from .._game import games
    from .cli import add_engine_options

    tp: argparse.ArgumentParser = sub.add_parser(
        "tune", help="tune an agent's parameters by SPSA (docs/arena.md)",
        description="SPSA over the --param ranges: each step plays theta+ and theta- on the same deals.")
    tp.add_argument("game", choices=games())
    add_param_options(tp)
    tp.add_argument("--agent", required=True, metavar="TEMPLATE",
                    help="an agent spec with {name} placeholders, e.g. 'ismcts:c={c},prior={p}', or engine:NAME")
    tp.add_argument("--param", action="append", required=True, metavar="NAME=LO..HI[@START]")
    tp.add_argument("--against", default=None, metavar="SPEC", help="the fixed opponent (default: theta+ vs theta-)")
    tp.add_argument("--games", type=int, required=True, help="games to play in all")
    tp.add_argument("--pairs", type=int, default=1,
                    help="deals per step (default 1), each in every seating: 2 games, or 4 against --against "
                         "(2N with N players)")
    tp.add_argument("--seed", type=int, default=0)
    tp.add_argument("--out", default=None, metavar="FILE.jsonl", help="one line per step; a re-run resumes")
    tp.add_argument("--plot", default=None, metavar="FILE.png", help="each parameter's path")
    tp.add_argument("--c-end", type=float, default=SPSA.c_end, help="the last perturbation, a fraction of each range")
    tp.add_argument("--r-end", type=float, default=SPSA.r_end, help="the last a_k/c_k^2")
    tp.add_argument("--no-progress", action="store_true")
    add_engine_options(tp)
    return tp


def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run ``tabuleiro tune``; the exit status (2 for bad arguments).

    Example: ``main(parser.parse_args(["tune", "toy", ...]), tune_parser)``.
    """
    from .._cli_params import params_from_args
    from .._game import game_class
    from .cli import engines_from_args, tc_from_args

    try:
        gp = params_from_args(game_class(args.game), args)
        for name, v in (("--c-end", args.c_end), ("--r-end", args.r_end)):
            if not (math.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a positive number, not {v}")
        if not 0 <= args.seed < 2**64:
            raise ValueError("--seed must be in [0, 2**64)")
        engines = engines_from_args(args.engine, args.engine_option, args.engine_timeout)
        tc = tc_from_args(args.tc, args.tc_margin)
        res = tune(args.game, args.agent, args.param, games=args.games, against=args.against, seed=args.seed,
                   pairs=args.pairs, out=args.out, plot_to=args.plot,
                   schedule=SPSA(c_end=args.c_end, r_end=args.r_end), engines=engines, tc=tc,
                   tc_margin=args.tc_margin, progress=not args.no_progress, game_params=gp)
    except (ValueError, TypeError, ImportError) as e:
        parser.error(str(e))
    except KeyboardInterrupt:
        print("interrupted: the steps played so far are in the results file; run again to resume", file=sys.stderr)
        return 130
    print(f"tuned after {res['steps']} steps ({res['games']} games): "
          + ", ".join(f"{k}={v:.4g}" for k, v in res["values"].items()))
    bad = {k: v for k, v in res["terminations"].items() if k != "normal"}
    if bad:
        print("forfeits: " + ", ".join(f"{k} {v}" for k, v in bad.items()))
    return 0
