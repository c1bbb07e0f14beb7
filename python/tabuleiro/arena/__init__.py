"""Arenas: compare agents over paired deals, with statistics, SPRT, ratings and plots.

What fastchess and OpenBench give chess engine authors, for card games with
hidden information and more than two players (the ``tabuleiro arena``
command is a thin front end; docs/arena.md is the guide):

* **Agents** are spec strings (``"ismcts:iterations=2000,c=0.7,rollout=heuristic"``,
  ``"greedy"``, ``"random"``), ``"module:attr"`` user objects with
  ``choose(state)``, or objects passed in Python (see :func:`parse_agent`).
* **Paired deals**: every deal (a seed) is played once per seat rotation of
  every table of agents, so the luck of the deal cancels out. Each agent's
  seed in a game is mixed from the deal seed, its seat and its own ``seed``:
  the same command gives the same games whatever the backend or ``jobs``.
* **Statistics** (:func:`summarize`): two agents in a two-player game get
  W/D/L, an Elo difference with a 95% interval from pentanomial statistics
  over deal pairs and, on request, an :class:`SPRT`; every run gets each
  agent's win share (ties split) with a 95% interval against the fair share,
  mean score and margin, and an OpenSkill Plackett-Luce rating.
* **Running** (:func:`run`): local worker processes or Ray, a live progress
  bar, one JSON line per game appended to a results file after its run
  header, which a re-run of the same run resumes from (:class:`ResultsFile`:
  another run's file, or a file that is not a results file, is refused
  unchanged), and a ``plot``.

The package's modules, each over the ones before it (no module imports one
after it):

* :mod:`~tabuleiro.arena.scheduling`: deal seeds, tables, seat rotations, the schedule.
* :mod:`~tabuleiro.arena.stats`: Elo, pentanomial intervals, the SPRT, OpenSkill.
* :mod:`~tabuleiro.arena.clock`: time controls (fastchess's syntax) and clocks.
* :mod:`~tabuleiro.arena.engines`: external engines: :class:`Engine`, their processes, forfeits.
* :mod:`~tabuleiro.arena.specs`: agent specs and :class:`AgentEntry`.
* :mod:`~tabuleiro.arena.records`: results files: records, the run header, reading, resuming.
* :mod:`~tabuleiro.arena.worker`: each agent's player and the game loop of a worker.
* :mod:`~tabuleiro.arena.backends`: this process, local worker processes, Ray.
* :mod:`~tabuleiro.arena.report`: the :class:`Summary` table, plots, the live progress bar.
* :mod:`~tabuleiro.arena.summary`: :func:`summarize` of game records.
* :mod:`~tabuleiro.arena.runner`: :func:`run`, the whole arena.
* :mod:`~tabuleiro.arena.cli`: the ``tabuleiro arena`` command.
* :mod:`~tabuleiro.arena.tune`: SPSA tuning of an agent's parameters (``tabuleiro tune``).

Every public name is importable from ``tabuleiro.arena`` itself.

>>> from tabuleiro import arena
>>> arena.parse_agent("ismcts:iterations=2000,c=0.7,rollout=heuristic").label
'ismcts:iterations=2000,c=0.7,rollout=heuristic'
>>> arena.parse_agent("mcts:c=1,iterations=500,shaped=yes").label   # canonical order and values
'mcts:iterations=500,c=1.0,shaped=True'
>>> s = arena.SPRT(elo0=0, elo1=10, alpha=0.05, beta=0.05)
>>> round(s.lower, 3), round(s.upper, 3)
(-2.944, 2.944)
>>> summary = arena.run("capivarias", ["greedy", "random"], deals=4, seed=1, jobs=1)
>>> summary["games"], summary["pair"]["wins"] + summary["pair"]["draws"] + summary["pair"]["losses"]
(8, 8)
"""

from __future__ import annotations

from .clock import Clock, TimeControl, parse_tc
from .engines import TERMINATIONS, Engine, Forfeit
from .records import (ResultsFile, ResultsFileError, ResultsScan, check_record, read_results, read_scan, run_header,
                      scan_results)
from .report import Summary, check_plot_path, format_summary, plot, skipped_warning
from .runner import run
from .scheduling import deal_seed, rotations, schedule, tables
from .specs import AgentEntry, parse_agent
from .stats import PENTA_SCORES, SPRT, elo_from_score
from .summary import format_terminations, summarize, summarize_file

# public too, though not in __all__ (as in the one-module arena)
from .records import HEADER_FIELDS as HEADER_FIELDS, HEADER_MARK as HEADER_MARK  # isort: skip
from .records import MAX_LINE_BYTES as MAX_LINE_BYTES, RECORD_VERSION as RECORD_VERSION  # isort: skip
from .records import is_header as is_header  # isort: skip
from .scheduling import GameSpec as GameSpec  # isort: skip
from .worker import Act as Act, Start as Start  # isort: skip
# bench/bench_arena.py times a worker's game loop through these two
from .worker import _Config as _Config, _Worker as _Worker  # isort: skip

__all__ = [
    "AgentEntry",
    "SPRT",
    "Summary",
    "parse_agent",
    "schedule",
    "deal_seed",
    "read_results",
    "read_scan",
    "scan_results",
    "check_record",
    "run_header",
    "ResultsFile",
    "ResultsFileError",
    "ResultsScan",
    "summarize",
    "summarize_file",
    "skipped_warning",
    "format_summary",
    "plot",
    "check_plot_path",
    "run",
    "elo_from_score",
    "tables",
    "rotations",
    "PENTA_SCORES",
    # external engines and clocks (issue 24)
    "Engine",
    "Forfeit",
    "TERMINATIONS",
    "TimeControl",
    "Clock",
    "parse_tc",
    "format_terminations",
]
