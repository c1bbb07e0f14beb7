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

import csv
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Mapping, Optional, Sequence, Union

from . import _capulana_events as _events
from . import _core
from ._errors import InvalidMoveError
from ._fields import Fields, check_seed, unsigned
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

    def weaving_options(self) -> list[WeaveOption]:
        """Every complete weaving step open to the player to move, from the
        current point of their turn: 0, 1 or 2 cards with placements,
        deduplicated by the resulting visible strips (the first in action
        order is kept), each with the score it yields. Empty outside a
        weaving turn. Computed in C on a copy, with the GIL released.

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


_F = Fields("Capulana")


def _card(name: Any, where: str) -> int:
    return _F.card(name, where, _BY_NAME)


def _offer(o: Any, where: str) -> list[int]:
    if not isinstance(o, Mapping):
        raise _F.bad(f"{where} must be a dict with player, slot, cards")
    return [_F.int(_F.get(o, "player"), f"{where} player"), _F.int(_F.get(o, "slot"), f"{where} slot")] + \
        _F.ids(_F.get(o, "cards"), where, _card, is_set=True)


def _names(ids: list[int]) -> list[str]:
    return [CARDS[i].name for i in ids]


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

    def _seen_move(self, state: _State, move: _Move, player: int) -> tuple[Optional[str], str]:
        return _events.seen_move(state, move, player)       # what a seat sees: _capulana_events

    def _aftermath(self, before: _State, after: _State, player: int) -> list[dict[str, Any]]:
        return _events.aftermath(before, after, player)

    @property
    def determinize_is_exact(self) -> bool:
        """False with ``legacy_determinize``: it puts the others' weaving of
        the current step back in hand, a world the view does not imply.

        >>> load_game("capulana", legacy_determinize=True).determinize_is_exact, load_game("capulana").determinize_is_exact
        (False, True)
        """
        return not self._params.get("legacy_determinize", False)

    @classmethod
    def params_from_dict(cls, d: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters a state dict says it was played with: ``players``.

        >>> GAME.params_from_dict(new_game(players=4, seed=2).to_dict())
        {'players': 4}
        """
        n = _F.get(d, "players")
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 5:
            raise _F.bad(f"players must be an integer in [2, 5], not {n!r}")
        return {"players": n}

    def _encode_dict(self, d: Mapping[str, Any]) -> list[int]:
        _F.game(d, "capulana")
        n = _F.int(_F.get(d, "players"), "players")
        if n != self.num_players:
            raise _F.bad(f"players must be {self.num_players} in this game, not {n}")
        phase = _F.get(d, "phase")
        if phase not in _PHASES:
            raise _F.bad(f"phase must be 'offer', 'weave' or 'over', not {phase!r}")
        out = [n, _F.int(_F.get(d, "round"), "round"), _F.int(_F.get(d, "start_player"), "start_player"),
               _PHASES.index(phase), _F.int(_F.get(d, "to_move"), "to_move", null=True),
               _F.seed(_F.get(d, "seed"))]
        objectives = _F.list(_F.get(d, "objectives"), "objectives")
        obj_ids = []
        for o in objectives:
            if not isinstance(o, str) or o not in _OBJ_BY_NAME:
                raise _F.bad(f"objectives: unknown objective {o!r}")
            obj_ids.append(_OBJ_BY_NAME[o].index)
        out += [len(obj_ids)] + sorted(obj_ids)
        out += _F.ids(_F.get(d, "deck"), "deck", _card)
        out += _F.ids(_F.get(d, "slots"), "slots", _card)
        offers = _F.list(_F.get(d, "offers"), "offers")
        out.append(len(offers))
        for k, o in enumerate(offers):
            out += _offer(o, f"offer {k}")
        open_offer = _F.get(d, "open_offer")
        out += [0] if open_offer is None else [1] + _offer(open_offer, "open_offer")
        for q, hand in enumerate(_F.list(_F.get(d, "hands"), "hands", n)):
            out += _F.ids(hand, f"hand of player {q}", _card, is_set=True)
        for q, row in enumerate(_F.list(_F.get(d, "capulanas"), "capulanas", n)):
            where = f"capulana of player {q}"
            out.append(len(_F.list(row, where)))
            for e in row:
                parts = e.split() if isinstance(e, str) else []
                if len(parts) != 2 or len(parts[1]) < 2 or parts[1][0] not in ORIENTATIONS or parts[1][1:] not in PLACEMENTS:
                    raise _F.bad(f"{where}: entry {e!r} is not 'CARD orientation+placement' like 'F30 r>1'")
                out += [_card(parts[0], where), 7 * ORIENTATIONS.index(parts[1][0]) + PLACEMENTS.index(parts[1][1:])]
        out += [_F.int(w, f"woven[{q}]") for q, w in enumerate(_F.list(_F.get(d, "woven"), "woven", n))]
        for q, x in enumerate(_F.list(_F.get(d, "weave_done"), "weave_done", n)):
            if not isinstance(x, bool):
                raise _F.bad(f"weave_done[{q}] must be true or false, not {x!r}")
            out.append(int(x))
        known = _F.get(d, "known")
        if not isinstance(known, Mapping):
            raise _F.bad(f"known must be a dict of card: player, not {type(known).__name__}")
        pairs = sorted((_card(c, "known"), _F.int(q, f"known[{c}]")) for c, q in known.items())
        out.append(len(pairs))
        for c, q in pairs:
            out += [c, q]
        return out

    def _dict_from_view(self, view: Mapping[str, Any], player: int) -> dict[str, Any]:
        _F.game(view, "capulana")
        d: dict[str, Any] = json.loads(json.dumps(view))     # a deep copy of plain JSON values
        n = self.num_players
        hands = _F.list(_F.get(d, "hands"), "hands", n)
        rows = _F.list(_F.get(d, "capulanas"), "capulanas", n)
        known = _F.get(d, "known")
        if not isinstance(known, dict):
            raise _F.bad("known must be a dict of card: player")
        offers = _F.list(_F.get(d, "offers"), "offers") + ([d["open_offer"]] if d.get("open_offer") else [])
        if isinstance(hands[player], dict):
            raise _F.bad(f"the view shows player {player}'s hand as a count: it is another seat's view, "
                         f"not player {player}'s")
        # only names are collected here; a value of another type is named by from_dict's checks
        seen = set(known) | {x for x in _F.list(_F.get(d, "slots"), "slots") if isinstance(x, str)}
        seen.update(x for x in _F.list(hands[player], f"hand of player {player}") if isinstance(x, str))
        for row in rows:
            seen.update(e.split()[0] for e in _F.list(row, "capulana") if isinstance(e, str) and e.split())
        for o in offers:
            if not isinstance(o, dict) or not isinstance(o.get("cards"), (list, dict)):
                raise _F.bad("an offer is a dict with player, slot, cards")
            if isinstance(o["cards"], list):
                seen.update(x for x in o["cards"] if isinstance(x, str))
        # others' hidden cards are dealt ones, black (1.2; the state check counts purple cards out of the deck)
        pool = [c.name for c in sorted((c for c in CARDS if c.is_fabric), key=lambda c: c.stripe != "black")
                if c.name not in seen]
        for q in range(n):
            if q == player:
                continue
            h = hands[q]
            if not isinstance(h, dict):
                raise _F.bad(f"a view shows player {q}'s hand as {{'count': n}}")
            mine = sorted(c for c, holder in known.items() if holder == q)
            count = _F.int(_F.get(h, "count"), f"hand count of player {q}")
            hidden = [o for o in offers if o.get("player") == q and isinstance(o["cards"], dict)]
            hand, spill = mine[:count], mine[count:]   # known cards beyond the hand lie in an offer (R6)
            for o in hidden:
                k = _F.int(_F.get(o["cards"], "count"), "offer count")
                take = spill[:k]
                spill = spill[k:]
                while len(take) < k and pool:
                    take.append(pool.pop(0))
                o["cards"] = sorted(take)
            if spill:
                raise _F.bad(f"player {q} has more known cards than their hand and offers hold")
            while len(hand) < count and pool:
                hand.append(pool.pop(0))
            hands[q] = sorted(hand)
        deck = _F.get(d, "deck")
        if not isinstance(deck, dict):
            raise _F.bad("a view shows the deck as {'count': n}")
        d["deck"] = pool
        d["seed"] = 0
        return d


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
