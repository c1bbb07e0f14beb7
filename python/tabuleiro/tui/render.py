"""Rich pieces every game's screens share: a player's name, the announcement
of a move (:class:`Event`), the numbered moves list. A game's own drawings
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

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from rich.columns import Columns
from rich.console import RenderableType
from rich.text import Text

__all__ = ["Event", "moves_list", "player_text", "who"]


@dataclass(frozen=True)
class Event:
    """One line for the screen: ``text`` and who may see it (``audience``
    None: everyone; else that player only)."""

    text: Text
    audience: Optional[int] = None


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
