"""Capulana's rich drawings for the terminal game (``tabuleiro play``): the
table a seat sees (strips as coloured blocks), the moves list with weaves
grouped by card, the announcements of offers, auctions and weaving steps,
the final scores. Every function draws from a seat's view, or from what the
rules make public at that moment (R5-R7).

>>> from rich.console import Console
>>> console = Console(width=100, record=True, color_system=None)
>>> console.print(strips_text(["YD", "*T", "--"]))
Y◆*▲░░
>>> row_strips(["I1 n+", "F01 n<1"])       # F01 is -- YD YT GT: under 1 hides its raw strip
['YD', 'YD', 'GD', 'YD', 'YT', 'GT']
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import capulana
from .capulana import objectives_met
from ._state import State
from .tui.render import Event, moves_list, player_text, who

__all__ = ["auction_lines", "board", "card_text", "compact", "events", "final", "final_screen", "hand_cell",
           "hand_count", "hand_view", "legend", "moves_view", "objectives_text", "offer_count", "offer_value",
           "offered", "row_strips", "strip_text", "strips_text", "weave_reveals"]

_CP = {c.name: c for c in capulana.CARDS}
_OBJ = {o.name: o for o in capulana.OBJECTIVES}
_player = player_text



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


def hand_count(view: Mapping[str, Any], player: int) -> int:
    """The size of a player's hand as a view shows it (cards or a count)."""
    h = view["hands"][player]
    return len(h) if isinstance(h, list) else int(h["count"])


def offer_count(offer: Mapping[str, Any]) -> int:
    """The cards in an offer as a view shows it (cards or a count)."""
    cards = offer["cards"]
    return len(cards) if isinstance(cards, list) else int(cards["count"])


def offer_value(names: Sequence[str]) -> int:
    """The money of some cards (R5)."""
    return sum(_CP[n].value for n in names)


def _cards_text(names: Sequence[str]) -> str:
    if not names:
        return "nothing"
    return "+".join(names) + f" (${offer_value(names)})"


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


GLYPHS = {"D": "◆", "T": "▲", "C": "●", "Z": "≋", "L": "♣", "*": "✱"}
# 256-colour backgrounds (fixed across terminal themes, unlike the 16 ANSI colours)
_BG = {"Y": "yellow1", "G": "green3", "R": "red3", "B": "dodger_blue3", "O": "dark_orange", "*": "grey70"}
_FG = {"Y": "grey0", "G": "grey0", "R": "grey100", "B": "grey100", "O": "grey0", "*": "grey0"}


def strip_text(strip: str) -> Text:
    """One strip as a coloured block: its colour letter and its pattern glyph
    (``*`` wild colour, ``✱`` wild pattern, ``░░`` raw)."""
    if strip == "--":
        return Text("░░", style="grey50")
    c, p = strip[0], strip[1]
    return Text(c + GLYPHS[p], style=f"bold {_FG[c]} on {_BG[c]}")


def strips_text(strips: Sequence[str], sep: str = "") -> Text:
    out = Text()
    for i, s in enumerate(strips):
        if i and sep:
            out.append(sep)
        out.append_text(strip_text(s))
    return out


def card_text(name: str, *, value: bool = True) -> Text:
    """A Capulana card: its name, value and strips (``F14 $10 Y◆Y▲G▲░░``)."""
    card = _CP[name]
    t = Text(name, style="bold")
    if value and card.is_fabric:
        t.append(f" ${card.value}", style="bright_green" if card.stripe == "black" else "magenta")
    t.append(" ")
    t.append_text(strips_text(card.strips))
    return t


def legend() -> Text:
    """What the colour letters and pattern glyphs mean."""
    t = Text()
    for c, name in capulana.COLOUR_NAMES.items():
        t.append(c, style=f"bold {_FG[c]} on {_BG[c]}")
        t.append(f" {name} ", style="dim")
    t.append("* any ", style="dim")
    for p, name in capulana.PATTERN_NAMES.items():
        t.append(f" {GLYPHS[p]} {name}", style="dim")
    t.append(" ✱ any  ░░ raw", style="dim")
    return t


def _hand_of(view: Mapping[str, Any], q: int) -> tuple[list[str], int, list[str]]:
    """(cards shown, count, publicly known cards) of a player's hand in a view."""
    h = view["hands"][q]
    if isinstance(h, list):
        return list(h), len(h), [c for c in h if view["known"].get(c) == q]
    return [], int(h["count"]), list(h.get("known", []))


def offered(view: Mapping[str, Any], q: int) -> int:
    """How many cards player ``q`` has in offers (face down or not) while
    offers are being made; 0 in the other phases."""
    if view["phase"] != "offer":
        return 0
    offers = list(view["offers"]) + ([view["open_offer"]] if view["open_offer"] else [])
    return sum(offer_count(o) for o in offers if o["player"] == q)


def hand_cell(count: int, in_offers: int, known: Sequence[str]) -> Text:
    """A player's hand in the players' table: how many cards, how many lie
    in offers, and the cards known to be theirs (R6). A known card may lie
    in a face-down offer while offers are made, so with cards in offers the
    known ones are said to be "in hand or offer": the table never puts more
    known cards in a hand than it holds.

    >>> hand_cell(4, 0, ["F01", "F03"]).plain
    '4 cards (known in hand: F01 F03)'
    >>> hand_cell(1, 2, ["F01", "F03"]).plain
    '1 card + 2 offered (known, in hand or offer: F01 F03)'
    """
    t = Text(f"{count} card{'s' if count != 1 else ''}")
    if in_offers:
        t.append(f" + {in_offers} offered")
    if known:
        where = "known, in hand or offer" if in_offers else "known in hand"
        t.append(f" ({where}: {' '.join(known)})", style="dim")
    return t


def objectives_text(objectives: Sequence[str]) -> Text:
    """The revealed objectives, one a line."""
    t = Text()
    for i, o in enumerate(objectives):
        obj = _OBJ[o]
        t.append("objective " if i == 0 else "\n          ", style="dim")
        t.append(f"{o:<5} ", style="bold")
        t.append(f"{obj.points} pts ", style="bright_green")
        t.append(obj.condition)
    return t


def hand_view(cards: Sequence[str], known: Sequence[str] = ()) -> RenderableType:
    """A hand of Capulana cards, never broken inside a card."""
    items = []
    for c in cards:
        t = card_text(c)
        if c in known:
            t.append(" ᵏ", style="dim")
        items.append(t)
    if not items:
        return Text("empty", style="dim")
    return Columns(items, padding=(0, 3))


def board(view: Mapping[str, Any], me: int, labels: Sequence[str]) -> RenderableType:
    """The table as ``me`` sees it: slots and offers (others' face down),
    every capulana with its score, ``me``'s hand and offers."""
    n = view["players"]
    phase = view["phase"]
    head = Text()
    head.append(f"Capulana · {n} players · round {view['round']} of 4 · ", style="bold")
    head.append({"offer": "offers", "weave": "weaving", "over": "game over"}[phase], style="bold cyan")
    head.append(f" · start player P{view['start_player']}")
    parts: list[RenderableType] = [head]
    parts.append(objectives_text(view["objectives"]))

    if phase == "offer":
        slots = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title=None)
        slots.add_column("slot", justify="right")
        slots.add_column("announced card")
        slots.add_column("offers (others' face down)")
        offers = [(o, False) for o in view["offers"]]
        if view["open_offer"]:
            offers.append((view["open_offer"], True))
        for k, card in enumerate(view["slots"]):
            cell = Text()
            for o, is_open in offers:
                if o["slot"] != k:
                    continue
                if len(cell):
                    cell.append("   ")
                q = o["player"]
                cell.append_text(_player(q, me, []))
                if isinstance(o["cards"], list):
                    cell.append(": ")
                    cell.append(" ".join(o["cards"]) or "empty", style="bold")
                    if o["cards"]:
                        cell.append(f" (${offer_value(o['cards'])})", style="bright_green")
                else:
                    k_ = offer_count(o)
                    cell.append(f": {k_} card{'s' if k_ != 1 else ''} face down" if k_ else ": empty")
                if is_open:
                    cell.append(" (open)", style="italic cyan")
            slots.add_row(str(k), card_text(card), cell)
        parts.append(slots)

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("player")
    table.add_column("capulana (visible strips)")
    table.add_column("score", justify="right")
    table.add_column("hand")
    for q in range(n):
        row = view["capulanas"][q]
        strips = row_strips(row)
        shown, count, known = _hand_of(view, q)
        score = capulana.score_strips(strips).total
        obj = sum(o.points for o, ok in objectives_met(strips, len(row), count, view["objectives"]) if ok)
        score_text = Text(f"{score}")
        if obj:
            score_text.append(f"+{obj}", style="bright_green")
        hand = hand_cell(count, offered(view, q), known if q != me else [])
        if phase == "weave":
            if view["weave_done"][q]:
                hand.append("  woven ✓", style="green")
            elif view["to_move"] == q:
                hand.append("  weaving…", style="cyan")
        table.add_row(_player(q, me, labels), strips_text(strips), score_text, hand)
    parts.append(table)

    shown, count, known = _hand_of(view, me)
    parts.append(Text("your hand" + (" (ᵏ: known to all, R6)" if known else ""), style="bold"))
    parts.append(hand_view(shown, known))
    if phase == "weave" and view["to_move"] == me:
        w = view["woven"][me]
        parts.append(Text(f"you have woven {w} of at most 2 cards this step (others see nothing until the step ends)",
                          style="cyan"))
    parts.append(legend())
    return Group(*parts)


def final(view: Mapping[str, Any], me: Optional[int], labels: Sequence[str],
                   scores: Sequence[int], winners: Sequence[int]) -> RenderableType:
    """The end of a Capulana game: each player's row, its sets (R10), the
    objectives met (R11) and the final score."""
    n = view["players"]
    table = Table(title="Final scores", box=box.ROUNDED, show_lines=True)
    table.add_column("player")
    table.add_column("capulana and its sets")
    table.add_column("objectives")
    table.add_column("total", justify="right")
    for q in range(n):
        row = view["capulanas"][q]
        strips = row_strips(row)
        b = capulana.score_strips(strips)
        shown, count, _ = _hand_of(view, q)
        sets = Text()
        sets.append_text(strips_text(strips))
        sets.append(f"\n{len(row)} card{'s' if len(row) != 1 else ''}, {len(strips)} strips", style="dim")
        for kind, title in (("colour", "colour sets"), ("pattern", "pattern sets")):
            group = [s for s in b.sets if s.kind == kind]
            sets.append(f"\n{title} ", style="bold")
            sets.append(f"{sum(s.length for s in group)}", style="bold")
            sets.append(": " + (" · ".join(f"{s.name} {s.start}–{s.start + s.length - 1} ({s.length})"
                                            for s in group) if group else "none"))
        objs = Text()
        total_obj = 0
        for o, ok in objectives_met(strips, len(row), count, view["objectives"]):
            if objs:
                objs.append("\n")
            objs.append(f"{'✓' if ok else '✗'} {o.name} {o.points if ok else 0}",
                        style="green" if ok else "dim")
            total_obj += o.points if ok else 0
        total = Text(f"{b.total} + {total_obj} = ")
        total.append(f"{scores[q]}", style="bold")
        if b.total + total_obj != scores[q]:          # never expected: the engine's score is the truth
            total.append(" (engine)", style="red")
        name = _player(q, me, labels)
        if q in winners:
            name.append(" ★ wins", style="bold yellow")
        table.add_row(name, sets, objs, total)
    return table




# --- the session's hooks ------------------------------------------------------------------------


#: Grid rows (a card in one orientation) on a page of the weaving moves: with
#: the page's other lines, the status above and the prompt, 24 terminal lines.
GRID_ROWS = 12


def moves_view(state: State, me: int, page: int = 1) -> RenderableType:
    """The legal moves, numbered from 1; weaving moves grouped by card, each
    with ``me``'s row score after it (their own row: they see it), in pages
    of at most :data:`GRID_ROWS` rows (``page`` from 1; the numbers are
    those of the whole list on every page).

    :raises ValueError: a page the list does not have.
    """
    moves: Sequence[Any] = state.legal_moves()
    if not any(m.kind == "weave" for m in moves):
        if page != 1:
            raise ValueError(f"no page {page} of moves: they fit on one")
        return moves_list(moves)
    notes: dict[int, str] = {}
    for m in moves:
        if m.kind == "weave":
            c = state.clone()
            c.push(m)
            notes[m.action] = str(c.capulana_scores()[me])  # type: ignore[attr-defined]
    rows: dict[tuple[str, str], list[Text]] = {}
    first: list[RenderableType] = []
    for i, m in enumerate(moves, 1):
        if m.kind != "weave":
            first.append(Text.assemble((f"{i:>3} ", "bold cyan"), (str(m), "bold"),
                                       ("  (end your weaving turn)" if m.kind == "stop" else "", "dim")))
            continue
        cells = rows.setdefault((m.card.name, m.orientation), [Text() for _ in capulana.PLACEMENTS])
        cell = cells[capulana.PLACEMENTS.index(m.placement)]
        cell.append(f"{i}", style="bold cyan")
        note = notes.get(m.action)
        if note:
            cell.append(f"→{note}", style="dim")
    cards: list[str] = []
    for name, _ in rows:
        if name not in cards:
            cards.append(name)
    pages: list[list[str]] = [[]]
    used = 0
    for name in cards:                        # a card's orientations stay on one page
        k = sum(1 for (n, _) in rows if n == name)
        if used + k > GRID_ROWS and pages[-1]:
            pages.append([])
            used = 0
        pages[-1].append(name)
        used += k
    if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= len(pages):
        raise ValueError(f"no page {page} of moves: " + ("they fit on one" if len(pages) == 1 else
                                                         f"pages 1 to {len(pages)}"))
    grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    grid.add_column("weave")
    grid.add_column("")
    for place in capulana.PLACEMENTS:
        grid.add_column(place, justify="left")
    last = None
    for (name, orient), cells in rows.items():
        if name in pages[page - 1]:
            grid.add_row(card_text(name) if name != last else Text(""), orient, *cells)
            last = name
    parts: list[RenderableType] = [*first, grid]
    parts.append(Text("n as printed, r turned · + touching, >k over k strips, <k under k · →your score",
                      style="dim"))
    if len(pages) > 1:
        shown = pages[page - 1]
        nxt = page % len(pages) + 1
        parts.append(Text(f"page {page} of {len(pages)} ({len(shown)} of {len(cards)} cards) · "
                          f"moves {nxt}: the {'next' if nxt > page else 'first'} page", style="yellow"))
    return Group(*parts)


def compact(state: State, me: int, labels: Sequence[str]) -> list[RenderableType]:
    """A short status between ``me``'s consecutive decisions: their open
    offer, or their row and hand while weaving, else the table."""
    v = state.view(me)
    o = v["open_offer"]
    if o and o["player"] == me:
        cards = o["cards"]
        t = Text(f"your open offer on slot {o['slot']}: ")
        t.append(" ".join(cards) or "no card yet", style="bold")
        if cards:
            t.append(f" (${offer_value(cards)})", style="bright_green")
        t.append(" — add a card (at most 3) or done", style="dim")
        return [t]
    if v["phase"] == "weave":
        t = Text("your capulana: ")
        t.append_text(strips_text(state.strips(me)))  # type: ignore[attr-defined]
        hand = v["hands"][me]
        return [t, Text(f"score {state.capulana_scores()[me]} · woven {v['woven'][me]} of at most 2 this step"  # type: ignore[attr-defined]
                        f" · your hand: {' '.join(hand) or 'empty'}")]
    return [board(v, me, labels)]


def _other(n: int, q: int) -> int:
    return (q + 1) % n


def events(before: State, after: State, move: Any, mover: int, labels: Sequence[str]) -> list[Event]:
    """What one move shows: offers face down (the mover alone reads the
    card), the auction once it resolves (R5, R6), a weaving step once it
    ends (R7). ``before`` and ``after`` are read through the views of a
    player other than the mover, or as the rules make them public."""
    name = who(mover, labels)
    out: list[Event] = []
    n = before.game.num_players
    v_before = before.view(_other(n, mover))          # what the others saw before the move
    v_after = after.view(_other(n, mover))
    kind = move.kind
    if kind == "bid":
        out.append(Event(Text(f"you start an offer on slot {move.slot}", style="dim"), mover))
    elif kind == "offer":
        out.append(Event(Text(f"you add {move.card.name} to your offer", style="dim"), mover))
    elif kind == "done":
        o = v_before["open_offer"]
        k = offer_count(o)
        what = f"{k} card{'s' if k != 1 else ''}" if k else "empty"
        out.append(Event(Text(f"{name} made an offer on slot {o['slot']} ({what})")))
        if v_after["phase"] != "offer":
            # The auction has resolved: every offered and announced card is public now (R5, R6),
            # so the offers as they stood are read from the full state here.
            full = before.to_dict()
            offers = full["offers"] + [full["open_offer"]]
            out.append(Event(Text(f"Auction of round {v_before['round']}:", style="bold")))
            for line in auction_lines(offers, v_before["slots"], v_after["known"]):
                out.append(Event(Text("  " + line)))
    elif kind in ("weave", "stop"):
        text = f"you wove {move}" if kind == "weave" else "you stop weaving"
        out.append(Event(Text(text, style="dim"), mover))
        if v_after["phase"] != "weave" or (v_after["weave_done"][mover] and not v_before["weave_done"][mover]):
            out.append(Event(Text(f"{name} has woven" + ("" if v_after["phase"] != "weave" else
                                                         " (hidden until everyone has)"))))
        if v_after["phase"] != "weave":
            # The step is over: what everyone wove is visible to all (R7). Rows at the step's start are
            # as a player other than their owner saw them; rows now as anyone sees them.
            start = [before.view(_other(n, q))["capulanas"][q] for q in range(n)]
            now = [after.view(_other(n, q))["capulanas"][q] for q in range(n)]
            out.append(Event(Text(f"Weaving of round {v_before['round']} revealed:", style="bold")))
            for line in weave_reveals(start, now):
                out.append(Event(Text("  " + line)))
    return out


def final_screen(state: State, viewer: int, me: Optional[int], labels: Sequence[str]) -> list[RenderableType]:
    """The final scores table and who won."""
    outcome = state.outcome()
    assert outcome is not None
    scores = list(outcome.scores)
    top = max(scores)
    winners = [q for q, s in enumerate(scores) if s == top]
    names = ", ".join(who(q, labels) for q in winners)
    return [final(state.view(viewer), me, labels, scores, winners),
            Text(f"{names} win{'s' if len(winners) == 1 else ''} with {top} points"
                 + (" (a shared win)" if len(winners) > 1 else ""), style="bold")]
