"""The server's limits, their defaults, and the small checks that enforce them.

Every limit is a field of :class:`Limits` (docs/server.md, "Limits"); the
command line sets each one. Nothing here imports the web stack.

>>> lim = Limits()
>>> lim.max_message_bytes, lim.max_tables
(65536, 10000)
>>> bucket = RateLimiter(rate=2.0, burst=2)
>>> [bucket.allow(now=0.0) for _ in range(3)]
[True, True, False]
>>> bucket.allow(now=0.5)
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Optional

__all__ = ["Limits", "RateLimiter", "LimitError", "check_budget"]


@dataclass(frozen=True)
class Limits:
    """Every limit the server enforces, with its default (docs/server.md).

    >>> Limits(max_tables=5).max_tables
    5
    """

    #: largest WebSocket message or HTTP body the server reads (bytes): over it, ``too_big``
    max_message_bytes: int = 64 * 1024
    #: hard cap on a WebSocket frame (bytes): the protocol layer closes the socket (1009) over it
    max_frame_bytes: int = 1024 * 1024
    #: messages per second per WebSocket connection (token bucket refill)
    rate: float = 50.0
    #: the bucket's size: a burst of this many messages is allowed at once
    burst: int = 100
    #: rate-limited messages in a row after which the socket is closed (1008)
    rate_strikes: int = 200
    #: open WebSocket connections, all endpoints together
    max_connections: int = 2000
    #: open sockets on one seat of one table
    max_seat_sockets: int = 8
    #: tables held at once (in memory and in the database)
    max_tables: int = 10000
    #: messages waiting to be sent on one socket: a reader this far behind is dropped (1008)
    max_send_queue: int = 64
    #: search budget caps: iterations of one search, seconds of one search, threads, tree nodes
    max_iterations: int = 20000
    max_search_seconds: float = 5.0
    max_threads: int = 1
    max_nodes: int = 1 << 20
    #: a table no one has moved on or looked at for this long (seconds) is removed
    idle_seconds: float = 3600.0
    #: how often (seconds) idle tables are looked for
    sweep_seconds: float = 60.0
    #: threads that run the tables' agents' searches
    search_workers: int = 2
    #: ``go``/``perft`` jobs running at once on ``/engine``, all sockets together
    max_engine_jobs: int = 4

    def replace(self, **changes: Any) -> "Limits":
        """A copy with some limits changed.

        >>> Limits().replace(rate=5.0).rate
        5.0
        """
        return dataclasses.replace(self, **changes)


class ServeError(ValueError):
    """A request the server refuses: ``code`` (docs/server.md, "Errors") and
    a ``message`` that never holds a card the sender cannot see.

    >>> ServeError("stale", "old ply").code
    'stale'
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class LimitError(ServeError):
    """A request over one of the server's limits; ``code`` is its error code.

    >>> LimitError("limit", "too many iterations").code
    'limit'
    """


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once.

    >>> r = RateLimiter(rate=1.0, burst=1)
    >>> r.allow(now=10.0), r.allow(now=10.1), r.allow(now=11.2)
    (True, False, True)
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = float(rate)
        self.burst = float(burst)
        self._tokens = float(burst)
        self._last: Optional[float] = None

    def allow(self, now: float) -> bool:
        """Take one token at time ``now`` (seconds, monotonic); False when none is left.

        >>> RateLimiter(rate=1.0, burst=0).allow(now=0.0)
        False
        """
        if self._last is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


def check_budget(params: dict[str, Any], limits: Limits) -> None:
    """Refuse a search whose budget passes the server's caps: ``iterations``,
    ``time`` (seconds), ``threads`` and ``max_nodes`` as ``agents.make`` takes
    them. A missing budget is the agent's default (1000 iterations).

    >>> check_budget({"iterations": 500}, Limits())
    >>> check_budget({"iterations": 10**6}, Limits())
    Traceback (most recent call last):
    ...
    tabuleiro.serve.limits.LimitError: a search may take at most 20000 iterations here, not 1000000
    """
    caps = (("iterations", limits.max_iterations, "iterations"), ("time", limits.max_search_seconds, "seconds"),
            ("threads", limits.max_threads, "threads"), ("max_nodes", limits.max_nodes, "tree nodes"))
    for key, cap, what in caps:
        v = params.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v > cap:
            raise LimitError("limit", f"a search may take at most {cap} {what} here, not {v}")
    if params.get("iterations") == 0 and params.get("time") is None and "iterations" in params:
        raise LimitError("limit", "a search needs a budget: iterations 0 means time alone, and no time was given")
