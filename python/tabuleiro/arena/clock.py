"""Time controls for external engines, written as fastchess writes them
(:class:`TimeControl`, :func:`parse_tc`), and the clock of one seat in one
game (:class:`Clock`).

* ``st=0.1``: a fixed time per move, in seconds.
* ``10+0.1`` (or ``tc=10+0.1``): 10 seconds for the game, 0.1 s added after
  each move (Fischer increment); ``10`` alone has no increment.
* ``40/60+0.6``: 60 seconds for every 40 moves (the clock gets 60 s more
  after each 40th move), plus 0.1 s a move.
* ``1:30+0.5``: minutes and seconds, as fastchess reads them.

Only external engines run on a clock; builtin agents keep their own
iteration budgets. A move over the time it had (plus the margin) loses the
game on time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Optional

__all__ = ["TimeControl", "Clock", "parse_tc"]

_NUM = r"(?:\d+(?:\.\d*)?|\.\d+)"
_TC_RE = re.compile(rf"^(?:(\d+)/)?(?:(\d+):)?({_NUM})(?:\+({_NUM}))?$")


@dataclass(frozen=True)
class TimeControl:
    """A time control: ``movetime`` seconds per move, or ``base`` seconds per
    game (per ``moves`` moves, when given) plus ``increment`` after each move.

    >>> parse_tc("5+0.05")
    TimeControl(base=5.0, increment=0.05, moves=None, movetime=None)
    >>> str(parse_tc("st=0.1")), str(parse_tc("40/60+0.6"))
    ('st=0.1', '40/60+0.6')
    """

    base: float = 0.0
    increment: float = 0.0
    moves: Optional[int] = None
    movetime: Optional[float] = None

    def __str__(self) -> str:
        if self.movetime is not None:
            return f"st={self.movetime:g}"
        s = (f"{self.moves}/" if self.moves else "") + f"{self.base:g}"
        return s + (f"+{self.increment:g}" if self.increment else "")

    def clock(self, margin: float = 0.0) -> "Clock":
        """A fresh clock for one seat in one game (``margin``: the seconds a
        move may overrun before it loses on time).

        >>> c = parse_tc("1+0.5").clock()
        >>> c.remaining
        1.0
        """
        return Clock(self, margin)


def parse_tc(text: str) -> TimeControl:
    """A :class:`TimeControl` from fastchess's syntax: ``st=SECONDS`` or
    ``[tc=][MOVES/][MINUTES:]SECONDS[+INCREMENT]``.

    :raises ValueError: naming the bad text.

    >>> parse_tc("tc=10+0.1").base, parse_tc("1:30").base
    (10.0, 90.0)
    >>> parse_tc("fast")
    Traceback (most recent call last):
    ...
    ValueError: time control 'fast': not st=SECONDS or [MOVES/]SECONDS[+INCREMENT] (fastchess's syntax: st=0.1, 10+0.1, 40/60+0.6)
    """
    if not isinstance(text, str):
        raise ValueError(f"a time control is a string such as '10+0.1' or 'st=0.1', not {text!r}")
    t = text.strip()
    bad = ValueError(f"time control {text!r}: not st=SECONDS or [MOVES/]SECONDS[+INCREMENT] "
                     "(fastchess's syntax: st=0.1, 10+0.1, 40/60+0.6)")
    if t.startswith("st="):
        try:
            mt = float(t[3:])
        except ValueError:
            raise bad from None
        if not (math.isfinite(mt) and mt > 0):
            raise ValueError(f"time control {text!r}: the time per move must be a positive number of seconds")
        return TimeControl(movetime=mt)
    if t.startswith("tc="):
        t = t[3:]
    m = _TC_RE.match(t)
    if not m:
        raise bad
    moves = int(m.group(1)) if m.group(1) else None
    base = float(m.group(3)) + (60.0 * int(m.group(2)) if m.group(2) else 0.0)
    inc = float(m.group(4)) if m.group(4) else 0.0
    if moves == 0:
        raise ValueError(f"time control {text!r}: the moves of a period must be at least 1")
    if base <= 0 and inc <= 0:
        raise ValueError(f"time control {text!r}: no time at all (give a base time or an increment)")
    return TimeControl(base=base, increment=inc, moves=moves)


class Clock:
    """One seat's clock in one game: the time it has for its next move
    (:attr:`remaining`, or the fixed ``movetime``), charged with each move's
    thinking time (:meth:`charge`, which says whether the move was in time).

    >>> c = parse_tc("1+0.5").clock(margin=0.1)
    >>> c.charge(0.3), round(c.remaining, 3)
    (True, 1.2)
    >>> c.charge(1.35), round(c.remaining, 3)      # over by 0.15 s: beyond the margin
    (False, 0.0)
    """

    def __init__(self, tc: TimeControl, margin: float = 0.0) -> None:
        self.tc = tc
        self.margin = margin
        self.remaining = tc.base if tc.movetime is None else tc.movetime
        self.moves = 0

    def budget(self) -> float:
        """The seconds the next move may take, not counting the margin."""
        return self.tc.movetime if self.tc.movetime is not None else self.remaining

    def deadline(self) -> float:
        """The seconds the next move may take before it loses on time (budget + margin)."""
        return self.budget() + self.margin

    def moves_to_go(self) -> Optional[int]:
        """Moves left until the next time period (``MOVES/...`` controls), else None."""
        if self.tc.moves is None:
            return None
        return self.tc.moves - self.moves % self.tc.moves

    def suggest(self) -> float:
        """A thinking time for the next move, for engines that want the arena
        to choose one (``time=auto``): a twentieth of the time left (or of the
        period's moves to go) plus most of the increment, at most half the
        time left; 80% of a fixed time per move."""
        if self.tc.movetime is not None:
            return 0.8 * self.tc.movetime
        togo = self.moves_to_go() or 20
        return max(0.001, min(self.remaining / max(togo, 1) + 0.75 * self.tc.increment, 0.5 * self.remaining))

    def charge(self, seconds: float) -> bool:
        """Charge a move's thinking time; False when it went over its time and the margin."""
        ok = seconds <= self.deadline()
        self.moves += 1
        if self.tc.movetime is not None:
            return ok
        self.remaining = max(0.0, self.remaining - seconds) if ok else 0.0
        if ok:
            self.remaining += self.tc.increment
            if self.tc.moves is not None and self.moves % self.tc.moves == 0:
                self.remaining += self.tc.base
        return ok
