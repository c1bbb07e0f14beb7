"""Rich renderings of what one seat sees. Every function here takes a seat's
*view* (``State.view(player)``), never a full state, so nothing hidden from
that seat can reach the screen.

>>> from rich.console import Console
>>> from tabuleiro import capulana
>>> console = Console(width=100, record=True, color_system=None)
>>> console.print(strips_text(["YD", "*T", "--"]))
Y◆*▲░░
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .. import capivarias, capulana
from .public import hand_count, objectives_met, offer_count, river_modifier, row_strips, side_points

__all__ = ["capivarias_board", "capivarias_final", "capulana_board", "capulana_final", "card_text", "hand_view",
           "legend", "moves_list", "objectives_text", "strip_text", "strips_text"]

_CV = {c.name: c for c in capivarias.CARDS}
_CP = {c.name: c for c in capulana.CARDS}
_OBJ = {o.name: o for o in capulana.OBJECTIVES}

# --- Capulana strips -------------------------------------------------------------------------

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


def legend(game: str) -> Text:
    if game == "capulana":
        t = Text()
        for c, name in capulana.COLOUR_NAMES.items():
            t.append(c, style=f"bold {_FG[c]} on {_BG[c]}")
            t.append(f" {name} ", style="dim")
        t.append("* any ", style="dim")
        for p, name in capulana.PATTERN_NAMES.items():
            t.append(f" {GLYPHS[p]} {name}", style="dim")
        t.append(" ✱ any  ░░ raw", style="dim")
        return t
    return Text("C capicrias · X capiôxes · T capitchês · O capionças (OP push, OS switch one, OA switch all)"
                " · K capiticos · S capissors · V capiolins", style="dim")


def _player(q: int, me: Optional[int], labels: Sequence[str]) -> Text:
    label = labels[q] if q < len(labels) else ""
    t = Text(f"P{q}", style="bold reverse" if q == me else "bold")
    if label:
        t.append(f" {label}", style="bold" if q == me else "")
    return t


def _hand_of(view: Mapping[str, Any], q: int) -> tuple[list[str], int, list[str]]:
    """(cards shown, count, publicly known cards) of a player's hand in a view."""
    h = view["hands"][q]
    if isinstance(h, list):
        return list(h), len(h), [c for c in h if view["known"].get(c) == q]
    return [], int(h["count"]), list(h.get("known", []))


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


def capulana_board(view: Mapping[str, Any], me: int, labels: Sequence[str]) -> RenderableType:
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
                        cell.append(f" (${sum(_CP[c].value for c in o['cards'])})", style="bright_green")
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
        hand = Text(f"{count} card{'s' if count != 1 else ''}")
        if q != me and known:
            hand.append(f" (known: {' '.join(known)})", style="dim")
        if phase == "weave":
            if view["weave_done"][q]:
                hand.append("  woven ✓", style="green")
            elif view["to_move"] == q:
                hand.append("  weaving…", style="cyan")
        if q != me and phase == "weave" and not view["weave_done"][q]:
            pass
        table.add_row(_player(q, me, labels), strips_text(strips), score_text, hand)
    parts.append(table)

    shown, count, known = _hand_of(view, me)
    parts.append(Text("your hand" + (" (ᵏ: known to all, R6)" if known else ""), style="bold"))
    parts.append(hand_view(shown, known))
    if phase == "weave" and view["to_move"] == me:
        w = view["woven"][me]
        parts.append(Text(f"you have woven {w} of at most 2 cards this step (others see nothing until the step ends)",
                          style="cyan"))
    parts.append(legend("capulana"))
    return Group(*parts)


def capulana_final(view: Mapping[str, Any], me: Optional[int], labels: Sequence[str],
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


# --- Capivárias -------------------------------------------------------------------------------

_HERD_STYLE = {"capicria": "bold orange1", "capiox": "bold deep_sky_blue1", "capitche": "bold medium_purple1",
               "capiolin": "bold green3"}


def _cv_card(name: str) -> Text:
    c = _CV[name]
    if c.is_capionca:
        style = "bold grey100 on red3"
    elif c.kind == "capissor":
        style = "bold grey0 on grey70"
    else:
        style = _HERD_STYLE.get(c.herd or "", "bold")
        if c.kind == "capitico":
            style += " italic"
    return Text(name, style=style)


_KIND_WORDS = {"herd": "", "capionca:push": "push", "capionca:switch-one": "switch one",
               "capionca:switch-all": "switch all", "capitico": "capitico", "capissor": "capissor",
               "capiolin": "capiolin"}


def _side(side: Sequence[str], modifier: int) -> Text:
    guards = {_CV[n].herd: n for n in side if _CV[n].kind == "capitico"}
    t = Text()
    for n in side:
        c = _CV[n]
        if c.kind == "capitico":
            continue
        if len(t):
            t.append(" ")
        t.append_text(_cv_card(n))
        if c.kind == "herd" and c.herd in guards:
            t.append("+")
            t.append_text(_cv_card(guards[c.herd]))
    if not len(t):
        t.append("·", style="dim")
    t.append(f"  ={side_points(side, modifier)}", style="dim")
    return t


def capivarias_board(view: Mapping[str, Any], me: Optional[int], labels: Sequence[str],
                     title: Optional[str] = None, wins: bool = True) -> RenderableType:
    """The river as ``me`` sees it (river cards by their modifier only, R20),
    both sides with their points, the available cards, the pile and discard
    (and the round wins, unless ``wins`` is false)."""
    head = Text()
    head.append(title or f"Capivárias{' + expansion' if view['expansion'] else ''} · round {view['round']}",
                style="bold")
    if wins:
        w = view["round_wins"]
        head.append(" · round wins ")
        head.append_text(_player(0, me, labels))
        head.append(f" {w[0]} – {w[1]} ", style="bold")
        head.append_text(_player(1, me, labels))
    table = Table(box=box.ROUNDED, show_footer=True, pad_edge=True)
    table.add_column("river ↓", footer="round score")
    table.add_column(_player(0, me, labels), footer=Text(), min_width=22)
    table.add_column("under", justify="center", min_width=5)
    table.add_column(_player(1, me, labels), footer=Text(), min_width=22)
    totals = [0, 0]
    for i, seg in enumerate(view["segments"]):
        mod = river_modifier(seg)
        assert mod is not None
        name = Text(f"segment {i} ")
        name.append(f"{mod:+d}", style="bold bright_blue")
        cap = _cv_card(seg["capionca"]) if seg["capionca"] else Text("·", style="dim")
        table.add_row(name, _side(seg["sides"][0], mod), cap, _side(seg["sides"][1], mod))
        for p in (0, 1):
            totals[p] += side_points(seg["sides"][p], mod)
    table.columns[1].footer = Text(str(totals[0]), style="bold")
    table.columns[3].footer = Text(str(totals[1]), style="bold")
    avail = Text("available: ", style="bold")
    for i, n in enumerate(view["available"]):
        if i:
            avail.append("  ")
        avail.append_text(_cv_card(n))
        words = _KIND_WORDS[_CV[n].kind]
        if words:
            avail.append(f" {words}", style="dim")
    if not view["available"]:
        avail.append("none", style="dim")
    pile = view["pile"]
    if isinstance(pile, Mapping):
        count, top = pile["count"], pile["top_modifier"]
    else:                                   # a full state dict (never given by the session)
        count, top = len(pile), (_CV[pile[0]].modifier if pile else None)
    rest = Text(f"pile: {count} card{'s' if count != 1 else ''}")
    if top is not None:
        rest.append(f" (top card's river side {top:+d})")
    rest.append("   discard: ")
    if view["discard"]:
        for i, n in enumerate(view["discard"]):
            if i:
                rest.append(" ")
            rest.append_text(_cv_card(n))
    else:
        rest.append("none", style="dim")
    return Group(head, table, avail, rest)


def capivarias_final(view: Mapping[str, Any], me: Optional[int], labels: Sequence[str],
                     rounds: Sequence[tuple[int, Sequence[int]]], winner: Optional[int]) -> RenderableType:
    """The end of a Capivárias game: every round's scores and wins, and the
    river of the last round as it was scored."""
    table = Table(title="Rounds", box=box.ROUNDED)
    table.add_column("round", justify="right")
    table.add_column(_player(0, me, labels), justify="right")
    table.add_column(_player(1, me, labels), justify="right")
    table.add_column("round won by")
    for rnd, sc in rounds:
        who = "both (tie)" if sc[0] == sc[1] else f"P{0 if sc[0] > sc[1] else 1}"
        table.add_row(str(rnd), str(sc[0]), str(sc[1]), who)
    wins = view["round_wins"]
    result = Text()
    if winner is None:
        result.append(f"A draw (R30) after round {view['round']}", style="bold")
    else:
        result.append_text(_player(winner, me, labels))
        result.append(f" wins the game, {wins[winner]} round wins to {wins[1 - winner]}", style="bold")
    river = capivarias_board(view, me, labels, title="The river as scored in the last round")
    return Group(table, river, result)


# --- moves --------------------------------------------------------------------------------------


def moves_list(game: str, moves: Sequence[Any], notes: Optional[Mapping[int, str]] = None) -> RenderableType:
    """The legal moves, numbered from 1 (the number picks it at the prompt).
    Capulana weaving moves are grouped by card; ``notes`` adds a note per
    action id (the row score after a weave)."""
    notes = notes or {}
    if game == "capulana" and any(m.kind == "weave" for m in moves):
        grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        grid.add_column("weave")
        grid.add_column("")
        for place in capulana.PLACEMENTS:
            grid.add_column(place, justify="left")
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
        last = None
        for (name, orient), cells in rows.items():
            grid.add_row(card_text(name) if name != last else Text(""), orient, *cells)
            last = name
        hint = Text("n as printed, r turned · + touching · >k over k strips · <k under, hiding its first k · "
                    "→ your row's score after it", style="dim")
        return Group(*first, grid, hint)
    items = []
    for i, m in enumerate(moves, 1):
        t = Text.assemble((f"{i:>2} ", "bold cyan"), (str(m), "bold"))
        note = notes.get(m.action)
        if note:
            t.append(f" {note}", style="dim")
        items.append(t)
    return Columns(items, padding=(0, 3))
