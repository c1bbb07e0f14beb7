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
from dataclasses import dataclass
from importlib import resources
from typing import Any, Mapping, Optional, Sequence, Union

from . import _capulana
from ._state import StateProtocol
from ._errors import IllegalMoveError, InvalidMoveError, InvalidStateError
from ._validate import Fields, check_action_id, check_seed

__all__ = [
    "CARDS",
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
    "random_playouts",
    "score_strips",
]

# --- tables ----------------------------------------------------------------------

_COLOURS = "-YGRBO"   # code = index; "*" = 7
_PATTERNS = "-DTCZL"
_WILD = 7
COLOUR_NAMES = {"Y": "yellow", "G": "green", "R": "red", "B": "blue", "O": "orange"}
PATTERN_NAMES = {"D": "diamonds", "T": "triangles", "C": "circles", "Z": "zigzags", "L": "leaves"}
_OBJ_KEYS = [
    "long-color", "long-pattern", "three-colors", "three-patterns", "long-capulana",
    "no-loose-strip", "two-wilds", "saver", "many-pieces", "perfect-match",
]
PLACEMENTS = ("+", ">1", ">2", ">3", "<1", "<2", "<3")
ORIENTATIONS = ("n", "r")


@dataclass(frozen=True)
class Card:
    """One row of ``capulana_fabric_cards.csv``."""

    index: int
    name: str
    kind: str          # "fabric" or "initial"
    stripe: str        # "black", "purple" ("" for initial cards)
    value: int         # bid money (0 for initial cards)
    strips: tuple[str, ...]

    @property
    def is_fabric(self) -> bool:
        return self.kind == "fabric"


@dataclass(frozen=True)
class Objective:
    """One row of ``capulana_objectives.csv`` (R11)."""

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


CARDS, OBJECTIVES = _load_tables()
_BY_NAME = {c.name: c for c in CARDS}
_OBJ_BY_NAME = {o.name: o for o in OBJECTIVES}
_NFABRIC = sum(c.is_fabric for c in CARDS)
_FABRIC_NAMES = [c.name for c in CARDS if c.is_fabric]


def _table_rows() -> list[tuple]:
    rows = []
    for c in CARDS:
        codes = [_strip_codes(s, c.name) for s in c.strips]
        rows.append((c.name, 0 if c.is_fabric else 1, int(c.stripe == "black"), c.value,
                     [x for x, _ in codes], [y for _, y in codes]))
    return rows


_capulana.set_tables(_table_rows(), [(o.name, o.points, _OBJ_KEYS.index(o.key)) for o in OBJECTIVES])
NUM_ACTIONS = 847
_BID, _OFFER, _DONE, _STOP, _WEAVE = 0, 5, 61, 62, 63

# --- moves ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A move, identified by its action id; ``str()`` is its notation (RULES 1.6).

    >>> m = Move.parse("F13 r>2")
    >>> m.action, str(m), m.card.name, m.orientation, m.placement
    (240, 'F13 r>2', 'F13', 'r', '>2')
    >>> [str(Move(a)) for a in (2, 17, 61, 62)]
    ['bid 2', 'offer F13', 'done', 'stop']
    """

    action: int

    def __post_init__(self) -> None:
        check_action_id(self.action, NUM_ACTIONS)

    @property
    def kind(self) -> str:
        """'bid', 'offer', 'done', 'stop' or 'weave'."""
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
        """The slot of a bid."""
        return self.action - _BID if self.action < _OFFER else None

    @property
    def card(self) -> Optional[Card]:
        """The card offered or woven."""
        a = self.action
        if _OFFER <= a < _DONE:
            return CARDS[a - _OFFER]
        if a >= _WEAVE:
            return CARDS[(a - _WEAVE) // 14]
        return None

    @property
    def orientation(self) -> Optional[str]:
        """'n' or 'r' for a weave."""
        return ORIENTATIONS[(self.action - _WEAVE) % 14 // 7] if self.action >= _WEAVE else None

    @property
    def placement(self) -> Optional[str]:
        """'+', '>k' or '<k' for a weave."""
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

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read the notation of RULES 1.6 (``bid 2``, ``offer F13``, ``done``,
        ``stop``, ``F13 r>2``).

        :raises InvalidMoveError: the text is not of the notation's shape or
            names an unknown card.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"notation must be a string, not {type(text).__name__}: {text!r}")
        parts = text.split()
        if parts == ["done"]:
            return cls(_DONE)
        if parts == ["stop"]:
            return cls(_STOP)
        if len(parts) == 2 and parts[0] == "bid":
            if parts[1] in ("0", "1", "2", "3", "4"):
                return cls(_BID + int(parts[1]))
            raise InvalidMoveError(f"slot in {text!r} must be 0..4")
        if len(parts) == 2 and parts[0] == "offer":
            return cls(_OFFER + _fabric_index(parts[1], text))
        if len(parts) == 2:
            c = _fabric_index(parts[0], text)
            p = parts[1]
            if len(p) < 2 or p[0] not in ORIENTATIONS or p[1:] not in PLACEMENTS:
                raise InvalidMoveError(f"placement in {text!r} must be n or r followed by + >1 >2 >3 <1 <2 <3")
            return cls(_WEAVE + 14 * c + 7 * ORIENTATIONS.index(p[0]) + PLACEMENTS.index(p[1:]))
        raise InvalidMoveError(f"not a Capulana move: {text!r}")


def _fabric_index(name: str, text: str) -> int:
    card = _BY_NAME.get(name)
    if card is None or not card.is_fabric:
        raise InvalidMoveError(f"unknown fabric card {name!r} in move {text!r}")
    return card.index


MoveLike = Union[int, str, Move]
_capulana.set_move_class(Move)

# --- scoring -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoredSet:
    """One set of R10: ``kind`` 'colour' or 'pattern', ``symbol`` (``Y``..``O``
    or ``D``..``L``), 0-based ``start`` and ``length`` (= its points)."""

    kind: str
    symbol: str
    start: int
    length: int

    @property
    def name(self) -> str:
        return (COLOUR_NAMES if self.kind == "colour" else PATTERN_NAMES)[self.symbol]

    def __str__(self) -> str:
        return f"{self.name} {self.start}..{self.start + self.length - 1} ({self.length})"


@dataclass(frozen=True)
class ScoreBreakdown:
    """The R10 breakdown of a row: its sets (colour sets, then pattern sets,
    each by start) and ``total`` (the capulana score)."""

    strips: tuple[str, ...]
    sets: tuple[ScoredSet, ...]
    total: int

    def __str__(self) -> str:
        return " + ".join(str(s) for s in self.sets) + f" = {self.total}" if self.sets else "no set = 0"


def _breakdown(strips: Sequence[str]) -> ScoreBreakdown:
    codes = [_strip_codes(s, "score_strips") for s in strips]
    total, sets = _capulana.score_sets([c for c, _ in codes], [p for _, p in codes])
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


# --- weaving options ---------------------------------------------------------------------------


WeaveOption = _capulana.WeaveOption
"""One complete weaving step: ``moves``/``actions`` (0- and 1-card steps end
with ``stop``), ``cards``, the resulting ``strips`` and ``v``, the capulana
``score`` (R10) and the ``final_score`` (R11) it yields."""


# --- state --------------------------------------------------------------------------------------


class State(StateProtocol, _capulana.CoreState):
    """A Capulana position. Create one with :func:`new_game` or :meth:`from_dict`.

    ``apply`` checks legality and leaves the state untouched when it raises.
    """

    __slots__ = ()
    _MOVE = Move
    _NUM_ACTIONS = NUM_ACTIONS

    @classmethod
    def new(cls, *, players: int, seed: int) -> "State":
        """See :func:`new_game`."""
        _check_seed(seed)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
            raise ValueError(f"players must be 2 to 5, not {players!r}")
        return cls._new(players, seed)

    # moves --------------------------------------------------------------------
    def parse_move(self, move: MoveLike) -> Move:
        """Turn an id, notation or Move into a legal Move of this state.

        :raises InvalidMoveError: not a move at all.
        :raises IllegalMoveError: a move, but not legal here.
        """
        if isinstance(move, Move):
            m = move
        elif isinstance(move, str):
            try:
                m = Move.parse(move)
            except InvalidMoveError as e:
                raise InvalidMoveError(f"{e} in {self.to_json()}") from None
        elif isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move < NUM_ACTIONS:
                raise InvalidMoveError(f"action id {move} is not in [0, {NUM_ACTIONS}) in {self.to_json()}")
            m = Move(move)
        else:
            raise InvalidMoveError(f"a move is an action id, a notation string or a Move, not {move!r}, in {self.to_json()}")
        if m.action not in self.legal_actions():
            raise IllegalMoveError(f"illegal move {str(m)!r} (id {m.action}) in {self.to_json()}")
        return m

    def weaving_options(self) -> list[WeaveOption]:
        """Every complete weaving step open to the player to move, from the
        current point of their turn: 0, 1 or 2 cards with placements,
        deduplicated by the resulting visible strips (the first in action
        order is kept), each with the score it yields. Empty outside a
        weaving turn. Computed in C with the GIL released.
        """
        return self._weaving_options()

    def strips(self, player: int) -> list[str]:
        """The visible strips of a player's capulana, left to right."""
        _check_player(player, self.players)
        return self._row_strips(player)

    # serialisation -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Full-information JSON-safe dict (RULES part 4)."""
        return self._to_dict()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "State":
        """Load and validate a state dict (RULES part 4).

        :raises InvalidStateError: (a ``ValueError``) naming the first problem.
        """
        try:
            return _from_dict(cls, d)
        except InvalidStateError:
            raise
        except (ValueError, TypeError, KeyError, OverflowError) as e:   # from the core's own checks
            raise _bad(str(e)) from None

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees (RULES part 4): others' rows, hand counts and
        known cards as they stood when the current weaving step began, their
        ``woven`` shown as 0 (R7); others' offers and hands as counts (hands
        with the cards publicly known to be held by that player, R6, which
        in the offer phase may lie in one of their face-down offers); the deck
        as a count; no seed.
        """
        _check_player(player, self.players)
        d = self._to_dict()
        del d["seed"]
        n = d["players"]
        holders: dict[int, list[str]] = {}
        for c, q in d["known"].items():
            holders.setdefault(q, []).append(c)
        for q in range(n):
            if q == player:
                continue
            w = d["woven"][q]
            count = len(d["hands"][q]) + w
            known = holders.get(q)
            d["hands"][q] = {"count": count, "known": known} if known else {"count": count}
            if w:
                d["capulanas"][q] = d["capulanas"][q][:-w]
            d["woven"][q] = 0
        for o in d["offers"] + ([d["open_offer"]] if d["open_offer"] else []):
            if o["player"] != player:
                o["cards"] = {"count": len(o["cards"])}
        d["deck"] = {"count": len(d["deck"])}
        return d

    def determinize(self, player: int, seed: int) -> "State":
        """A full state drawn uniformly from those consistent with
        ``view(player)`` (see :c:func:`cp_determinize`): others' unknown
        cards, the deck order and the hidden offer contents are redealt;
        others' weaving in the current step is undone (their woven cards go
        back to their hands)."""
        _check_player(player, self.players)
        _check_seed(seed)
        return self._determinize(player, seed)

    # python protocol -------------------------------------------------------------------
    def __str__(self) -> str:
        d = self._to_dict()
        n = d["players"]
        me = d["to_move"]
        sc = self.scores()
        csc = self.capulana_scores()
        objs = ", ".join(f"{o} ({_OBJ_BY_NAME[o].points}: {_OBJ_BY_NAME[o].condition})" for o in d["objectives"])
        lines = [f"Capulana — {n} players, round {d['round']} of 4, {d['phase']} phase, start player {d['start_player']}",
                 f"objectives: {objs or '-'}"]
        if d["phase"] == "offer":
            lines.append("slots: " + "  ".join(f"{j}:{c}(${_BY_NAME[c].value})" for j, c in enumerate(d["slots"])))
            offers = [f"P{o['player']}→{o['slot']} [{len(o['cards'])}]" for o in d["offers"]]
            if d["open_offer"]:
                o = d["open_offer"]
                offers.append(f"P{o['player']}→{o['slot']} [{len(o['cards'])}, open]")
            lines.append("offers: " + ("  ".join(offers) or "-"))
        for q in range(n):
            strips = self._row_strips(q)
            mark = "*" if q == me else " "
            hand = d["hands"][q]
            hand_text = " ".join(hand) if q == me else f"{len(hand)} cards"
            extra = f", woven {d['woven'][q]}" if d["woven"][q] else ""
            lines.append(f"{mark}P{q} [{' '.join(strips)}] score {csc[q]} (final {sc[q]}){extra}; hand: {hand_text or '-'}")
        lines.append(f"deck: {len(d['deck'])} cards; known: " +
                     (" ".join(f"{c}@P{q}" for c, q in d["known"].items()) or "-"))
        if self.is_terminal:
            r = self.returns()
            lines.append("game over: " + ", ".join(f"P{q} {r[q]:g}" for q in range(n)))
        else:
            lines.append(f"player {me} to move")
        return "\n".join(lines)


def _check_player(player: Any, n: int) -> None:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"player must be 0..{n - 1}, not {player!r}")


_check_seed = check_seed
_F = Fields("Capulana")
_bad = _F.bad
_get = _F.get
_list = _F.list_


def _int(value: Any, what: str, lo: int, hi: int, *, null: bool = False) -> Optional[int]:
    return _F.opt_int(value, what, lo, hi) if null else _F.int_(value, what, lo, hi)


# --- from_dict ------------------------------------------------------------------------------------


def _offerer(n: int, s: int, k: int) -> int:
    return (s + k) % n if k < n else (s + 2 * n - 1 - k) % n


def _from_dict(cls: "type[State]", d: Mapping[str, Any]) -> State:
    if not isinstance(d, Mapping):
        raise _bad(f"expected a dict, got {type(d).__name__}")
    if _get(d, "game") != "capulana":
        raise _bad(f"game must be 'capulana', not {d['game']!r}")
    n = _int(_get(d, "players"), "players", 2, 5)
    assert n is not None
    rnd = _int(_get(d, "round"), "round", 1, 4)
    start = _int(_get(d, "start_player"), "start_player", 0, n - 1)
    assert start is not None
    phase = _get(d, "phase")
    if phase not in ("offer", "weave", "over"):
        raise _bad(f"phase must be 'offer', 'weave' or 'over', not {phase!r}")
    to_move = _int(_get(d, "to_move"), "to_move", 0, n - 1, null=True)
    if (to_move is None) != (phase == "over"):
        raise _bad("to_move must be null exactly when the phase is 'over'")
    seed = _F.seed(_get(d, "seed"))
    objectives = 0
    for o in _list(_get(d, "objectives"), "objectives"):
        if not isinstance(o, str) or o not in _OBJ_BY_NAME:
            raise _bad(f"objectives: unknown objective {o!r}")
        bit = 1 << _OBJ_BY_NAME[o].index
        if objectives & bit:
            raise _bad(f"objectives: {o} is listed twice")
        objectives |= bit

    seen: dict[str, str] = {}

    def card(name: Any, where: str, *, initial: bool = False) -> int:
        if not isinstance(name, str):
            raise _bad(f"{where}: a card is a name string, not {name!r}")
        c = _BY_NAME.get(name)
        if c is None:
            raise _bad(f"{where}: unknown card {name!r}")
        if c.is_fabric == initial:
            if initial:
                raise _bad(f"{where} must start with an initial card (R1), not the fabric card {name}")
            raise _bad(f"{where}: {name} is an initial card; it can only start a capulana (R1)")
        if name in seen:
            raise _bad(f"card {name} is in two places ({seen[name]} and {where})")
        seen[name] = where
        return c.index

    def mask(names: Any, where: str) -> int:
        m = 0
        for x in _list(names, where):
            m |= 1 << card(x, where)
        return m

    deck = [card(x, "deck") for x in _list(_get(d, "deck"), "deck")]
    slots = [card(x, "slots") for x in _list(_get(d, "slots"), "slots")]
    if phase == "offer" and len(slots) != n:
        raise _bad(f"the offer phase needs {n} announced cards in slots, not {len(slots)}")
    if phase != "offer" and slots:
        raise _bad("slots must be empty outside the offer phase")

    def offer(o: Any, k: int, where: str) -> tuple[int, int]:
        if not isinstance(o, Mapping):
            raise _bad(f"{where} must be a dict with player, slot, cards")
        due = _offerer(n, start, k)
        p = _int(_get(o, "player"), f"{where} player", 0, n - 1)
        if p != due:
            raise _bad(f"{where} is by player {p}, but offer {k} of the round is player {due}'s (1.3 offer order)")
        slot = _int(_get(o, "slot"), f"{where} slot", 0, n - 1)
        assert slot is not None
        return slot, mask(_get(o, "cards"), where)

    raw_offers = _list(_get(d, "offers"), "offers")
    open_raw = _get(d, "open_offer")
    if phase != "offer" and (raw_offers or open_raw is not None):
        raise _bad("offers must be empty and open_offer null outside the offer phase")
    if len(raw_offers) >= 2 * n:
        raise _bad(f"{len(raw_offers)} closed offers: the auction resolves when offer {2 * n} closes")
    offers = [offer(o, k, f"offer {k}") for k, o in enumerate(raw_offers)]
    open_offer = None if open_raw is None else offer(open_raw, len(offers), "open_offer")
    hands = [mask(h, f"hand of player {q}") for q, h in enumerate(_list(_get(d, "hands"), "hands", n))]
    rows = []
    for q, row in enumerate(_list(_get(d, "capulanas"), "capulanas", n)):
        entries = []
        for i, e in enumerate(_list(row, f"capulana of player {q}")):
            where = f"capulana of player {q}"
            parts = e.split() if isinstance(e, str) else []
            if len(parts) != 2 or len(parts[1]) < 2 or parts[1][0] not in ORIENTATIONS or parts[1][1:] not in PLACEMENTS:
                raise _bad(f"{where}: entry {e!r} is not 'CARD orientation+placement' like 'F30 r>1'")
            c = card(parts[0], where, initial=(i == 0))
            qcode = 7 * ORIENTATIONS.index(parts[1][0]) + PLACEMENTS.index(parts[1][1:])
            if i == 0 and qcode != 0:
                raise _bad(f"{where} must start with its initial card placed 'n+' (R1), not {e!r}")
            entries.append((c, qcode))
        if not entries:
            raise _bad(f"the capulana of player {q} is empty: it starts with an initial card (R1)")
        rows.append(entries)
    missing = [c for c in _FABRIC_NAMES if c not in seen]
    if missing:
        raise _bad(f"cards missing from the state: {', '.join(missing)}")
    woven = [_int(w, f"woven[{q}]", 0, 2) for q, w in enumerate(_list(_get(d, "woven"), "woven", n))]
    done = 0
    for q, x in enumerate(_list(_get(d, "weave_done"), "weave_done", n)):
        if not isinstance(x, bool):
            raise _bad(f"weave_done[{q}] must be true or false, not {x!r}")
        done |= int(x) << q
    known_d = _get(d, "known")
    if not isinstance(known_d, Mapping):
        raise _bad(f"known must be a dict of card: player, not {type(known_d).__name__}")
    known = 0
    for c, q in known_d.items():
        if not isinstance(c, str) or c not in _BY_NAME or not _BY_NAME[c].is_fabric:
            raise _bad(f"known: unknown fabric card {c!r}")
        _int(q, f"known[{c}]", 0, n - 1)
        known |= 1 << _BY_NAME[c].index
    try:
        st = cls._load(players=n, round=rnd, start=start, phase=("offer", "weave", "over").index(phase),
                       to_move=to_move, seed=seed, objectives=objectives, deck=deck, slots=slots, offers=offers,
                       open_offer=open_offer, hands=hands, rows=rows, woven=woven, weave_done=done, known=known)
    except ValueError as e:
        raise _bad(str(e)) from None
    holders = st._to_dict()["known"]
    for c, q in known_d.items():
        if holders[c] != q:
            raise _bad(f"known: {c} is held by player {holders[c]}, not {q} (R6)")
    return st


# --- module functions --------------------------------------------------------------------------


def new_game(*, players: int, seed: int) -> State:
    """A new game of ``players`` (2..5) set up from ``seed`` as engine-notes
    says (R1, R2): player 0 starts the offers of round 1.

    >>> new_game(players=2, seed=1).to_dict()["round"]
    1
    """
    return State.new(players=players, seed=seed)


def random_playouts(n: int, *, seed: int, players: int) -> dict[str, Any]:
    """Play ``n`` uniformly random games entirely in C; return aggregate
    statistics (games, actions, ties, wins = summed returns, score sums).

    >>> random_playouts(10, seed=3, players=4)["games"]
    10
    """
    _check_seed(seed)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative integer, not {n!r}")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise ValueError(f"players must be 2 to 5, not {players!r}")
    return _capulana.random_playouts(n, seed, players)
