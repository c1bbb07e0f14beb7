"""Pure-Python reference implementation (test oracle) of Capulana.

Written straight from docs/RULES.md (Part 1 rules and rulings R1-R11, Part 4
state format) and docs/engine-notes.md (splitmix64 generator, setup order).
It is an independent oracle: it imports nothing from `tabuleiro`, only the
stdlib, and favours clarity over speed.

Rulings are cited as `# R5` etc.  Readings taken where RULES.md leaves room
are marked `READING:`.
"""

from __future__ import annotations

import csv
import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "python/tabuleiro/data/"

# ---------------------------------------------------------------------------
# Cards and objectives (1.1)


@dataclass(frozen=True)
class Card:
    index: int
    name: str
    kind: str  # "fabric" or "initial"
    stripe: str  # "black", "purple" ("" for initial cards)
    value: int  # 0 for initial cards
    strips: tuple[str, ...]


@dataclass(frozen=True)
class Objective:
    index: int
    name: str
    points: int
    key: str


def _load_cards() -> list[Card]:
    with open(DATA_DIR / "capulana_fabric_cards.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return [
        Card(
            index=i,
            name=r["id"],
            kind=r["kind"],
            stripe=r["stripe"],
            value=int(r["value"] or 0),
            strips=tuple(r["strips"].split()),
        )
        for i, r in enumerate(rows)
    ]


def _load_objectives() -> list[Objective]:
    with open(DATA_DIR / "capulana_objectives.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return [
        Objective(index=i, name=r["id"], points=int(r["points"]), key=r["key"])
        for i, r in enumerate(rows)
    ]


CARDS: list[Card] = _load_cards()
OBJECTIVES: list[Objective] = _load_objectives()
assert len(CARDS) == 61 and len(OBJECTIVES) == 10

CARD_BY_NAME = {c.name: c.index for c in CARDS}
OBJECTIVE_BY_NAME = {o.name: o.index for o in OBJECTIVES}
FABRIC = [c.index for c in CARDS if c.kind == "fabric"]  # F01..F56 = 0..55
INITIAL = [c.index for c in CARDS if c.kind == "initial"]  # I1..I5 = 56..60
BLACK = [c for c in FABRIC if CARDS[c].stripe == "black"]  # F01..F40
PURPLE = [c for c in FABRIC if CARDS[c].stripe == "purple"]  # F41..F56
assert FABRIC == list(range(56)) and INITIAL == list(range(56, 61))

RAW = "--"
HAND_SIZE = 7
ROUNDS = 4
MAX_OFFER_CARDS = 3

# ---------------------------------------------------------------------------
# Actions (1.6)

NUM_ACTIONS = 847
BID = 0  # 0..4   bid k
OFFER = 5  # 5..60  offer F01..F56
DONE = 61
STOP = 62
WEAVE = 63  # 63 + 14*c + 7*orientation + m

ORIENTATIONS = "nr"  # n = 0 keeps the strip order, r = 1 reverses it
PLACEMENTS = ["+", ">1", ">2", ">3", "<1", "<2", "<3"]  # m = 0..6


def weave_action(card: int, orientation: int, m: int) -> int:
    return WEAVE + 14 * card + 7 * orientation + m


def decode_weave(a: int) -> tuple[int, int, int]:
    """weave action id -> (card, orientation, m)"""
    c, q = divmod(a - WEAVE, 14)
    o, m = divmod(q, 7)
    return c, o, m


def placement_string(card: int, orientation: int, m: int) -> str:
    return f"{CARDS[card].name} {ORIENTATIONS[orientation]}{PLACEMENTS[m]}"


def action_to_string(a: int) -> str:
    if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"not a Capulana action id: {a!r}")
    if a < OFFER:
        return f"bid {a - BID}"
    if a < DONE:
        return f"offer {CARDS[a - OFFER].name}"
    if a == DONE:
        return "done"
    if a == STOP:
        return "stop"
    return placement_string(*decode_weave(a))


def _parse_fabric(name: str) -> int:
    c = CARD_BY_NAME.get(name)
    if c is None or CARDS[c].kind != "fabric":
        raise ValueError(f"not a fabric card: {name!r}")
    return c


def _parse_placement(text: str) -> tuple[int, int]:
    """'r>2' -> (orientation, m)"""
    if len(text) < 2 or text[0] not in ORIENTATIONS or text[1:] not in PLACEMENTS:
        raise ValueError(f"not a placement: {text!r}")
    return ORIENTATIONS.index(text[0]), PLACEMENTS.index(text[1:])


def string_to_action(s: str) -> int:
    if not isinstance(s, str):
        raise ValueError(f"not a Capulana action: {s!r}")
    parts = s.split()
    if parts == ["done"]:
        return DONE
    if parts == ["stop"]:
        return STOP
    if len(parts) == 2 and parts[0] == "bid":
        if parts[1] in ("0", "1", "2", "3", "4"):
            return BID + int(parts[1])
        raise ValueError(f"not a Capulana action: {s!r}")
    if len(parts) == 2 and parts[0] == "offer":
        return OFFER + _parse_fabric(parts[1])
    if len(parts) == 2:
        c = _parse_fabric(parts[0])
        o, m = _parse_placement(parts[1])
        return weave_action(c, o, m)
    raise ValueError(f"not a Capulana action: {s!r}")


# ---------------------------------------------------------------------------
# The capulana row (1.4)


def oriented(card: int, orientation: int) -> tuple[str, ...]:
    strips = CARDS[card].strips
    return strips[::-1] if orientation == 1 else strips  # r = rotated 180°


# ORIENTED[card][orientation] = the card's strips as placed, as a list
ORIENTED = [[list(oriented(c.index, 0)), list(oriented(c.index, 1))] for c in CARDS]


def place(visible: list[str], v: int, card: int, orientation: int, m: int):
    """Place a fabric card at the right end of a row (R8).

    `visible` = the row's visible strips, `v` = visible strips of the last
    placed card.  Returns (new visible strips, new v), or None when the R8
    limits forbid the placement.
    """
    strips = ORIENTED[card][orientation]
    if m == 0:  # '+' touching: append all 4
        return visible + strips, 4
    if m <= 3:  # '>k' over: drop the last k visible strips, append all 4
        k = m
        if k > v - 1:
            return None
        return visible[: len(visible) - k] + strips, 4
    k = m - 3  # '<k' under: the new card's first k strips are hidden
    if k > v:
        return None
    return visible + strips[k:], 4 - k


def parse_row_entry(entry: str) -> tuple[int, int, int]:
    """'F30 r>1' -> (card, orientation, m); 'I1 n+' -> (56, 0, 0)."""
    parts = entry.split() if isinstance(entry, str) else []
    if len(parts) != 2 or parts[0] not in CARD_BY_NAME:
        raise ValueError(f"not a capulana row entry: {entry!r}")
    o, m = _parse_placement(parts[1])
    return CARD_BY_NAME[parts[0]], o, m


def replay_row(entries: list[tuple[int, int, int]]) -> tuple[list[str], int]:
    """Visible strips and last v of a row given as (card, orientation, m)."""
    if not entries:
        raise ValueError("empty capulana row: the initial card is missing")
    seen: set[int] = set()
    visible: list[str] = []
    v = 0
    for i, (card, o, m) in enumerate(entries):
        name = placement_string(card, o, m)
        if card in seen:
            raise ValueError(f"card placed twice in a capulana: {name}")
        seen.add(card)
        if i == 0:
            # R1: the row starts with an initial card placed 'n+' (3 strips).
            if CARDS[card].kind != "initial" or (o, m) != (0, 0):
                raise ValueError(f"a capulana must start with an initial card 'Ik n+', not {name}")
            visible, v = list(CARDS[card].strips), len(CARDS[card].strips)
            continue
        if CARDS[card].kind != "fabric":
            raise ValueError(f"only fabric cards can be woven: {name}")
        placed = place(visible, v, card, o, m)
        if placed is None:
            raise ValueError(f"placement {name} is illegal after v={v} (R8)")
        visible, v = placed
    return visible, v


def visible_strips(row: list[str]) -> tuple[list[str], int]:
    """row = ["I1 n+", "F30 r>1", ...] -> (visible strips, v of the last card)."""
    return replay_row([parse_row_entry(e) for e in row])


# ---------------------------------------------------------------------------
# Scoring (1.5)

COLOURS = "YGRBO"
PATTERNS = "DTCZL"


@dataclass
class ScoredSet:
    kind: str  # "colour" or "pattern"
    symbol: str  # "Y", "D", ...
    start: int  # 0-based index of the first strip
    length: int

    @property
    def end(self) -> int:  # one past the last strip
        return self.start + self.length


def _runs(symbols: list[str], target: str) -> list[tuple[int, int]]:
    """Maximal runs of `target`-or-'*' with at least one exact `target`,
    at least 3 long (R10).  Returns (start, length) pairs."""
    found = []
    i = 0
    while i < len(symbols):
        if symbols[i] not in (target, "*"):
            i += 1
            continue
        j = i
        exact = False
        while j < len(symbols) and symbols[j] in (target, "*"):
            exact = exact or symbols[j] == target
            j += 1
        if j - i >= 3 and exact:
            found.append((i, j - i))
        i = j
    return found


def score_sets(strips: list[str]) -> list[ScoredSet]:
    """All sets of a row of visible strips (R10).

    READING: order = colour sets then pattern sets ("first colors, then
    patterns"), each group by start index, then by symbol order YGRBO/DTCZL.
    """
    if isinstance(strips, str):
        strips = strips.split()
    result: list[ScoredSet] = []
    for kind, place_, symbols in (("colour", 0, COLOURS), ("pattern", 1, PATTERNS)):
        column = [s[place_] for s in strips]
        group = [
            ScoredSet(kind, sym, start, length)
            for sym in symbols
            for start, length in _runs(column, sym)
        ]
        group.sort(key=lambda s: (s.start, symbols.index(s.symbol)))
        result += group
    return result


def score_strips(strips: list[str]) -> int:
    """Capulana score = sum of the lengths of all colour and pattern sets."""
    return sum(s.length for s in score_sets(strips))


def _objective_met(key: str, visible: list[str], cards_in_row: int, hand_size: int) -> bool:
    sets = score_sets(visible)
    colour_sets = [s for s in sets if s.kind == "colour"]
    pattern_sets = [s for s in sets if s.kind == "pattern"]
    if key == "long-color":  # OBJ1
        return any(s.length >= 6 for s in colour_sets)
    if key == "long-pattern":  # OBJ2
        return any(s.length >= 6 for s in pattern_sets)
    if key == "three-colors":  # OBJ3
        return len({s.symbol for s in colour_sets}) >= 3
    if key == "three-patterns":  # OBJ4
        return len({s.symbol for s in pattern_sets}) >= 3
    if key == "long-capulana":  # OBJ5
        return len(visible) >= 16
    if key == "no-loose-strip":  # OBJ6: every strip in a colour or pattern set
        return len(visible) >= 12 and all(
            any(s.start <= i < s.end for s in sets) for i in range(len(visible))
        )
    if key == "two-wilds":  # OBJ7: a wild strip is any strip with a '*'
        return sum("*" in s for s in visible) >= 2
    if key == "saver":  # OBJ8
        return hand_size >= 4
    if key == "many-pieces":  # OBJ9: the initial card counts
        return cards_in_row >= 8
    if key == "perfect-match":  # OBJ10
        # READING: some single colour set and some single pattern set overlap
        # on 3 or more consecutive strips.
        return any(
            min(c.end, p.end) - max(c.start, p.start) >= 3
            for c in colour_sets
            for p in pattern_sets
        )
    raise ValueError(f"unknown objective key: {key!r}")


def objective_met(key: str, row: list[str], hand_size: int) -> bool:
    visible, _ = visible_strips(row)
    return _objective_met(key, visible, len(row), hand_size)


# ---------------------------------------------------------------------------
# Random numbers (engine-notes: splitmix64)

MASK64 = (1 << 64) - 1


class Rng:
    def __init__(self, state: int):
        if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= MASK64:
            raise ValueError(f"seed must be an integer in [0, 2**64): {state!r}")
        self.state = state

    def draw(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        return self.draw() % n

    def shuffle(self, lst: list) -> None:
        for i in range(len(lst) - 1, 0, -1):
            j = self.below(i + 1)
            lst[i], lst[j] = lst[j], lst[i]


# ---------------------------------------------------------------------------
# R3: can the remaining offers still be placed?


def can_place_offers(on_slot: list[list[int]], remaining: list[tuple[int, int]]) -> bool:
    """on_slot[i] = players with an offer on slot i; remaining = (player, number
    of offers that player still has to make).  True if every remaining offer
    can go to a slot with fewer than 2 offers and no offer of that player
    (so that every slot ends with exactly 2 offers).  Plain backtracking."""
    if not remaining:
        return all(len(s) == 2 for s in on_slot)
    (player, count), rest = remaining[0], remaining[1:]
    free = [i for i, s in enumerate(on_slot) if len(s) < 2 and player not in s]
    for chosen in combinations(free, count):
        for i in chosen:
            on_slot[i].append(player)
        ok = can_place_offers(on_slot, rest)
        for i in chosen:
            on_slot[i].pop()
        if ok:
            return True
    return False


# ---------------------------------------------------------------------------
# State


@dataclass
class Offer:
    player: int
    slot: int
    cards: list[int] = field(default_factory=list)  # order added; written sorted

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "slot": self.slot,
            "cards": [CARDS[c].name for c in sorted(self.cards)],
        }

    @staticmethod
    def from_dict(d: dict) -> "Offer":
        return Offer(d["player"], d["slot"], [_parse_fabric(c) for c in d["cards"]])


class State:
    """A full Capulana state.  Build with `State.new_game` or `State.from_dict`."""

    def __init__(self) -> None:
        self.players = 0
        self.round = 1
        self.start_player = 0
        self.phase = "offer"  # "offer", "weave" or "over"
        self.to_move: int | None = 0
        self.seed = 0
        self.objectives: list[int] = []  # revealed objective indices, sorted
        self.deck: list[int] = []  # top first
        self.slots: list[int] = []  # left to right
        self.offers: list[Offer] = []  # closed offers, in the order made
        self.open_offer: Offer | None = None
        self.hands: list[set[int]] = []
        self.rows: list[list[tuple[int, int, int]]] = []  # (card, orientation, m)
        self.visible: list[list[str]] = []  # cache: visible strips of each row
        self.last_v: list[int] = []  # cache: v of each row's last card
        self.woven: list[int] = []
        self.weave_done: list[bool] = []
        self.known: dict[int, int] = {}  # card -> holder (R6)

    # -- construction -------------------------------------------------------

    @staticmethod
    def new_game(players: int, seed: int) -> "State":
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
            raise ValueError(f"Capulana needs 2 to 5 players, not {players!r}")
        rng = Rng(seed)
        n = players
        st = State()
        st.players = n
        # engine-notes Setup 1 (R1): initial cards
        initials = list(INITIAL)
        rng.shuffle(initials)
        st.rows = [[(initials[p], 0, 0)] for p in range(n)]
        # Setup 2: 7 black cards each
        black = list(BLACK)
        rng.shuffle(black)
        st.hands = [set(black[HAND_SIZE * p : HAND_SIZE * p + HAND_SIZE]) for p in range(n)]
        # Setup 3: deck = rest of black + purple, shuffled, top first
        deck = black[HAND_SIZE * n :] + list(PURPLE)
        rng.shuffle(deck)
        # Setup 4: 3 revealed objectives
        objs = list(range(len(OBJECTIVES)))
        rng.shuffle(objs)
        st.objectives = sorted(objs[:3])
        # Setup 5: round 1 announcement
        st.slots = deck[:n]
        st.deck = deck[n:]
        st.seed = rng.state
        # R2: player 0 starts round 1
        st.round = 1
        st.start_player = 0
        st.phase = "offer"
        st.to_move = 0
        st.woven = [0] * n
        st.weave_done = [False] * n
        st.known = {}
        st._refresh_rows()
        return st

    def _refresh_rows(self) -> None:
        self.visible, self.last_v = [], []
        for entries in self.rows:
            vis, v = replay_row(entries)
            self.visible.append(vis)
            self.last_v.append(v)

    @staticmethod
    def from_dict(d: dict) -> "State":
        st = State()
        st.players = d["players"]
        st.round = d["round"]
        st.start_player = d["start_player"]
        st.phase = d["phase"]
        st.to_move = d["to_move"]
        st.seed = d["seed"]
        st.objectives = sorted(OBJECTIVE_BY_NAME[o] for o in d["objectives"])
        st.deck = [_parse_fabric(c) for c in d["deck"]]
        st.slots = [_parse_fabric(c) for c in d["slots"]]
        st.offers = [Offer.from_dict(o) for o in d["offers"]]
        st.open_offer = None if d["open_offer"] is None else Offer.from_dict(d["open_offer"])
        st.hands = [{_parse_fabric(c) for c in h} for h in d["hands"]]
        st.rows = [[parse_row_entry(e) for e in row] for row in d["capulanas"]]
        st.woven = list(d["woven"])
        st.weave_done = list(d["weave_done"])
        st.known = {_parse_fabric(c): p for c, p in d["known"].items()}
        st._refresh_rows()
        return st

    def to_dict(self) -> dict:
        name = lambda c: CARDS[c].name  # noqa: E731
        return {
            "game": "capulana",
            "players": self.players,
            "round": self.round,
            "start_player": self.start_player,
            "phase": self.phase,
            "to_move": self.to_move,
            "seed": self.seed,
            "objectives": [OBJECTIVES[o].name for o in sorted(self.objectives)],
            "deck": [name(c) for c in self.deck],
            "slots": [name(c) for c in self.slots],
            "offers": [o.to_dict() for o in self.offers],
            "open_offer": None if self.open_offer is None else self.open_offer.to_dict(),
            "hands": [[name(c) for c in sorted(h)] for h in self.hands],
            "capulanas": [[placement_string(*e) for e in row] for row in self.rows],
            "woven": list(self.woven),
            "weave_done": list(self.weave_done),
            "known": {name(c): self.known[c] for c in sorted(self.known)},
        }

    def clone(self) -> "State":
        st = State()
        st.players = self.players
        st.round = self.round
        st.start_player = self.start_player
        st.phase = self.phase
        st.to_move = self.to_move
        st.seed = self.seed
        st.objectives = list(self.objectives)
        st.deck = list(self.deck)
        st.slots = list(self.slots)
        st.offers = [Offer(o.player, o.slot, list(o.cards)) for o in self.offers]
        st.open_offer = (
            None
            if self.open_offer is None
            else Offer(self.open_offer.player, self.open_offer.slot, list(self.open_offer.cards))
        )
        st.hands = [set(h) for h in self.hands]
        st.rows = [list(r) for r in self.rows]
        st.visible = [list(v) for v in self.visible]
        st.last_v = list(self.last_v)
        st.woven = list(self.woven)
        st.weave_done = list(self.weave_done)
        st.known = dict(self.known)
        return st

    def __repr__(self) -> str:
        return f"State({self.to_dict()!r})"

    # -- queries -------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == "over" else self.to_move

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def offerer(self, k: int) -> int:
        """Who makes the k-th offer (0-based) of the round (1.3): first offers
        clockwise s, s+1, .., s+n-1; second offers back from s+n-1 to s."""
        n, s = self.players, self.start_player
        return (s + k) % n if k < n else (s + 2 * n - 1 - k) % n

    def legal_actions(self) -> list[int]:
        if self.phase == "offer":
            return self._offer_actions()
        if self.phase == "weave":
            return self._weave_actions()
        return []

    def _bid_is_legal(self, player: int, slot: int) -> bool:
        n = self.players
        on_slot: list[list[int]] = [[] for _ in range(n)]
        for o in self.offers:
            on_slot[o.slot].append(o.player)
        # at most 2 offers per slot, from different players
        if len(on_slot[slot]) >= 2 or player in on_slot[slot]:
            return False
        on_slot[slot].append(player)
        # R3: the offers still to come must all be placeable
        later = Counter(self.offerer(k) for k in range(len(self.offers) + 1, 2 * n))
        return can_place_offers(on_slot, sorted(later.items()))

    def _offer_actions(self) -> list[int]:
        p = self.to_move
        if self.open_offer is None:
            return [BID + k for k in range(self.players) if self._bid_is_legal(p, k)]
        offered = self.open_offer.cards
        hand = self.hands[p]
        if len(offered) == MAX_OFFER_CARDS or not hand:
            return [DONE]
        actions = [OFFER + c for c in sorted(hand)]
        # R4: an empty offer only if the offerer held at most 1 card when the
        # offer started (offered cards have left the hand: held = hand + offered)
        if offered or len(hand) + len(offered) <= 1:
            actions.append(DONE)
        return actions

    def _can_finish_clean(self, visible: list[str], v: int, hand: set[int], used: int) -> bool:
        """R9: is there a second card (not `used`) with an R8-legal placement
        after which no raw strip is visible?  Only the over placements (m = 1..3)
        can: touching and under placements keep every visible strip."""
        for c in hand:
            if c == used:
                continue
            for o in (0, 1):
                for m in (1, 2, 3):
                    placed = place(visible, v, c, o, m)
                    if placed is not None and RAW not in placed[0]:
                        return True
        return False

    def _weave_actions(self) -> list[int]:
        p = self.to_move
        hand = self.hands[p]
        visible, v = self.visible[p], self.last_v[p]
        first_card = self.woven[p] == 0
        actions = []
        for c in sorted(hand):
            for o in (0, 1):
                for m in range(7):
                    placed = place(visible, v, c, o, m)  # R8
                    if placed is None:
                        continue
                    # R9: the turn must be able to end with no raw strip visible
                    if RAW not in placed[0] or (
                        first_card and self._can_finish_clean(placed[0], placed[1], hand, c)
                    ):
                        actions.append(weave_action(c, o, m))
        if RAW not in visible:  # R9: stop only with no raw strip visible
            actions.append(STOP)
        return sorted(actions)

    # -- moves ---------------------------------------------------------------

    def apply(self, a) -> None:
        if isinstance(a, str):
            a = string_to_action(a)
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"not a Capulana action id: {a!r}")
        if a not in self.legal_actions():
            raise ValueError(
                f"illegal action {action_to_string(a)!r} ({a}) for player {self.to_move} "
                f"in phase {self.phase!r}"
            )
        if self.phase == "offer":
            self._apply_offer(a)
        else:
            self._apply_weave(a)

    def _apply_offer(self, a: int) -> None:
        p = self.to_move
        if a < OFFER:  # bid k: start an offer on slot k
            self.open_offer = Offer(p, a - BID, [])
        elif a < DONE:  # offer Fxx: the card leaves the hand into the offer
            card = a - OFFER
            self.hands[p].remove(card)
            self.open_offer.cards.append(card)
        else:  # done: close the offer
            self.offers.append(self.open_offer)
            self.open_offer = None
            if len(self.offers) == 2 * self.players:
                self._auction()
            else:
                self.to_move = self.offerer(len(self.offers))

    def _auction(self) -> None:
        """R5 (left to right; the order does not change the outcome) + R6."""
        n, s = self.players, self.start_player

        def strength(o: Offer):  # smaller sorts first = wins
            value = sum(CARDS[c].value for c in o.cards)
            return (-value, -len(o.cards), (o.player - s) % n)

        for slot in range(n):
            pair = [o for o in self.offers if o.slot == slot]
            assert len(pair) == 2, "R3 guarantees exactly 2 offers per slot"
            winner, loser = sorted(pair, key=strength)
            announced = self.slots[slot]
            # winner: the announced card and the loser's cards
            self.hands[winner.player].add(announced)
            self.hands[winner.player].update(loser.cards)
            # loser: the winner's cards
            self.hands[loser.player].update(winner.cards)
            # R6: every offered and announced card is now known under its holder
            self.known[announced] = winner.player
            for c in loser.cards:
                self.known[c] = winner.player
            for c in winner.cards:
                self.known[c] = loser.player
        self.slots = []
        self.offers = []
        self.open_offer = None
        # R7: the weaving step, one turn each in seat order from the start player
        self.phase = "weave"
        self.woven = [0] * n
        self.weave_done = [False] * n
        self.to_move = s

    def _apply_weave(self, a: int) -> None:
        p = self.to_move
        if a == STOP:
            self._end_weaving_turn()
            return
        card, o, m = decode_weave(a)
        self.hands[p].remove(card)
        self.rows[p].append((card, o, m))
        self.visible[p], self.last_v[p] = place(self.visible[p], self.last_v[p], card, o, m)
        self.woven[p] += 1
        if self.woven[p] == 2:  # the turn ends by itself after the second card
            self._end_weaving_turn()

    def _end_weaving_turn(self) -> None:
        n, s = self.players, self.start_player
        self.weave_done[self.to_move] = True
        for i in range(n):
            p = (s + i) % n
            if not self.weave_done[p]:
                self.to_move = p
                return
        self._end_weaving_step()

    def _end_weaving_step(self) -> None:
        n = self.players
        # R6: a woven card stops being "known" at the end of its weaving step
        for p in range(n):
            for card, _, _ in self.rows[p][len(self.rows[p]) - self.woven[p] :]:
                self.known.pop(card, None)
        self.woven = [0] * n
        if self.round == ROUNDS:
            self.phase = "over"
            self.to_move = None
            self.weave_done = [True] * n
            return
        # next round: start player passes clockwise (R2), announcement
        self.start_player = (self.start_player + 1) % n
        self.round += 1
        self.slots = self.deck[:n]
        self.deck = self.deck[n:]
        self.phase = "offer"
        self.weave_done = [False] * n
        self.to_move = self.start_player

    # -- results -------------------------------------------------------------

    def scores(self) -> list[int]:
        """Final score of each player as it would stand now (R11)."""
        result = []
        for p in range(self.players):
            total = score_strips(self.visible[p])
            for o in self.objectives:
                obj = OBJECTIVES[o]
                if _objective_met(obj.key, self.visible[p], len(self.rows[p]), len(self.hands[p])):
                    total += obj.points
            result.append(total)
        return result

    def returns(self) -> list[float]:
        if not self.is_terminal:
            return [0.0] * self.players
        sc = self.scores()
        best = max(sc)
        winners = [p for p in range(self.players) if sc[p] == best]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.players)]


# ---------------------------------------------------------------------------
# Helpers for tests


def perft(state: State, depth: int) -> int:
    """Number of nodes exactly `depth` actions deep (a game that ends
    earlier adds 0)."""
    if depth == 0:
        return 1
    if state.is_terminal:
        return 0
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def random_game(players: int, seed: int, choice_seed: int) -> State:
    """Play uniformly random legal actions; returns the final state."""
    chooser = random.Random(choice_seed)
    state = State.new_game(players, seed)
    while not state.is_terminal:
        state.apply(chooser.choice(state.legal_actions()))
    return state
