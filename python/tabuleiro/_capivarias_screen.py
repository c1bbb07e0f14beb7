"""Capivárias' rich drawings for the terminal game (``tabuleiro play``):
the river a seat sees, the announcement of a move, the final screen. Every
function takes what a seat may see (a view; after a round or the game, the
public river as scored).

>>> from rich.console import Console
>>> from tabuleiro import capivarias
>>> console = Console(width=120, record=True, color_system=None)
>>> side_points(["C3", "KC", "X4"], modifier=-1)
6
>>> console.print(board(capivarias.new_game(seed=1).view(0), 0, ["you", "greedy"]))
Capivárias · round 1 · round wins P0 you 0 – 0 P1 greedy
...
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import capivarias
from ._state import State
from .tui.render import Event, player_text, who

__all__ = ["board", "events", "final", "final_screen", "move_text", "river_modifier", "side_points"]

_player = player_text

_CV = {c.name: c for c in capivarias.CARDS}


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


def move_text(move: capivarias.Move) -> str:
    """A Capivárias move in words (every Capivárias move is public).

    >>> move_text(capivarias.Move.parse("C3"))
    'took C3 into segment 0'
    """
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
    """A segment's river modifier, as a view shows it (or from the card of a full state)."""
    r = seg["river"]
    return int(r["modifier"]) if isinstance(r, Mapping) else _CV[r].modifier


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


def board(view: Mapping[str, Any], me: Optional[int], labels: Sequence[str],
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


def final(view: Mapping[str, Any], me: Optional[int], labels: Sequence[str],
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
    river = board(view, me, labels, title="The river as scored in the last round")
    return Group(table, river, result)


# --- moves --------------------------------------------------------------------------------------

def events(after: State, move: Any, mover: int, labels: Sequence[str], scored: Optional[State]) -> list[Event]:
    """What one move shows everyone (every Capivárias move is public), and
    the round's result when it ended one (``scored``: the river as scored)."""
    out = [Event(Text(f"{who(mover, labels)} {move_text(move)}"))]
    if scored is not None:
        v = scored.view(0)
        sc = scored.scores()
        res = "a tie: both win the round" if sc[0] == sc[1] else f"P{0 if sc[0] > sc[1] else 1} wins the round"
        wins = after.view(0)["round_wins"]
        out.append(Event(Text(f"End of round {v['round']}: P0 {sc[0]} – P1 {sc[1]}, {res}; round wins {wins[0]}–{wins[1]}",
                              style="bold")))
    return out


def final_screen(state: State, me: Optional[int], labels: Sequence[str]) -> RenderableType:
    """The end of a finished game: every round's scores (replayed from the
    public history) and the last river as it was scored."""
    st = state.root()
    rounds: list[tuple[int, Sequence[int]]] = []
    last: Optional[State] = None
    for a in state.history():
        sc = st.apply_round_end(a)  # type: ignore[attr-defined]
        if sc is not None:
            rounds.append((sc.view(0)["round"], sc.scores()))
            last = sc
    view = (last or state).view(0)
    final_view = state.view(0)
    view["round_wins"], view["winner"] = final_view["round_wins"], final_view["winner"]
    return final(view, me, labels, rounds, final_view["winner"])
