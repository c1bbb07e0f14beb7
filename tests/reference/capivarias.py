"""Pure-Python reference implementation (test oracle) of Capivárias.

Written straight from docs/RULES.md (Part 2 and Part 4) and
docs/engine-notes.md (RNG, setup/turn order, placement readings).  It is an
independent oracle: it imports nothing from `tabuleiro`, only the stdlib, and
favours clarity over speed.

Rulings are cited as `# R21` etc.
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from pathlib import Path

# ---------------------------------------------------------------------------
# Cards

CSV_PATH = (
    Path(__file__).resolve().parents[2]
    / "python/tabuleiro/data/capivarias_cards.csv"
)


@dataclass(frozen=True)
class Card:
    index: int
    name: str
    kind: str  # "herd", "capionca:push", "capionca:switch-one",
    #            "capionca:switch-all", "capitico", "capissor", "capiolin"
    herd: str | None  # capicria/capiox/capitche/capiolin; capitico: the herd it guards
    number: int
    modifier: int  # river side
    expansion: bool

    @property
    def is_herd(self) -> bool:
        return self.kind == "herd"

    @property
    def is_capiolin(self) -> bool:
        return self.kind == "capiolin"

    @property
    def is_capybara(self) -> bool:
        # Herd cards and capiolins (capiticos are not capybaras).
        return self.kind in ("herd", "capiolin")

    @property
    def is_capionca(self) -> bool:
        return self.kind.startswith("capionca")

    @property
    def capionca_type(self) -> str | None:
        return self.kind.split(":", 1)[1] if self.is_capionca else None

    @property
    def is_capitico(self) -> bool:
        return self.kind == "capitico"

    @property
    def is_capissor(self) -> bool:
        return self.kind == "capissor"


def _load_cards() -> list[Card]:
    cards = []
    with open(CSV_PATH, newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
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
    return cards


CARDS: list[Card] = _load_cards()
NUM_CARDS = 28
assert len(CARDS) == NUM_CARDS
NUM_ACTIONS = 4 * NUM_CARDS * (NUM_CARDS + 1)  # 3248
BY_NAME: dict[str, int] = {c.name: c.index for c in CARDS}

NO_SEG = 3
NO_TARGET = NUM_CARDS


def encode(card: int, seg: int, target: int | None) -> int:
    """RULES 2.7: ((card*4)+seg)*(C+1)+target; seg 3 = none; target C = none."""
    t = NO_TARGET if target is None else target
    return ((card * 4) + seg) * (NUM_CARDS + 1) + t


def decode(action: int) -> tuple[int, int, int | None]:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id out of range: {action}")
    rest, t = divmod(action, NUM_CARDS + 1)
    card, seg = divmod(rest, 4)
    return card, seg, (None if t == NO_TARGET else t)


# ---------------------------------------------------------------------------
# RNG (engine-notes: splitmix64)

MASK64 = (1 << 64) - 1


class Rng:
    def __init__(self, state: int):
        if not 0 <= state < 2**64:
            raise ValueError(f"seed out of range: {state}")
        self.state = state

    def draw(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.draw() % n

    def shuffle(self, lst: list) -> None:
        for i in range(len(lst) - 1, 0, -1):
            j = self.below(i + 1)
            lst[i], lst[j] = lst[j], lst[i]


# ---------------------------------------------------------------------------
# Game state


def _winner_of(a: int, b: int) -> tuple[int, int]:
    """(winner, loser) of two capybaras of one herd: lower number loses,
    except that a 1 beats a 5 (R25)."""
    na, nb = CARDS[a].number, CARDS[b].number
    if {na, nb} == {1, 5}:
        return (a, b) if na == 1 else (b, a)
    return (a, b) if na > nb else (b, a)


class State:
    """Full-information state.

    Board representation:
      river[s]      card index of river segment s (s = 0, 1, 2)
      capionca[s]   capionça placed under segment s this round, or None
      sides[s][p]   set of card indices on player p's side of segment s
                    (capybaras and the capiticos guarding them)
      guard[g]      capitico attached to capybara g (only for guardians)
    """

    def __init__(self) -> None:
        self.expansion = False
        self.round = 1
        self.round_wins = [0, 0]
        self.to_move: int | None = 0
        self.last_taker: int | None = None
        self.winner: int | None = None
        self.rng = Rng(0)
        self.river: list[int] = []
        self.capionca: list[int | None] = [None, None, None]
        self.sides: list[list[set[int]]] = [[set(), set()] for _ in range(3)]
        self.guard: dict[int, int] = {}
        self.available: list[int] = []
        self.pile: list[int] = []
        self.discard: set[int] = set()

    # -- construction --------------------------------------------------------

    @staticmethod
    def new_game(seed: int, expansion: bool = False, first_player: int = 0) -> "State":
        s = State()
        s.expansion = bool(expansion)
        s.rng = Rng(seed)
        s.round = 1
        s.round_wins = [0, 0]
        s.to_move = first_player
        s.last_taker = None
        s.winner = None
        s._setup_round()
        return s

    def _game_cards(self) -> list[int]:
        return [c.index for c in CARDS if self.expansion or not c.expansion]

    def _setup_round(self) -> None:
        # R20 / engine-notes "Setup of a round"
        cards = self._game_cards()
        self.rng.shuffle(cards)
        self.river = cards[0:3]
        self.available = cards[3:7]
        self.pile = cards[7:]
        self.capionca = [None, None, None]
        self.sides = [[set(), set()] for _ in range(3)]
        self.guard = {}
        self.discard = set()

    def clone(self) -> "State":
        s = State()
        s.expansion = self.expansion
        s.round = self.round
        s.round_wins = list(self.round_wins)
        s.to_move = self.to_move
        s.last_taker = self.last_taker
        s.winner = self.winner
        s.rng = Rng(self.rng.state)
        s.river = list(self.river)
        s.capionca = list(self.capionca)
        s.sides = [[set(side) for side in seg] for seg in self.sides]
        s.guard = dict(self.guard)
        s.available = list(self.available)
        s.pile = list(self.pile)
        s.discard = set(self.discard)
        return s

    # -- (de)serialisation (RULES Part 4) --------------------------------------

    def to_dict(self) -> dict:
        def names(cards) -> list[str]:
            return [CARDS[c].name for c in cards]

        return {
            "game": "capivarias",
            "expansion": self.expansion,
            "round": self.round,
            "round_wins": list(self.round_wins),
            "to_move": self.to_move,
            "last_taker": self.last_taker,
            "winner": self.winner,
            "seed": self.rng.state,
            "segments": [
                {
                    "river": CARDS[self.river[s]].name,
                    "capionca": (
                        None if self.capionca[s] is None
                        else CARDS[self.capionca[s]].name
                    ),
                    "sides": [names(sorted(self.sides[s][p])) for p in range(2)],
                }
                for s in range(3)
            ],
            "available": names(self.available),
            "pile": names(self.pile),
            "discard": names(sorted(self.discard)),
        }

    @staticmethod
    def from_dict(d: dict) -> "State":
        """Basic parsing only; the input is assumed valid."""
        s = State()
        s.expansion = bool(d["expansion"])
        s.round = int(d["round"])
        s.round_wins = [int(w) for w in d["round_wins"]]
        s.to_move = d["to_move"]
        s.last_taker = d["last_taker"]
        s.winner = d["winner"]
        s.rng = Rng(int(d["seed"]))
        s.river = []
        s.capionca = []
        s.sides = []
        s.guard = {}
        for sd, seg in enumerate(d["segments"]):
            s.river.append(BY_NAME[seg["river"]])
            s.capionca.append(None if seg["capionca"] is None else BY_NAME[seg["capionca"]])
            sides = [set(BY_NAME[n] for n in seg["sides"][p]) for p in range(2)]
            s.sides.append(sides)
            # A capitico guards the capybara of its herd in that segment,
            # listed on the same side.
            for side in sides:
                for k in side:
                    if CARDS[k].is_capitico:
                        g = next(
                            c for c in side
                            if CARDS[c].is_capybara and CARDS[c].herd == CARDS[k].herd
                        )
                        s.guard[g] = k
        s.available = [BY_NAME[n] for n in d["available"]]
        s.pile = [BY_NAME[n] for n in d["pile"]]
        s.discard = set(BY_NAME[n] for n in d["discard"])
        return s

    # -- basic queries -------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        return self.to_move is None

    @property
    def current_player(self) -> int | None:
        return self.to_move

    def returns(self) -> list[float]:
        if not self.is_terminal or self.winner is None:
            return [0.0, 0.0]
        r = [-1.0, -1.0]
        r[self.winner] = 1.0
        return r

    def scores(self) -> list[int]:
        # R28: over the capybaras on a player's side: number, +1 if guarded,
        # + the segment's river modifier.
        result = [0, 0]
        for s in range(3):
            mod = CARDS[self.river[s]].modifier
            for p in range(2):
                for c in self.sides[s][p]:
                    if CARDS[c].is_capybara:
                        result[p] += CARDS[c].number + mod + (1 if c in self.guard else 0)
        return result

    def _locate(self, card: int) -> tuple[int, int] | None:
        for s in range(3):
            for p in range(2):
                if card in self.sides[s][p]:
                    return s, p
        return None

    def _capybaras_in(self, s: int) -> list[int]:
        return sorted(
            c for p in range(2) for c in self.sides[s][p] if CARDS[c].is_capybara
        )

    def _river_cards(self) -> list[int]:
        return sorted(c for s in range(3) for p in range(2) for c in self.sides[s][p])

    # -- legal actions ---------------------------------------------------------

    def _card_actions(self, c: int) -> list[int]:
        """Placement actions of available card c (without the R24 discard)."""
        card = CARDS[c]
        me = self.to_move
        acts: list[int] = []
        if card.is_herd:
            acts.append(encode(c, 0, None))
        elif card.is_capiolin:
            for s in range(3):
                if not self.sides[s][me]:
                    acts.append(encode(c, s, None))
                    break
        elif card.is_capionca:  # R21
            kind = card.capionca_type
            for s in range(3):
                if self.capionca[s] is not None:
                    continue
                if kind == "switch-all":
                    acts.append(encode(c, s, None))
                    continue
                targets = self._capybaras_in(s)
                if kind == "push":
                    targets = [t for t in targets if t not in self.guard]  # R27
                if targets:
                    acts.extend(encode(c, s, t) for t in targets)
                else:
                    acts.append(encode(c, s, None))
        elif card.is_capitico:  # R22
            for t in self._river_cards():
                if CARDS[t].is_capybara and CARDS[t].herd == card.herd:
                    acts.append(encode(c, NO_SEG, t))
        elif card.is_capissor:  # R23
            for t in self._river_cards():
                if CARDS[t].is_capitico:
                    acts.append(encode(c, NO_SEG, t))
        else:  # pragma: no cover
            raise AssertionError(f"unknown kind {card.kind}")
        return acts

    def legal_actions(self) -> list[int]:
        if self.is_terminal:
            return []
        acts: set[int] = set()
        for c in self.available:
            card_acts = self._card_actions(c)
            if not card_acts:
                card_acts = [encode(c, NO_SEG, None)]  # R24
            acts.update(card_acts)
        return sorted(acts)

    def action_to_string(self, a: int) -> str:
        c, seg, t = decode(a)
        card = CARDS[c]
        if seg == NO_SEG and t is None:
            return f"discard {card.name}"
        if card.is_capionca:
            base = f"{card.name}@{seg}"
            return base if t is None else f"{base}/{CARDS[t].name}"
        if card.is_capitico or card.is_capissor:
            return f"{card.name}/{CARDS[t].name}"
        return card.name  # herd card or capiolin (bare name)

    # -- moving cards on the river ----------------------------------------------

    def _remove(self, g: int, s: int, p: int) -> None:
        """Take capybara g (and its capitico) off side p of segment s."""
        self.sides[s][p].discard(g)
        k = self.guard.get(g)
        if k is not None:
            self.sides[s][p].discard(k)

    def _put(self, g: int, s: int, p: int) -> None:
        """Put capybara g (and its capitico) on side p of segment s."""
        self.sides[s][p].add(g)
        k = self.guard.get(g)
        if k is not None:
            self.sides[s][p].add(k)

    def _enter(self, x: int, s: int, p: int) -> None:
        """Capybara x (with its capitico) enters segment s on side p (R25)."""
        self._put(x, s, p)
        herd = CARDS[x].herd
        other = None
        for q in range(2):
            for c in self.sides[s][q]:
                if c != x and CARDS[c].is_capybara and CARDS[c].herd == herd:
                    other = c
        if other is None:
            return
        winner, loser = _winner_of(x, other)
        if loser not in self.guard:
            self._push(loser, s)
        else:
            # R25: the guardian stays; the winner takes the capitico to its
            # side and is pushed.
            k = self.guard.pop(loser)
            ls = self._locate(loser)
            self.sides[ls[0]][ls[1]].discard(k)
            ws = self._locate(winner)
            self.guard[winner] = k
            self.sides[ws[0]][ws[1]].add(k)
            self._push(winner, s)

    def _push(self, x: int, s: int) -> None:
        """Capybara x is pushed out of segment s (R25, R26)."""
        _, p = self._locate(x)
        self._remove(x, s, p)
        # R26: a non-capiolin leaving a segment where a capiolin stands on its
        # side switches side (its capitico with it).
        if not CARDS[x].is_capiolin and any(
            CARDS[c].is_capiolin for c in self.sides[s][p]
        ):
            p = 1 - p
        if s == 2:
            # Off the end of the river: discard, with its capitico.
            self.discard.add(x)
            k = self.guard.pop(x, None)
            if k is not None:
                self.discard.add(k)
        else:
            self._enter(x, s + 1, p)

    def _switch(self, g: int, s: int) -> None:
        """Capybara g (and its capitico) changes side in segment s."""
        _, p = self._locate(g)
        self._remove(g, s, p)
        self._put(g, s, 1 - p)

    # -- applying an action ------------------------------------------------------

    def apply(self, a: int) -> None:
        if a not in self.legal_actions():
            raise ValueError(f"illegal action {a}")
        c, seg, t = decode(a)
        card = CARDS[c]
        me = self.to_move

        # 1. take the card out of the available row (the others keep order)
        self.available.remove(c)

        # place it
        if seg == NO_SEG and t is None:
            self.discard.add(c)  # R24
        elif card.is_herd or card.is_capiolin:
            self._enter(c, seg, me)
        elif card.is_capionca:  # R21
            self.capionca[seg] = c
            kind = card.capionca_type
            if kind == "switch-all":
                self.sides[seg][0], self.sides[seg][1] = (
                    self.sides[seg][1], self.sides[seg][0])
            elif t is not None and kind == "switch-one":
                self._switch(t, seg)
            elif t is not None and kind == "push":
                self._push(t, seg)
        elif card.is_capitico:  # R22
            s, p = self._locate(t)
            self.guard[t] = c
            self.sides[s][p].add(c)
            if p != me:
                self._switch(t, s)
        elif card.is_capissor:  # R23
            g = next(x for x, k in self.guard.items() if k == t)
            s, p = self._locate(g)
            if s != 0:
                self._remove(g, s, p)
                self._enter(g, 0, p)  # not a push: no capiolin switch
            self.discard.add(c)
        else:  # pragma: no cover
            raise AssertionError

        # 2. refill when exactly one card is available
        if len(self.available) == 1:
            while len(self.available) < 4 and self.pile:
                self.available.append(self.pile.pop(0))

        # 3. round end / 4. pass the turn
        if len(self.available) == 1 and not self.pile:
            self._end_round(me)
        else:
            self.to_move = 1 - me

    def _end_round(self, mover: int) -> None:
        sc = self.scores()
        before = list(self.round_wins)
        tied = sc[0] == sc[1]
        if tied:
            self.round_wins[0] += 1
            self.round_wins[1] += 1
            round_winner = None
        else:
            round_winner = 0 if sc[0] > sc[1] else 1
            self.round_wins[round_winner] += 1

        w = self.round_wins
        game_winner = None
        over = False
        if not tied and before[0] >= 2 and before[1] >= 2:  # R29 sudden death
            game_winner, over = round_winner, True
        elif (w[0] >= 2) != (w[1] >= 2):  # exactly one with 2+ wins
            game_winner, over = (0 if w[0] >= 2 else 1), True
        elif self.round == 9:  # R30 draw
            game_winner, over = None, True

        if over:
            self.to_move = None
            self.winner = game_winner
            return
        self.round += 1
        self.last_taker = mover
        self.to_move = mover
        self._setup_round()


# ---------------------------------------------------------------------------
# Helpers


def perft(state: State, depth: int) -> int:
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


def random_game(seed: int, expansion: bool, choice_seed: int) -> State:
    chooser = random.Random(choice_seed)
    s = State.new_game(seed, expansion)
    while not s.is_terminal:
        s.apply(chooser.choice(s.legal_actions()))
    return s
