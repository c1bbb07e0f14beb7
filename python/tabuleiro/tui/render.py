"""Rich pieces every game's screens share: a player's name, the announcement
of a move (:class:`Event`, made from the game's event feed by
:func:`feed_events`), a new round's banner, the numbered moves list. A game's own drawings
live in its presentation (``Game.presentation()``); like those, everything
here is drawn from what a seat may see.

>>> from rich.console import Console
>>> console = Console(width=100, record=True, color_system=None)
>>> console.print(player_text(1, 0, ["you", "greedy"]))
P1 greedy
>>> who(0, ["you", "greedy"])
'P0 (you)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from rich.columns import Columns
from rich.console import RenderableType
from rich.text import Text

if TYPE_CHECKING:
    from .._state import State

__all__ = ["Event", "banner", "feed_events", "moves_list", "player_text", "round_banners", "who"]


@dataclass(frozen=True)
class Event:
    """One line for the screen: ``text`` and who may see it (``audience``
    None: everyone; else that player only); a ``banner`` (a new round) is
    shown after whatever the move scored.

    >>> Event(Text("P1 moved")).audience is None
    True
    """

    text: Text
    audience: Optional[int] = None
    banner: bool = False


def banner(text: str) -> Text:
    """A new round's line, set off from the announcements around it.

    >>> banner("round 2 begins").plain
    '━━ Round 2 begins ━━'
    """
    return Text(f"━━ {text[:1].upper()}{text[1:]} ━━", style="bold reverse")


_LEADING_PLAYER = re.compile(r"^P(\d+)\b")


def _feed_event(e: Mapping[str, Any], labels: Sequence[str], audience: Optional[int]) -> Event:
    text = str(e["text"])
    if e["kind"] == "round":
        return Event(banner(text), audience, banner=True)
    if e["kind"] == "move":
        text = _LEADING_PLAYER.sub(lambda m: who(int(m.group(1)), labels), text)
        return Event(Text(text), audience)
    return Event(Text(text[:1].upper() + text[1:], style="bold" if e["kind"] == "over" else ""), audience)


def feed_events(before: "State", move: Any, mover: int, labels: Sequence[str]) -> list[Event]:
    """What a move shows, from each seat's event feed
    (``Game.public_events``): a line every seat's feed holds alike goes to
    all, one that differs goes to each seat as its feed has it; the move's
    line names the mover with their label, a new round is a :func:`banner`.
    ``before`` is the state the move was played in (it is not changed).

    >>> from tabuleiro import toy
    >>> s = toy.new_game(seed=2)
    >>> [(e.text.plain, e.audience) for e in feed_events(s, s.legal_moves()[1], 0, ["you", "greedy"])]
    [('P0 (you): play 6', None)]
    """
    game = before.game
    feeds = [game.public_events(before, move, q) for q in range(game.num_players)]
    out: list[Event] = []
    if len({len(f) for f in feeds}) != 1:        # feeds of different shapes: each seat its own
        for q, f in enumerate(feeds):
            out += [_feed_event(e, labels, q) for e in f]
        return out
    for i, e in enumerate(feeds[0]):
        if all(f[i]["text"] == e["text"] for f in feeds):
            out.append(_feed_event(e, labels, None))
        else:
            out += [_feed_event(f[i], labels, q) for q, f in enumerate(feeds)]
    return out


def round_banners(before: "State", move: Any) -> list[Event]:
    """The banner of the round a move starts, if it starts one (a new round
    is public: every seat's feed has it alike), for a game's own
    announcements.

    >>> from tabuleiro import toy
    >>> s = toy.new_game(seed=2)
    >>> round_banners(s, s.legal_moves()[0])
    []
    """
    return [Event(banner(str(e["text"])), None, banner=True)
            for e in before.game.public_events(before, move, 0) if e["kind"] == "round"]


def who(q: int, labels: Sequence[str]) -> str:
    """A player as announcements name them: ``P1`` or ``P1 (greedy)``."""
    label = labels[q] if q < len(labels) else ""
    return f"P{q}" + (f" ({label})" if label else "")


def player_text(q: int, me: Optional[int], labels: Sequence[str]) -> Text:
    """A player's name in tables, reversed for ``me``."""
    label = labels[q] if q < len(labels) else ""
    t = Text(f"P{q}", style="bold reverse" if q == me else "bold")
    if label:
        t.append(f" {label}", style="bold" if q == me else "")
    return t


def moves_list(moves: Sequence[Any], notes: Optional[Mapping[int, str]] = None) -> RenderableType:
    """The legal moves, numbered from 1 (the number picks it at the prompt);
    ``notes`` adds a note per action id."""
    notes = notes or {}
    items = []
    for i, m in enumerate(moves, 1):
        t = Text.assemble((f"{i:>2} ", "bold cyan"), (str(m), "bold"))
        note = notes.get(m.action)
        if note:
            t.append(f" {note}", style="dim")
        items.append(t)
    return Columns(items, padding=(0, 3))
