"""What a seat may know, computed from its view only (no rich here): the
visible strips of a capulana row, the objectives a row meets, the points of a
Capivárias river side, and one-line descriptions of moves as the other
players see them.

>>> row_strips(["I1 n+", "F01 n<1"])       # F01 is -- YD YT GT: under 1 hides its raw strip
['YD', 'YD', 'GD', 'YD', 'YT', 'GT']
>>> side_points(["C3", "KC", "X4"], modifier=-1)
6
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from .. import capivarias, capulana

__all__ = ["auction_lines", "capivarias_move_text", "hand_count", "objectives_met", "offer_count", "river_modifier",
           "row_strips", "side_points", "weave_reveals"]

_CV = {c.name: c for c in capivarias.CARDS}
_CP = {c.name: c for c in capulana.CARDS}
_OBJ = {o.name: o for o in capulana.OBJECTIVES}


# --- Capulana --------------------------------------------------------------------------------


def row_strips(row: Sequence[str]) -> list[str]:
    """The visible strips of a capulana row (``["I1 n+", "F30 r>1", ...]``,
    RULES 1.4), left to right."""
    out: list[str] = []
    for entry in row:
        name, how = entry.split()
        strips = list(_CP[name].strips)
        if how[0] == "r":
            strips.reverse()
        place = how[1:]
        if place == "+":
            out += strips
        elif place[0] == ">":
            del out[len(out) - int(place[1]):]
            out += strips
        else:
            out += strips[int(place[1]):]
    return out


def objectives_met(strips: Sequence[str], pieces: int, hand: int,
                   objectives: Sequence[str]) -> list[tuple[capulana.Objective, bool]]:
    """Each revealed objective and whether a row of ``strips`` made of
    ``pieces`` cards, with ``hand`` cards in hand, meets it (R11)."""
    b = capulana.score_strips(list(strips))
    colour = [s for s in b.sets if s.kind == "colour"]
    pattern = [s for s in b.sets if s.kind == "pattern"]
    covered: set[int] = set()
    for s in b.sets:
        covered.update(range(s.start, s.start + s.length))

    def overlap(a: capulana.ScoredSet, c: capulana.ScoredSet) -> int:
        return min(a.start + a.length, c.start + c.length) - max(a.start, c.start)

    tests = {
        "long-color": any(s.length >= 6 for s in colour),
        "long-pattern": any(s.length >= 6 for s in pattern),
        "three-colors": len({s.symbol for s in colour}) >= 3,
        "three-patterns": len({s.symbol for s in pattern}) >= 3,
        "long-capulana": len(strips) >= 16,
        "no-loose-strip": len(strips) >= 12 and len(covered) == len(strips),
        "two-wilds": sum("*" in s for s in strips) >= 2,
        "saver": hand >= 4,
        "many-pieces": pieces >= 8,
        "perfect-match": any(overlap(a, c) >= 3 for a in colour for c in pattern),
    }
    return [(_OBJ[o], tests[_OBJ[o].key]) for o in objectives]


def hand_count(view: Mapping[str, Any], player: int) -> int:
    h = view["hands"][player]
    return len(h) if isinstance(h, list) else int(h["count"])


def offer_count(offer: Mapping[str, Any]) -> int:
    cards = offer["cards"]
    return len(cards) if isinstance(cards, list) else int(cards["count"])


def _cards_text(names: Sequence[str]) -> str:
    if not names:
        return "nothing"
    return "+".join(names) + f" (${sum(_CP[n].value for n in names)})"


def auction_lines(offers: Sequence[Mapping[str, Any]], slots: Sequence[str],
                  known_after: Mapping[str, int]) -> list[str]:
    """The auction as everyone sees it once it has resolved (R5, R6: every
    offered and announced card is public then): ``offers`` with their cards
    (as they were just before the auction), the announced ``slots`` and the
    holders after it."""
    lines = []
    for k, card in enumerate(slots):
        two = [o for o in offers if o["slot"] == k]
        winner = known_after.get(card)
        bids = "  vs  ".join(f"P{o['player']} {_cards_text(o['cards'])}" for o in two)
        tail = ""
        if winner is not None:
            tail = f" → P{winner} wins {card}"
            loser = [o["player"] for o in two if o["player"] != winner]
            if loser:
                tail += f" and P{loser[0]}'s offer; P{loser[0]} gets P{winner}'s"
        lines.append(f"slot {k} {card} (${_CP[card].value}): {bids}{tail}")
    return lines


def weave_reveals(rows_before: Sequence[Sequence[str]], rows_after: Sequence[Sequence[str]]) -> list[str]:
    """What each player wove in a weaving step that has just ended (R7:
    visible to all now): rows as they stood at the step's start and now."""
    lines = []
    for q, (a, b) in enumerate(zip(rows_before, rows_after)):
        new = list(b[len(a):])
        what = ", ".join(new) if new else "nothing"
        lines.append(f"P{q} wove {what}")
    return lines


# --- Capivárias --------------------------------------------------------------------------------


def side_points(side: Sequence[str], modifier: int) -> int:
    """A river side's round points (R28): each capybara's number, +1 with a
    capitico, + the segment's modifier."""
    guarded = {_CV[n].herd for n in side if _CV[n].kind == "capitico"}
    total = 0
    for n in side:
        c = _CV[n]
        if c.is_capybara:
            total += c.number + modifier + (1 if c.kind == "herd" and c.herd in guarded else 0)
    return total


_KIND_TEXT = {
    "capionca:push": "push",
    "capionca:switch-one": "switch one",
    "capionca:switch-all": "switch all",
}


def capivarias_move_text(move: capivarias.Move) -> str:
    """A Capivárias move in words (every Capivárias move is public)."""
    c, seg, t = move.card, move.segment, move.target
    if move.is_discard:
        return f"discarded {c.name} (no legal placement)"
    if c.kind == "herd":
        return f"took {c.name} into segment 0"
    if c.kind == "capiolin":
        return f"took {c.name} into segment {seg}"
    if c.is_capionca:
        kind = _KIND_TEXT.get(c.kind, c.kind)
        if c.kind == "capionca:switch-all":
            return f"put {c.name} ({kind}) under segment {seg}: every card there changes side"
        if t is None:
            return f"put {c.name} ({kind}) under segment {seg} (no target)"
        verb = "pushing" if c.kind == "capionca:push" else "switching"
        return f"put {c.name} ({kind}) under segment {seg}, {verb} {t.name}"
    if c.kind == "capitico":
        return f"attached {c.name} to {t.name if t else '?'}"
    if c.kind == "capissor":
        return f"played {c.name}: {t.name if t else '?'} and its guardian go back to segment 0"
    return f"played {move}"


def river_modifier(seg: Mapping[str, Any]) -> Optional[int]:
    r = seg["river"]
    return int(r["modifier"]) if isinstance(r, Mapping) else _CV[r].modifier
