"""The Python readers of state dicts and views that csrc/<game>_json.c
replaced (tabuleiro at commit 5d32849: _fields.Fields, each game's
params_from_dict, _encode_dict and _dict_from_view, Game._from_plain_view),
kept verbatim as the oracle tests/test_state_json.py holds the C readers to:
the same encoding, the same exception, the same message. Only the glue
differs: module-level functions taking the game instead of methods."""
# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

import builtins
import json
from typing import Any, Callable, Mapping, Optional

from tabuleiro import InvalidStateError
from tabuleiro._fields import short
from tabuleiro.capivarias import CARDS as CV_CARDS
from tabuleiro.capulana import CARDS as CP_CARDS, OBJECTIVES, ORIENTATIONS, PLACEMENTS

NUM_CARDS = 6
U64 = 1 << 64
_PHASES = ("offer", "weave", "over")
CV_BY_NAME = {c.name: c for c in CV_CARDS}
CP_BY_NAME = {c.name: c for c in CP_CARDS}
_OBJ_BY_NAME = {o.name: o for o in OBJECTIVES}


class Fields:
    """Shape and type checks of one game's state dicts; every error is an
    :class:`InvalidStateError` whose message starts ``invalid <Title> state:``."""

    def __init__(self, title: str) -> None:
        self.title = title

    def bad(self, msg: str) -> InvalidStateError:
        return InvalidStateError(f"invalid {self.title} state: {msg}")

    def get(self, d: Mapping[str, Any], key: str) -> Any:
        if key not in d:
            raise self.bad(f"missing key {key!r}")
        return d[key]

    def game(self, d: Mapping[str, Any], name: str) -> None:
        """The dict says it is a state of game ``name``."""
        game = self.get(d, "game")
        if game != name:
            raise self.bad(f"game must be {short(name)}, not {short(game)}")

    def int(self, value: Any, what: str, *, null: bool = False) -> int:
        """An integer field (null as -1 where allowed); ranges are the C decoder's."""
        if value is None and null:
            return -1
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.bad(f"{what} must be an integer{' or null' if null else ''}, not {short(value)}")
        if not -(1 << 31) <= value < 1 << 31:
            raise self.bad(f"{what} is out of range")
        return value

    def bool(self, value: Any, what: str) -> bool:
        if not isinstance(value, bool):
            raise self.bad(f"{what} must be true or false, not {short(value)}")
        return value

    def list(self, value: Any, what: str, length: Optional[builtins.int] = None) -> builtins.list[Any]:
        if not isinstance(value, list):
            raise self.bad(f"{what} must be a list, not {type(value).__name__}")
        if length is not None and len(value) != length:
            raise self.bad(f"{what} must have {length} entries, not {len(value)}")
        return value

    def seed(self, value: Any) -> builtins.int:
        """The seed as the encoding holds it (the uint64 bit pattern as int64)."""
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < U64:
            raise self.bad("seed must be an integer in [0, 2**64)")
        return value - U64 if value >= 1 << 63 else value

    def card(self, name: Any, where: str, by_name: Mapping[str, Any]) -> builtins.int:
        """The index of a card named by a string (``by_name`` maps names to
        cards with an ``index``)."""
        if not isinstance(name, str):
            raise self.bad(f"{where}: a card is a name string, not {short(name)}")
        c = by_name.get(name)
        if c is None:
            raise self.bad(f"{where}: unknown card {short(name)}")
        return c.index  # type: ignore[no-any-return]

    def ids(self, names: Any, where: str, index_of: Callable[[Any, str], builtins.int], *,
            is_set: builtins.bool = False) -> builtins.list[builtins.int]:
        """``[count, ids...]`` of a list of cards; a set's ids in id order (the
        encoding's canonical form)."""
        ids = [index_of(x, where) for x in self.list(names, where)]
        return [len(ids)] + (sorted(ids) if is_set else ids)


CV_F = Fields("Capivárias")
CP_F = Fields("Capulana")
TOY_F = Fields("Toy")


def cv_card(name: Any, where: str) -> int:
    return CV_F.card(name, where, CV_BY_NAME)


def cp_card(name: Any, where: str) -> int:
    return CP_F.card(name, where, CP_BY_NAME)


def toy_card(c: Any, where: str) -> int:
    if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= NUM_CARDS:
        raise TOY_F.bad(f"{where}: unknown card {c!r} (cards are 1..{NUM_CARDS})")
    return c - 1


def cp_offer(o: Any, where: str) -> list[int]:
    if not isinstance(o, Mapping):
        raise CP_F.bad(f"{where} must be a dict with player, slot, cards")
    return [CP_F.int(CP_F.get(o, "player"), f"{where} player"), CP_F.int(CP_F.get(o, "slot"), f"{where} slot")] + \
        CP_F.ids(CP_F.get(o, "cards"), where, cp_card, is_set=True)


def _match(wants: list[int], cards: list[Any]) -> Optional[list[Any]]:
    """Distinct cards with the wanted modifiers, in order, or None."""
    def go(i: int, used: list[Any]) -> Optional[list[Any]]:
        if i == len(wants):
            return used
        for c in cards:
            if c.modifier == wants[i] and c not in used:
                got = go(i + 1, used + [c])
                if got is not None:
                    return got
        return None
    return go(0, [])


def cv_params_from_dict(d: Mapping[str, Any]) -> dict[str, Any]:
    return {"expansion": CV_F.bool(CV_F.get(d, "expansion"), "expansion")}


def cv_encode_dict(self, d: Mapping[str, Any]) -> list[int]:
    CV_F.game(d, "capivarias")
    expansion = CV_F.bool(CV_F.get(d, "expansion"), "expansion")
    if expansion != self._params["expansion"]:
        raise CV_F.bad(f"this game is played {'with' if self._params['expansion'] else 'without'} the expansion")
    wins = CV_F.list(CV_F.get(d, "round_wins"), "round_wins", 2)
    out = [int(expansion), CV_F.int(CV_F.get(d, "round"), "round"), CV_F.int(wins[0], "round_wins[0]"),
           CV_F.int(wins[1], "round_wins[1]"), CV_F.int(CV_F.get(d, "to_move"), "to_move", null=True),
           CV_F.int(CV_F.get(d, "last_taker"), "last_taker", null=True),
           CV_F.int(CV_F.get(d, "winner"), "winner", null=True), CV_F.seed(CV_F.get(d, "seed"))]
    segments = CV_F.list(CV_F.get(d, "segments"), "segments", 3)
    for i, seg in enumerate(segments):
        if not isinstance(seg, Mapping):
            raise CV_F.bad(f"segment {i} must be a dict")
        cap = CV_F.get(seg, "capionca")
        out += [cv_card(CV_F.get(seg, "river"), f"segment {i} river"),
                -1 if cap is None else cv_card(cap, f"segment {i} capionca")]
        sides = CV_F.list(CV_F.get(seg, "sides"), f"segment {i} sides", 2)
        for k, side in enumerate(sides):
            out += CV_F.ids(side, f"segment {i} side {k}", cv_card, is_set=True)
    out += CV_F.ids(CV_F.get(d, "available"), "available", cv_card)
    out += CV_F.ids(CV_F.get(d, "pile"), "pile", cv_card)
    out += CV_F.ids(CV_F.get(d, "discard"), "discard", cv_card, is_set=True)
    return out


def cv_dict_from_view(self, view: Mapping[str, Any], player: int) -> dict[str, Any]:
    CV_F.game(view, "capivarias")
    d = dict(view)
    segments = [dict(seg) if isinstance(seg, Mapping) else seg for seg in CV_F.list(CV_F.get(d, "segments"), "segments", 3)]
    pile = CV_F.get(d, "pile")
    if not isinstance(pile, Mapping):
        raise CV_F.bad("a view's pile is {'count': n, 'top_modifier': m}")
    count = CV_F.int(CV_F.get(pile, "count"), "pile count")
    top = CV_F.get(pile, "top_modifier")
    seen: set[str] = set()
    for seg in segments:
        if not isinstance(seg, Mapping):
            raise CV_F.bad("segment must be a dict")
        if not isinstance(CV_F.get(seg, "river"), Mapping):
            raise CV_F.bad("a view's river card is {'modifier': m}")
        if isinstance(seg.get("capionca"), str):
            seen.add(seg["capionca"])
        for side in CV_F.list(CV_F.get(seg, "sides"), "sides", 2):
            seen.update(x for x in CV_F.list(side, "side") if isinstance(x, str))
    for key in ("available", "discard"):
        seen.update(x for x in CV_F.list(CV_F.get(d, key), key) if isinstance(x, str))
    expansion = CV_F.bool(CV_F.get(d, "expansion"), "expansion")
    unseen = [c for c in CV_CARDS if (expansion or not c.expansion) and c.name not in seen]
    # river cards need their modifiers and the pile top its own: match these
    # slots to unseen cards (a few slots: plain backtracking), the rest is the pile
    wants = [CV_F.int(CV_F.get(seg["river"], "modifier"), "river modifier") for seg in segments]
    if count:
        wants.append(CV_F.int(top, "pile top_modifier"))
    pick = _match(wants, unseen)
    if pick is None or len(unseen) != 3 + count:
        raise CV_F.bad("the view's river and pile do not fit the cards it does not show")
    for seg, c in zip(segments, pick):
        seg["river"] = c.name
    rest = [c.name for c in unseen if c not in pick]
    d["segments"] = segments
    d["pile"] = ([pick[3].name] if count else []) + rest
    d["seed"] = 0
    return d


def cp_params_from_dict(d: Mapping[str, Any]) -> dict[str, Any]:
    n = CP_F.get(d, "players")
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 5:
        raise CP_F.bad(f"players must be an integer in [2, 5], not {n!r}")
    return {"players": n}


def cp_encode_dict(self, d: Mapping[str, Any]) -> list[int]:
    CP_F.game(d, "capulana")
    n = CP_F.int(CP_F.get(d, "players"), "players")
    if n != self.num_players:
        raise CP_F.bad(f"players must be {self.num_players} in this game, not {n}")
    phase = CP_F.get(d, "phase")
    if phase not in _PHASES:
        raise CP_F.bad(f"phase must be 'offer', 'weave' or 'over', not {phase!r}")
    out = [n, CP_F.int(CP_F.get(d, "round"), "round"), CP_F.int(CP_F.get(d, "start_player"), "start_player"),
           _PHASES.index(phase), CP_F.int(CP_F.get(d, "to_move"), "to_move", null=True),
           CP_F.seed(CP_F.get(d, "seed"))]
    objectives = CP_F.list(CP_F.get(d, "objectives"), "objectives")
    obj_ids = []
    for o in objectives:
        if not isinstance(o, str) or o not in _OBJ_BY_NAME:
            raise CP_F.bad(f"objectives: unknown objective {o!r}")
        obj_ids.append(_OBJ_BY_NAME[o].index)
    out += [len(obj_ids)] + sorted(obj_ids)
    out += CP_F.ids(CP_F.get(d, "deck"), "deck", cp_card)
    out += CP_F.ids(CP_F.get(d, "slots"), "slots", cp_card)
    offers = CP_F.list(CP_F.get(d, "offers"), "offers")
    out.append(len(offers))
    for k, o in enumerate(offers):
        out += cp_offer(o, f"offer {k}")
    open_offer = CP_F.get(d, "open_offer")
    out += [0] if open_offer is None else [1] + cp_offer(open_offer, "open_offer")
    for q, hand in enumerate(CP_F.list(CP_F.get(d, "hands"), "hands", n)):
        out += CP_F.ids(hand, f"hand of player {q}", cp_card, is_set=True)
    for q, row in enumerate(CP_F.list(CP_F.get(d, "capulanas"), "capulanas", n)):
        where = f"capulana of player {q}"
        out.append(len(CP_F.list(row, where)))
        for e in row:
            parts = e.split() if isinstance(e, str) else []
            if len(parts) != 2 or len(parts[1]) < 2 or parts[1][0] not in ORIENTATIONS or parts[1][1:] not in PLACEMENTS:
                raise CP_F.bad(f"{where}: entry {e!r} is not 'CARD orientation+placement' like 'F30 r>1'")
            out += [cp_card(parts[0], where), 7 * ORIENTATIONS.index(parts[1][0]) + PLACEMENTS.index(parts[1][1:])]
    out += [CP_F.int(w, f"woven[{q}]") for q, w in enumerate(CP_F.list(CP_F.get(d, "woven"), "woven", n))]
    for q, x in enumerate(CP_F.list(CP_F.get(d, "weave_done"), "weave_done", n)):
        if not isinstance(x, bool):
            raise CP_F.bad(f"weave_done[{q}] must be true or false, not {x!r}")
        out.append(int(x))
    known = CP_F.get(d, "known")
    if not isinstance(known, Mapping):
        raise CP_F.bad(f"known must be a dict of card: player, not {type(known).__name__}")
    pairs = sorted((cp_card(c, "known"), CP_F.int(q, f"known[{c}]")) for c, q in known.items())
    out.append(len(pairs))
    for c, q in pairs:
        out += [c, q]
    return out


def cp_dict_from_view(self, view: Mapping[str, Any], player: int) -> dict[str, Any]:
    CP_F.game(view, "capulana")
    d: dict[str, Any] = json.loads(json.dumps(view))     # a deep copy of plain JSON values
    n = self.num_players
    hands = CP_F.list(CP_F.get(d, "hands"), "hands", n)
    rows = CP_F.list(CP_F.get(d, "capulanas"), "capulanas", n)
    known = CP_F.get(d, "known")
    if not isinstance(known, dict):
        raise CP_F.bad("known must be a dict of card: player")
    offers = CP_F.list(CP_F.get(d, "offers"), "offers") + ([d["open_offer"]] if d.get("open_offer") else [])
    if isinstance(hands[player], dict):
        raise CP_F.bad(f"the view shows player {player}'s hand as a count: it is another seat's view, "
                     f"not player {player}'s")
    # only names are collected here; a value of another type is named by from_dict's checks
    seen = set(known) | {x for x in CP_F.list(CP_F.get(d, "slots"), "slots") if isinstance(x, str)}
    seen.update(x for x in CP_F.list(hands[player], f"hand of player {player}") if isinstance(x, str))
    for row in rows:
        seen.update(e.split()[0] for e in CP_F.list(row, "capulana") if isinstance(e, str) and e.split())
    for o in offers:
        if not isinstance(o, dict) or not isinstance(o.get("cards"), (list, dict)):
            raise CP_F.bad("an offer is a dict with player, slot, cards")
        if isinstance(o["cards"], list):
            seen.update(x for x in o["cards"] if isinstance(x, str))
    # others' hidden cards are dealt ones, black (1.2; the state check counts purple cards out of the deck)
    pool = [c.name for c in sorted((c for c in CP_CARDS if c.is_fabric), key=lambda c: c.stripe != "black")
            if c.name not in seen]
    for q in range(n):
        if q == player:
            continue
        h = hands[q]
        if not isinstance(h, dict):
            raise CP_F.bad(f"a view shows player {q}'s hand as {{'count': n}}")
        mine = sorted(c for c, holder in known.items() if holder == q)
        count = CP_F.int(CP_F.get(h, "count"), f"hand count of player {q}")
        hidden = [o for o in offers if o.get("player") == q and isinstance(o["cards"], dict)]
        hand, spill = mine[:count], mine[count:]   # known cards beyond the hand lie in an offer (R6)
        for o in hidden:
            k = CP_F.int(CP_F.get(o["cards"], "count"), "offer count")
            take = spill[:k]
            spill = spill[k:]
            while len(take) < k and pool:
                take.append(pool.pop(0))
            o["cards"] = sorted(take)
        if spill:
            raise CP_F.bad(f"player {q} has more known cards than their hand and offers hold")
        while len(hand) < count and pool:
            hand.append(pool.pop(0))
        hands[q] = sorted(hand)
    deck = CP_F.get(d, "deck")
    if not isinstance(deck, dict):
        raise CP_F.bad("a view shows the deck as {'count': n}")
    d["deck"] = pool
    d["seed"] = 0
    return d


def toy_encode_dict(self, d: Mapping[str, Any]) -> list[int]:
    TOY_F.game(d, "toy")
    out = [TOY_F.int(TOY_F.get(d, "to_move"), "to_move", null=True), TOY_F.seed(TOY_F.get(d, "seed"))]
    hands = TOY_F.list(TOY_F.get(d, "hands"), "hands", 2)
    piles = TOY_F.list(TOY_F.get(d, "piles"), "piles", 2)
    for cards, where, is_set in ((hands[0], "hands[0]", True), (hands[1], "hands[1]", True),
                                 (TOY_F.get(d, "stock"), "stock", True), (piles[0], "piles[0]", False),
                                 (piles[1], "piles[1]", False)):
        out += TOY_F.ids(cards, where, toy_card, is_set=is_set)
    return out


def toy_dict_from_view(self, view: Mapping[str, Any], player: int) -> dict[str, Any]:
    TOY_F.game(view, "toy")
    d = dict(view)
    hands = list(TOY_F.list(TOY_F.get(d, "hands"), "hands", 2))
    if isinstance(hands[player], Mapping):
        raise TOY_F.bad(f"the view shows player {player}'s hand as a count: it is another seat's view, "
                     f"not player {player}'s")
    other = hands[1 - player]
    stock = TOY_F.get(d, "stock")
    if not isinstance(other, Mapping) or not isinstance(stock, Mapping):
        raise TOY_F.bad("a view shows the other hand and the stock as {'count': n}")
    # only cards are collected here; a value of another type is named by from_dict's checks
    seen = {x for x in TOY_F.list(hands[player], "hand") if isinstance(x, int)}
    for pile in TOY_F.list(TOY_F.get(d, "piles"), "piles", 2):
        seen.update(x for x in TOY_F.list(pile, "pile") if isinstance(x, int))
    unseen = [c for c in range(1, NUM_CARDS + 1) if c not in seen]
    k = TOY_F.int(TOY_F.get(other, "count"), "hand count")
    if not 0 <= k <= len(unseen):
        raise TOY_F.bad("the view's hand count does not fit the cards it does not show")
    hands[1 - player] = unseen[:k]
    d["hands"] = hands
    d["stock"] = unseen[k:]
    d["seed"] = 0
    return d


def old_from_view(self, view: Any, player: Optional[int]) -> Any:
    """from_view of a value check_plain has passed."""
    what = f"invalid {self.title} view:"
    if not isinstance(view, Mapping):
        raise InvalidStateError(f"invalid {self.title} view: expected a dict, got {type(view).__name__}")
    if player is None:
        player = view.get("to_move")
        if player is None:
            raise InvalidStateError(f"invalid {self.title} view: the game is over, so say whose view it is")
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise InvalidStateError(f"invalid {self.title} view: to_move must be a player in "
                                    f"[0, {self.num_players - 1}], not {short(player)}")
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
        raise ValueError(f"player must be an integer in [0, {self.num_players - 1}], not {player!r}")
    try:
        d = FROM_VIEW[self.name](self, view, player)
    except (TypeError, KeyError, AttributeError, IndexError):
        # the game's checks name the fields they know; a shape they missed ends here, not in a traceback
        raise InvalidStateError(f"{what} a field has the wrong type or shape for a view") from None
    state = old_from_dict(self, d)
    if state.view(player) != json.loads(json.dumps(view)):
        raise InvalidStateError(f"invalid {self.title} view: it is not what player {player} would see of any "
                                "state (a field is inconsistent with the others)")
    return state


ENCODE = {"capivarias": cv_encode_dict, "capulana": cp_encode_dict, "toy": toy_encode_dict}
FROM_VIEW = {"capivarias": cv_dict_from_view, "capulana": cp_dict_from_view, "toy": toy_dict_from_view}
PARAMS = {"capivarias": cv_params_from_dict, "capulana": cp_params_from_dict, "toy": lambda d: {}}


def old_from_dict(self, d: Any) -> Any:
    """Game._from_plain as it was: the dict's encoding, then the C decoder."""
    if not isinstance(d, Mapping):
        raise InvalidStateError(f"invalid {self.title} state: expected a dict, got {type(d).__name__}")
    return self._core.decode(ENCODE[self.name](self, d))
