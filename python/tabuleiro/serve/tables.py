"""The server's tables: games with seats, their moves, their agents, their watchers.

Nothing here knows HTTP or WebSockets: a connection is a :class:`Watcher`
(``push`` a text message, ``close``). What a seat is sent is built from
``State.view(seat)`` and ``Game.public_events(state, move, seat)`` only, and
every move is committed to the :class:`~tabuleiro.serve.store.Store` before
it is applied, acknowledged or shown.

>>> import asyncio
>>> from tabuleiro.serve.store import Store
>>> async def demo():
...     tables = Tables(Store(":memory:"), Limits())
...     tables.start()
...     made = await tables.create({"game": "toy", "seed": 1, "seats": ["human", "random"]})
...     table = tables.get(made["table"])
...     seat = tables.seat_of(table, made["seats"][0]["token"])
...     msg = tables.view_message(table, seat)
...     await tables.close()
...     return seat, msg["ply"], msg["to_move"]
>>> asyncio.run(demo())
(0, 0, 0)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import hashlib
import hmac
import json
import logging
import secrets
import time
from typing import Any, Callable, Optional, Protocol

import tabuleiro

from .. import agents
from .._errors import IllegalMoveError, InvalidMoveError
from .._wire import ProtocolError, _is_int, _seed_value
from .limits import LimitError, Limits, ServeError, check_budget
from .store import Store, TableRecord

__all__ = ["Tables", "Table", "Watcher", "MoveError", "hash_token", "log_event", "outcome_of"]

LOG = logging.getLogger("tabuleiro.serve")
_MASK = (1 << 64) - 1
_MAX_SEAT_SPEC = 200


def log_event(event: str, **fields: Any) -> None:
    """One structured log line (JSON) on the ``tabuleiro.serve`` logger. Callers
    pass only ids, seats, codes and counts: never a token, a move, a card or a seed.

    >>> log_event("table_created", table="abc", seats=2)
    """
    if LOG.isEnabledFor(logging.INFO):
        LOG.info(json.dumps({"ts": round(time.time(), 3), "event": event, **fields}, separators=(",", ":")))


def hash_token(token: str) -> str:
    """The SHA-256 (hex) of a seat token: all the server keeps of it.

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def outcome_of(state: Any) -> Optional[dict[str, Any]]:
    """The engine protocol's ``outcome``: null while the game goes on.

    >>> outcome_of(tabuleiro.load_game("toy").new_initial_state(seed=1)) is None
    True
    """
    o = state.outcome()
    if o is None:
        return None
    return {"winners": list(o.winners), "winner": o.winner, "returns": list(o.returns), "scores": list(o.scores)}


def _mix(a: int, b: int) -> int:
    z = (a * 0x9E3779B97F4A7C15 + b + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class MoveError(ServeError):
    """A refused move or table request (a :class:`ServeError`).

    >>> MoveError("stale", "old ply").code
    'stale'
    """


class Watcher(Protocol):
    """A connection watching one seat: ``push`` never blocks (it queues, or
    drops a reader too far behind), ``close`` ends the connection.

    >>> class Printer:
    ...     def push(self, text: str) -> None: print(text)
    ...     def close(self, code: int, reason: str) -> None: pass
    >>> isinstance(Printer(), object)
    True
    """

    def push(self, text: str) -> None:
        """Queue one text message (example: see the class)."""

    def close(self, code: int, reason: str) -> None:
        """Close the connection (example: see the class)."""


@dataclasses.dataclass
class Seat:
    """One seat: ``kind`` human (with its token's hash) or agent (its spec and agent).

    >>> Seat("human", token_hash="00").human
    True
    """

    kind: str
    token_hash: Optional[str] = None
    spec: Optional[str] = None
    agent: Optional[agents.Agent] = None

    @property
    def human(self) -> bool:
        """A person's seat (example: see the class)."""
        return self.kind == "human"

    def record(self) -> dict[str, Any]:
        """What the database keeps of the seat.

        >>> Seat("agent", spec="random").record()
        {'kind': 'agent', 'spec': 'random'}
        """
        if self.human:
            return {"kind": "human", "token_hash": self.token_hash}
        return {"kind": "agent", "spec": self.spec}


class Table:
    """A game in play: its state, seats, what each seat saw of every move,
    and the sockets watching each seat.

    >>> t = Table("x", tabuleiro.load_game("toy").new_initial_state(seed=1), [Seat("agent", spec="random")] * 2)
    >>> t.ply, len(t.seen)
    (0, 2)
    """

    def __init__(self, table_id: str, state: Any, seats: list[Seat]) -> None:
        self.id = table_id
        self.state = state
        self.seats = seats
        n = state.game.num_players
        self.seen: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.last_events: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.watchers: list[set[Watcher]] = [set() for _ in range(n)]
        self.lock = asyncio.Lock()
        self.touched = time.monotonic()
        self.stop = agents.StopFlag()
        self.ai_task: Optional["asyncio.Task[None]"] = None
        self.closed = False

    @property
    def ply(self) -> int:
        """Moves played (example: see the class)."""
        return len(self.state.history())

    def record_move(self, action: int) -> None:
        """Apply ``action``, keeping what each seat saw of it (the caller has stored it).

        >>> t = Table("x", tabuleiro.load_game("toy").new_initial_state(seed=1),
        ...           [Seat("agent", spec="random"), Seat("human", token_hash="00")])
        >>> t.record_move(t.state.legal_actions()[0]); t.seen[1][0]["move"]
        'play 1'
        """
        st = self.state
        ply, mover = len(st.history()), st.current_player
        # only people are shown what they saw: an agent seat's feed would never be sent
        events = [(p, st.game.public_events(st, action, p)) for p, seat in enumerate(self.seats) if seat.human]
        st.push(action)
        for p, ev in events:
            first = ev[0]
            self.seen[p].append({"ply": ply, "player": mover, "move": first.get("move"), "text": first.get("text")})
            self.last_events[p] = ev


def _check_id(value: str) -> bool:
    return 0 < len(value) <= 64 and value.isascii() and all(c.isalnum() or c in "-_" for c in value)


class Tables:
    """Every table of the server: creation, lookup by token, moves, agents,
    expiry, and the start-up reload from the store.

    >>> Tables(Store(":memory:"), Limits()).count
    0
    """

    def __init__(self, store: Store, limits: Limits, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=limits.search_workers,
                                                          thread_name_prefix="tabuleiro-search")
        self._sweeper: Optional["asyncio.Task[None]"] = None
        self.searches = 0

    @property
    def count(self) -> int:
        """Tables held (example: see the class)."""
        return len(self.tables)

    # --- life cycle -----------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the store's writer, reload every stored table, start the agents
        that are to move and the idle sweep (inside a running event loop).

        >>> Tables.start.__name__
        'start'
        """
        self.store.start()
        for rec in self.store.load():
            try:
                table = self._rebuild(rec)
            except Exception as e:  # noqa: BLE001 - one bad row must not stop the server
                log_event("table_unreadable", table=rec.id, error=type(e).__name__)
                continue
            self.tables[table.id] = table
            self._schedule_agent(table)
        log_event("tables_loaded", tables=len(self.tables))
        if self.limits.idle_seconds > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def _rebuild(self, rec: TableRecord) -> Table:
        game = tabuleiro.load_game(rec.game, **rec.params)
        seats = [self._seat_from_record(d, i, rec.seed, game.name) for i, d in enumerate(rec.seats)]
        table = Table(rec.id, game.new_initial_state(seed=rec.seed), seats)
        for action in rec.moves:
            table.record_move(action)
        return table

    def _seat_from_record(self, d: dict[str, Any], index: int, seed: int, game: str) -> Seat:
        if d.get("kind") == "human":
            return Seat("human", token_hash=str(d["token_hash"]))
        return self._agent_seat(str(d["spec"]), index, seed, game, check=False)

    async def close(self) -> None:
        """Stop every search and the sweep, wait for queued writes, close the store.

        >>> Tables.close.__name__
        'close'
        """
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            table.stop.set()
            if table.ai_task is not None:
                table.ai_task.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)
        await asyncio.get_running_loop().run_in_executor(None, self.store.close)

    # --- creation ---------------------------------------------------------------------------------------------
    def _agent_seat(self, spec: str, index: int, seed: int, game: str, *, check: bool = True) -> Seat:
        name = spec.partition(":")[0].strip()
        if name not in agents.NAMES and name != "level":
            raise MoveError("bad_request", f"seat {index}: {spec[:60]!r} is not a seat: give 'human', 'level:N' "
                            f"or a built-in agent ({', '.join(agents.NAMES)}) with its parameters")
        from ..arena.specs import parse_agent

        try:
            agent = parse_agent(spec).agent
        except (TypeError, ValueError) as e:
            raise MoveError("bad_request", f"seat {index}: {e}") from None
        if agent is None:                       # pragma: no cover - built-in names always give an agent
            raise MoveError("bad_request", f"seat {index}: not a built-in agent")
        if "seed=" not in spec.replace(" ", ""):
            agent = dataclasses.replace(agent, seed=_mix(seed, index + 1))
        if check:
            inner = agent.agent_for(game) if isinstance(agent, agents.LevelAgent) else agent
            budget = {k: getattr(inner, k) for k in ("iterations", "time", "threads", "max_nodes")
                      if getattr(inner, k, None) is not None}
            try:
                check_budget(budget, self.limits)
            except LimitError as e:
                raise MoveError(e.code, f"seat {index}: {e.message}") from None
        return Seat("agent", spec=spec, agent=agent)

    async def create(self, body: Any) -> dict[str, Any]:
        """Create a table from a ``POST /tables`` body; the answer holds each
        human seat's token (the only time it is shown).

        :raises MoveError: ``bad_request``, ``limit`` or ``too_many_tables``.

        >>> import asyncio
        >>> t = Tables(Store(":memory:"), Limits())
        >>> asyncio.run(t.create({"game": "toy", "seats": ["human"]}))
        Traceback (most recent call last):
        ...
        tabuleiro.serve.tables.MoveError: toy is played by 2 players: give 2 seats, not 1
        """
        if not isinstance(body, dict):
            raise MoveError("bad_request", "the body must be a JSON object")
        name = body.get("game")
        if not isinstance(name, str) or name not in tabuleiro.games():
            raise MoveError("bad_request", f"field 'game' must be one of {', '.join(tabuleiro.games())}")
        params = body.get("params") or {}
        if not isinstance(params, dict) or not all(isinstance(v, (int, bool)) for v in params.values()):
            raise MoveError("bad_request", "field 'params' must be an object of the game's parameters "
                            "(integers and booleans)")
        try:
            game = tabuleiro.load_game(name, **params)
        except (TypeError, ValueError) as e:
            raise MoveError("bad_request", str(e)[:300]) from None
        try:
            seed = secrets.randbits(64) if body.get("seed") is None else _seed_value(body["seed"], "seed")
        except ProtocolError as e:
            raise MoveError("bad_request", e.message) from None
        specs = body.get("seats")
        n = game.num_players
        if not isinstance(specs, list) or not all(isinstance(s, str) and len(s) <= _MAX_SEAT_SPEC for s in specs):
            raise MoveError("bad_request", f"field 'seats' must be a list of {n} seat strings ('human', "
                            f"'level:N' or an agent spec, at most {_MAX_SEAT_SPEC} characters each)")
        if len(specs) != n:
            raise MoveError("bad_request", f"{name} is played by {n} players: give {n} seats, not {len(specs)}")
        if len(self.tables) >= self.limits.max_tables:
            raise MoveError("too_many_tables", f"the server holds its limit of {self.limits.max_tables} tables; "
                            "try again later")
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        for i, spec in enumerate(specs):
            if spec.strip() == "human":
                tokens[i] = secrets.token_urlsafe(32)
                seats.append(Seat("human", token_hash=hash_token(tokens[i])))
            else:
                seats.append(self._agent_seat(spec.strip(), i, seed, game.name))
        table_id = secrets.token_urlsafe(9)
        while table_id in self.tables:          # pragma: no cover - 72 random bits
            table_id = secrets.token_urlsafe(9)
        rec = TableRecord(table_id, game.name, game.params, seed, [s.record() for s in seats], self.clock())
        await asyncio.wrap_future(self.store.submit([Store.op_create(rec)]))
        table = Table(table_id, game.new_initial_state(seed=seed), seats)
        self.tables[table_id] = table
        log_event("table_created", table=table_id, game=game.name, seats=n, humans=len(tokens))
        self._schedule_agent(table)
        out_seats = [{"seat": i, "kind": "human", "token": tokens[i]} if s.human
                     else {"seat": i, "kind": "agent", "spec": s.spec} for i, s in enumerate(seats)]
        return {"table": table_id, "game": game.name, "params": game.params, "seats": out_seats,
                "ws": f"/tables/{table_id}/ws"}

    # --- lookup -------------------------------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        """The table, or ``MoveError("no_table")``.

        >>> Tables(Store(":memory:"), Limits()).get("nope")
        Traceback (most recent call last):
        ...
        tabuleiro.serve.tables.MoveError: no table 'nope' (tables idle for 3600 s are removed)
        """
        table = self.tables.get(table_id) if _check_id(table_id) else None
        if table is None:
            shown = table_id if _check_id(table_id) else "(malformed id)"
            raise MoveError("no_table", f"no table {shown!r} (tables idle for {self.limits.idle_seconds:g} s "
                            "are removed)")
        return table

    @staticmethod
    def seat_of(table: Table, token: Optional[str]) -> int:
        """The seat whose token this is, compared in constant time against
        every human seat's hash; ``MoveError`` ``no_token`` or ``bad_token``.

        >>> t = Table("x", tabuleiro.load_game("toy").new_initial_state(seed=1),
        ...           [Seat("human", token_hash=hash_token("s3cret")), Seat("agent", spec="random")])
        >>> Tables.seat_of(t, "s3cret")
        0
        """
        if not token:
            raise MoveError("no_token", "this needs a seat's token (Authorization: Bearer TOKEN, or ?token=)")
        if len(token) > 256:
            raise MoveError("bad_token", "not a token of this table")
        given = hash_token(token)
        found = -1
        for i, seat in enumerate(table.seats):
            if seat.token_hash is not None and hmac.compare_digest(given, seat.token_hash):
                found = i
        if found < 0:
            raise MoveError("bad_token", "not a token of this table")
        return found

    def view_message(self, table: Table, seat: int) -> dict[str, Any]:
        """The view message of ``seat`` (docs/server.md, "The view message").

        >>> t = Table("x", tabuleiro.load_game("toy").new_initial_state(seed=1), [Seat("agent", spec="random")] * 2)
        >>> sorted(Tables(Store(":memory:"), Limits()).view_message(t, 1))[:4]
        ['events', 'game', 'legal', 'moves']
        """
        st = table.state
        over = bool(st.is_terminal)
        mover = None if over else st.current_player
        legal = [{"move": str(m), "id": m.action} for m in st.legal_moves()] if mover == seat else []
        return {"type": "view", "table": table.id, "game": st.game.name, "seat": seat, "ply": table.ply,
                "to_move": mover, "over": over, "outcome": outcome_of(st), "view": st.view(seat), "legal": legal,
                "moves": table.seen[seat], "events": table.last_events[seat]}

    def touch(self, table: Table) -> None:
        """Mark the table as active now (for the idle expiry).

        >>> Tables.touch.__name__
        'touch'
        """
        table.touched = time.monotonic()

    # --- moves ----------------------------------------------------------------------------------------------------
    async def play(self, table: Table, seat: int, move: Any, ply: Any,
                   ack: Callable[[dict[str, Any]], None]) -> None:
        """Play ``move`` for ``seat``: checked, stored, then ``ack`` is called
        with the ack message before any view of the move is sent.

        :raises MoveError: ``bad_request``, ``game_over``, ``stale``,
            ``not_your_turn``, ``invalid_move``, ``illegal_move``; nothing changed.

        >>> Tables.play.__name__
        'play'
        """
        if not isinstance(move, str) and not _is_int(move):
            raise MoveError("bad_request", "field 'move' must be a notation string or an action id")
        if isinstance(move, str) and len(move) > 200:
            raise MoveError("invalid_move", "not a move of this game (over 200 characters)")
        if ply is not None and not _is_int(ply):
            raise MoveError("bad_request", "field 'ply' must be an integer (the ply of the view you answer)")
        async with table.lock:
            if table.closed:
                raise MoveError("no_table", "the table has expired")
            st = table.state
            if st.is_terminal:
                raise MoveError("game_over", "the game is over")
            if ply is not None and ply != table.ply:
                raise MoveError("stale", f"this move answers ply {ply}, the table is at ply {table.ply}: nothing "
                                "was played (a replayed message, or the view moved on)")
            if st.current_player != seat:
                raise MoveError("not_your_turn", f"player {st.current_player} is to move, not seat {seat}")
            try:
                m = st.parse_move(move)
            except InvalidMoveError as e:
                raise MoveError("invalid_move", str(e)[:300]) from None
            except IllegalMoveError as e:
                raise MoveError("illegal_move", str(e)[:300]) from None
            await self._apply(table, m.action, lambda: ack({"type": "ack", "ply": table.ply,
                                                             "move": {"move": str(m), "id": m.action}}))

    async def _apply(self, table: Table, action: int, before_views: Optional[Callable[[], None]] = None) -> None:
        """With the table's lock held: store the move, apply it, tell everyone."""
        ply = table.ply
        now = self.clock()
        await asyncio.wrap_future(self.store.submit([Store.op_move(table.id, ply, action, now),
                                                     Store.op_touch(table.id, now)]))
        table.record_move(action)
        self.touch(table)
        if before_views is not None:
            before_views()
        self.broadcast(table)
        if table.state.is_terminal:
            log_event("game_over", table=table.id, plies=table.ply)
        self._schedule_agent(table)

    def broadcast(self, table: Table) -> None:
        """Send every watcher its seat's view message.

        >>> Tables.broadcast.__name__
        'broadcast'
        """
        for seat, watchers in enumerate(table.watchers):
            if watchers:
                text = encode(self.view_message(table, seat))
                for w in list(watchers):
                    w.push(text)

    # --- agents -------------------------------------------------------------------------------------------------
    def _schedule_agent(self, table: Table) -> None:
        st = table.state
        if table.closed or st.is_terminal or table.seats[st.current_player].human:
            return
        if table.ai_task is not None and not table.ai_task.done():
            return
        table.ai_task = asyncio.get_running_loop().create_task(self._agent_turns(table))

    async def _agent_turns(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        while not table.closed:
            st = table.state
            if st.is_terminal:
                return
            seat = table.seats[st.current_player]
            if seat.human or seat.agent is None:
                return
            ply, snapshot = table.ply, st.clone()
            agent = seat.agent
            watchdog = loop.call_later(self.limits.max_search_seconds, table.stop.set)
            try:
                self.searches += 1
                move = await loop.run_in_executor(self.pool, lambda: agent.choose(snapshot, stop=table.stop))
            except Exception as e:  # noqa: BLE001 - a failing agent must not take the server down
                log_event("agent_failed", table=table.id, error=type(e).__name__)
                return
            finally:
                watchdog.cancel()
            if table.closed:
                return
            async with table.lock:
                if table.ply != ply or table.closed:
                    continue
                try:
                    await self._apply(table, move.action)
                except Exception as e:  # noqa: BLE001 - a write that fails leaves the table as it was
                    log_event("store_failed", table=table.id, error=type(e).__name__)
                    return
            # loop: the next player may be an agent too (_apply did not start a task while this one runs)

    # --- expiry -----------------------------------------------------------------------------------------------
    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            await self.expire_idle()

    async def expire_idle(self) -> int:
        """Remove the tables idle for longer than ``idle_seconds``; their
        sockets are closed (4410). Returns how many were removed.

        >>> Tables.expire_idle.__name__
        'expire_idle'
        """
        cutoff = time.monotonic() - self.limits.idle_seconds
        old = [t for t in self.tables.values() if t.touched < cutoff]
        for table in old:
            table.closed = True
            table.stop.set()
            del self.tables[table.id]
            for watchers in table.watchers:
                for w in list(watchers):
                    w.close(4410, "the table expired")
            try:
                await asyncio.wrap_future(self.store.submit(Store.op_delete(table.id)))
            except Exception as e:  # noqa: BLE001
                log_event("store_failed", table=table.id, error=type(e).__name__)
            log_event("table_expired", table=table.id)
        return len(old)


def encode(obj: Any) -> str:
    """Strict JSON text of a message (no NaN, compact).

    >>> encode({"type": "pong", "id": None})
    '{"type":"pong","id":null}'
    """
    return json.dumps(obj, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
