"""Pure-Python reference (test oracle) for Capulana's determinization in the
weaving step (issue 13): every full state consistent with what a player sees.

A world is what `determinize(player, seed)` may return, up to the deck order
and the seed: the hand each other player held when the weaving step began and,
for every other player who has finished (or is in) their weaving turn, the
cards they wove and their placements. Every world has the same number of deck
orders (the deck size is fixed), so "uniform over full states" is "uniform over
these worlds". Written from RULES.md (1.3 R6, R7; 1.4 R8, R9; part 4) with the
rules of `reference.capulana` (`place`, the R9 look-ahead of
`State._weave_actions`); it imports nothing from `tabuleiro`.

What the viewer knows from the deal: cards reach a hand after the deal only in
public (R6), so an unknown card in another player's hand is one of the black
cards dealt at the start (if a hand-made state has fewer unseen black cards
than unknown places, any unseen card).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import Any, Iterator, Mapping

from .capulana import BLACK, CARD_BY_NAME, CARDS, FABRIC, ORIENTATIONS, PLACEMENTS, RAW, ROUNDS, parse_row_entry, place, replay_row

MAX_ROW = 12        # the engine's limits (docs/engine-notes.md), which from_dict enforces
MAX_STRIPS = 64

Seq = tuple[str, ...]          # woven entries, e.g. ("F03 n+", "F41 r>1")
World = tuple[tuple[int, tuple[str, ...], Seq], ...]   # per other player: (q, sorted hand at the step's start, woven)


def _entry(c: int, o: int, m: int) -> str:
    return f"{CARDS[c].name} {ORIENTATIONS[o]}{PLACEMENTS[m]}"


def _can_finish_clean(visible: list[str], v: int, hand: frozenset[int], used: int) -> bool:
    # R9 look-ahead, as reference.capulana.State._can_finish_clean
    for c in hand:
        if c == used:
            continue
        for o in (0, 1):
            for m in (1, 2, 3):
                placed = place(visible, v, c, o, m)
                if placed is not None and RAW not in placed[0]:
                    return True
    return False


def weaving_sequences(row: tuple[str, ...], hand: frozenset[int], finished: bool, turns_after: int) -> list[Seq]:
    """Every weaving of one turn from the row as the step began: finished, a
    complete turn (0, 1 or 2 cards, no raw strip at the end, R9); else the
    turn so far (0 or 1 card, a raw strip only where the turn can still cover
    it). `turns_after` = the player's weaving turns after this one (for the
    engine's row limits)."""
    entries = [parse_row_entry(e) for e in row]
    visible, v = replay_row(entries)
    rlen = len(entries)
    out: list[Seq] = []

    turns = turns_after + (0 if finished else 1)   # from_dict's row limits count the turn in progress

    def fits(w: int, strips: int) -> bool:
        return rlen + w + 2 * turns <= MAX_ROW and strips + 8 * turns <= MAX_STRIPS

    if RAW not in visible and fits(0, len(visible)):
        out.append(())
    for c in sorted(hand):
        for o in (0, 1):
            for m in range(7):
                p1 = place(visible, v, c, o, m)  # R8
                if p1 is None:
                    continue
                raw1 = RAW in p1[0]
                if raw1 and not _can_finish_clean(p1[0], p1[1], hand, c):
                    continue  # R9: the first card must leave the turn a clean finish
                e1 = _entry(c, o, m)
                if not finished:
                    if fits(1, len(p1[0])):
                        out.append((e1,))
                    continue
                if not raw1 and fits(1, len(p1[0])):
                    out.append((e1,))  # then stop (R9: no raw strip)
                for c2 in sorted(hand - {c}):
                    for o2 in (0, 1):
                        for m2 in range(7):
                            p2 = place(p1[0], p1[1], c2, o2, m2)
                            if p2 is None or RAW in p2[0] or not fits(2, len(p2[0])):
                                continue
                            out.append((e1, _entry(c2, o2, m2)))
    return out


class Setting:
    """What `view` (a Capulana view of `player`, RULES part 4) fixes for the
    determinization of a weaving-step position."""

    def __init__(self, view: Mapping[str, Any], player: int) -> None:
        if view["phase"] != "weave":
            raise ValueError("only weaving-step positions")
        self.player = player
        n = self.n = view["players"]
        known = view["known"]
        seen: set[int] = {CARD_BY_NAME[c] for c in known}
        seen |= {CARD_BY_NAME[c] for c in view["hands"][player]}
        for row in view["capulanas"]:
            seen |= {CARD_BY_NAME[e.split()[0]] for e in row}
        unseen = [c for c in FABRIC if c not in seen]
        self.others = [q for q in range(n) if q != player]
        self.known = {q: frozenset(CARD_BY_NAME[c] for c, h in known.items() if h == q) for q in self.others}
        self.u = {q: view["hands"][q]["count"] - len(self.known[q]) for q in self.others}
        black = [c for c in unseen if c in BLACK]
        self.pool = black if len(black) >= sum(self.u.values()) else unseen
        self.rows = {q: tuple(view["capulanas"][q]) for q in self.others}
        done = view["weave_done"]
        self.finished = {q: bool(done[q]) for q in self.others}
        self.active = [q for q in self.others if done[q] or view["to_move"] == q]
        self.turns_after = ROUNDS - view["round"]

    def assignments(self) -> Iterator[dict[int, frozenset[int]]]:
        """Every choice of the others' unknown cards (their hands at the step's start)."""
        def rec(i: int, left: tuple[int, ...], acc: dict[int, frozenset[int]]) -> Iterator[dict[int, frozenset[int]]]:
            if i == len(self.others):
                yield dict(acc)
                return
            q = self.others[i]
            for U in combinations(left, self.u[q]):
                acc[q] = self.known[q] | frozenset(U)
                yield from rec(i + 1, tuple(c for c in left if c not in U), acc)
            acc.pop(q, None)
        yield from rec(0, tuple(self.pool), {})

    @lru_cache(maxsize=None)
    def sequences(self, q: int, hand: frozenset[int]) -> list[Seq]:
        return weaving_sequences(self.rows[q], hand, self.finished[q], self.turns_after)

    def worlds(self) -> Iterator[World]:
        for hands in self.assignments():
            def rec(i: int, acc: list[Seq]) -> Iterator[World]:
                if i == len(self.active):
                    woven = dict(zip(self.active, acc))
                    yield tuple((q, tuple(sorted(CARDS[c].name for c in hands[q])), woven.get(q, ())) for q in self.others)
                    return
                q = self.active[i]
                for s in self.sequences(q, hands[q]):
                    acc.append(s)
                    yield from rec(i + 1, acc)
                    acc.pop()
            yield from rec(0, [])

    def count_worlds(self) -> int:
        total = 0
        for hands in self.assignments():
            k = 1
            for q in self.active:
                k *= len(self.sequences(q, hands[q]))
            total += k
        return total

    def woven_marginals(self) -> dict[int, dict[int, int]]:
        """For each active other player q: the number of worlds in which q wove
        0, 1 or 2 cards (exact, by counting per hand rather than listing worlds)."""
        out = {q: Counter() for q in self.active}
        for hands in self.assignments():
            per = {q: Counter(len(s) for s in self.sequences(q, hands[q])) for q in self.active}
            tot = {q: sum(per[q].values()) for q in self.active}
            for q in self.active:
                rest = 1
                for r in self.active:
                    if r != q:
                        rest *= tot[r]
                for w, k in per[q].items():
                    out[q][w] += k * rest
        return {q: dict(c) for q, c in out.items()}


def world_of(state: Mapping[str, Any], player: int) -> World:
    """The world of a full state dict (a determinization), as `Setting.worlds` lists them."""
    out = []
    for q in range(state["players"]):
        if q == player:
            continue
        w = state["woven"][q]
        seq = tuple(state["capulanas"][q][-w:]) if w else ()
        hand = list(state["hands"][q]) + [e.split()[0] for e in seq]
        out.append((q, tuple(sorted(hand)), seq))
    return tuple(out)
