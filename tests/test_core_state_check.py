"""The state check enforces the counts the rules imply (issue 26 item 2).

Each test takes a legal state's dict (reached by random play), breaks exactly
one invariant, and checks that ``from_dict`` raises ``InvalidStateError``
naming it; the untouched dict loads. The invariants (csrc/capulana.c and
csrc/capivarias.c, ``count_check``):

Capulana: 3 objectives revealed; the deck holds 56 - 7n - round*n cards;
at most round*n purple cards are out of the deck (the dealt hands are
black); a player's cards (hand, offers, row) are 7 before the first auction
and 7 - 4a .. 7 + 6a after a auctions; a row holds at most 2 fabric cards
per finished weaving step; nothing is known before the first auction; a
held purple card is known (R6).

Capivárias: the available row and the pile follow from the cards taken this
round (2.3), a finished game's last round ended with 1 available card and
an empty pile, from round 2 the player to move follows from last_taker and
the cards taken, and the round wins fit R29/R30.

The issue's own examples (0 or 10 objectives, 12 cards in a round-1 hand
with a 27-card deck, round 3 with a fresh deal) are refused by from_dict,
load_state, from_view and the engine's load.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable

import pytest

import tabuleiro
from tabuleiro import InvalidStateError, capulana, engine

PURPLE = {c.name for c in capulana.CARDS if c.is_fabric and c.stripe == "purple"}
CLEAN_BLACK = {c.name for c in capulana.CARDS if c.is_fabric and c.stripe == "black" and "--" not in c.strips}


def _reach(name: str, params: dict[str, Any], want: Callable[[dict[str, Any]], bool], *, seeds: int = 200) -> dict[str, Any]:
    """The dict of the first state random play reaches (seeds 0, 1, ...) for which want(d)."""
    g = tabuleiro.load_game(name, **params)
    for seed in range(seeds):
        rng = random.Random(seed)
        s = g.new_initial_state(seed=seed)
        while True:
            d = s.to_dict()
            if want(d):
                assert g.from_dict(d) == s           # legal: it loads as it is
                return copy.deepcopy(d)
            if s.is_terminal:
                break
            s.push(rng.choice(s.legal_actions()))
    raise AssertionError("no such state reached")


def _refused(d: dict[str, Any], pattern: str) -> str:
    params = {"players": d["players"]} if d["game"] == "capulana" else {"expansion": d["expansion"]}
    with pytest.raises(InvalidStateError, match=pattern) as e:
        tabuleiro.load_game(d["game"], **params).from_dict(d)
    with pytest.raises(InvalidStateError, match=pattern):
        tabuleiro.load_state(d)
    return str(e.value)


def _cp(players: int, want: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return _reach("capulana", {"players": players}, want)


def _fresh(players: int = 2, seed: int = 3) -> dict[str, Any]:
    return tabuleiro.load_game("capulana", players=players).new_initial_state(seed=seed).to_dict()


# --- Capulana --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("objectives", [[], ["OBJ4"], ["OBJ1", "OBJ2"], ["OBJ1", "OBJ2", "OBJ3", "OBJ4"],
                                        [f"OBJ{i}" for i in range(1, 11)]])
def test_capulana_three_objectives(objectives: list[str]) -> None:
    for d in (_fresh(), _cp(3, lambda d: d["phase"] == "weave" and d["round"] == 2),
              _cp(2, lambda d: d["phase"] == "over")):
        d["objectives"] = sorted(objectives, key=lambda o: int(o[3:]))
        _refused(d, f"{len(objectives)} objectives are revealed, not 3")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("rnd", [2, 3, 4])
def test_capulana_deck_size_round_with_a_fresh_deal(players: int, rnd: int) -> None:
    """The issue's "round 3 with a fresh deal": a new game relabelled later."""
    d = _fresh(players)
    d["round"] = rnd
    want = 56 - 7 * players - rnd * players
    _refused(d, f"the deck holds {56 - 8 * players} cards, but in round {rnd} it holds {want}")


def test_capulana_deck_size_the_probe_state() -> None:
    """The issue's state: an opponent holding 12 cards in round 1 before any
    offer, the deck 5 short (27 cards in the probe's 3-player game)."""
    d = _fresh(3)
    d["hands"][1] = sorted(d["hands"][1] + d["deck"][:5])
    d["deck"] = d["deck"][5:]
    assert len(d["deck"]) == 27 and len(d["hands"][1]) == 12
    _refused(d, "the deck holds 27 cards, but in round 1 it holds 32")


def test_capulana_deck_size_once_over() -> None:
    d = _cp(2, lambda d: d["phase"] == "over")
    d["round"] = 3
    _refused(d, "the deck holds 34 cards, but in round 3 it holds 36")


@pytest.mark.parametrize("players", [2, 5])
def test_capulana_dealt_hands_are_black(players: int) -> None:
    """Purple cards out of the deck are at most the announced ones: swap
    known-held black cards for purple deck cards (kept known, so no other
    count breaks) until one purple card too many is out."""
    def swappable(d: dict[str, Any]) -> bool:
        return d["phase"] == "offer" and d["round"] == 2 and not d["offers"] and d["open_offer"] is None

    d = _cp(players, swappable)
    out_purple = sum(c in PURPLE for c in d["slots"] + [x for h in d["hands"] for x in h]
                     + [e.split()[0] for r in d["capulanas"] for e in r])
    limit = 2 * players
    need = limit - out_purple + 1
    deck_purple = [c for c in d["deck"] if c in PURPLE]
    held_black = [(q, c) for q, h in enumerate(d["hands"]) for c in h if c not in PURPLE]
    assert len(deck_purple) >= need and len(held_black) >= need
    for (q, black), purple in zip(held_black[:need], deck_purple[:need]):
        d["hands"][q] = sorted([purple if c == black else c for c in d["hands"][q]])
        d["deck"][d["deck"].index(purple)] = black
        d["known"].pop(black, None)
        d["known"][purple] = q
    d["known"] = dict(sorted(d["known"].items()))
    _refused(d, f"{limit + 1} purple cards are out of the deck, but only {limit} cards have been announced")


@pytest.mark.parametrize("moved", [1, 5])
def test_capulana_seven_cards_before_the_first_auction(moved: int) -> None:
    d = _fresh(2)
    for c in d["hands"][0][:moved]:
        d["hands"][0].remove(c)
        d["hands"][1].append(c)
    d["hands"][1].sort()
    _refused(d, f"player 0 holds {7 - moved} cards .* before the first auction, not 7")


def test_capulana_seven_cards_during_the_first_offers() -> None:
    d = _cp(3, lambda d: d["round"] == 1 and len(d["offers"]) == 2 and d["open_offer"] is None)
    q = next(q for q in range(3) if len(d["hands"][q]) > 0)
    c = d["hands"][q].pop()
    r = (q + 1) % 3
    d["hands"][r] = sorted(d["hands"][r] + [c])
    _refused(d, f"player {q} holds 6 cards")


def test_capulana_cards_per_player_after_auctions() -> None:
    """5 players, round 3's offers (2 auctions): at most 7 + 12 = 19 cards each."""
    d = _cp(5, lambda d: d["phase"] == "offer" and d["round"] == 3 and not d["offers"] and d["open_offer"] is None)
    counts = [len(h) + len(r) - 1 for h, r in zip(d["hands"], d["capulanas"])]
    # move cards to player 0 until they hold 20 (R5 allows at most 19); a known one stays known, under player 0
    for q in range(1, 5):
        for c in list(d["hands"][q]):
            if counts[0] == 20:
                break
            d["hands"][q].remove(c)
            d["hands"][0].append(c)
            if c in d["known"]:
                d["known"][c] = 0
            counts[0] += 1
            counts[q] -= 1
    assert counts[0] == 20
    d["hands"][0].sort()
    _refused(d, r"player 0 holds 20 cards \(hand, offers and capulana\) after 2 auctions, not 0 to 19")


def test_capulana_two_fabric_cards_per_weaving_step() -> None:
    d = _fresh(2)
    card = next(c for c in d["hands"][0] if c in CLEAN_BLACK)
    d["hands"][0].remove(card)
    d["capulanas"][0].append(f"{card} n+")
    _refused(d, "the capulana of player 0 holds 1 fabric cards from 0 weaving steps, at most 0")


def test_capulana_nothing_known_before_the_first_auction() -> None:
    d = _fresh(2)
    d["known"] = {d["hands"][1][0]: 1}
    _refused(d, "known lists cards before the first auction")


@pytest.mark.parametrize("phase", ["offer", "weave"])
def test_capulana_held_purple_cards_are_known(phase: str) -> None:
    def has_known_purple(d: dict[str, Any]) -> bool:
        return d["phase"] == phase and any(c in PURPLE for c in d["known"]) and d["round"] >= 2

    d = _cp(3, has_known_purple)
    card = next(c for c in d["known"] if c in PURPLE)
    del d["known"][card]
    _refused(d, f"purple card {card} is held but not known")


# --- Capivárias --------------------------------------------------------------------------------------------------


def _cv(want: Callable[[dict[str, Any]], bool], expansion: bool = False) -> dict[str, Any]:
    return _reach("capivarias", {"expansion": expansion}, want)


@pytest.mark.parametrize("expansion", [False, True])
def test_capivarias_pile_and_row_follow_the_cards_taken(expansion: bool) -> None:
    d = _cv(lambda d: d["round"] == 1 and d["to_move"] is not None and len(d["pile"]) >= 4, expansion)
    d["discard"] = sorted(d["discard"] + [d["pile"].pop()], key=_cv_index)
    _refused(d, "cards are taken this round .* must be available and .* in the pile")


def test_capivarias_pile_to_the_row() -> None:
    d = _cv(lambda d: d["round"] == 1 and d["to_move"] is not None and len(d["available"]) == 2 and d["pile"])
    d["available"].append(d["pile"].pop(0))
    _refused(d, "so 2 must be available")


def test_capivarias_a_finished_game_ends_with_one_card_left() -> None:
    d = _cv(lambda d: d["to_move"] is None)
    d["pile"] = d["available"]
    d["available"] = []
    _refused(d, "the game is over, so its last round ended with 1 available card and an empty pile")


def test_capivarias_whose_turn_from_round_two() -> None:
    d = _cv(lambda d: d["round"] >= 2 and d["to_move"] is not None)
    d["to_move"] = 1 - d["to_move"]
    _refused(d, r"was started by player \d \(last_taker\)")


def test_capivarias_three_discards_keep_the_row_but_not_the_turn() -> None:
    """Three more cards out (pile to discard) fit the refill schedule, but
    not whose turn it is: only that invariant breaks."""
    d = _cv(lambda d: d["round"] >= 2 and d["to_move"] is not None and len(d["pile"]) >= 9
            and len(d["available"]) == 4)
    for _ in range(3):
        d["discard"].append(d["pile"].pop())
    d["discard"].sort(key=_cv_index)
    _refused(d, "last_taker")


@pytest.mark.parametrize("wins,pattern", [
    ([1, 1], "count fewer wins than the 3 rounds finished"),
    ([2, 1], "the game would be over, one player having 2 wins"),
    ([1, 3], "the game would be over"),
    ([3, 2], "sudden death starts at a 2-2 tie"),
])
def test_capivarias_round_wins_unfinished(wins: list[int], pattern: str) -> None:
    rnd = 4 if wins != [3, 2] else 6
    d = _cv(lambda d: d["round"] >= 2 and d["to_move"] is not None, False)
    d["round"] = rnd
    d["round_wins"] = wins
    _refused(d, pattern)


@pytest.mark.parametrize("wins", [[2, 2], [3, 1], [4, 2], [1, 1]])
def test_capivarias_round_wins_of_a_won_game(wins: list[int]) -> None:
    d = _cv(lambda d: d["to_move"] is None and d["winner"] is not None)
    w = d["winner"]
    d["round_wins"] = wins if w == 0 else wins[::-1]
    d["round"] = max(d["round"], sum(wins) - 1, max(wins))
    pattern = "count fewer wins" if wins == [1, 1] else f"cannot end a game won by player {w}"
    _refused(d, pattern)


def test_capivarias_round_wins_of_a_draw() -> None:
    d = _cv(lambda d: d["to_move"] is None and d["winner"] is not None)
    d["winner"] = None
    d["round"] = 9
    d["round_wins"] = [6, 5]
    _refused(d, "cannot end in a draw")
    d["round_wins"] = [5, 5]
    assert tabuleiro.load_game("capivarias").from_dict(d).is_terminal


def _cv_index(name: str) -> int:
    from tabuleiro import capivarias
    return next(c.index for c in capivarias.CARDS if c.name == name)


# --- every entry point refuses them --------------------------------------------------------------------------------


def _issue_states() -> list[tuple[dict[str, Any], str]]:
    zero = _fresh(3)
    zero["objectives"] = []
    ten = _fresh(3)
    ten["objectives"] = [f"OBJ{i}" for i in range(1, 11)]
    twelve = _fresh(3)
    twelve["hands"][1] = sorted(twelve["hands"][1] + twelve["deck"][:5])
    twelve["deck"] = twelve["deck"][5:]
    fresh3 = _fresh(3)
    fresh3["round"] = 3
    return [(zero, "0 objectives"), (ten, "10 objectives"), (twelve, "the deck holds 27"), (fresh3, "in round 3")]


@pytest.mark.parametrize("case", range(4))
def test_the_issue_states_are_refused_everywhere(case: int) -> None:
    d, pattern = _issue_states()[case]
    g = tabuleiro.load_game("capulana", players=3)
    with pytest.raises(InvalidStateError, match=pattern):
        g.from_dict(d)
    with pytest.raises(InvalidStateError, match=pattern):
        tabuleiro.load_state(json.dumps(d))
    # the view of the same state (as the owner of seat 0 would send it)
    view = _view_of(d, 0)
    with pytest.raises(InvalidStateError):
        g.from_view(view, 0)
    # the engine's load answers invalid_state and keeps no game to go on
    lines: list[bytes] = []
    e = engine.Engine(lines.append)
    e.handle_line(json.dumps({"id": 1, "cmd": "load", "state": d}).encode())
    e.handle_line(json.dumps({"id": 2, "cmd": "go", "iterations": 10}).encode())
    first, second = (json.loads(x) for x in lines[:2])
    assert first["ok"] is False and first["error"]["code"] == "invalid_state"
    assert second["ok"] is False and second["error"]["code"] == "no_game"


def _view_of(d: dict[str, Any], player: int) -> dict[str, Any]:
    """What player would see of d: the view of a legal state with d's broken fields copied in."""
    g = tabuleiro.load_game("capulana", players=d["players"])
    legal = _fresh(d["players"])
    v = g.from_dict(legal).view(player)
    v["objectives"] = d["objectives"]
    v["round"] = d["round"]
    v["deck"] = {"count": len(d["deck"])}
    v["hands"] = [h if q == player else {"count": len(h)} for q, h in enumerate(d["hands"])]
    if d["hands"][player] != legal["hands"][player]:
        v["hands"][player] = d["hands"][player]
    return v
