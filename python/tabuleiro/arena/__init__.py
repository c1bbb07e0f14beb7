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

import dataclasses
import importlib
import itertools
import json
import math
import os
import random as _random
import time
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

from .. import agents as _agents
from .._errors import TabuleiroError
from .._game import Game, load_game

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
]

_MASK = (1 << 64) - 1
#: Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)
_Z95 = 1.959963984540054
RECORD_VERSION = 1
_ENCODE = json.JSONEncoder(separators=(",", ":")).encode


def _mix(a: int, b: int) -> int:
    """SplitMix64 finaliser of ``a * golden + b``: the arena's seed derivation."""
    z = (a * 0x9E3779B97F4A7C15 + b + 0x632BE59BD9B4E019) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of an arena run with master ``seed``."""
    return _mix(seed, deal)


def _seat_seed(deal_seed_: int, seat: int, agent_seed: int) -> int:
    """An agent's seed in one game: its deal, its seat and its own seed."""
    return _mix(_mix(deal_seed_, seat + 1), agent_seed)


def _t95(df: int) -> float:
    if df <= 0:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    return _Z95 + (_Z95 ** 3 + _Z95) / (4 * df)


# ==========================================================================================
# Agent specs
# ==========================================================================================

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NONE = {"none", "default", "null"}


def _search_fields() -> dict[str, Any]:
    """SearchAgent's knobs and their types (read from the dataclass, so new knobs appear here)."""
    hints = typing.get_type_hints(_agents.SearchAgent)
    return {f.name: hints[f.name] for f in dataclasses.fields(_agents.SearchAgent)}


def _parse_typed(spec: str, key: str, text: str, typ: Any) -> Any:
    optional = False
    if typing.get_origin(typ) is Union:
        args = [a for a in typing.get_args(typ) if a is not type(None)]
        optional = len(args) < len(typing.get_args(typ))
        typ = args[0]
    low = text.strip().lower()
    if optional and low in _NONE:
        return None
    what = {int: "an integer", float: "a number", bool: "true or false", str: "a word"}.get(typ, str(typ))
    bad = ValueError(f"agent spec {spec!r}: {key}={text!r} is not valid: {key} must be {what}"
                     + (" or none (the game's default)" if optional else ""))
    if typ is bool:
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise bad
    if typ is int:
        try:
            return int(text)
        except ValueError:
            pass
        try:
            f = float(text)
        except ValueError:
            raise bad from None
        if math.isfinite(f) and f == int(f):
            return int(f)
        raise bad
    if typ is float:
        try:
            return float(text)
        except ValueError:
            raise bad from None
    return text


def _parse_loose(text: str) -> Any:
    """A value of a user factory's keyword: int, float, bool, None or the text."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _split_params(spec: str, text: str) -> dict[str, str]:
    """``key=value`` items separated by commas (or colons, as ``tabuleiro play --seats`` writes them)."""
    out: dict[str, str] = {}
    if not text.strip():
        return out
    for part in text.replace(":", ",").split(","):
        if "=" not in part:
            raise ValueError(f"agent spec {spec!r}: {part.strip()!r} is not key=value")
        k, v = part.split("=", 1)
        k = k.strip()
        if not k.isidentifier():
            raise ValueError(f"agent spec {spec!r}: {k!r} is not a parameter name")
        if k in out:
            raise ValueError(f"agent spec {spec!r}: {k} is given twice")
        out[k] = v.strip()
    return out


def _fmt(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _canonical_label(agent: _agents.Agent) -> str:
    """``name:knob=value,...`` with the knobs that differ from the defaults (the
    iteration budget of a search is always shown), in the dataclass's order."""
    name = agent.name
    if isinstance(agent, _agents.LevelAgent):
        return f"level:{agent.level}" + (f",seed={agent.seed}" if agent.seed else "")
    parts = []
    for f in dataclasses.fields(agent):
        if f.name == "kind":
            continue
        v = getattr(agent, f.name)
        if v != f.default or (f.name == "iterations" and isinstance(agent, _agents.SearchAgent)):
            if f.name == "seed" and v == 0:
                continue
            parts.append(f"{f.name}={_fmt(v)}")
    return name + (":" + ",".join(parts) if parts else "")


@dataclass(frozen=True)
class AgentEntry:
    """One agent of an arena: its ``label`` (the name in results and tables),
    and how to rebuild it in a worker: a builtin ``agent`` (an ``agents.Agent``),
    a ``module:attr`` ``spec`` with keyword ``kwargs``, or a user ``obj``."""

    label: str
    agent: Optional[_agents.Agent] = None
    spec: Optional[str] = None
    obj: Any = None

    @property
    def seed(self) -> int:
        """The agent's own seed (mixed into its per-game seeds)."""
        if self.agent is not None:
            return self.agent.seed
        obj = self.obj[0] if isinstance(self.obj, tuple) and self.spec is not None else self.obj
        s = getattr(obj, "seed", 0)
        return s if isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= _MASK else 0

    def __reduce__(self) -> Any:
        # a module:attr agent travels as its spec and is imported again in the worker
        if self.spec is not None:
            return (_entry_from_spec, (self.spec, self.label))
        return (AgentEntry, (self.label, self.agent, None, self.obj))


def _entry_from_spec(spec: str, label: str) -> AgentEntry:
    return dataclasses.replace(parse_agent(spec), label=label)


def _import_attr(spec: str, path: str) -> Any:
    module, _, attr = path.partition(":")
    try:
        obj: Any = importlib.import_module(module)
    except Exception as e:     # an arbitrary module may raise anything on import
        raise ValueError(f"agent spec {spec!r}: cannot import {module!r} ({type(e).__name__}: {e})") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"agent spec {spec!r}: module {module!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def _check_factory(spec: str, where: str, factory: Any, kwargs: Mapping[str, Any]) -> None:
    """A ``module:attr`` factory must take ``seed=`` and the spec's keywords
    and make an object with ``choose(state)``: checked once, when the spec is
    read, so a function that is not an agent factory (``json:dumps``) is
    refused before any game. Its signature is checked first, so a function
    that cannot take those keywords is never called."""
    call = f"{where}(seed=..." + "".join(f", {k}=..." for k in kwargs) + ")"
    import inspect
    try:
        inspect.signature(factory).bind(seed=0, **kwargs)
    except TypeError as e:
        raise ValueError(f"agent spec {spec!r}: {where} is not an agent factory: it cannot be called as "
                         f"{call} ({e})") from None
    except ValueError:      # no signature to read (some builtins): the call below decides
        pass
    try:
        made = factory(seed=0, **kwargs)
    except Exception as e:
        raise ValueError(f"agent spec {spec!r}: {where} is not an agent factory: {call} failed "
                         f"({type(e).__name__}: {e})") from None
    if not callable(getattr(made, "choose", None)):
        raise ValueError(f"agent spec {spec!r}: {where} is not an agent: it has no choose(state) and "
                         f"{call} made a {type(made).__name__} without one")


def parse_agent(spec: Any) -> AgentEntry:
    """An arena agent from a spec string or an object.

    Spec strings:

    * ``random``, ``greedy``, ``flatmc``, ``mcts``, ``ismcts``, each optionally
      followed by ``:key=value,...`` setting any knob of ``agents.make`` (for
      the searches: ``kind, iterations, time, c, rollout, shaped, prior,
      horizon, threads, max_nodes, seed``). Values are read as the knob's
      type: integers (``2000``, ``1e4``), numbers, ``true``/``false`` (also
      yes/no, on/off), ``none`` for the game's default of an optional knob.
    * ``level:N`` (or ``level:N,seed=S``): a strength level, ``agents.make("level", level=N)``.
    * ``package.module:attr[:key=value,...]``: a user object with
      ``choose(state)``, or a factory (a class or function) called as
      ``attr(seed=..., **kwargs)`` once per game.

    Objects: an ``agents.Agent``, anything with ``choose(state)``, or a
    ``(label, object)`` pair.

    :raises ValueError: naming the bad part of the spec.

    >>> parse_agent("greedy").agent
    GreedyAgent(seed=0)
    >>> parse_agent("ismcts:iterations=lots")
    Traceback (most recent call last):
    ...
    ValueError: agent spec 'ismcts:iterations=lots': iterations='lots' is not valid: iterations must be an integer
    """
    if isinstance(spec, AgentEntry):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        return dataclasses.replace(parse_agent(spec[1]), label=spec[0])
    if isinstance(spec, _agents.Agent):
        return AgentEntry(_canonical_label(spec), agent=spec)
    if not isinstance(spec, str):
        if callable(getattr(spec, "choose", None)):
            name = getattr(spec, "label", None) or f"{type(spec).__module__}:{type(spec).__qualname__}"
            return AgentEntry(str(name), obj=spec)
        raise ValueError(f"an agent is a spec string, an object with choose(state) or a (label, agent) "
                         f"pair, not {type(spec).__name__} {spec!r:.60}")
    text = spec.strip()
    if not text:
        raise ValueError("an empty agent spec")
    name, sep, rest = text.partition(":")
    name = name.strip()
    if name == "level":
        rest = rest.replace(":", ",")          # level:7:seed=3, as tabuleiro play saves a seat
        first, _, more = rest.partition(",")
        raw = _split_params(spec, more if "=" not in first else rest)
        if "=" not in first:
            if "level" in raw:
                raise ValueError(f"agent spec {spec!r}: level is given twice")
            raw["level"] = first.strip()
        if not raw.get("level"):
            raise ValueError(f"agent spec {spec!r}: which level? (level:1 .. level:10)")
        try:
            lv = {k: int(v) for k, v in raw.items()}
            agent = _agents.make("level", **lv)
        except (TypeError, ValueError) as e:
            raise ValueError(f"agent spec {spec!r}: {e}") from None
        return AgentEntry(_canonical_label(agent), agent=agent)
    if name in _agents.NAMES:
        raw = _split_params(spec, rest)
        if name in ("random", "greedy"):
            fields = {"seed": int}
        else:
            fields = _search_fields()
        unknown = [k for k in raw if k not in fields]
        if unknown:
            raise ValueError(f"agent spec {spec!r}: {name} has no parameter {unknown[0]!r}; "
                             f"it takes {', '.join(fields)}")
        params = {k: _parse_typed(spec, k, v, fields[k]) for k, v in raw.items()}
        kind = params.pop("kind", name)
        try:
            agent = _agents.make(kind, **params) if name not in ("random", "greedy") else _agents.make(name, **params)
        except (TypeError, ValueError) as e:
            raise ValueError(f"agent spec {spec!r}: {e}") from None
        return AgentEntry(_canonical_label(agent), agent=agent)
    if not sep or "=" in name or not all(p.isidentifier() for p in name.split(".")):
        raise ValueError(f"unknown agent {name!r} in spec {spec!r}: choose from {', '.join(_agents.NAMES)}, "
                         f"or give a user agent as package.module:attr")
    attr, _, params_text = rest.partition(":")
    if not attr or not all(p.isidentifier() for p in attr.split(".")):
        raise ValueError(f"agent spec {spec!r}: {attr!r} is not an attribute name (module:attr)")
    kwargs = {k: _parse_loose(v) for k, v in _split_params(spec, params_text).items()}
    obj = _import_attr(spec, f"{name}:{attr}")
    if isinstance(obj, _agents.Agent) and not kwargs:
        return AgentEntry(text, agent=obj, spec=text)
    if not callable(getattr(obj, "choose", None)) or isinstance(obj, type):
        if not callable(obj):
            raise ValueError(f"agent spec {spec!r}: {name}:{attr} has no choose(state) and is not a factory")
        _check_factory(spec, f"{name}:{attr}", obj, kwargs)
    elif kwargs:
        raise ValueError(f"agent spec {spec!r}: {name}:{attr} is an agent object; parameters need a factory")
    return AgentEntry(text, spec=text, obj=(obj, kwargs))


# ==========================================================================================
# Players: one per agent in a worker, started once per game with that game's seed
# ==========================================================================================

#: A player in one game: the action id it plays in a state.
Act = Callable[[Any], int]
#: Starts a player for one game: (its seed, a one-slot list where a search
#: leaves the iterations of its last move) -> Act.
Start = Callable[[int, "list[Optional[int]]"], Act]


def _random_start(seed: int, box: list[Optional[int]]) -> Act:
    """Uniform over the legal moves from a 64-bit LCG (Knuth's MMIX constants,
    the high 32 bits) seeded once per game. agents.RandomAgent seeds a Mersenne
    Twister on every move (about 36 us a move, 20 us of it the seeding): that
    alone would cap the arena near 700 Capivarias games a second."""
    x = seed

    def act(st: Any) -> int:
        nonlocal x
        a = st.legal_actions()
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return a[((x >> 32) * len(a)) >> 32]  # type: ignore[no-any-return]

    return act


def _builtin_start(agent: _agents.Agent) -> tuple[Start, bool]:
    """The player of a builtin agent, and whether it reports iterations."""
    if isinstance(agent, _agents.RandomAgent):
        return _random_start, False
    if isinstance(agent, (_agents.SearchAgent, _agents.LevelAgent)):
        def start_search(seed: int, box: list[Optional[int]]) -> Act:
            ag = dataclasses.replace(agent, seed=seed)

            def act(st: Any) -> int:
                res = ag.search(st)         # choose() is search().move
                inner = ag.agent_for(st.game.name) if isinstance(ag, _agents.LevelAgent) else ag
                # a level that plays random or greedy does no search: no iterations
                box[0] = res.iterations if isinstance(inner, _agents.SearchAgent) else None
                return res.move.action  # type: ignore[no-any-return]

            return act
        return start_search, True

    def start(seed: int, box: list[Optional[int]]) -> Act:
        ag = dataclasses.replace(agent, seed=seed)

        def act(st: Any) -> int:
            return ag.choose(st).action  # type: ignore[no-any-return]

        return act

    return start, False


def _to_action(st: Any, m: Any, label: str) -> int:
    if isinstance(m, int) and not isinstance(m, bool):
        return m
    a = getattr(m, "action", None)
    if isinstance(a, int):
        return a
    if isinstance(m, str):
        return int(st.parse_move(m).action)
    raise TypeError(f"agent {label!r} chose {m!r}: not a Move, an action id or a notation string")


def _object_start(label: str, obj: Any, kwargs: Mapping[str, Any]) -> tuple[Start, bool]:
    """A user agent sees a determinization for its player: a full state
    consistent with what it may see, so it cannot peek at hidden cards."""
    factory = obj if (isinstance(obj, type) or not callable(getattr(obj, "choose", None))) else None

    def start(seed: int, box: list[Optional[int]]) -> Act:
        if factory is not None:
            ag = factory(seed=seed, **kwargs)
        elif (dataclasses.is_dataclass(obj) and not isinstance(obj, type)
              and any(f.name == "seed" for f in dataclasses.fields(obj))):
            ag = dataclasses.replace(obj, seed=seed)
        else:
            ag = obj
        ply = itertools.count()

        def act(st: Any) -> int:
            world = st.determinize(st.current_player, _mix(seed, next(ply)))
            return _to_action(st, ag.choose(world), label)

        return act

    return start, False


def _player(entry: AgentEntry) -> tuple[Start, bool]:
    if entry.agent is not None:
        return _builtin_start(entry.agent)
    obj, kwargs = entry.obj if isinstance(entry.obj, tuple) and entry.spec is not None else (entry.obj, {})
    return _object_start(entry.label, obj, kwargs)


# ==========================================================================================
# Scheduling and playing
# ==========================================================================================

GameSpec = tuple[int, int, tuple[int, ...]]   # (deal, deal seed, agent index per seat)


def tables(n_agents: int, n_players: int) -> list[tuple[int, ...]]:
    """The tables of agents (agent index per seat before rotation): every
    combination when there are more agents than seats, else one table with
    the agents repeated in turn to fill the seats."""
    if n_agents >= n_players:
        return list(itertools.combinations(range(n_agents), n_players))
    return [tuple(i % n_agents for i in range(n_players))]


def rotations(table: Sequence[int]) -> list[tuple[int, ...]]:
    """Every seat rotation of a table, each once."""
    out: list[tuple[int, ...]] = []
    for r in range(len(table)):
        t = tuple(table[r:]) + tuple(table[:r])
        if t not in out:
            out.append(t)
    return out


def schedule(n_agents: int, n_players: int, deals: int, seed: int, mode: str = "all",
             first_deal: int = 0) -> list[GameSpec]:
    """The games of an arena in order: deal by deal, each deal played by every
    table (``mode="all"``) or by one table in turn (``"cycle"``), in every seat
    rotation."""
    ts = tables(n_agents, n_players)
    if mode not in ("all", "cycle"):
        raise ValueError(f"schedule must be 'all' or 'cycle', not {mode!r}")
    out: list[GameSpec] = []
    for d in range(first_deal, first_deal + deals):
        ds = deal_seed(seed, d)
        for t in (ts if mode == "all" else [ts[d % len(ts)]]):
            for lineup in rotations(t):
                out.append((d, ds, lineup))
    return out


@dataclass(frozen=True)
class _Config:
    game: str
    params: dict[str, Any]
    entries: tuple[AgentEntry, ...]
    seed: int


class _Worker:
    """Plays games of one arena configuration (one per worker process)."""

    def __init__(self, cfg: _Config) -> None:
        self.cfg = cfg
        self.game = load_game(cfg.game, **cfg.params)
        players = [_player(e) for e in cfg.entries]
        self.starts = [p[0] for p in players]
        self.searches = [p[1] for p in players]
        self.labels = [e.label for e in cfg.entries]
        self.seeds = [e.seed for e in cfg.entries]

    def play(self, spec: GameSpec) -> dict[str, Any]:
        deal, ds, lineup = spec
        box: list[Optional[int]] = [None]
        acts = [self.starts[a](_seat_seed(ds, p, self.seeds[a]), box) for p, a in enumerate(lineup)]
        st = self.game.new_initial_state(seed=ds)
        moves: list[int] = []
        movers: list[int] = []
        us: list[int] = []
        add_move, add_mover, add_us = moves.append, movers.append, us.append
        clock = time.perf_counter_ns
        push = st.push
        iters: Optional[list[Optional[int]]] = None
        if any(self.searches[a] for a in lineup):
            iters = []
            add_iters = iters.append
            while True:
                p = st.current_player
                if p is None:
                    break
                t0 = clock()
                a = acts[p](st)
                t1 = clock()
                push(a)
                add_move(a)
                add_mover(p)
                add_us((t1 - t0) // 1000)
                add_iters(box[0])
                box[0] = None
        else:               # the lean loop: this is what the overhead benchmark measures
            while True:
                p = st.current_player
                if p is None:
                    break
                t0 = clock()
                a = acts[p](st)
                t1 = clock()
                push(a)
                add_move(a)
                add_mover(p)
                add_us((t1 - t0) // 1000)
        return {"v": RECORD_VERSION, "game": self.cfg.game, "params": self.cfg.params, "seed": self.cfg.seed,
                "deal": deal, "deal_seed": ds, "seats": [self.labels[a] for a in lineup], "agents": self.labels,
                "moves": moves, "movers": movers, "scores": st.scores(), "returns": st.returns(), "us": us,
                "iters": iters}

    def play_many(self, specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
        return [self.play(s) for s in specs]


_WORKERS: dict[int, _Worker] = {}
_WORKER: Optional[_Worker] = None


def _init_worker(cfg: _Config, ignore_sigint: bool = False) -> None:
    global _WORKER
    if ignore_sigint:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = _Worker(cfg)


def _pool_play(specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
    assert _WORKER is not None
    return _WORKER.play_many(specs)


def _ray_play(cfg: _Config, key: int, specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
    w = _WORKERS.get(key)
    if w is None:
        _WORKERS.clear()
        w = _WORKERS[key] = _Worker(cfg)
    return w.play_many(specs)


# --- backends: submit chunks of games, get finished chunks back ---------------------------

class _Inline:
    """jobs=1: play in this process (the overhead benchmark's path)."""

    def __init__(self, cfg: _Config) -> None:
        self.worker = _Worker(cfg)
        self.queue: list[tuple[int, Sequence[GameSpec]]] = []

    def submit(self, tag: int, specs: Sequence[GameSpec]) -> None:
        self.queue.append((tag, specs))

    def wait(self) -> list[tuple[int, list[dict[str, Any]]]]:
        tag, specs = self.queue.pop(0)
        return [(tag, self.worker.play_many(specs))]

    def pending(self) -> int:
        return len(self.queue)

    def cancel(self) -> None:
        self.queue.clear()

    def close(self, abort: bool = False) -> None:
        pass


class _Pool:
    """Worker processes (multiprocessing, spawn: safe with the progress bar's
    thread, and the same on every platform). Workers ignore SIGINT: Ctrl-C
    reaches the driver, which terminates them."""

    def __init__(self, cfg: _Config, jobs: int) -> None:
        import multiprocessing as mp
        import queue

        self.pool = mp.get_context("spawn").Pool(jobs, initializer=_init_worker, initargs=(cfg, True))
        self.done: "queue.Queue[tuple[int, Any, bool]]" = queue.Queue()
        self.n = 0

    def submit(self, tag: int, specs: Sequence[GameSpec]) -> None:
        self.n += 1
        self.pool.apply_async(_pool_play, (list(specs),),
                              callback=lambda res: self.done.put((tag, res, True)),
                              error_callback=lambda exc: self.done.put((tag, exc, False)))

    def wait(self) -> list[tuple[int, list[dict[str, Any]]]]:
        out = []
        item = self.done.get()
        while True:
            tag, res, ok = item
            self.n -= 1
            if not ok:
                raise res
            out.append((tag, res))
            if self.done.empty():
                return out
            item = self.done.get()

    def pending(self) -> int:
        return self.n

    def cancel(self) -> None:
        pass                     # queued chunks are few (two a worker): let them finish

    def close(self, abort: bool = False) -> None:
        if abort:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()


def _check_ray_address(address: str, timeout: float = 5.0) -> None:
    """Fail fast, with a clear error, when nothing listens at a Ray cluster's
    ``HOST:PORT`` (``ray.init`` would otherwise retry for minutes). ``auto``
    and addresses without a port are left to Ray."""
    import socket
    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if address == "auto" or not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise ValueError(f"no Ray cluster answers at {address!r} ({e.strerror or e}): start one with "
                         f"'ray start --head' and pass the address it prints") from None


class _Ray:
    def __init__(self, cfg: _Config, jobs: Optional[int], address: Optional[str]) -> None:
        try:
            import ray
        except ImportError:
            raise ImportError("the ray backend needs Ray: pip install 'tabuleiro[ray]'") from None
        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            if address:
                _check_ray_address(address)
                ray.init(address=address, log_to_driver=False)
            else:
                # address="local": always a fresh instance of our own. With no
                # address Ray joins whatever it finds (RAY_ADDRESS, a running
                # gcs_server, a stale /tmp/ray/ray_current_cluster) and then
                # refuses num_cpus.
                ray.init(address="local", num_cpus=jobs, include_dashboard=False, log_to_driver=False)
            self.started = True
        self.remote = ray.remote(num_cpus=1, max_retries=0)(_ray_play)
        self.cfg_ref = ray.put(cfg)
        self.key = _random.getrandbits(62)
        self.refs: dict[Any, int] = {}

    def submit(self, tag: int, specs: Sequence[GameSpec]) -> None:
        self.refs[self.remote.remote(self.cfg_ref, self.key, list(specs))] = tag

    def wait(self) -> list[tuple[int, list[dict[str, Any]]]]:
        done, _ = self.ray.wait(list(self.refs), num_returns=1)
        out = []
        for r in done:
            tag = self.refs.pop(r)
            out.append((tag, self.ray.get(r)))
        return out

    def pending(self) -> int:
        return len(self.refs)

    def cancel(self) -> None:
        for r in list(self.refs):
            self.ray.cancel(r)
        try:
            self.ray.wait(list(self.refs), num_returns=len(self.refs), timeout=30)
        except Exception:   # pragma: no cover - best effort
            pass
        self.refs.clear()

    def close(self, abort: bool = False) -> None:
        if abort:
            for r in list(self.refs):
                self.ray.cancel(r, force=True)
            self.refs.clear()
        if self.started:
            self.ray.shutdown()


# ==========================================================================================
# Results files (records): the run header, record validation, reading, resuming
# ==========================================================================================

class ResultsFileError(TabuleiroError):
    """A results file (``out=``, ``--out``) that the arena will not read or
    write: not a regular file, not a results file, another run's file, or one
    it cannot open. Nothing in the file has been changed when it is raised.

    >>> read_results("/")
    Traceback (most recent call last):
    ...
    tabuleiro.arena.ResultsFileError: results file '/' is a directory, not a regular file
    """


#: The first bytes of every line the arena writes: a line cut off inside
#: them, or after them, is a torn record of ours.
_OUR_PREFIX = b'{"v":1,'
#: The value of a header's ``run`` field.
HEADER_MARK = "tabuleiro arena"
#: The run parameters a header holds: a resume must match every one.
HEADER_FIELDS = ("game", "params", "players", "seed", "agents", "schedule")
#: No line the arena writes comes near this; a longer line is not a record.
MAX_LINE_BYTES = 1 << 24
_REQUIRED = ("game", "params", "deal_seed", "seats", "returns", "scores")


def run_header(game: str, params: Mapping[str, Any], players: int, seed: int, agents: Sequence[str],
               schedule_mode: str) -> dict[str, Any]:
    """The header record of a run: the first line of its results file, what a
    resume must match (the deal count may grow or shrink; SPRT, jobs and
    backend do not change any game)."""
    return {"v": RECORD_VERSION, "run": HEADER_MARK, "game": game, "params": dict(params), "players": players,
            "seed": seed, "agents": list(agents), "schedule": schedule_mode}


def is_header(obj: Any) -> bool:
    """Whether a decoded line is a run header (of any version)."""
    return isinstance(obj, Mapping) and obj.get("run") == HEADER_MARK


def _is_int(x: Any, lo: int = 0, hi: int = _MASK) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi


def _is_num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _is_param_value(x: Any) -> bool:
    return x is None or isinstance(x, (str, bool)) or _is_num(x)


def _header_problem(h: Any) -> Optional[str]:
    """Why a decoded header line is not a usable header, or None."""
    if h.get("v") != RECORD_VERSION:
        return f"its header has version {h.get('v')!r}; this tabuleiro reads version {RECORD_VERSION}"
    if not (isinstance(h.get("game"), str) and isinstance(h.get("params"), dict)
            and all(isinstance(k, str) and _is_param_value(v) for k, v in h["params"].items())
            and _is_int(h.get("players"), 1, 64) and _is_int(h.get("seed"))
            and isinstance(h.get("agents"), list) and h["agents"]
            and all(isinstance(a, str) for a in h["agents"]) and h.get("schedule") in ("all", "cycle")):
        return "its header is malformed"
    return None


def check_record(rec: Any, header: Optional[Mapping[str, Any]] = None) -> Optional[str]:
    """Why ``rec`` is not a valid game record (of the run ``header``, when
    given), or None when it is. One place for the schema of a record:

    * ``game`` a string, ``params`` an object of scalars; ``seats`` a
      non-empty list of labels; ``returns`` and ``scores`` finite numbers,
      one a seat; ``deal_seed`` and, when present, ``seed`` integers in
      [0, 2**64), ``deal`` a non-negative integer; ``agents`` labels holding
      every seat.
    * When present: ``moves`` action ids, ``movers`` seats, ``us``
      non-negative integers and ``iters`` (or null) integers or nulls, all as
      long as ``moves``.
    * With a header: the header's game, parameters, seed, agents and number
      of players.

    >>> check_record({"game": "toy", "params": {}, "deal_seed": 1, "seats": ["a", "b"], "returns": [1.0],
    ...               "scores": [3, 1]})
    'returns has 1 entries for 2 seats'
    """
    if not isinstance(rec, Mapping):
        return f"a record is a JSON object, not {type(rec).__name__}"
    if is_header(rec):
        return "a run header in the middle of the file"
    missing = [k for k in _REQUIRED if k not in rec]
    if missing:
        return f"no {missing[0]!r} field"
    if not isinstance(rec["game"], str):
        return "game is not a string"
    params = rec["params"]
    if not isinstance(params, dict) or not all(isinstance(k, str) and _is_param_value(v) for k, v in params.items()):
        return "params is not an object of numbers, strings and booleans"
    seats = rec["seats"]
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        return "seats is not a non-empty list of agent labels"
    n = len(seats)
    for k in ("returns", "scores"):
        v = rec[k]
        if not isinstance(v, list) or not all(_is_num(x) for x in v):
            return f"{k} is not a list of finite numbers"
        if len(v) != n:
            return f"{k} has {len(v)} entries for {n} seats"
    if not _is_int(rec["deal_seed"]):
        return "deal_seed is not an integer in [0, 2**64)"
    if "seed" in rec and not _is_int(rec["seed"]):
        return "seed is not an integer in [0, 2**64)"
    if "deal" in rec and not _is_int(rec["deal"]):
        return "deal is not a non-negative integer"
    if "agents" in rec:
        ags = rec["agents"]
        if not isinstance(ags, list) or not all(isinstance(a, str) for a in ags):
            return "agents is not a list of agent labels"
        if not set(seats) <= set(ags):
            return "seats name an agent that is not in agents"
    moves = rec.get("moves")
    if moves is not None:
        if not isinstance(moves, list) or not all(_is_int(m, 0, 1 << 31) for m in moves):
            return "moves is not a list of action ids"
        for k in ("movers", "us"):
            v = rec.get(k)
            if v is None:
                continue
            hi = n - 1 if k == "movers" else _MASK
            if not isinstance(v, list) or not all(_is_int(x, 0, hi) for x in v):
                return f"{k} is not a list of " + ("seats" if k == "movers" else "non-negative integers")
            if len(v) != len(moves):
                return f"{k} has {len(v)} entries for {len(moves)} moves"
        its = rec.get("iters")
        if its is not None:
            if not isinstance(its, list) or not all(x is None or _is_int(x) for x in its):
                return "iters is not a list of integers or nulls"
            if len(its) != len(moves):
                return f"iters has {len(its)} entries for {len(moves)} moves"
    elif rec.get("movers") is not None or rec.get("us") is not None or rec.get("iters") is not None:
        return "movers, us or iters without moves"
    if header is not None:
        if rec["game"] != header["game"] or rec["params"] != header["params"]:
            return "a game or parameters other than the run's"
        if rec.get("seed", header["seed"]) != header["seed"]:
            return "a seed other than the run's"
        if "agents" in rec and rec["agents"] != header["agents"]:
            return "agents other than the run's"
        if not set(seats) <= set(header["agents"]):
            return "seats name an agent that is not in the run"
        if n != header["players"]:
            return f"{n} seats in a {header['players']}-player run"
    return None


def _header_mismatch(found: Mapping[str, Any], expected: Mapping[str, Any]) -> list[str]:
    """The run parameters in which a file's header differs from this run's
    (the master seed is named, never shown)."""
    out = []
    for k in HEADER_FIELDS:
        if found.get(k) != expected.get(k):
            out.append(f"{k} (the file's seed differs)" if k == "seed" else
                       f"{k} (the file's {found.get(k)!r}, this run's {expected.get(k)!r})")
    return out


def _legacy_mismatch(rec: Mapping[str, Any], expected: Mapping[str, Any]) -> Optional[str]:
    """How a record of a file without header (written before headers existed)
    differs from this run, or None."""
    if rec["game"] != expected["game"] or rec["params"] != expected["params"]:
        return f"game (the file's {rec['game']!r} {rec['params']!r}, this run's {expected['game']!r} " \
               f"{expected['params']!r})"
    if rec.get("seed") != expected["seed"]:
        return "seed (the file's seed differs)"
    if rec.get("agents") != expected["agents"]:
        return f"agents (the file's {rec.get('agents')!r}, this run's {expected['agents']!r})"
    if len(rec["seats"]) != expected["players"]:
        return f"players (the file's {len(rec['seats'])}, this run's {expected['players']})"
    return None


@dataclass
class ResultsScan:
    """What a results file holds: its ``header`` (None in a file written
    before headers), its valid game ``records`` in file order, the 1-based
    numbers of the lines skipped as unreadable or not records of the run
    (``bad_lines``), and how its last line ends (``tail``: ``"newline"``;
    ``"complete"``, a valid line missing only its newline; ``"torn"``, a cut
    off line of ours, at byte ``tail_offset``; ``"bad"``, another unterminated
    line, also in ``bad_lines``). ``empty``: no line at all (or only a torn
    one)."""

    header: Optional[dict[str, Any]] = None
    records: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    bad_lines: list[int] = dataclasses.field(default_factory=list)
    tail: str = "newline"
    tail_offset: int = 0
    empty: bool = True


def _is_torn_ours(line: bytes) -> bool:
    """A line cut off while the arena wrote it: it starts as our lines do."""
    return line.startswith(_OUR_PREFIX) or _OUR_PREFIX.startswith(line)


def _iter_lines(f: Any) -> Iterable[tuple[int, Optional[bytes], bool]]:
    """(offset, line without its newline or None if longer than
    MAX_LINE_BYTES, whether it ended with a newline), reading at most
    MAX_LINE_BYTES + 1 bytes of a line into memory."""
    off = 0
    while True:
        line = f.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield off, line[:-1], True
            off += len(line)
            continue
        if len(line) <= MAX_LINE_BYTES:
            yield off, line, False
            return
        size = len(line)
        ended = False
        while True:
            more = f.readline(1 << 20)
            size += len(more)
            if not more:
                break
            if more.endswith(b"\n"):
                ended = True
                break
        yield off, None, ended
        off += size


def _decode(line: Optional[bytes]) -> Any:
    if line is None:
        return None
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def scan_results(f: Any, *, name: str = "results file") -> ResultsScan:
    """Read an open binary results file (see :class:`ResultsScan`).

    :raises ResultsFileError: if its first line is neither a run header nor a
        game record: it is not a results file.
    """
    scan = ResultsScan()
    first = True
    for lineno, (off, line, ended) in enumerate(_iter_lines(f), start=1):
        if not ended and line is not None and _is_torn_ours(line) and _decode(line) is None:
            scan.tail, scan.tail_offset = "torn", off
            break
        obj = _decode(line)
        if first:
            first = False
            if is_header(obj):
                problem = _header_problem(obj)
                if problem is not None:
                    raise ResultsFileError(f"{name} cannot be resumed: {problem}")
                scan.header = obj
            elif check_record(obj) is None:
                scan.records.append(obj)
            else:
                raise ResultsFileError(f"{name} is not an arena results file: its first line is not a run "
                                       f"header or a game record; give a new --out path")
            scan.empty = False
        elif check_record(obj, scan.header) is None:
            scan.records.append(obj)
        else:
            scan.bad_lines.append(lineno)
        if not ended:
            scan.tail = "bad" if scan.bad_lines and scan.bad_lines[-1] == lineno else "complete"
    return scan


def _stat_kind(mode: int) -> str:
    import stat
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"


def _open_regular(path: Union[str, os.PathLike[str]], *, write: bool) -> int:
    """A file descriptor of the regular file at ``path`` (created if
    ``write`` and missing, with its directories). Anything else (a
    directory, a FIFO, a device, a socket) is refused before it is opened
    and again after (O_NONBLOCK: a FIFO swapped in between cannot block the
    open), so nothing reads without end or hangs.

    :raises ResultsFileError: naming the path and the problem.
    """
    import stat
    p = os.fspath(path)
    what = f"results file {p!r}"
    try:
        st: Optional[os.stat_result] = os.stat(p)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise ResultsFileError(f"{what} is under a file, not in a directory") from None
    except OSError as e:
        raise ResultsFileError(f"{what} cannot be used: {e.strerror or e}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise ResultsFileError(f"{what} is {_stat_kind(st.st_mode)}, not a regular file")
    if st is None:
        if not write:
            raise ResultsFileError(f"{what} does not exist")
        parent = Path(p).parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise ResultsFileError(f"{what} is under a file, not in a directory") from None
        except OSError as e:
            raise ResultsFileError(f"{what}: cannot create its directory {str(parent)!r}: "
                                   f"{e.strerror or e}") from None
    flags = (os.O_RDWR | os.O_APPEND | os.O_CREAT) if write else os.O_RDONLY
    flags |= os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(p, flags, 0o666)
    except NotADirectoryError:
        raise ResultsFileError(f"{what} is under a file, not in a directory") from None
    except OSError as e:
        raise ResultsFileError(f"{what} cannot be opened for {'writing' if write else 'reading'}: "
                               f"{e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ResultsFileError(f"{what} is {_stat_kind(st.st_mode)}, not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class ResultsFile:
    """A results file open for a run: checked, repaired, locked, appended to.

    Opening reads the file (:func:`scan_results`) and refuses, changing
    nothing, a file that is not a results file or holds another run (its
    header, or for a file without one its records, differ from this run's
    ``header``). Only then it repairs the end: a torn record of ours is cut
    off, a last line missing its newline gets one. A new or empty file gets
    the header. ``force_new``: an existing results file (of any run) is
    emptied first; a file that is not a results file is still refused.
    """

    def __init__(self, path: Union[str, os.PathLike[str]], header: Mapping[str, Any], *,
                 force_new: bool = False) -> None:
        self.path = os.fspath(path)
        name = f"results file {self.path!r}"
        fd = _open_regular(path, write=True)
        try:
            try:
                import fcntl
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except ImportError:       # pragma: no cover - not POSIX
                pass
            except OSError:
                raise ResultsFileError(f"{name} is in use by another arena run") from None
            with open(os.dup(fd), "rb") as f:
                scan = scan_results(f, name=name)
            if force_new and not scan.empty:
                os.ftruncate(fd, 0)
                scan = ResultsScan()
            if scan.header is not None:
                diff = _header_mismatch(scan.header, header)
                if diff:
                    raise ResultsFileError(f"{name} holds another run: its {'; '.join(diff)}. Resume with the "
                                           f"same game, parameters, seed, agents and schedule, or start over "
                                           f"with --force-new (force_new=True) or a new file")
            elif not scan.empty:
                for rec in scan.records:
                    diff1 = _legacy_mismatch(rec, header)
                    if diff1 is not None:
                        raise ResultsFileError(f"{name} (written without a run header) holds another run: its "
                                               f"{diff1}. Resume with the same game, parameters, seed and agents, "
                                               f"or start over with --force-new (force_new=True) or a new file")
            if scan.tail == "torn":
                os.ftruncate(fd, scan.tail_offset)
            elif scan.tail in ("complete", "bad"):
                _write_all(fd, b"\n")
            if scan.empty:
                _write_all(fd, (_ENCODE(dict(header)) + "\n").encode())
                scan.header = dict(header)
        except BaseException:
            os.close(fd)
            raise
        self.fd: Optional[int] = fd
        self.scan = scan

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.scan.records

    @property
    def bad_lines(self) -> list[int]:
        return self.scan.bad_lines

    def append(self, records: Sequence[Mapping[str, Any]]) -> None:
        """One line per record, in one write."""
        assert self.fd is not None
        _write_all(self.fd, "".join(_ENCODE(r) + "\n" for r in records).encode())

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _key(rec: Mapping[str, Any]) -> tuple[Any, ...]:
    """What identifies a game: the game and its parameters, the deal and who sits where."""
    return (rec["game"], tuple(sorted(rec["params"].items())), rec["deal_seed"], tuple(rec["seats"]))


def read_scan(path: Union[str, os.PathLike[str]], *, repair: bool = False) -> ResultsScan:
    """:func:`scan_results` of the file at ``path`` (a missing file is empty).
    ``repair=True`` cuts a torn last record of ours off the file and ends a
    complete or unreadable last line with a newline, as a resume does.

    :raises ResultsFileError: for a path that is not a regular file or not a
        results file.
    """
    if not os.path.lexists(os.fspath(path)):
        return ResultsScan()
    fd = _open_regular(path, write=False)
    with open(fd, "rb") as f:
        scan = scan_results(f, name=f"results file {os.fspath(path)!r}")
    if repair and scan.tail != "newline":
        fd = _open_regular(path, write=True)
        try:
            if scan.tail == "torn":
                os.ftruncate(fd, scan.tail_offset)
            else:
                _write_all(fd, b"\n")
        finally:
            os.close(fd)
    return scan


def read_results(path: Union[str, os.PathLike[str]], *, repair: bool = False) -> list[dict[str, Any]]:
    """The valid game records of a results file, in file order (the header
    and skipped lines are in :func:`read_scan`). A torn last record (a crash
    mid-write) is skipped and, with ``repair=True``, cut off the file; lines
    that are not valid records of the file's run are skipped
    (:func:`check_record`).

    :raises ResultsFileError: for a path that is not a regular file or not a
        results file.
    """
    return read_scan(path, repair=repair).records


# ==========================================================================================
# Statistics
# ==========================================================================================

PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference of an expected score in (0, 1) (+-inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _solve_theta(phat: Sequence[float], phi: Sequence[float]) -> float:
    """The root of g(x) = sum phat_i phi_i / (1 + x phi_i) on (-1/max phi, -1/min phi),
    where g falls from +inf to -inf (safeguarded Newton)."""
    lo, hi = -1.0 / max(phi), -1.0 / min(phi)
    x = 0.0
    for _ in range(200):
        g = dg = 0.0
        for p, f in zip(phat, phi):
            d = 1.0 + x * f
            g += p * f / d
            dg -= p * f * f / (d * d)
        if g > 0:
            lo = x
        elif g < 0:
            hi = x
        else:
            return x
        nx = x - g / dg
        if not lo < nx < hi:
            nx = 0.5 * (lo + hi)
        if abs(nx - x) <= 1e-15 * (1.0 + abs(x)):
            return nx
        x = nx
    return x


def _mle_logistic(phat: Sequence[float], s: float) -> list[float]:
    """The distribution on PENTA_SCORES closest to ``phat`` (maximum likelihood)
    with expectation ``s`` (Van den Bergh, prop. 1.1)."""
    phi = [a - s for a in PENTA_SCORES]
    th = _solve_theta(phat, phi)
    return [p / (1.0 + th * f) for p, f in zip(phat, phi)]


def _mle_normalized(phat: Sequence[float], t: float, mu_ref: float = 0.5, _depth: int = 0) -> list[float]:
    """The maximum-likelihood distribution with (mu - mu_ref) / sigma = t
    (Van den Bergh, section 4.1: the fixed point of p_i = p^_i / (1 + theta phi_i)).

    It starts from the empirical law (fastchess starts from the uniform one;
    the fixed point is the same); when phi has no sign change there, the
    solution for t/2 is the starting point instead (a hypothesis far from the
    results, e.g. a large elo1 with an even score)."""
    p = list(phat)
    for attempt in range(2):
        ok = True
        for _ in range(1000):
            mu = sum(a * q for a, q in zip(PENTA_SCORES, p))
            sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(PENTA_SCORES, p)))
            phi = [a - mu_ref - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in PENTA_SCORES]
            if not min(phi) < 0.0 < max(phi):
                ok = False
                break
            th = _solve_theta(phat, phi)
            new = [q / (1.0 + th * f) for q, f in zip(phat, phi)]
            diff = max(abs(a - b) for a, b in zip(new, p))
            p = new
            if diff < 1e-10:
                break
        if ok:
            return p
        if attempt == 0 and _depth < 30 and t != 0.0:
            p = _mle_normalized(phat, t / 2, mu_ref, _depth + 1)
    raise ValueError(f"the SPRT's normalized Elo bound (t={t:.3g}) is out of reach of these results")


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test on game pairs, as fastchess and
    OpenBench run it.

    H0: the first agent is ``elo0`` stronger than the second; H1: ``elo1``.
    After every deal pair the log-likelihood ratio (LLR) of the pentanomial
    counts is compared with Wald's bounds ``lower = ln(beta / (1 - alpha))``
    and ``upper = ln((1 - beta) / alpha)``: at or above ``upper`` H1 is
    accepted, at or below ``lower`` H0, in between play goes on.

    The LLR is the generalized one of M. Van den Bergh, "Comments on
    Normalized Elo" (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf),
    as fastchess's ``sprt.cpp`` computes it: with the pair scores
    a = (0, 1/4, 1/2, 3/4, 1) (a pair's points over 2) and their empirical
    frequencies p^ over N pairs (an empty bin counts 0.001),

        LLR = N * sum_i p^_i * (ln p1_i - ln p0_i)

    where p_j is the maximum-likelihood distribution under H_j:

    * ``model="logistic"``: E[a] = s_j with s_j = 1 / (1 + 10^(-elo_j/400));
      p_i = p^_i / (1 + theta (a_i - s_j)), theta the root of
      sum_i p^_i (a_i - s_j) / (1 + theta (a_i - s_j)) = 0 (prop. 1.1).
    * ``model="normalized"`` (the default, as in fastchess): the elos are
      normalized Elo, t_j = (mu - 1/2) / sigma = sqrt(2) * elo_j / (800 / ln 10)
      for pairs; p is the fixed point of p_i = p^_i / (1 + theta phi_i) with
      phi_i = a_i - 1/2 - t_j sigma (1 + ((a_i - mu) / sigma)^2) / 2, mu and
      sigma those of the current p, theta solving
      sum_i p^_i phi_i / (1 + theta phi_i) = 0 (section 4.1).

    >>> s = SPRT(elo0=0, elo1=10)
    >>> s.status(s.llr([10, 20, 40, 20, 10])), s.status(s.llr([0, 10, 300, 100, 40]))
    (None, 'H1')
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        for k in ("elo0", "elo1", "alpha", "beta"):
            v = getattr(self, k)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"SPRT {k} must be a finite number, not {v!r}")
        if self.elo0 >= self.elo1:
            raise ValueError(f"SPRT elo0 ({self.elo0}) must be less than elo1 ({self.elo1})")
        for k in ("alpha", "beta"):
            if not 0.0 < getattr(self, k) < 1.0:
                raise ValueError(f"SPRT {k} must be in (0, 1), not {getattr(self, k)}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError("SPRT alpha + beta must be less than 1")
        if self.model not in ("normalized", "logistic"):
            raise ValueError(f"SPRT model must be 'normalized' or 'logistic', not {self.model!r}")

    @classmethod
    def parse(cls, items: Union[str, Sequence[str]]) -> "SPRT":
        """From ``"elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized"``
        (any subset; the rest default).

        :raises ValueError: naming the bad item.
        """
        parts = items.replace(",", " ").split() if isinstance(items, str) else list(items)
        kw: dict[str, Any] = {}
        names = [f.name for f in dataclasses.fields(cls)]
        for item in parts:
            k, eq, v = item.partition("=")
            if not eq or k not in names:
                raise ValueError(f"SPRT: {item!r} is not one of {', '.join(n + '=...' for n in names)}")
            if k in kw:
                raise ValueError(f"SPRT: {k} is given twice")
            if k == "model":
                kw[k] = v
            else:
                try:
                    kw[k] = float(v)
                except ValueError:
                    raise ValueError(f"SPRT: {item!r}: {k} must be a number") from None
        return cls(**kw)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, penta: Sequence[int]) -> float:
        """The LLR of pentanomial counts (pairs scoring 0, 1/2, 1, 3/2, 2 points)."""
        if len(penta) != 5:
            raise ValueError("pentanomial counts are five numbers")
        if sum(penta) == 0:
            return 0.0
        reg = [float(c) if c else 1e-3 for c in penta]
        total = sum(reg)
        phat = [c / total for c in reg]
        if self.model == "logistic":
            p0 = _mle_logistic(phat, _score_from_elo(self.elo0))
            p1 = _mle_logistic(phat, _score_from_elo(self.elo1))
        else:
            k = math.sqrt(2.0) * math.log(10.0) / 800.0
            p0 = _mle_normalized(phat, self.elo0 * k)
            p1 = _mle_normalized(phat, self.elo1 * k)
        return total * sum(q * (math.log(b) - math.log(a)) for q, a, b in zip(phat, p0, p1))

    def status(self, llr: float) -> Optional[str]:
        """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower, else None."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _pair_points(ra: float, rb: float) -> float:
    return 1.0 if ra > rb else 0.5 if ra == rb else 0.0


def _finite(x: float) -> Optional[float]:
    return x if math.isfinite(x) else None


def _pentanomial_stats(penta: Sequence[int]) -> dict[str, Any]:
    n = sum(penta)
    if n == 0:
        return {"score": None, "elo": None, "elo_lo": None, "elo_hi": None}
    mu = sum(c * a for c, a in zip(penta, PENTA_SCORES)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(penta, PENTA_SCORES)) / n
    half = _Z95 * math.sqrt(var / n)
    return {"score": mu, "elo": _finite(elo_from_score(mu)), "elo_lo": _finite(elo_from_score(mu - half)),
            "elo_hi": _finite(elo_from_score(mu + half))}


class Summary(dict):  # type: ignore[type-arg]
    """An arena's summary: a JSON-safe dict; ``str()`` is the printed table."""

    def __str__(self) -> str:
        return format_summary(self)


def _agent_order(records: Sequence[Mapping[str, Any]]) -> list[str]:
    order: list[str] = []
    for r in records:
        for a in list(r.get("agents") or []) + list(r["seats"]):
            if a not in order:
                order.append(a)
    return order


def _deal_key(r: Mapping[str, Any]) -> tuple[int, int]:
    return (int(r.get("seed", 0)), int(r.get("deal", 0)))


def _sprt_prefix(records: Sequence[Mapping[str, Any]], labels: Sequence[str],
                 sprt: SPRT) -> tuple[int, list[list[float]], Optional[str], float, list[int]]:
    """Walk the deals in order while each is complete (both seatings of the
    pair); returns how many deals count, the LLR trajectory [[games, llr],
    ...], the decision, the last LLR and the pentanomial counts."""
    by_deal: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
    for r in records:
        by_deal.setdefault(_deal_key(r), []).append(r)
    penta = [0] * 5
    traj: list[list[float]] = [[0, 0.0]]
    llr = 0.0
    games = 0
    counted = 0
    for dk in sorted(by_deal):
        rs = by_deal[dk]
        pts = 0.0
        seen = set()
        for r in rs:
            seats = r["seats"]
            i = seats.index(labels[0])
            seen.add(i)
            pts += _pair_points(r["returns"][i], r["returns"][1 - i])
        if seen != {0, 1}:
            break
        penta[int(round(pts * 2))] += 1
        games += len(rs)
        counted += 1
        llr = sprt.llr(penta)
        traj.append([games, llr])
        if sprt.status(llr):
            break
    return counted, traj, sprt.status(llr), llr, penta


def summarize(records: Iterable[Mapping[str, Any]], *, agents: Optional[Sequence[str]] = None,
              sprt: Optional[SPRT] = None) -> Summary:
    """The statistics of game records (from :func:`run` or :func:`read_results`).

    ``agents``: the labels in table order (default: as the records list them).
    With ``sprt`` (two agents, two players) only the deals up to the SPRT's
    decision count, in deal order, so the summary is the same however many
    games were in flight when it decided.

    Win share: each game's win (the top return; a tie at the top is split,
    an all-round tie gives everyone 1/n) credited to the seats, averaged over
    an agent's seats; its 95% interval treats each deal as one sample (games
    of one deal are not independent) with Student's t; the fair share is 1/n.
    Margin: an agent's score minus the best other score at its table.
    """
    recs = []
    keys = set()
    for i, r in enumerate(records):        # a game listed twice counts once
        problem = check_record(r)
        if problem is not None:
            raise ValueError(f"record {i} is not a valid game record: {problem}")
        gk = _key(r)
        if gk not in keys:
            keys.add(gk)
            recs.append(r)
    if not recs:
        raise ValueError("no game records to summarize")
    g0 = recs[0]
    for r in recs:
        if r["game"] != g0["game"] or r["params"] != g0["params"]:
            raise ValueError(f"records of different games: {g0['game']} {g0['params']} and {r['game']} {r['params']}")
        if len(r["seats"]) != len(g0["seats"]):
            raise ValueError(f"records of {len(g0['seats'])} and of {len(r['seats'])} players")
    labels = list(agents) if agents is not None else _agent_order(recs)
    index = {a: i for i, a in enumerate(labels)}
    for r in recs:
        for s in r["seats"]:
            if s not in index:
                raise ValueError(f"a record seats agent {s!r}, not one of {labels}")
    # one canonical order: by deal, then by seating (completion order never matters)
    recs.sort(key=lambda r: (_deal_key(r), [index[s] for s in r["seats"]]))
    n_players = len(recs[0]["returns"])
    k = len(labels)
    summary = Summary(game=g0["game"], params=dict(g0["params"]), players=n_players, agents=labels)
    two = k == 2 and n_players == 2
    if sprt is not None:
        if not two:
            raise ValueError("an SPRT compares two agents in a two-player game")
        counted, traj, status, llr, penta = _sprt_prefix(recs, labels, sprt)
        keep = set(sorted({_deal_key(r) for r in recs})[:counted])
        extra = sum(1 for r in recs if _deal_key(r) not in keep)
        recs = [r for r in recs if _deal_key(r) in keep]
        summary["sprt"] = dict(sprt.to_dict(), llr=llr, lower=sprt.lower, upper=sprt.upper, result=status,
                               pairs=sum(penta), games=len(recs), trajectory=traj)
    deals = sorted({_deal_key(r) for r in recs})
    summary["deals"] = len(deals)
    summary["games"] = len(recs)
    # --- per agent: win share, score, margin, returns -------------------------------
    share_deal = [[0.0] * len(deals) for _ in range(k)]
    seats_deal = [[0] * len(deals) for _ in range(k)]
    dpos = {d: i for i, d in enumerate(deals)}
    score_sum = [0.0] * k
    margin_sum = [0.0] * k
    ret_sum = [0.0] * k
    seat_games = [0] * k
    first_sum = [0.0] * k
    for r in recs:
        ret, sc = r["returns"], r["scores"]
        top = max(ret)
        winners = [p for p, x in enumerate(ret) if x == top]
        d = dpos[_deal_key(r)]
        for p, lab in enumerate(r["seats"]):
            a = index[lab]
            w = 1.0 / len(winners) if p in winners else 0.0
            share_deal[a][d] += w
            seats_deal[a][d] += 1
            seat_games[a] += 1
            score_sum[a] += sc[p]
            margin_sum[a] += sc[p] - max(x for q, x in enumerate(sc) if q != p)
            ret_sum[a] += ret[p]
            first_sum[a] += 1.0 if winners == [p] else 0.0
    standings = []
    fair = 1.0 / n_players
    for a, lab in enumerate(labels):
        n = seat_games[a]
        row: dict[str, Any] = {"agent": lab, "games": n}
        if n == 0:
            standings.append(row)
            continue
        share = sum(share_deal[a]) / n
        used = [(s, c) for s, c in zip(share_deal[a], seats_deal[a]) if c]
        lo = hi = None
        if len(used) >= 2:
            cbar = n / len(used)
            dev = [((s - share * c) / cbar) ** 2 for s, c in used]
            se = math.sqrt(sum(dev) / (len(used) * (len(used) - 1)))
            half = _t95(len(used) - 1) * se
            lo, hi = max(0.0, share - half), min(1.0, share + half)
        verdict = None
        if lo is not None and hi is not None:
            verdict = "above" if lo > fair else "below" if hi < fair else "fair"
        row.update(win_share=share, win_share_lo=lo, win_share_hi=hi, fair_share=fair, vs_fair=verdict,
                   sole_wins=first_sum[a] / n, mean_score=score_sum[a] / n, mean_margin=margin_sum[a] / n,
                   mean_return=ret_sum[a] / n)
        standings.append(row)
    ratings = _openskill(recs, labels, index)
    for row, rt in zip(standings, ratings):
        row.update(rt)
    summary["standings"] = standings
    if ratings and ratings[0].get("rating_mu") is None:
        summary["note"] = "ratings need openskill: pip install 'tabuleiro[arena]'"
    # --- two players: W/D/L, pentanomial, Elo of each pair of agents ---------------
    if two:
        summary["pair"] = _pair_stats(recs, labels[0], labels[1])
    elif n_players == 2:
        summary["head_to_head"] = [_pair_stats(recs, a, b) for a, b in itertools.combinations(labels, 2)]
    summary["timing"] = _timing(recs, labels, index)
    if sprt is not None:
        # games that were in flight when the SPRT decided: they depend on the
        # backend and job count, so they live outside the statistics
        summary["extra_games"] = extra
    return summary


def _pair_stats(recs: Sequence[Mapping[str, Any]], a: str, b: str) -> dict[str, Any]:
    """``a`` against ``b`` in two-player games: W/D/L, the pentanomial counts of
    the deals where both seatings were played, the score and Elo with its 95%
    interval from the pair scores."""
    wins = draws = losses = 0
    by_deal: dict[tuple[int, int], list[float]] = {}
    for r in recs:
        seats = r["seats"]
        if a not in seats or b not in seats:
            continue
        i = seats.index(a)
        pts = _pair_points(r["returns"][i], r["returns"][1 - i])
        wins += pts == 1.0
        draws += pts == 0.5
        losses += pts == 0.0
        by_deal.setdefault(_deal_key(r), []).append(pts)
    penta = [0] * 5
    for pts_list in by_deal.values():
        if len(pts_list) == 2:
            penta[int(round(sum(pts_list) * 2))] += 1
    return dict(agent=a, opponent=b, wins=wins, draws=draws, losses=losses, penta=penta, pairs=sum(penta),
                **_pentanomial_stats(penta))


def _openskill(recs: Sequence[Mapping[str, Any]], labels: Sequence[str],
               index: Mapping[str, int]) -> list[dict[str, Any]]:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return [{"rating_mu": None, "rating_sigma": None} for _ in labels]
    model = PlackettLuce()
    rating = [model.rating(name=lab) for lab in labels]
    for r in recs:
        ret = r["returns"]
        seats = [index[s] for s in r["seats"]]
        teams = [[rating[a]] for a in seats]
        ranks: list[float] = [1.0 + sum(1 for y in ret if y > x) for x in ret]
        new = model.rate(teams, ranks=ranks)
        if len(set(seats)) == len(seats):
            for a, team in zip(seats, new):
                rating[a] = team[0]
            continue
        # an agent in several seats (fewer agents than seats): the mean of its updates
        got: dict[int, list[Any]] = {}
        for a, team in zip(seats, new):
            got.setdefault(a, []).append(team[0])
        for a, rs in got.items():
            x = rs[0]
            x.mu = sum(y.mu for y in rs) / len(rs)
            x.sigma = sum(y.sigma for y in rs) / len(rs)
            rating[a] = x
    return [{"rating_mu": x.mu, "rating_sigma": x.sigma, "rating_ordinal": x.mu - 3 * x.sigma} for x in rating]


def _timing(recs: Sequence[Mapping[str, Any]], labels: Sequence[str], index: Mapping[str, int]) -> dict[str, Any]:
    """Thinking time and search iterations per move of each agent (these vary
    from machine to machine; every other part of a summary is deterministic)."""
    moves = [0] * len(labels)
    us = [0] * len(labels)
    it_moves = [0] * len(labels)
    it_sum = [0] * len(labels)
    for r in recs:
        seats = [index[s] for s in r["seats"]]
        n = len(seats)
        tot, cnt, itt, itc = [0] * n, [0] * n, [0] * n, [0] * n
        movers = r.get("movers") or ()
        for m, t in zip(movers, r.get("us") or ()):
            tot[m] += t
            cnt[m] += 1
        its = r.get("iters")
        if its is not None:
            for m, it in zip(movers, its):
                if it is not None:
                    itt[m] += it
                    itc[m] += 1
        for p, a in enumerate(seats):
            moves[a] += cnt[p]
            us[a] += tot[p]
            it_moves[a] += itc[p]
            it_sum[a] += itt[p]
    out = {}
    for a, lab in enumerate(labels):
        out[lab] = {"moves": moves[a], "ms_per_move": us[a] / moves[a] / 1000 if moves[a] else None,
                    "iterations_per_move": it_sum[a] / it_moves[a] if it_moves[a] else None}
    return out


def summarize_file(path: Union[str, os.PathLike[str]], *, agents: Optional[Sequence[str]] = None,
                   sprt: Optional[SPRT] = None) -> Summary:
    """:func:`summarize` of a results file, from its lines alone: its run
    header's agents (when ``agents`` is not given) and its valid records.
    Skipped lines (:func:`read_scan`) are listed in ``skipped_lines``.

    :raises ResultsFileError: for a path that is not a regular file or not a
        results file.
    """
    scan = read_scan(path)
    if agents is None and scan.header is not None:
        agents = scan.header["agents"]
    return _note_skipped(summarize(scan.records, agents=agents, sprt=sprt), scan.bad_lines)


def _note_skipped(summary: Summary, bad_lines: Sequence[int]) -> Summary:
    """Record in a summary the lines of its file that were skipped."""
    if bad_lines:
        summary["skipped_lines"] = list(bad_lines)
    return summary


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
                        if s.get("extra_games") else ""))
    if "pair" in s:
        p = s["pair"]
        lines.append(f"{p['agent']} vs {p['opponent']}: W {p['wins']} D {p['draws']} L {p['losses']}; "
                     f"pairs (0, 1/2, 1, 3/2, 2 points) {p['penta']}")
        if p["score"] is not None:
            lines.append(f"  score {p['score']:.3f}, Elo {_num(p['elo'], '+.1f')} "
                         f"(95% {_num(p['elo_lo'], '+.1f')} to {_num(p['elo_hi'], '+.1f')})")
    for p in s.get("head_to_head", []):
        lines.append(f"  {p['agent']} vs {p['opponent']}: W {p['wins']} D {p['draws']} L {p['losses']}, "
                     f"Elo {_num(p['elo'], '+.0f')} (95% {_num(p['elo_lo'], '+.0f')} to {_num(p['elo_hi'], '+.0f')})")
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
    if s.get("note"):
        lines.append(s["note"])
    warn = skipped_warning(s)
    if warn:
        lines.append(warn)
    return "\n".join(lines)


def plot(summary: Mapping[str, Any], path: Union[str, os.PathLike[str]]) -> None:
    """Win shares and ratings with their intervals, and for an SPRT the LLR
    against games played, into a PNG (needs matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'tabuleiro[arena]'") from None
    rows = [r for r in summary["standings"] if r.get("win_share") is not None]
    rows.sort(key=lambda r: r["win_share"])
    has_rating = any(r.get("rating_mu") is not None for r in rows)
    panels = 1 + has_rating + ("sprt" in summary)
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 1.8 + 0.4 * max(3, len(rows))), squeeze=False)
    ax = axes[0][0]
    ys = list(range(len(rows)))
    xs = [r["win_share"] for r in rows]
    lo = [r["win_share"] - (r["win_share_lo"] if r["win_share_lo"] is not None else r["win_share"]) for r in rows]
    hi = [(r["win_share_hi"] if r["win_share_hi"] is not None else r["win_share"]) - r["win_share"] for r in rows]
    ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=4, color="tab:blue")
    ax.axvline(1.0 / summary["players"], ls="--", color="grey", label="fair share")
    ax.set_yticks(ys)
    ax.set_yticklabels([r["agent"] for r in rows])
    ax.set_xlabel("win share (95% interval)")
    ax.legend(loc="lower right", fontsize="small")
    title = f"{summary['game']}, {summary['players']} players: {summary['games']} games, {summary['deals']} deals"
    if "pair" in summary and summary["pair"]["elo"] is not None:
        p = summary["pair"]
        title += f"\nElo {p['elo']:+.0f} ({_num(p['elo_lo'], '+.0f')} to {_num(p['elo_hi'], '+.0f')})"
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
        ax.set_xlabel("OpenSkill Plackett-Luce mu (+- 1.96 sigma)")
        ax.set_title("ratings", fontsize="medium")
    if "sprt" in summary:
        t = summary["sprt"]
        ax = axes[0][col]
        g = [x[0] for x in t["trajectory"]]
        ll = [x[1] for x in t["trajectory"]]
        ax.plot(g, ll, color="tab:purple")
        ax.axhline(t["upper"], ls="--", color="tab:green", label=f"accept H1 ({t['upper']:.2f})")
        ax.axhline(t["lower"], ls="--", color="tab:red", label=f"accept H0 ({t['lower']:.2f})")
        ax.set_xlabel("games")
        ax.set_ylabel("LLR")
        ax.set_title(f"SPRT [{t['elo0']:g}, {t['elo1']:g}] {t['model']}: {t['result'] or 'undecided'}",
                     fontsize="medium")
        ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(str(path), dpi=100)
    plt.close(fig)


def check_plot_path(path: Union[str, os.PathLike[str]]) -> None:
    """Refuse, before any game, a plot path that cannot take the PNG: not a
    regular file, under a file, unwritable, or of a format matplotlib cannot
    write (matplotlib itself is needed). Missing directories are created
    when the plot is written.

    :raises ValueError: naming the path and the problem; ImportError
        without matplotlib.
    """
    import stat
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
    try:
        st: Optional[os.stat_result] = os.stat(p)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise ValueError(f"{what} is under a file, not in a directory") from None
    except OSError as e:
        raise ValueError(f"{what} cannot be used: {e.strerror or e}") from None
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{what} is {_stat_kind(st.st_mode)}, not a regular file")
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


# ==========================================================================================
# run
# ==========================================================================================

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


def run(game: Union[str, Game], agents: Sequence[Any], *, deals: int, seed: int = 0,
        params: Optional[Mapping[str, Any]] = None, out: Optional[Union[str, os.PathLike[str]]] = None,
        jobs: Optional[int] = None, backend: str = "local", address: Optional[str] = None,
        sprt: Optional[Union[SPRT, str, Sequence[str]]] = None, plot_to: Optional[Union[str, os.PathLike[str]]] = None,
        schedule_mode: str = "all", progress: bool = False, force_new: bool = False) -> Summary:
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
    an :class:`SPRT` (or its text) that stops the run as soon as it decides.
    ``plot_to``: a PNG of the summary (:func:`plot`). ``progress``: a live bar.

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
    entries = [parse_agent(a) for a in agents]
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
    cfg = _Config(g.name, g.params, tuple(entries), seed)
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

    def advance_sprt() -> None:
        nonlocal sprt_pos, llr, decided
        assert isinstance(sprt, SPRT)
        while decided is None and sprt_pos < len(deal_order):
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
            decided = sprt.status(llr)

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
        if todo and decided is None:
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
                while decided is None and pos < len(todo) and runner.pending() < in_flight:
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
                    if sprt is not None:
                        chunk = min(chunk, max(1, len(deal_games[deal_order[0]])))  # small steps: stop soon
                    for i, rec in zip(ids, recs):
                        results[i] = rec
                        standings.add(rec)
                    if rfile is not None:
                        rfile.append(recs)
                    if sprt is not None:
                        advance_sprt()
                        if decided is not None:
                            runner.cancel()
                now = time.perf_counter()
                if bar.bar is not None and now - last_update > 0.25:
                    last_update = now
                    bar.update(len(results), standings.text((llr, sprt) if isinstance(sprt, SPRT) else None))
            bar.update(len(results), standings.text((llr, sprt) if isinstance(sprt, SPRT) else None))
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

