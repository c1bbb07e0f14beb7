"""Running an arena (:func:`run`): check every argument, resume from the
results file, hand the games to a backend, stop at the SPRT's decision,
append the records as they come, and summarize.
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Any, Mapping, Optional, Sequence, Union

from .._game import Game, load_game
from .backends import _Inline, _Pool, _Ray
from .clock import TimeControl, parse_tc
from .engines import Engine
from .records import ResultsFile, _key, run_header
from .report import Summary, _Progress, _Standings, check_plot_path, plot
from .scheduling import _MASK, GameSpec, schedule
from .specs import parse_agent
from .stats import SPRT, _pair_points
from .summary import _note_skipped, summarize
from .worker import _Config

__all__ = ["run"]


def _resolve_game(game: Union[str, Game], params: Optional[Mapping[str, Any]]) -> Game:
    if isinstance(game, Game):
        if params:
            raise ValueError("give the parameters to load_game, or a game name with params=")
        return game
    try:
        return load_game(game, **dict(params or {}))
    except TypeError as e:
        raise ValueError(str(e)) from None


def _default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _same_file(a: Union[str, os.PathLike[str]], b: Union[str, os.PathLike[str]]) -> bool:
    """Whether two paths name one file (the same inode, or the same path once resolved)."""
    try:
        return os.path.samefile(a, b)
    except OSError:                     # one does not exist (yet): compare the paths
        return os.path.realpath(a) == os.path.realpath(b)


def run(game: Union[str, Game], agents: Sequence[Any], *, deals: int, seed: int = 0,
        params: Optional[Mapping[str, Any]] = None, out: Optional[Union[str, os.PathLike[str]]] = None,
        jobs: Optional[int] = None, backend: str = "local", address: Optional[str] = None,
        sprt: Optional[Union[SPRT, str, Sequence[str]]] = None, plot_to: Optional[Union[str, os.PathLike[str]]] = None,
        schedule_mode: str = "all", progress: bool = False, force_new: bool = False,
        engines: Optional[Union[Mapping[str, Engine], Sequence[Engine]]] = None,
        tc: Optional[Union[str, TimeControl]] = None, tc_margin: float = 0.1,
        engine_log_dir: Optional[Union[str, os.PathLike[str]]] = None) -> Summary:
    """Play an arena and return its :class:`Summary`.

    ``game``: a registered name (with ``params``, e.g. ``{"players": 4}``) or a
    loaded Game. ``agents``: specs or objects (:func:`parse_agent`), at least
    one. ``deals`` deal seeds, derived from ``seed``, each played by every
    table (``schedule_mode="all"``; ``"cycle"``: one table per deal, in turn)
    in every seat rotation. ``out``: a JSONL results file (a regular file or
    a new path), its run header then one line per game, appended to and
    resumed from (games already in it are not played again; a file of
    another run is refused, see :class:`ResultsFile`; ``force_new``: empty
    an existing results file and start over).
    ``jobs``: worker processes (default: every core; 1 plays in this
    process); ``backend="ray"`` runs them as Ray tasks (``address``: an
    existing cluster; default: a local instance with ``jobs`` CPUs). ``sprt``:
    an :class:`SPRT` (or its text) that stops the run as soon as it decides
    (``SPRT(stop=False)``: that reports its decision and plays every game).
    ``plot_to``: a PNG of the summary (:func:`plot`). ``progress``: a live bar.

    External engines: ``engines`` names the :class:`Engine` objects that
    ``engine:NAME`` specs refer to (an ``Engine`` may also be given in
    ``agents`` directly); each is started once here and must answer ``ping``
    before any game. ``tc``: their time control (fastchess's syntax,
    :func:`parse_tc`: ``"st=0.1"``, ``"5+0.05"``); a move over its time by
    more than ``tc_margin`` seconds loses the game on time. Builtin agents
    keep their own budgets. ``engine_log_dir``: where each engine's stderr
    goes (``NAME.log``; default: ``OUT.engines/`` beside the results file,
    else a directory under the system's temporary directory).

    The results are the same for every backend and job count: each game is
    seeded from its deal and its seating, and the summary reads the games in
    deal order.

    Every argument is checked before any game is played or the results file
    changed. Lines of ``out`` that are not valid records of the run are
    skipped and listed in the summary's ``skipped_lines``.

    :raises ValueError: naming the bad argument; :class:`ResultsFileError`
        for an ``out`` that is not a regular file, not a results file, or
        another run's.
    """
    g = _resolve_game(game, params)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 0:
        raise ValueError(f"deals must be a non-negative integer, not {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK:
        raise ValueError(f"seed must be an integer in [0, 2**64), not {seed!r}")
    if jobs is None:
        jobs = _default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, not {jobs!r}")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")
    for name, v in (("force_new", force_new), ("progress", progress)):
        if not isinstance(v, bool):
            raise TypeError(f"{name} must be True or False, not {v!r}")
    for name, where in (("out", out), ("plot_to", plot_to)):
        if where is not None and not isinstance(where, (str, os.PathLike)):
            raise TypeError(f"{name} must be a path, not {type(where).__name__}")
    if plot_to is not None:
        check_plot_path(plot_to)
        if out is not None and _same_file(out, plot_to):
            raise ValueError(f"plot file {os.fspath(plot_to)!r} is the results file: the plot would overwrite "
                             "the games")
    engine_map: dict[str, Engine] = {}
    if engines is not None:
        if isinstance(engines, Mapping):
            engine_map = dict(engines)
        else:
            for eng in engines:
                if not isinstance(eng, Engine):
                    raise ValueError(f"engines holds {type(eng).__name__} {eng!r:.60}, not an arena.Engine")
                engine_map[str(eng.name)] = eng
    if isinstance(tc, str):
        tc = parse_tc(tc)
    if tc is not None and not isinstance(tc, TimeControl):
        raise ValueError(f"tc must be a time control such as '5+0.05' or 'st=0.1', not {tc!r}")
    if isinstance(tc_margin, bool) or not isinstance(tc_margin, (int, float)) or not 0 <= tc_margin < 3600:
        raise ValueError(f"tc_margin must be a number of seconds in [0, 3600), not {tc_margin!r}")
    entries = [parse_agent(a, engine_map) for a in agents]
    if not entries:
        raise ValueError("an arena needs at least one agent")
    seen: dict[str, int] = {}
    for i, e in enumerate(entries):
        n = seen[e.label] = seen.get(e.label, 0) + 1
        if n > 1:
            entries[i] = dataclasses.replace(e, label=f"{e.label}#{n}")
    labels = [e.label for e in entries]
    if isinstance(sprt, (str, list, tuple)):
        sprt = SPRT.parse(sprt)
    n_players = g.num_players
    if sprt is not None and not (len(entries) == 2 and n_players == 2):
        raise ValueError("an SPRT compares two agents in a two-player game")
    plan = schedule(len(entries), n_players, deals, seed, schedule_mode)
    log_dir: Optional[str] = None
    if any(e.engine is not None for e in entries):
        if engine_log_dir is not None:
            log_dir = os.path.abspath(os.fspath(engine_log_dir))
        elif out is not None:
            log_dir = os.path.abspath(os.path.splitext(os.fspath(out))[0] + ".engines")
        else:
            import tempfile
            log_dir = os.path.join(tempfile.gettempdir(), "tabuleiro-arena-engines")
        checked = set()
        for ent in entries:
            if ent.engine is not None and ent.engine.cmd not in checked:
                checked.add(ent.engine.cmd)
                ent.engine.check()
    cfg = _Config(g.name, g.params, tuple(entries), seed, tc=tc, margin=float(tc_margin), log_dir=log_dir)
    # --- what the results file already holds (checked and repaired; refused if not ours) ---
    have: dict[tuple[Any, ...], dict[str, Any]] = {}
    rfile: Optional[ResultsFile] = None
    if out is not None:
        rfile = ResultsFile(out, run_header(g.name, g.params, n_players, seed, labels, schedule_mode),
                            force_new=force_new)
        for r in rfile.records:
            have.setdefault(_key(r), r)
    params_key = tuple(sorted(g.params.items()))

    def key_of(gs: GameSpec) -> tuple[Any, ...]:
        return (g.name, params_key, gs[1], tuple(labels[a] for a in gs[2]))

    results: dict[int, dict[str, Any]] = {}
    for i, gs in enumerate(plan):
        found = have.get(key_of(gs))
        if found is not None:
            results[i] = found
    todo = [i for i in range(len(plan)) if i not in results]
    # --- SPRT bookkeeping: deals in order, each complete before the next counts ----------
    deal_games: dict[int, list[int]] = {}
    for i, gs in enumerate(plan):
        deal_games.setdefault(gs[0], []).append(i)
    deal_order = sorted(deal_games)
    sprt_pos = 0
    penta = [0] * 5
    llr = 0.0
    decided: Optional[str] = None
    decided_at = 0
    stopping = isinstance(sprt, SPRT) and sprt.stop      # stop=no: the SPRT reports, every game is played

    def halted() -> bool:
        return stopping and decided is not None

    def advance_sprt() -> None:
        nonlocal sprt_pos, llr, decided, decided_at
        assert isinstance(sprt, SPRT)
        while (decided is None or not stopping) and sprt_pos < len(deal_order):
            idx = deal_games[deal_order[sprt_pos]]
            if not all(i in results for i in idx):
                return
            pts = 0.0
            for i in idx:
                r = results[i]
                j = r["seats"].index(labels[0])
                pts += _pair_points(r["returns"][j], r["returns"][1 - j])
            penta[int(round(pts * 2))] += 1
            sprt_pos += 1
            llr = sprt.llr(penta)
            if decided is None:
                decided = sprt.status(llr)
                decided_at = sprt_pos

    def bar_text() -> str:
        text = standings.text((llr, sprt) if isinstance(sprt, SPRT) else None)
        return text + (f", {decided} accepted after {decided_at} pairs" if decided is not None else "")

    runner: Any = None
    aborted = True
    bar = _Progress(False, 0, 0)
    try:
        if sprt is not None:
            advance_sprt()
        bar = _Progress(progress, len(plan), len(results))
        standings = _Standings(labels)
        for r in results.values():
            standings.add(r)
        if todo and not halted():
            if backend == "ray":
                runner = _Ray(cfg, jobs if address is None else None, address)
            elif jobs == 1:
                runner = _Inline(cfg)
            else:
                runner = _Pool(cfg, min(jobs, len(todo)))
            width = 1 if backend == "local" and jobs == 1 else jobs
            in_flight = 2 * width
            pos = 0
            chunk = 1
            target = 0.05 if width == 1 else 0.25
            chunks: dict[int, tuple[list[int], float]] = {}
            tag = 0
            last_update = 0.0
            while True:
                while not halted() and pos < len(todo) and runner.pending() < in_flight:
                    ids = todo[pos:pos + chunk]
                    pos += len(ids)
                    chunks[tag] = (ids, time.perf_counter())
                    runner.submit(tag, [plan[i] for i in ids])
                    tag += 1
                if runner.pending() == 0:
                    break
                for t, recs in runner.wait():
                    ids, t0 = chunks.pop(t)
                    per_game = max(time.perf_counter() - t0, 1e-6) / len(ids)
                    chunk = max(1, min(1024, int(target / per_game), 2 * chunk))
                    if stopping:
                        chunk = min(chunk, max(1, len(deal_games[deal_order[0]])))  # small steps: stop soon
                    for i, rec in zip(ids, recs):
                        results[i] = rec
                        standings.add(rec)
                    if rfile is not None:
                        rfile.append(recs)
                    if sprt is not None:
                        advance_sprt()
                        if halted():
                            runner.cancel()
                now = time.perf_counter()
                if bar.bar is not None and now - last_update > 0.25:
                    last_update = now
                    bar.update(len(results), bar_text())
            bar.update(len(results), bar_text())
        aborted = False
    finally:
        if runner is not None:
            runner.close(abort=aborted)
        if rfile is not None:
            rfile.close()
        bar.close()
    recs = [results[i] for i in sorted(results)]
    if not recs:
        raise ValueError("no games to summarize (deals=0?)")
    summary = summarize(recs, agents=labels, sprt=sprt if isinstance(sprt, SPRT) else None)
    if rfile is not None:
        _note_skipped(summary, rfile.bad_lines)
    if plot_to is not None:
        try:
            plot(summary, plot_to)
        except OSError as e:
            raise ValueError(f"cannot write the plot {os.fspath(plot_to)!r}: {e.strerror or e} "
                             f"(the games are saved)") from None
    return summary
