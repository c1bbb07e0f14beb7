"""Playing an arena's games in a worker: one player per agent, started once
per game with that game's seed, and the loop that plays a game into its
record (:class:`_Worker`, built from a picklable :class:`_Config`).

External engines (:mod:`~tabuleiro.arena.engines`) get one process per
seat per worker, kept from game to game, and a clock per game under a time
control; a game an engine forfeits ends there, lost by its seat, and its
record says why (``termination``, ``forfeit``, ``reason``).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from .. import agents as _agents
from .._game import load_game
from .clock import TimeControl
from .engines import EngineSeat, Forfeit
from .records import RECORD_VERSION
from .scheduling import GameSpec, _mix, _seat_seed
from .specs import AgentEntry

__all__ = ["Act", "Start"]


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
    if entry.engine is not None:         # played by _Worker._play_engines, never started
        def no_start(seed: int, box: list[Optional[int]]) -> Act:
            raise AssertionError("an engine is not started as a player")
        return no_start, False
    if entry.agent is not None:
        return _builtin_start(entry.agent)
    obj, kwargs = entry.obj if isinstance(entry.obj, tuple) and entry.spec is not None else (entry.obj, {})
    return _object_start(entry.label, obj, kwargs)


@dataclass(frozen=True)
class _Config:
    game: str
    params: dict[str, Any]
    entries: tuple[AgentEntry, ...]
    seed: int
    tc: Optional[TimeControl] = None
    margin: float = 0.0
    log_dir: Optional[str] = None


def _forfeit_returns(info: Any, loser: int, n: int) -> list[float]:
    """The returns of a game lost by ``loser``'s forfeit: the game's worst
    return for the loser; the rest of the game's utility shared by the others."""
    lo, hi = float(info.min_utility), float(info.max_utility)
    total = getattr(info, "utility_sum", None)
    other = (float(total) - lo) / (n - 1) if total is not None and n > 1 else hi
    return [lo if p == loser else other for p in range(n)]


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
        self.engine_of = [e.engine for e in cfg.entries]
        self.engine_seats: dict[tuple[int, int], EngineSeat] = {}

    def _seat_engine(self, a: int, p: int) -> EngineSeat:
        """Agent ``a``'s engine process at seat ``p`` (one per seat per worker)."""
        es = self.engine_seats.get((a, p))
        if es is None:
            eng = self.engine_of[a]
            assert eng is not None
            log = None
            if self.cfg.log_dir is not None:
                log = os.path.join(self.cfg.log_dir, f"{eng.name}.log")
            es = self.engine_seats[(a, p)] = EngineSeat(eng, p, log)
        return es

    def close(self) -> None:
        """Stop every engine process this worker started."""
        for es in self.engine_seats.values():
            es.proc.close()
        self.engine_seats.clear()

    def play(self, spec: GameSpec) -> dict[str, Any]:
        deal, ds, lineup = spec
        if any(self.engine_of[a] is not None for a in lineup):
            return self._play_engines(spec)
        box: list[Optional[int]] = [None]
        acts = [self.starts[a](_seat_seed(ds, p, self.seeds[a]), box) for p, a in enumerate(lineup)]
        st = self.game.new_initial_state(seed=ds)
        moves: list[int] = []
        movers: list[int] = []
        us: list[int] = []
        add_move, add_mover, add_us = moves.append, movers.append, us.append
        clock = time.perf_counter_ns
        push = st.push
        searching = any(self.searches[a] for a in lineup)
        iters: list[Optional[int]] = []     # a search's iterations a move, kept where a seat searches
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
            if searching:
                add_iters(box[0])
                box[0] = None
        return {"v": RECORD_VERSION, "game": self.cfg.game, "params": self.cfg.params, "seed": self.cfg.seed,
                "deal": deal, "deal_seed": ds, "seats": [self.labels[a] for a in lineup], "agents": self.labels,
                "moves": moves, "movers": movers, "scores": st.scores(), "returns": st.returns(), "us": us,
                "iters": iters if searching else None}

    def _play_engines(self, spec: GameSpec) -> dict[str, Any]:
        """A game with external engines at some seats: their clocks, their
        forfeits (the game ends there, lost by the engine's seat)."""
        deal, ds, lineup = spec
        box: list[Optional[int]] = [None]
        seats: list[Optional[EngineSeat]] = [None] * len(lineup)
        acts: list[Optional[Act]] = [None] * len(lineup)
        for seat, who in enumerate(lineup):
            if self.engine_of[who] is not None:
                seat_engine = seats[seat] = self._seat_engine(who, seat)
                seat_engine.games += 1
            else:
                acts[seat] = self.starts[who](_seat_seed(ds, seat, self.seeds[who]), box)
        tc = self.cfg.tc
        clocks = [tc.clock(self.cfg.margin) if tc is not None and seats[q] is not None else None
                  for q in range(len(lineup))]
        st = self.game.new_initial_state(seed=ds)
        moves: list[int] = []
        movers: list[int] = []
        us: list[int] = []
        iters: list[Optional[int]] = []
        termination = "normal"
        forfeit: Optional[int] = None
        reason: Optional[str] = None
        clock = time.perf_counter_ns
        while True:
            mover = st.current_player
            if mover is None:
                break
            p: int = mover
            t0 = clock()
            es = seats[p]
            a: int
            if es is not None:
                try:
                    a = es.decide(st, clocks[p])
                except Forfeit as f:          # logged, and the process killed, by decide
                    termination, forfeit, reason = f.termination, p, f.detail
                    break
            else:
                act = acts[p]
                assert act is not None
                a = act(st)
            t1 = clock()
            st.push(a)
            moves.append(a)
            movers.append(p)
            us.append((t1 - t0) // 1000)
            iters.append(box[0])
            box[0] = None
        if forfeit is None:
            returns, scores = st.returns(), st.scores()
        else:
            returns = _forfeit_returns(self.game.info, forfeit, len(lineup))
            scores = st.scores()
        rec = {"v": RECORD_VERSION, "game": self.cfg.game, "params": self.cfg.params, "seed": self.cfg.seed,
               "deal": deal, "deal_seed": ds, "seats": [self.labels[a] for a in lineup], "agents": self.labels,
               "moves": moves, "movers": movers, "scores": scores, "returns": returns, "us": us,
               "iters": iters if any(self.searches[a] for a in lineup) else None, "termination": termination}
        if forfeit is not None:
            rec["forfeit"] = forfeit
            rec["reason"] = reason
        return rec

    def play_many(self, specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
        return [self.play(s) for s in specs]
