"""The ``tabuleiro arena`` command: its arguments (:func:`add_parser`) and
what it runs (:func:`main`); docs/arena.md is the guide.

    tabuleiro arena GAME [--players N] [--expansion] --agents SPEC SPEC... --deals N
                   [--seed S] [--out FILE.jsonl] [--jobs N] [--backend local|ray [--address ADDR]]
                   [--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 stop=yes] [--plot FILE.png]
                   [--schedule all|cycle] [--json] [--no-progress] [--force-new]
                   [--engine NAME=CMD ...] [--engine-option NAME:key=value ...]
                   [--tc st=0.1|10+0.1] [--tc-margin SECONDS] [--engine-timeout SECONDS]
                   [--engine-log-dir DIR]

Bad arguments exit through ``parser.error`` (status 2) before any game is
played or the results file changed; Ctrl-C exits with 130 and a disk error
with 1, the games played so far being in the results file.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from typing import Any, Optional, Sequence

from .._cli_params import add_param_options, params_from_args
from .._game import game_class, games
from .report import skipped_warning
from .clock import parse_tc
from .engines import Engine, parse_engine_def, parse_engine_option
from .runner import run
from .specs import parse_agent
from .stats import SPRT
from .summary import format_terminations

__all__ = ["add_parser", "main"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``arena`` subcommand on an ``add_subparsers()`` object."""
    ar: argparse.ArgumentParser = sub.add_parser(
        "arena", help="compare agents over paired deals (statistics, SPRT, ratings, plots)",
        description="Play every deal once per seat rotation of every table of agents; "
                    "print win shares, ratings, Elo and SPRT (docs/arena.md).")
    ar.add_argument("game", choices=games(), help="the game")
    add_param_options(ar)
    ar.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                    help="agent specs: random, greedy, flatmc|mcts|ismcts[:key=value,...], module:attr")
    ar.add_argument("--deals", type=int, required=True, help="deals (seeds) to play, each in every seat rotation")
    ar.add_argument("--seed", type=int, default=0, help="master seed of the deals (default 0)")
    ar.add_argument("--out", default=None, metavar="FILE.jsonl",
                    help="a regular file or a new path: the run's header, then one JSON line per game; "
                         "a re-run of the same run resumes, another run's file is refused")
    ar.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    ar.add_argument("--backend", choices=["local", "ray"], default="local")
    ar.add_argument("--address", default=None, help="Ray cluster address (default: start a local instance)")
    ar.add_argument("--sprt", nargs="*", default=None, metavar="KEY=VALUE",
                    help="stop when decided: elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized|logistic; "
                         "stop=no: report the decision and play every game")
    ar.add_argument("--plot", default=None, metavar="FILE.png", help="win shares, ratings and LLR as a PNG")
    ar.add_argument("--schedule", choices=["all", "cycle"], default="all",
                    help="every table plays every deal (all), or one table per deal in turn (cycle)")
    ar.add_argument("--json", action="store_true", help="print the summary as JSON")
    ar.add_argument("--no-progress", action="store_true", help="no live progress bar")
    ar.add_argument("--force-new", action="store_true",
                    help="empty an existing results file (of any run) and start over")
    add_engine_options(ar)
    return ar


def add_engine_options(ap: argparse.ArgumentParser) -> None:
    """The external engine and clock options (shared by ``arena`` and ``tune``)."""
    ap.add_argument("--engine", action="append", default=[], metavar="NAME=CMD",
                    help="an external engine speaking docs/protocol.md, played as the agent engine:NAME")
    ap.add_argument("--engine-option", action="append", default=[], metavar="NAME:key=value",
                    help="a field added to every go sent to engine NAME (iterations=200, time=auto, seed=3)")
    ap.add_argument("--tc", default=None, metavar="TC",
                    help="external engines' time control, as fastchess writes it: st=0.1 (per move), "
                         "10+0.1 (per game + increment), 40/60+0.6")
    ap.add_argument("--tc-margin", type=float, default=0.1, metavar="SECONDS",
                    help="how far a move may overrun its time before it loses on time (default 0.1)")
    ap.add_argument("--engine-timeout", type=float, default=30.0, metavar="SECONDS",
                    help="without --tc: the longest an engine may take to start or to move (default 30)")
    ap.add_argument("--engine-log-dir", default=None, metavar="DIR",
                    help="where each engine's stderr goes, as NAME.log (default: OUT.engines/ beside --out)")


def engines_from_args(defs: Sequence[str], options: Sequence[str], timeout: float) -> dict[str, Engine]:
    """The engines of ``--engine``, ``--engine-option`` and ``--engine-timeout``.

    :raises ValueError: naming the bad argument.

    >>> engines_from_args(["tab=tabuleiro engine"], ["tab:iterations=50"], 5.0)["tab"].options
    {'iterations': 50}
    """
    if isinstance(timeout, bool) or not (math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"--engine-timeout must be a positive number of seconds, not {timeout!r}")
    out: dict[str, Engine] = {}
    for d in defs:
        e = parse_engine_def(d)
        assert e.name is not None
        if e.name in out:
            raise ValueError(f"--engine {d!r}: engine {e.name!r} is defined twice")
        out[e.name] = dataclasses.replace(e, timeout=timeout)
    opts: dict[str, dict[str, Any]] = {}
    for o in options:
        name, key, value = parse_engine_option(o)
        if name not in out:
            raise ValueError(f"--engine-option {o!r}: no engine named {name!r}"
                             + (f" (defined: {', '.join(out)})" if out else " (define it with --engine NAME=CMD)"))
        opts.setdefault(name, {})[key] = value
    for name, kv in opts.items():
        e = out[name]
        out[name] = dataclasses.replace(e, options=dict(e.options, **kv))
    return out


def tc_from_args(tc: Optional[str], margin: float) -> Any:
    """``--tc`` and ``--tc-margin`` checked: the TimeControl (or None).

    >>> str(tc_from_args("tc=5+0.05", 0.1))
    '5+0.05'
    """
    if not (math.isfinite(margin) and 0 <= margin < 3600):
        raise ValueError(f"--tc-margin must be a number of seconds in [0, 3600), not {margin!r}")
    return None if tc is None else parse_tc(tc)


def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run ``tabuleiro arena`` with the arguments ``parser`` (from
    :func:`add_parser`) parsed; the exit status. (``tabuleiro``'s main has
    already checked the ranges of ``--seed`` and ``--jobs``.)"""
    try:
        params = params_from_args(game_class(args.game), args)
        sprt = None if args.sprt is None else SPRT.parse(args.sprt)
        if args.deals < 0:
            raise ValueError("--deals must be at least 0")
        engines = engines_from_args(args.engine, args.engine_option, args.engine_timeout)
        tc = tc_from_args(args.tc, args.tc_margin)
        for spec in args.agents:
            parse_agent(spec, engines)
        summary = run(args.game, args.agents, params=params, deals=args.deals, seed=args.seed,
                      out=args.out, jobs=args.jobs, backend=args.backend, address=args.address,
                      sprt=sprt, plot_to=args.plot, schedule_mode=args.schedule,
                      progress=not args.no_progress and not args.json, force_new=args.force_new,
                      engines=engines, tc=tc, tc_margin=args.tc_margin, engine_log_dir=args.engine_log_dir)
    except (ValueError, TypeError, ImportError) as e:
        parser.error(str(e))
    except KeyboardInterrupt:
        print("interrupted: the games played so far are in the results file; run again to resume", file=sys.stderr)
        return 130
    except OSError as e:      # e.g. the disk filled up mid-run: every line written before is whole
        print(f"tabuleiro arena: error: {e.strerror or e}"
              + (f" ({e.filename})" if e.filename else "")
              + "; the games played so far are in the results file", file=sys.stderr)
        return 1
    warning = skipped_warning(summary)
    if warning:
        print(f"tabuleiro arena: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(summary)
        terms = format_terminations(summary)
        if terms:
            print(terms)
    return 0
