"""Capivárias: capybara herds pushed down a three-segment river (2 players).

The rules are RULES.md part 2 (shipped as ``docs/RULES.md``); the engine is the
C core in ``csrc/capivarias.c``. This module is the Pythonic face of it, in the
shape of python-chess: frozen :class:`Move` objects whose ``str()`` is the
notation, a :class:`State` with ``legal_moves()``/``apply()``, JSON-safe
``to_dict()``/``from_dict()``, hidden-information ``view()`` and
``determinize()``.

>>> from tabuleiro import capivarias
>>> s = capivarias.new_game(seed=7)
>>> len(s.legal_actions()) > 0
True
>>> m = s.legal_moves()[0]
>>> s.apply(m)
>>> s.current_player
1

Action ids (RULES 2.7): ``((card * 4) + seg) * (C + 1) + target`` with C = 28
cards in the table, seg 3 and target C meaning none; 3,248 ids in all.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Optional, Union

from . import _core
from ._fields import check_seed
from ._game import Game, load_game
from ._state import Move as _Move
from ._state import State as _State
from ._state import parse_notation

__all__ = [
    "CARDS",
    "GAME",
    "Capivarias",
    "NUM_ACTIONS",
    "Card",
    "Move",
    "State",
    "new_game",
    "random_playouts",
]

# --- card table -----------------------------------------------------------------

@dataclass(frozen=True)
class Card:
    """One row of ``capivarias_cards.csv``: a river side and a capybara side.

    >>> c = CARDS[0]
    >>> c.name, c.kind, c.herd, c.number, c.modifier, c.expansion
    ('C1', 'herd', 'capicria', 1, 2, False)
    """

    index: int
    name: str
    kind: str
    herd: Optional[str]
    number: int
    modifier: int
    expansion: bool

    @property
    def is_capybara(self) -> bool:
        """Herd cards and capiolins: the cards that score and get pushed.

        >>> [c.name for c in CARDS if c.is_capybara and c.expansion]
        ['V2', 'V3', 'V4']
        """
        return self.kind in ("herd", "capiolin")

    @property
    def is_capionca(self) -> bool:
        """Capionças: the kinds ``capionca:push``, ``capionca:switch-one`` and
        ``capionca:switch-all``.

        >>> [c.name for c in CARDS if c.is_capionca]
        ['OP1', 'OP2', 'OS1', 'OS2', 'OA1']
        """
        return self.kind.startswith("capionca")


def _load_cards() -> tuple[Card, ...]:
    text = resources.files("tabuleiro").joinpath("data/capivarias_cards.csv").read_text("utf-8")
    cards = []
    for i, row in enumerate(csv.DictReader(text.splitlines())):
        cards.append(
            Card(
                index=i,
                name=row["name"],
                kind=row["kind"],
                herd=row["herd"] or None,
                number=int(row["number"]),
                modifier=int(row["river_modifier"]),
                expansion=row["expansion"] == "1",
            )
        )
    return tuple(cards)


#: The card table, in the order of ``capivarias_cards.csv`` (``CARDS[i].index == i``).
CARDS: tuple[Card, ...] = _load_cards()
_BY_NAME = {c.name: c for c in CARDS}
_C = len(CARDS)
#: Action ids of the game, legal or not: 3,248 (RULES 2.7).
NUM_ACTIONS: int = 4 * _C * (_C + 1)


def _encode(card: int, seg: int, target: int) -> int:
    return ((card * 4) + seg) * (_C + 1) + target


# --- moves -----------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Move(_Move):
    """A move, identified by its action id; ``str()`` is its notation.

    >>> m = Move.parse("OP1@2/C3")
    >>> str(m), Move.parse(str(m)) == m
    ('OP1@2/C3', True)
    >>> Move.parse("discard KX").action == Move(Move.parse("discard KX").action).action
    True
    """

    NUM_ACTIONS: ClassVar[int] = NUM_ACTIONS

    @property
    def card(self) -> Card:
        """The card taken.

        >>> Move.parse("OP1@2/C3").card.name
        'OP1'
        """
        return CARDS[self.action // (_C + 1) // 4]

    @property
    def segment(self) -> Optional[int]:
        """The segment it acts on (capionças, capiolins, herd cards), else None.

        >>> Move.parse("OP1@2/C3").segment, Move.parse("discard KX").segment
        (2, None)
        """
        seg = self.action // (_C + 1) % 4
        return None if seg == 3 else seg

    @property
    def target(self) -> Optional[Card]:
        """The chosen capybara (capionça, capitico) or capitico (capissor).

        >>> Move.parse("OP1@2/C3").target.name, Move.parse("X5").target
        ('C3', None)
        """
        t = self.action % (_C + 1)
        return None if t == _C else CARDS[t]

    @property
    def is_discard(self) -> bool:
        """Whether the card is discarded (no segment and no target).

        >>> Move.parse("discard KX").is_discard, Move.parse("X5").is_discard
        (True, False)
        """
        return self.segment is None and self.target is None

    def __str__(self) -> str:
        c, seg, t = self.card, self.segment, self.target
        if self.is_discard:
            return f"discard {c.name}"
        if c.kind == "herd" and seg == 0 and t is None:
            return c.name
        if c.kind == "capiolin" and t is None:
            return c.name
        if seg is None:
            return f"{c.name}/{t.name}"  # type: ignore[union-attr]
        if t is None:
            return f"{c.name}@{seg}"
        return f"{c.name}@{seg}/{t.name}"

    def __repr__(self) -> str:
        text = str(self)
        if self.card.kind == "capiolin" and not self.is_discard:
            text = f"{text}@{self.segment}"
        return f"Move.parse({text!r})"

    @classmethod
    def parse(cls, text: str, *, state: Optional["State"] = None) -> "Move":
        """Read the notation of RULES 2.7.

        A capiolin's notation (``V2``) does not say the segment it enters:
        pass ``state=`` to resolve it, or write ``V2@1``.

        >>> Move.parse("OP1@2/C3")
        Move.parse('OP1@2/C3')
        >>> Move.parse("V3", state=new_game(seed=0, expansion=True))
        Move.parse('V3@0')
        >>> Move.parse("V3@1").segment
        1

        :raises InvalidMoveError: the text is not of the notation's shape, or
            names an unknown card.
        :raises IllegalMoveError: only for a capiolin resolved against a
            state in which it cannot be placed.
        """
        return cls(parse_notation("capivarias", text, state))     # read in C (csrc/capivarias_json.c)


MoveLike = Union[int, str, Move]

# --- state ------------------------------------------------------------------------


class State(_State):
    """A Capivárias position: the river, the available row, the pile, the score.

    Create one with :func:`new_game`, ``load_game("capivarias").new_initial_state(seed=...)``
    or :meth:`from_dict`. ``push``/``apply`` check legality and leave the state
    untouched when they raise; ``pop`` undoes.

    >>> s = new_game(seed=7)
    >>> s.to_dict()["available"]
    ['OP1', 'OP2', 'OS2', 'X5']
    >>> s.push("X5")
    >>> s.current_player, s.to_dict()["segments"][0]["sides"]
    (1, [['X5'], []])

    ``view(player)`` shows the river cards and the pile only by their river
    sides (R20): each river card as ``{"modifier": m}``, the pile as
    ``{"count": n, "top_modifier": m}``; no seed.

    >>> s.view(0)["pile"]
    {'count': 13, 'top_modifier': -2}
    """

    __slots__ = ()
    MOVE = Move
    GAME_NAME = "capivarias"

    def _parse_text(self, text: str) -> Move:
        return Move.parse(text, state=self)

    def apply_round_end(self, move: MoveLike) -> Optional["State"]:
        """Play a move like ``push``; if it ended a round, return the state as
        it stood when the round was scored (before the reshuffle), else None.

        >>> s = new_game(seed=7)
        >>> s.apply_round_end("X5") is None        # the round goes on
        True
        >>> scored = None
        >>> while scored is None:
        ...     scored = s.apply_round_end(s.legal_moves()[0])
        >>> scored.to_dict()["round"], scored.scores(), s.to_dict()["round"], s.to_dict()["round_wins"]
        (1, [12, 17], 2, [0, 1])
        """
        return _core.capivarias_apply_round_end(self, self.parse_move(move).action)

    def _text(self, seat: Optional[int]) -> str:
        """The position; river cards by name only when ``seat`` is None (a
        seat sees their modifiers, R20), the pile as a count.

        >>> s = new_game(seed=7)
        >>> "full state" in str(s), "player 0's view" in s.text(0)
        (True, True)
        """
        d = self.to_dict()
        sc = self.scores()
        who = "full state: every card shown" if seat is None else f"player {seat}'s view"
        lines = [
            f"Capivárias{' + expansion' if d['expansion'] else ''} — round {d['round']}, "
            f"round wins {d['round_wins'][0]}-{d['round_wins'][1]} ({who})",
        ]
        w = 26
        lines.append(f"{'':>18}  {'player 0 side':<{w}} {'player 1 side':<{w}}")
        for i, seg in enumerate(d["segments"]):
            river = _BY_NAME[seg["river"]]
            cap = f" [{seg['capionca']}]" if seg["capionca"] else ""
            name = f"{river.name} " if seat is None else ""
            head = f"seg {i} ({name}{river.modifier:+d}){cap}"
            sides = [" ".join(side) or "·" for side in _guarded(seg["sides"])]
            lines.append(f"{head:>18}  {sides[0]:<{w}} {sides[1]:<{w}}")
        lines.append(f"{'score':>18}  {sc[0]:<{w}} {sc[1]:<{w}}")
        pile = (" ".join(d["pile"]) or "-") if seat is None else str(len(d["pile"]))
        lines.append(f"available: {' '.join(d['available']) or '-'}   pile: {pile}   discard: {' '.join(d['discard']) or '-'}")
        if self.is_terminal:
            lines.append("game over: " + ("draw (R30)" if d["winner"] is None else f"player {d['winner']} wins"))
        else:
            lines.append(f"player {d['to_move']} to move")
        return "\n".join(lines)


def _guarded(sides: list[list[str]]) -> list[list[str]]:
    """Sides with each capitico written after its guardian (``C4+KC``)."""
    out = []
    for side in sides:
        guards = {_BY_NAME[n].herd: n for n in side if _BY_NAME[n].kind == "capitico"}
        out.append([n + ("+" + guards[_BY_NAME[n].herd] if _BY_NAME[n].kind == "herd" and _BY_NAME[n].herd in guards else "")
                    for n in side if _BY_NAME[n].kind != "capitico"])
    return out


# --- the game (its dicts, views and notation: csrc/capivarias_json.c) ------------------------


class Capivarias(Game):
    """Capivárias (2 players). Parameters: ``expansion`` (bool, default
    False: play with the capiticos, capissors and capiolins) and
    ``first_player`` (0 or 1, who moves first in a new game).

    >>> g = load_game("capivarias", expansion=True)
    >>> g.info.num_distinct_actions, g.info.min_utility, g.info.max_utility
    (3248, -1.0, 1.0)
    """

    name = "capivarias"
    title = "Capivárias"
    PARAM_TYPES = {"expansion": bool, "first_player": int}
    PARAM_HELP = {"expansion": "play with the expansion cards", "first_player": "the player who starts round 1"}
    STATE = State
    MOVE = Move
    PRESENTATION_MODULE = "tabuleiro._capivarias_show"

GAME = Capivarias

# --- module functions ----------------------------------------------------------------------


def new_game(*, seed: int, expansion: bool = False, first_player: int = 0) -> State:
    """A new game: round 1 set up from ``seed`` (R20), ``first_player`` to move
    (the short form of ``load_game("capivarias", ...).new_initial_state(seed=...)``).

    >>> new_game(seed=1).to_dict()["round"]
    1
    """
    check_seed(seed)
    return load_game("capivarias", expansion=expansion, first_player=first_player).new_initial_state(seed=seed)  # type: ignore[return-value]


def random_playouts(n: int, *, seed: int, expansion: bool = False) -> dict[str, Any]:
    """Play ``n`` uniformly random games entirely in C; return aggregate
    statistics (games, wins per player, draws, actions, returns and score sums).
    Ctrl-C stops it with ``KeyboardInterrupt``.

    >>> random_playouts(10, seed=3)["games"]
    10
    """
    return load_game("capivarias", expansion=expansion).random_playouts(n, seed=seed)
