"""Capulana: weave a capulana from fabric cards won at blind auctions (2-5 players).

The rules are RULES.md part 1 (shipped as ``docs/RULES.md``); the engine is the
C core in ``csrc/capulana.c``. This module is its Pythonic face, in the shape
of :mod:`tabuleiro.capivarias`: frozen :class:`Move` objects whose ``str()`` is
the notation, a :class:`State` with ``legal_moves()``/``apply()``, JSON-safe
``to_dict()``/``from_dict()``, hidden-information ``view()`` and
``determinize()``, plus :meth:`State.weaving_options` (every complete weaving
step, scored) and :func:`score_strips` (the R10 breakdown).

>>> from tabuleiro import capulana
>>> s = capulana.new_game(players=3, seed=7)
>>> s.legal_moves()[:2]
[Move.parse('bid 0'), Move.parse('bid 1')]
>>> s.apply("bid 1")
>>> s.current_player
0
>>> capulana.score_strips("RC YC YZ YD YD YD Y* *T GT GT GL").total
19

Action ids (RULES 1.6): 0..4 ``bid k``, 5..60 ``offer F01``..``offer F56``,
61 ``done``, 62 ``stop``, ``63 + 14*c + 7*orientation + m`` weaves fabric card
c (0 = F01) with orientation n/r and placement m in ``+ >1 >2 >3 <1 <2 <3``;
847 ids in all.
"""

from __future__ import annotations

import collections.abc as _abc
import csv
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Optional, Sequence, Union

from . import _core
from ._fields import check_seed
from ._game import Game, load_game
from ._state import Move as _Move
from ._state import State as _State
from ._state import parse_notation

__all__ = [
    "CARDS",
    "GAME",
    "Capulana",
    "NUM_ACTIONS",
    "OBJECTIVES",
    "Card",
    "Move",
    "Objective",
    "ScoreBreakdown",
    "ScoredSet",
    "State",
    "WeaveOption",
    "WeaveOptions",
    "new_game",
    "objectives_met",
    "random_playouts",
    "score_strips",
]

# --- tables ----------------------------------------------------------------------

_COLOURS = "-YGRBO"   # code = index; "*" = 7
_PATTERNS = "-DTCZL"
_WILD = 7
COLOUR_NAMES = {"Y": "yellow", "G": "green", "R": "red", "B": "blue", "O": "orange"}
PATTERN_NAMES = {"D": "diamonds", "T": "triangles", "C": "circles", "Z": "zigzags", "L": "leaves"}
PLACEMENTS = ("+", ">1", ">2", ">3", "<1", "<2", "<3")
ORIENTATIONS = ("n", "r")


@dataclass(frozen=True)
class Card:
    """One row of ``capulana_fabric_cards.csv``.

    >>> CARDS[0]
    Card(index=0, name='F01', kind='fabric', stripe='black', value=5, strips=('--', 'YD', 'YT', 'GT'))
    """

    index: int
    name: str
    kind: str          # "fabric" or "initial"
    stripe: str        # "black", "purple" ("" for initial cards)
    value: int         # bid money (0 for initial cards)
    strips: tuple[str, ...]

    @property
    def is_fabric(self) -> bool:
        """A fabric card (F01..F56), not an initial card (I1..I5).

        >>> CARDS[0].is_fabric, CARDS[-1].name, CARDS[-1].is_fabric
        (True, 'I5', False)
        """
        return self.kind == "fabric"


@dataclass(frozen=True)
class Objective:
    """One row of ``capulana_objectives.csv`` (R11).

    >>> OBJECTIVES[0]
    Objective(index=0, name='OBJ1', points=3, key='long-color', condition='a color set of at least 6 strips')
    """

    index: int
    name: str
    points: int
    key: str
    condition: str


def _strip_codes(strip: str, where: str) -> tuple[int, int]:
    if not isinstance(strip, str) or len(strip) != 2:
        raise ValueError(f"{where}: a strip is two characters, not {strip!r}")
    c, p = strip[0], strip[1]
    if strip == "--":
        return 0, 0
    if c == "-" or p == "-" or strip == "**":
        raise ValueError(f"{where}: {strip!r} is not a strip (raw is '--', wild is one '*')")
    cc = _WILD if c == "*" else _COLOURS.find(c)
    pc = _WILD if p == "*" else _PATTERNS.find(p)
    if cc <= 0 or pc <= 0:
        raise ValueError(f"{where}: {strip!r} is not a strip (colours YGRBO, patterns DTCZL)")
    return cc, pc


def _load_tables() -> tuple[tuple[Card, ...], tuple[Objective, ...]]:
    data = resources.files("tabuleiro").joinpath("data")
    cards = []
    for i, row in enumerate(csv.DictReader(data.joinpath("capulana_fabric_cards.csv").read_text("utf-8").splitlines())):
        cards.append(Card(i, row["id"], row["kind"], row["stripe"], int(row["value"] or 0), tuple(row["strips"].split())))
    objs = []
    for i, row in enumerate(csv.DictReader(data.joinpath("capulana_objectives.csv").read_text("utf-8").splitlines())):
        objs.append(Objective(i, row["id"], int(row["points"]), row["key"], row["condition"]))
    return tuple(cards), tuple(objs)


#: The card table (``CARDS``: F01..F56, then the initial cards I1..I5) and
#: the objectives (``OBJECTIVES``), in the order of their CSV files.
CARDS, OBJECTIVES = _load_tables()
_BY_NAME = {c.name: c for c in CARDS}
_OBJ_BY_NAME = {o.name: o for o in OBJECTIVES}
_NFABRIC = sum(c.is_fabric for c in CARDS)
_FABRIC_NAMES = [c.name for c in CARDS if c.is_fabric]


#: Action ids of the game, legal or not (RULES 1.6).
NUM_ACTIONS = 847
_BID, _OFFER, _DONE, _STOP, _WEAVE = 0, 5, 61, 62, 63

# --- moves ---------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Move(_Move):
    """A move, identified by its action id; ``str()`` is its notation (RULES 1.6).

    >>> m = Move.parse("F13 r>2")
    >>> m.action, str(m), m.card.name, m.orientation, m.placement
    (240, 'F13 r>2', 'F13', 'r', '>2')
    >>> [str(Move(a)) for a in (2, 17, 61, 62)]
    ['bid 2', 'offer F13', 'done', 'stop']
    """

    NUM_ACTIONS: ClassVar[int] = NUM_ACTIONS

    @property
    def kind(self) -> str:
        """'bid', 'offer', 'done', 'stop' or 'weave'.

        >>> Move.parse("offer F13").kind, Move.parse("F13 r>2").kind
        ('offer', 'weave')
        """
        a = self.action
        if a < _OFFER:
            return "bid"
        if a < _DONE:
            return "offer"
        if a == _DONE:
            return "done"
        if a == _STOP:
            return "stop"
        return "weave"

    @property
    def slot(self) -> Optional[int]:
        """The slot of a bid.

        >>> Move.parse("bid 2").slot, Move.parse("done").slot
        (2, None)
        """
        return self.action - _BID if self.action < _OFFER else None

    @property
    def card(self) -> Optional[Card]:
        """The card offered or woven.

        >>> Move.parse("offer F13").card.name, Move.parse("stop").card
        ('F13', None)
        """
        a = self.action
        if _OFFER <= a < _DONE:
            return CARDS[a - _OFFER]
        if a >= _WEAVE:
            return CARDS[(a - _WEAVE) // 14]
        return None

    @property
    def orientation(self) -> Optional[str]:
        """'n' or 'r' for a weave.

        >>> Move.parse("F13 r>2").orientation, Move.parse("bid 0").orientation
        ('r', None)
        """
        return ORIENTATIONS[(self.action - _WEAVE) % 14 // 7] if self.action >= _WEAVE else None

    @property
    def placement(self) -> Optional[str]:
        """'+', '>k' or '<k' for a weave.

        >>> Move.parse("F13 r>2").placement, Move.parse("F13 n+").placement
        ('>2', '+')
        """
        return PLACEMENTS[(self.action - _WEAVE) % 7] if self.action >= _WEAVE else None

    def __str__(self) -> str:
        k = self.kind
        if k == "bid":
            return f"bid {self.slot}"
        if k == "offer":
            return f"offer {self.card.name}"  # type: ignore[union-attr]
        if k in ("done", "stop"):
            return k
        return f"{self.card.name} {self.orientation}{self.placement}"  # type: ignore[union-attr]

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read the notation of RULES 1.6 (``bid 2``, ``offer F13``, ``done``,
        ``stop``, ``F13 r>2``).

        >>> Move.parse("offer F13")
        Move.parse('offer F13')
        >>> Move.parse("F13 r>2").action
        240

        :raises InvalidMoveError: the text is not of the notation's shape or
            names an unknown card.
        """
        return cls(parse_notation("capulana", text))     # read in C (csrc/capulana_json.c)


MoveLike = Union[int, str, Move]
_core.capulana_set_move_class(Move)

# --- scoring -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoredSet:
    """One set of R10: ``kind`` 'colour' or 'pattern', ``symbol`` (``Y``..``O``
    or ``D``..``L``), 0-based ``start`` and ``length`` (= its points).

    >>> s = score_strips("RC YC YZ YD YD YD Y* *T GT GT GL").sets[0]
    >>> s, str(s)
    (ScoredSet(kind='colour', symbol='Y', start=1, length=7), 'yellow 1..7 (7)')
    """

    kind: str
    symbol: str
    start: int
    length: int

    @property
    def name(self) -> str:
        """The colour or pattern in words.

        >>> [s.name for s in score_strips("RC YC YZ YD YD YD Y* *T GT GT GL").sets]
        ['yellow', 'green', 'diamonds', 'triangles']
        """
        return (COLOUR_NAMES if self.kind == "colour" else PATTERN_NAMES)[self.symbol]

    def __str__(self) -> str:
        return f"{self.name} {self.start}..{self.start + self.length - 1} ({self.length})"


@dataclass(frozen=True)
class ScoreBreakdown:
    """The R10 breakdown of a row: its sets (colour sets, then pattern sets,
    each by start) and ``total`` (the capulana score).

    >>> print(score_strips("RC YC YZ YD YD YD Y* *T GT GT GL"))
    yellow 1..7 (7) + green 7..10 (4) + diamonds 3..6 (4) + triangles 6..9 (4) = 19
    >>> print(score_strips("YD GT"))
    no set = 0
    """

    strips: tuple[str, ...]
    sets: tuple[ScoredSet, ...]
    total: int

    def __str__(self) -> str:
        return " + ".join(str(s) for s in self.sets) + f" = {self.total}" if self.sets else "no set = 0"


def _breakdown(strips: Sequence[str]) -> ScoreBreakdown:
    codes = [_strip_codes(s, "score_strips") for s in strips]
    total, sets = _core.capulana_score_sets([c for c, _ in codes], [p for _, p in codes])
    out = tuple(
        ScoredSet("colour" if k == 0 else "pattern", (_COLOURS if k == 0 else _PATTERNS)[sym], start, length)
        for k, sym, start, length in sets
    )
    return ScoreBreakdown(tuple(strips), out, total)


def score_strips(text: Union[str, Sequence[str]]) -> ScoreBreakdown:
    """The R10 breakdown of a row of visible strips (``"RC YC YZ ..."`` or a list).

    >>> b = score_strips("RC YC YZ YD YD YD Y* *T GT GT GL")
    >>> b.total, [(s.kind, s.symbol, s.start, s.length) for s in b.sets]
    (19, [('colour', 'Y', 1, 7), ('colour', 'G', 7, 4), ('pattern', 'D', 3, 4), ('pattern', 'T', 6, 4)])

    :raises ValueError: a strip that is not two characters of the notation,
        or more than 64 strips.
    """
    strips = text.split() if isinstance(text, str) else list(text)
    if len(strips) > 64:
        raise ValueError(f"score_strips takes at most 64 strips, not {len(strips)}")
    return _breakdown(strips)


def objectives_met(strips: Sequence[str], pieces: int, hand: int,
                   objectives: Sequence[str]) -> list[tuple[Objective, bool]]:
    """Each objective named and whether a row of visible ``strips`` made of
    ``pieces`` cards (the initial one included), its owner holding ``hand``
    cards, meets it (R11: the C rules' test, the one the final score adds).

    >>> [(o.name, ok) for o, ok in objectives_met(["YD"] * 6, pieces=2, hand=4, objectives=["OBJ1", "OBJ8"])]
    [('OBJ1', True), ('OBJ8', True)]

    :raises ValueError: a strip that is not notation, an unknown objective, more than 64 strips.
    """
    codes = [_strip_codes(s, "objectives_met") for s in strips]
    if any(o not in _OBJ_BY_NAME for o in objectives):
        raise ValueError(f"objectives_met: unknown objective in {list(objectives)!r}")
    objs = [_OBJ_BY_NAME[o] for o in objectives]
    met = _core.capulana_objectives_met(load_game("capulana")._core, [c for c, _ in codes], [p for _, p in codes],
                                        pieces, hand, sum(1 << o.index for o in objs))
    return [(o, bool(met >> o.index & 1)) for o in objs]


# --- weaving options ---------------------------------------------------------------------------


WeaveOption = _core.WeaveOption
"""One complete weaving step: ``moves``/``actions`` (0- and 1-card steps end
with ``stop``), ``cards``, the resulting ``strips`` and ``v``, the capulana
``score`` (R10) and the ``final_score`` (R11) it yields.

>>> s = new_game(players=2, seed=1)
>>> while s.phase != "weave":
...     s.push(s.legal_moves()[0])
>>> option = s.weaving_options()[0]
>>> option
WeaveOption(moves='stop', strips='BC BC OC', score=3, final_score=6)
>>> option.moves, option.actions, option.cards
((Move.parse('stop'),), (62,), 0)
"""

WeaveOptions = _core.WeaveOptions
"""What :meth:`State.weaving_options` returns: a read-only sequence of
:class:`WeaveOption` over one packed C buffer, each option made on first
access (a registered :class:`collections.abc.Sequence`; equal to a list of
the same options; ``list(options)`` for a list to sort in place)."""
_abc.Sequence.register(WeaveOptions)


# --- state --------------------------------------------------------------------------------------




class State(_State):
    """A Capulana position. Create one with :func:`new_game`,
    ``load_game("capulana", players=n).new_initial_state(seed=...)`` or
    :meth:`from_dict`. ``push``/``apply`` check legality and leave the state
    untouched when they raise; ``pop`` undoes.

    >>> s = new_game(players=3, seed=7)
    >>> s.phase, s.current_player, s.to_dict()["round"]
    ('offer', 0, 1)

    ``view(player)`` (RULES part 4): others' rows, hand counts and known
    cards as they stood when the current weaving step began, their
    ``woven`` shown as 0 (R7); others' offers and hands as counts (each hand
    ``{"count": n, "known": [...]}``, ``known`` always present: the cards
    publicly known to be held by that player, R6, which in the offer phase
    may lie in one of their face-down offers); the deck as a count; no seed.

    >>> s.view(0)["hands"][1], s.view(0)["deck"]
    ({'count': 7, 'known': []}, {'count': 32})
    """

    __slots__ = ()
    MOVE = Move
    GAME_NAME = "capulana"

    @property
    def players(self) -> int:
        """Number of players (2..5).

        >>> new_game(players=4, seed=1).players
        4
        """
        return self.game.num_players

    @property
    def phase(self) -> str:
        """'offer', 'weave' or 'over'.

        >>> new_game(players=2, seed=1).phase
        'offer'
        """
        return _PHASES[self._encode()[3]]

    def weaving_options(self) -> WeaveOptions:
        """Every complete weaving step open to the player to move, from the
        current point of their turn: 0, 1 or 2 cards with placements,
        deduplicated by the resulting visible strips (the first in action
        order is kept), each with the score it yields. Empty outside a
        weaving turn. Computed in C on a copy, with the GIL released, and
        returned as a read-only sequence (:class:`WeaveOptions`) whose
        objects are made only when looked at.

        >>> s = new_game(players=2, seed=1)
        >>> s.weaving_options()                     # the offer phase
        []
        >>> while s.phase != "weave":
        ...     s.push(s.legal_moves()[0])
        >>> options = s.weaving_options()
        >>> options[0]
        WeaveOption(moves='stop', strips='BC BC OC', score=3, final_score=6)
        >>> print(max(options, key=lambda o: o.final_score))
        F30 n+, F34 r+ -> BC BC OC OZ OL GL GZ GZ BZ BC BC (score 15)
        """
        return _core.capulana_weaving_options(self)

    def strips(self, player: int) -> list[str]:
        """The visible strips of a player's capulana, left to right.

        >>> new_game(players=2, seed=1).strips(1)
        ['GT', 'GT', 'BT']
        """
        return _core.capulana_row_strips(self, self._check_player(player))

    _row_strips = strips

    def capulana_scores(self) -> list[int]:
        """Each player's capulana score (R10, no objectives).

        >>> new_game(players=2, seed=1).capulana_scores()
        [3, 3]
        """
        return _core.capulana_row_scores(self)

    def _text(self, seat: Optional[int]) -> str:
        """The position; hands, offers and the deck shown only where ``seat``
        sees them (all of them when ``seat`` is None). ``*`` marks the player
        to move.

        >>> s = new_game(players=2, seed=1)
        >>> "full state" in str(s), "player 1's view" in s.text(1)
        (True, True)
        >>> s.text(1).count("hand: 7 cards"), str(s).count("hand: 7 cards")
        (1, 0)
        """
        d = self.to_dict()
        n = d["players"]
        me = d["to_move"]
        sc = self.scores()
        csc = self.capulana_scores()

        def sees(q: int) -> bool:
            return seat is None or q == seat

        objs = ", ".join(f"{o} ({_OBJ_BY_NAME[o].points}: {_OBJ_BY_NAME[o].condition})" for o in d["objectives"])
        who = "full state: every card shown" if seat is None else f"player {seat}'s view"
        lines = [f"Capulana — {n} players, round {d['round']} of 4, {d['phase']} phase, start player "
                 f"{d['start_player']} ({who})",
                 f"objectives: {objs or '-'}"]
        if d["phase"] == "offer":
            lines.append("slots: " + "  ".join(f"{j}:{c}(${_BY_NAME[c].value})" for j, c in enumerate(d["slots"])))
            offers = []
            for o in d["offers"] + ([d["open_offer"]] if d["open_offer"] else []):
                cards = " ".join(o["cards"]) if sees(o["player"]) else f"{len(o['cards'])}"
                is_open = ", open" if o is d["open_offer"] else ""
                offers.append(f"P{o['player']}→{o['slot']} [{cards}{is_open}]")
            lines.append("offers: " + ("  ".join(offers) or "-"))
        for q in range(n):
            strips = self.strips(q)
            mark = "*" if q == me else " "
            hand = d["hands"][q]
            hand_text = " ".join(hand) if sees(q) else f"{len(hand)} cards"
            extra = f", woven {d['woven'][q]}" if d["woven"][q] else ""
            lines.append(f"{mark}P{q} [{' '.join(strips)}] score {csc[q]} (final {sc[q]}){extra}; hand: {hand_text or '-'}")
        deck = " ".join(d["deck"]) if seat is None else f"{len(d['deck'])} cards"
        lines.append(f"deck: {deck or '-'}; known: " +
                     (" ".join(f"{c}@P{q}" for c, q in d["known"].items()) or "-"))
        if self.is_terminal:
            r = self.returns()
            lines.append("game over: " + ", ".join(f"P{q} {r[q]:g}" for q in range(n)))
        else:
            lines.append(f"player {me} to move")
        return "\n".join(lines)


_PHASES = ("offer", "weave", "over")


# --- the game (its dicts, views and notation: csrc/capulana_json.c) --------------------------


class Capulana(Game):
    """Capulana (2 to 5 players). Parameter: ``players`` (default 3).

    >>> g = load_game("capulana", players=4)
    >>> g.info.num_players, g.info.min_utility, g.info.max_utility
    (4, 0.0, 1.0)
    """

    name = "capulana"
    title = "Capulana"
    #: legacy_determinize: True selects the determinization before issue 13 (to measure its effect on play)
    PARAM_TYPES = {"players": int, "legacy_determinize": bool}
    PARAM_HELP = {"players": "players at the table", "legacy_determinize": "use the old, inexact determinization (to reproduce old runs)"}
    TOOL_PARAMS = frozenset({"legacy_determinize"})   # a determinization, not a rule: not in OpenSpiel/PettingZoo
    STATE = State
    MOVE = Move
    PRESENTATION_MODULE = "tabuleiro._capulana_show"


GAME = Capulana


# --- module functions --------------------------------------------------------------------------


def new_game(*, players: int, seed: int) -> State:
    """A new game of ``players`` (2..5) set up from ``seed`` as engine-notes
    says (R1, R2): player 0 starts the offers of round 1 (the short form of
    ``load_game("capulana", players=...).new_initial_state(seed=...)``).

    >>> new_game(players=2, seed=1).to_dict()["round"]
    1
    """
    check_seed(seed)
    return load_game("capulana", players=players).new_initial_state(seed=seed)  # type: ignore[return-value]


def random_playouts(n: int, *, seed: int, players: int) -> dict[str, Any]:
    """Play ``n`` uniformly random games entirely in C; return aggregate
    statistics (games, actions, draws, wins, summed returns and final scores).
    Ctrl-C stops it with ``KeyboardInterrupt``.

    >>> random_playouts(10, seed=3, players=4)["games"]
    10
    """
    return load_game("capulana", players=players).random_playouts(n, seed=seed)
