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
from typing import Any, Mapping, Optional, Union

from . import _capivarias
from ._state import StateProtocol
from ._errors import IllegalMoveError, InvalidMoveError
from ._validate import Fields, check_action_id, check_seed

__all__ = [
    "CARDS",
    "NUM_ACTIONS",
    "Card",
    "Move",
    "State",
    "new_game",
    "random_playouts",
]

# --- card table -----------------------------------------------------------------

_KINDS = {
    "herd": 0,
    "capiolin": 1,
    "capionca:push": 2,
    "capionca:switch-one": 3,
    "capionca:switch-all": 4,
    "capitico": 5,
    "capissor": 6,
}
_HERDS = {"capicria": 0, "capiox": 1, "capitche": 2, "capiolin": 3}


@dataclass(frozen=True)
class Card:
    """One row of ``capivarias_cards.csv``: a river side and a capybara side."""

    index: int
    name: str
    kind: str
    herd: Optional[str]
    number: int
    modifier: int
    expansion: bool

    @property
    def is_capybara(self) -> bool:
        """Herd cards and capiolins: the cards that score and get pushed."""
        return self.kind in ("herd", "capiolin")

    @property
    def is_capionca(self) -> bool:
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


CARDS: tuple[Card, ...] = _load_cards()
_BY_NAME = {c.name: c for c in CARDS}
_C = len(CARDS)
_capivarias.set_cards(
    [
        (c.name, _KINDS[c.kind], _HERDS[c.herd] if c.herd else 255, c.number, c.modifier, int(c.expansion))
        for c in CARDS
    ]
)
NUM_ACTIONS: int = _capivarias.num_actions()


def _encode(card: int, seg: int, target: int) -> int:
    return ((card * 4) + seg) * (_C + 1) + target


# --- moves -----------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A move, identified by its action id; ``str()`` is its notation.

    >>> m = Move.parse("OP1@2/C3")
    >>> str(m), Move.parse(str(m)) == m
    ('OP1@2/C3', True)
    >>> Move.parse("discard KX").action == Move(Move.parse("discard KX").action).action
    True
    """

    action: int

    def __post_init__(self) -> None:
        check_action_id(self.action, NUM_ACTIONS)

    @property
    def card(self) -> Card:
        """The card taken."""
        return CARDS[self.action // (_C + 1) // 4]

    @property
    def segment(self) -> Optional[int]:
        """The segment it acts on (capionças, capiolins, herd cards), else None."""
        seg = self.action // (_C + 1) % 4
        return None if seg == 3 else seg

    @property
    def target(self) -> Optional[Card]:
        """The chosen capybara (capionça, capitico) or capitico (capissor)."""
        t = self.action % (_C + 1)
        return None if t == _C else CARDS[t]

    @property
    def is_discard(self) -> bool:
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

        :raises InvalidMoveError: the text is not of the notation's shape, or
            names an unknown card.
        :raises IllegalMoveError: only for a capiolin resolved against a
            state in which it cannot be placed.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"notation must be a string, not {type(text).__name__}: {text!r}")
        t = text.strip()
        if t.startswith("discard "):
            return cls(_encode(_card_index(t[8:].strip(), text), 3, _C))
        head, slash, target = t.partition("/")
        name, at, seg_text = head.partition("@")
        card = _card_index(name, text)
        tgt = _card_index(target, text) if slash else _C
        if at:
            if seg_text not in ("0", "1", "2"):
                raise InvalidMoveError(f"segment in {text!r} must be 0, 1 or 2")
            return cls(_encode(card, int(seg_text), tgt))
        if slash:
            return cls(_encode(card, 3, tgt))
        if CARDS[card].kind == "capiolin":
            if state is None:
                raise InvalidMoveError(
                    f"capiolin notation {text!r} needs the position: use Move.parse(text, state=...) or {name}@<segment>"
                )
            for a in state.legal_actions():
                m = cls(a)
                if m.card.index == card and not m.is_discard:
                    return m
            raise IllegalMoveError(f"illegal move {text!r}: {name} cannot be played now in {state.to_json()}")
        return cls(_encode(card, 0, _C))


def _card_index(name: str, text: str) -> int:
    card = _BY_NAME.get(name)
    if card is None:
        raise InvalidMoveError(f"unknown card {name!r} in move {text!r}")
    return card.index


MoveLike = Union[int, str, Move]

# --- state ------------------------------------------------------------------------


class State(StateProtocol, _capivarias.CoreState):
    """A Capivárias position: the river, the available row, the pile, the score.

    Create one with :func:`new_game` or :meth:`from_dict`. ``apply`` checks
    legality and leaves the state untouched when it raises.
    """

    __slots__ = ()
    _MOVE = Move
    _NUM_ACTIONS = NUM_ACTIONS

    # construction --------------------------------------------------------------
    @classmethod
    def new(cls, *, seed: int, expansion: bool = False, first_player: int = 0) -> "State":
        """See :func:`new_game`."""
        _check_seed(seed)
        if first_player not in (0, 1) or isinstance(first_player, bool):
            raise ValueError(f"first_player must be 0 or 1, not {first_player!r}")
        return cls._new(seed, bool(expansion), first_player)

    # moves ----------------------------------------------------------------------
    def parse_move(self, move: MoveLike) -> Move:
        """Turn an id, notation or Move into a legal Move of this state.

        :raises InvalidMoveError: not a move at all.
        :raises IllegalMoveError: a move, but not legal here.
        """
        if isinstance(move, Move):
            m = move
        elif isinstance(move, str):
            m = Move.parse(move, state=self)
        elif isinstance(move, int) and not isinstance(move, bool):
            m = Move(move)
        else:
            raise InvalidMoveError(f"a move is an action id, a notation string or a Move, not {move!r}")
        if m.action not in self.legal_actions():
            raise IllegalMoveError(f"illegal move {str(m)!r} (id {m.action}) in {self.to_json()}")
        return m

    # serialisation -----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Full-information JSON-safe dict (RULES part 4)."""
        return self._to_dict()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "State":
        """Load and validate a state dict (RULES part 4).

        :raises InvalidStateError: (a ``ValueError``) naming the first problem.
        """
        return _from_dict(cls, d)

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: river cards and the pile reduced to their river
        sides (R20), no seed."""
        _check_player(player)
        d = self._to_dict()
        mods, n, top = self._view_parts()
        del d["seed"]
        for seg, m in zip(d["segments"], mods):
            seg["river"] = {"modifier": m}
        d["pile"] = {"count": n, "top_modifier": top}
        return d

    def determinize(self, player: int, seed: int) -> "State":
        """A full state drawn uniformly from those consistent with ``view(player)``."""
        _check_player(player)
        _check_seed(seed)
        return self._determinize(player, seed)

    # python protocol ------------------------------------------------------------------
    def __str__(self) -> str:
        d = self._to_dict()
        sc = self.scores()
        lines = [
            f"Capivárias{' + expansion' if d['expansion'] else ''} — round {d['round']}, "
            f"round wins {d['round_wins'][0]}-{d['round_wins'][1]}",
        ]
        w = 26
        lines.append(f"{'':>18}  {'player 0 side':<{w}} {'player 1 side':<{w}}")
        for i, seg in enumerate(d["segments"]):
            river = _BY_NAME[seg["river"]]
            cap = f" [{seg['capionca']}]" if seg["capionca"] else ""
            head = f"seg {i} ({river.modifier:+d}){cap}"
            sides = [" ".join(side) or "·" for side in _guarded(seg["sides"])]
            lines.append(f"{head:>18}  {sides[0]:<{w}} {sides[1]:<{w}}")
        lines.append(f"{'score':>18}  {sc[0]:<{w}} {sc[1]:<{w}}")
        lines.append(f"available: {' '.join(d['available']) or '-'}   pile: {len(d['pile'])}   discard: {' '.join(d['discard']) or '-'}")
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


def _check_player(player: Any) -> None:
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {player!r}")


_check_seed = check_seed
_F = Fields("Capivárias")
_bad = _F.bad


# --- from_dict ----------------------------------------------------------------------------


def _from_dict(cls: type[State], d: Mapping[str, Any]) -> State:
    if not isinstance(d, Mapping):
        raise _bad(f"expected a dict, got {type(d).__name__}")
    if _F.get(d, "game") != "capivarias":
        raise _bad(f"game must be 'capivarias', not {d['game']!r}")
    expansion = _F.get(d, "expansion")
    if not isinstance(expansion, bool):
        raise _bad(f"expansion must be true or false, not {expansion!r}")
    rnd = _F.int_(_F.get(d, "round"), "round", 1, 9)
    wins = [_F.int_(w, "round_wins[i]", 0, 9) for w in _F.list_(_F.get(d, "round_wins"), "round_wins", 2)]
    to_move = _F.opt_int(_F.get(d, "to_move"), "to_move", 0, 1)
    last_taker = _F.opt_int(_F.get(d, "last_taker"), "last_taker", 0, 1)
    winner = _F.opt_int(_F.get(d, "winner"), "winner", 0, 1)
    seed = _F.seed(_F.get(d, "seed"))
    if rnd == 1 and last_taker is not None:
        raise _bad("last_taker must be null in round 1")
    if rnd > 1 and last_taker is None:
        raise _bad(f"last_taker must be set in round {rnd}")
    if to_move is not None and winner is not None:
        raise _bad("a winner is set but to_move is not null (the game is not over)")
    if to_move is None and winner is None and rnd != 9:
        raise _bad("the game is over without a winner, which only an R30 draw after round 9 allows")

    in_game = {c.name for c in CARDS if expansion or not c.expansion}
    seen: dict[str, str] = {}

    def card(name: Any, where: str) -> Card:
        if not isinstance(name, str):
            raise _bad(f"{where}: a card is a name string, not {name!r}")
        c = _BY_NAME.get(name)
        if c is None:
            raise _bad(f"{where}: unknown card {name!r}")
        if name not in in_game:
            raise _bad(f"{where}: {name} is an expansion card but expansion is false")
        if name in seen:
            raise _bad(f"card {name} is in two places ({seen[name]} and {where})")
        seen[name] = where
        return c

    segments = _F.list_(_F.get(d, "segments"), "segments")
    if len(segments) != 3:
        raise _bad(f"there must be 3 segments, not {len(segments)}")
    river: list[int] = []
    capionca: list[Optional[int]] = []
    sides: list[list[int]] = []
    for i, seg in enumerate(segments):
        if not isinstance(seg, Mapping):
            raise _bad(f"segment {i} must be a dict")
        river.append(card(_F.get(seg, "river"), f"segment {i} river").index)
        cap = _F.get(seg, "capionca")
        if cap is None:
            capionca.append(None)
        else:
            c = card(cap, f"segment {i} capionca")
            if not c.is_capionca:
                raise _bad(f"segment {i}: {c.name} lies as a capionça but is a {c.kind}")
            capionca.append(c.index)
        sd = _F.list_(_F.get(seg, "sides"), f"segment {i} sides")
        if len(sd) != 2:
            raise _bad(f"segment {i} must have 2 sides")
        masks = []
        herds: dict[str, str] = {}
        for k, side in enumerate(sd):
            m = 0
            names = _F.list_(side, f"segment {i} side {k}")
            for name in names:
                c = card(name, f"segment {i} side {k}")
                if not (c.is_capybara or c.kind == "capitico"):
                    raise _bad(f"segment {i} side {k}: a {c.kind} ({c.name}) cannot lie on a side")
                if c.is_capybara:
                    if c.herd in herds:
                        raise _bad(f"segment {i} holds two capybaras of one herd: {herds[c.herd]} and {c.name}")
                    herds[c.herd] = c.name  # type: ignore[index]
                m |= 1 << c.index
            for name in names:
                c = _BY_NAME[name]
                if c.kind == "capitico" and not any(
                    _BY_NAME[g].is_capybara and _BY_NAME[g].herd == c.herd for g in names
                ):
                    raise _bad(f"segment {i} side {k}: capitico {c.name} has no guardian of its herd on that side")
            masks.append(m)
        sides.append(masks)
    available = [card(n, "available").index for n in _F.list_(_F.get(d, "available"), "available")]
    pile = [card(n, "pile").index for n in _F.list_(_F.get(d, "pile"), "pile")]
    discard = 0
    for n in _F.list_(_F.get(d, "discard"), "discard"):
        discard |= 1 << card(n, "discard").index
    missing = sorted(in_game - set(seen), key=lambda n: _BY_NAME[n].index)
    if missing:
        raise _bad(f"cards missing from the state: {', '.join(missing)}")
    if len(available) > 4:
        raise _bad(f"at most 4 cards are available, not {len(available)}")
    if to_move is not None and len(available) < 2:
        raise _bad(
            f"the player to move has no legal action: an unfinished round needs 2 to 4 available cards, not {len(available)}"
        )
    return cls._load(
        seed=seed, expansion=expansion, round=rnd, wins=wins, to_move=to_move, last_taker=last_taker,
        winner=winner, river=river, capionca=capionca, sides=sides, available=available, pile=pile,
        discard=discard,
    )


# --- module functions ----------------------------------------------------------------------


def new_game(*, seed: int, expansion: bool = False, first_player: int = 0) -> State:
    """A new game: round 1 set up from ``seed`` (R20), ``first_player`` to move.

    >>> new_game(seed=1).to_dict()["round"]
    1
    """
    return State.new(seed=seed, expansion=expansion, first_player=first_player)


def random_playouts(n: int, *, seed: int, expansion: bool = False) -> dict[str, Any]:
    """Play ``n`` uniformly random games entirely in C; return aggregate
    statistics (games, wins per player, draws, actions, rounds).

    >>> random_playouts(10, seed=3)["games"]
    10
    """
    _check_seed(seed)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative integer, not {n!r}")
    return _capivarias.random_playouts(n, seed, bool(expansion))
