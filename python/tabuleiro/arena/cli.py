"""The ``tabuleiro arena`` command: its arguments (:func:`add_parser`) and
what it runs (:func:`main`); docs/arena.md is the guide.

    tabuleiro arena GAME [--players N] [--expansion] --agents SPEC SPEC... --deals N
                   [--seed S] [--out FILE.jsonl] [--jobs N] [--backend local|ray [--address ADDR]]
                   [--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05] [--plot FILE.png]
                   [--schedule all|cycle] [--json] [--no-progress] [--force-new]

Bad arguments exit through ``parser.error`` (status 2) before any game is
played or the results file changed; Ctrl-C exits with 130 and a disk error
with 1, the games played so far being in the results file.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._cli_params import add_param_options, params_from_args
from .._game import game_class, games
from .report import skipped_warning
from .runner import run
from .specs import parse_agent
from .stats import SPRT

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
                    help="stop when decided: elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized|logistic")
    ar.add_argument("--plot", default=None, metavar="FILE.png", help="win shares, ratings and LLR as a PNG")
    ar.add_argument("--schedule", choices=["all", "cycle"], default="all",
                    help="every table plays every deal (all), or one table per deal in turn (cycle)")
    ar.add_argument("--json", action="store_true", help="print the summary as JSON")
    ar.add_argument("--no-progress", action="store_true", help="no live progress bar")
    ar.add_argument("--force-new", action="store_true",
                    help="empty an existing results file (of any run) and start over")
    return ar


def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run ``tabuleiro arena`` with the arguments ``parser`` (from
    :func:`add_parser`) parsed; the exit status. (``tabuleiro``'s main has
    already checked the ranges of ``--seed`` and ``--jobs``.)"""
    try:
        params = params_from_args(game_class(args.game), args)
        sprt = None if args.sprt is None else SPRT.parse(args.sprt)
        if args.deals < 0:
            raise ValueError("--deals must be at least 0")
        for spec in args.agents:
            parse_agent(spec)
        summary = run(args.game, args.agents, params=params, deals=args.deals, seed=args.seed,
                      out=args.out, jobs=args.jobs, backend=args.backend, address=args.address,
                      sprt=sprt, plot_to=args.plot, schedule_mode=args.schedule,
                      progress=not args.no_progress and not args.json, force_new=args.force_new)
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
    return 0
