"""Tests of the pure-Python Capivárias reference (tests/reference/capivarias.py).

Hand-built positions (via from_dict) check one move's outcome for rulings
R21-R27 and the winner rule (R29/R30); a smoke test plays random games.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference.capivarias import (  # noqa: E402
    CARDS,
    NUM_ACTIONS,
    NUM_CARDS,
    Rng,
    State,
    decode,
    encode,
    perft,
    random_game,
)

# River cards used by every hand-built position: all have modifier 0, and a
# capionça as a river card marks nothing (R21).
RIVERS = ("OS2", "T4", "C3")


def build(sides, available, *, capionca=(None, None, None), to_move=0,
          rnd=1, wins=(0, 0), last_taker=None, pile=None, discard=(),
          expansion=True, seed=12345, rivers=RIVERS):
    """A state dict; every game card not placed goes to the pile (or, when
    `pile` is given, to the discard), so every card is accounted for."""
    used = set(rivers) | set(available) | set(discard)
    used |= {c for c in capionca if c}
    used |= {n for seg in sides for side in seg for n in side}
    if pile is not None:
        used |= set(pile)
    rest = [c.name for c in CARDS
            if (expansion or not c.expansion) and c.name not in used]
    if pile is None:
        pile, discard = rest, list(discard)
    else:
        pile, discard = list(pile), list(discard) + rest
    order = {c.name: c.index for c in CARDS}
    return {
        "game": "capivarias", "expansion": expansion, "round": rnd,
        "round_wins": list(wins), "to_move": to_move,
        "last_taker": last_taker, "winner": None, "seed": seed,
        "segments": [
            {"river": rivers[s], "capionca": capionca[s],
             "sides": [sorted(sides[s][p], key=order.get) for p in range(2)]}
            for s in range(3)
        ],
        "available": list(available), "pile": pile,
        "discard": sorted(discard, key=order.get),
    }


def moves(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state, notation):
    for a in state.legal_actions():
        if state.action_to_string(a) == notation:
            state.apply(a)
            return state
    raise AssertionError(f"{notation} not legal; legal: {moves(state)}")


def sides_of(state):
    return [seg["sides"] for seg in state.to_dict()["segments"]]


EMPTY = [[[], []], [[], []], [[], []]]


# --- basics ---------------------------------------------------------------------

def test_encoding_and_rng():
    assert NUM_CARDS == 28 and NUM_ACTIONS == 3248
    for a in range(NUM_ACTIONS):
        assert encode(*decode(a)) == a
    assert encode(0, 0, None) == 28
    assert decode(encode(27, 3, None)) == (27, 3, None)
    # splitmix64 seeded 0: well-known first output
    assert Rng(0).draw() == 0xE220A8397B1DCDAF
    with pytest.raises(ValueError):
        State.new_game(2**64)


def test_new_game_setup():
    s = State.new_game(7, expansion=False)
    d = s.to_dict()
    assert len(d["available"]) == 4 and len(d["pile"]) == 13
    assert d["to_move"] == 0 and d["last_taker"] is None
    s1 = State.new_game(7, expansion=True, first_player=1)
    assert s1.current_player == 1 and len(s1.to_dict()["pile"]) == 21
    assert perft(s, 0) == 1
    assert perft(s, 1) == len(s.legal_actions())


def test_illegal_action_raises():
    s = State.new_game(3)
    bad = next(a for a in range(NUM_ACTIONS) if a not in s.legal_actions())
    before = s.to_dict()
    with pytest.raises(ValueError):
        s.apply(bad)
    assert s.to_dict() == before


# --- R21 / R27: capionças ------------------------------------------------------------

def test_r21_r27_capionca_targets():
    d = build([[["C2", "KC"], ["X3"]], [[], ["T1"]], [[], []]],
              ["OP1", "OS1", "OA1"], capionca=(None, "OP2", None))
    s = State.from_dict(d)
    assert sorted(moves(s)) == sorted([
        "OP1@0/X3", "OP1@2",             # guardian C2 not pushable (R27); seg 1 marked
        "OS1@0/C2", "OS1@0/X3", "OS1@2",  # switch one may take a guardian
        "OA1@0", "OA1@2",
    ])


def test_r21_push_only_guardian_gives_no_target_form():
    d = build([[["C2", "KC"], []], [[], []], [[], []]], ["OP1", "X1", "X2"])
    s = State.from_dict(d)
    assert "OP1@0" in moves(s)
    play(s, "OP1@0")
    assert sides_of(s)[0] == [["C2", "KC"], []]
    assert s.to_dict()["segments"][0]["capionca"] == "OP1"
    assert s.current_player == 1


def test_r21_switch_all_and_switch_one():
    d = build([[["C2", "KC"], ["X3"]], [[], []], [[], []]], ["OS1", "OA1", "X1"])
    s = State.from_dict(d)
    play(s, "OA1@0")
    assert sides_of(s)[0] == [["X3"], ["C2", "KC"]]
    s = State.from_dict(d)
    play(s, "OS1@0/C2")
    assert sides_of(s)[0] == [[], ["C2", "X3", "KC"]]


def test_r21_push_chain_off_the_end_with_guardian():
    # Push C4 out of segment 1 into segment 2 where guardian C2 (with KC) is:
    # C4 wins, the guardian stays, C4 takes KC and is pushed out: discarded (R25).
    d = build([[[], []], [[], ["C4"]], [["C2", "KC"], []]], ["OP1", "X1", "X2"])
    s = State.from_dict(d)
    play(s, "OP1@1/C4")
    assert sides_of(s) == [[[], []], [[], []], [["C2"], []]]
    assert {"C4", "KC"} <= set(s.to_dict()["discard"])


# --- R22 / R23 / R24 ---------------------------------------------------------------

def test_r22_capitico_takes_guardian_to_movers_side():
    d = build([[[], []], [[], []], [[], ["T3"]]], ["KT", "X1", "X2"])
    s = State.from_dict(d)
    assert "KT/T3" in moves(s)
    play(s, "KT/T3")
    assert sides_of(s)[2] == [["T3", "KT"], []]
    assert s.scores() == [3 + 1, 0]


def test_r23_capissor_enters_segment_0_not_a_push():
    # X4+KX move from segment 1 (side 1, where capiolin V2 stands: no side
    # switch, not a push) to segment 0 side 1; X4 loses to X5 but is a
    # guardian: X5 takes KX (KX moves to X5's side 0) and X5 is pushed to
    # segment 1 on its own side 0 (R25).
    d = build([[["X5"], []], [[], ["X4", "V2", "KX"]], [[], []]], ["S1", "C1", "C2"])
    s = State.from_dict(d)
    play(s, "S1/KX")
    assert sides_of(s) == [[[], ["X4"]], [["X5", "KX"], ["V2"]], [[], []]]
    assert "S1" in s.to_dict()["discard"]


def test_r23_capissor_in_segment_0_moves_nothing():
    d = build([[[], ["X4", "KX"]], [[], []], [[], []]], ["S1", "C1", "C2"])
    s = State.from_dict(d)
    play(s, "S1/KX")
    assert sides_of(s)[0] == [[], ["X4", "KX"]]


def test_r24_discard_only_without_placement():
    d = build([[["X1"], []], [[], []], [[], []]], ["KC", "S1", "X2"])
    s = State.from_dict(d)
    assert sorted(moves(s)) == sorted(["X2", "discard KC", "discard S1"])
    play(s, "discard KC")
    assert "KC" in s.to_dict()["discard"]
    # all segments marked: the capionça can only be discarded
    d = build(EMPTY, ["OP1", "X2"], capionca=("OS1", "OA1", "OP2"))
    assert "discard OP1" in moves(State.from_dict(d))


# --- R25 / R26: entering and pushing ---------------------------------------------------

def test_r25_lower_number_pushed_and_1_beats_5():
    s = State.from_dict(build([[[], ["C2"]], [[], []], [[], []]], ["C4", "X1", "X2"]))
    play(s, "C4")
    assert sides_of(s)[:2] == [[["C4"], []], [[], ["C2"]]]
    s = State.from_dict(build([[[], ["C5"]], [[], []], [[], []]], ["C1", "X1", "X2"]))
    play(s, "C1")
    assert sides_of(s)[:2] == [[["C1"], []], [[], ["C5"]]]
    # the entering card loses and is pushed itself
    s = State.from_dict(build([[[], ["C5"]], [[], []], [[], []]], ["C4", "X1", "X2"]))
    play(s, "C4")
    assert sides_of(s)[:2] == [[[], ["C5"]], [["C4"], []]]


def test_r25_guardian_loser_stays_winner_takes_capitico():
    d = build([[["C2", "KC"], []], [[], []], [[], []]], ["C4", "X1", "X2"], to_move=1)
    s = State.from_dict(d)
    play(s, "C4")
    assert sides_of(s)[:2] == [[["C2"], []], [[], ["C4", "KC"]]]
    assert s.scores() == [2, 4 + 1]


def test_r25_chain_to_discard():
    d = build([[[], ["C2"]], [["C4"], []], [["C5"], []]], ["C1", "X1", "X2"])
    s = State.from_dict(d)
    # C1 loses to C2 (only a 5 loses to a 1) -> loses to C4 -> beats C5,
    # which is pushed out of segment 2 to the discard
    play(s, "C1")
    assert sides_of(s) == [[[], ["C2"]], [["C4"], []], [["C1"], []]]
    assert "C5" in s.to_dict()["discard"]


def test_r26_capiolin_switches_pushed_card_side():
    d = build([[[], ["C2", "V2"]], [[], []], [[], []]], ["C4", "X1", "X2"])
    s = State.from_dict(d)
    play(s, "C4")
    assert sides_of(s)[:2] == [[["C4"], ["V2"]], [["C2"], []]]
    # a capionça push is a push too; its capitico goes along
    d = build([[[], []], [["T2", "V3", "KT"], []], [[], []]], ["OP1", "X1", "X2"])
    s = State.from_dict(d)
    assert "OP1@1/T2" not in moves(s)  # T2 is a guardian (R27)
    play(s, "OP1@1/V3")                # capiolins do not switch
    assert sides_of(s)[1:] == [[["T2", "KT"], []], [["V3"], []]]
    d = build([[[], []], [["T2", "V3"], []], [[], []]], ["OP1", "X1", "X2"])
    s = State.from_dict(d)
    play(s, "OP1@1/T2")
    assert sides_of(s)[1:] == [[["V3"], []], [[], ["T2"]]]


def test_capiolin_placement_and_capiolin_herd():
    d = build([[["X1"], []], [[], ["V3"]], [[], []]], ["V4", "C1", "C2"])
    s = State.from_dict(d)
    a = next(a for a in s.legal_actions() if s.action_to_string(a) == "V4")
    assert decode(a)[1] == 1  # first segment with the mover's side empty
    s.apply(a)
    assert sides_of(s) == [[["X1"], []], [["V4"], []], [[], ["V3"]]]
    # no segment with an empty side: only discard
    d = build([[["X1"], []], [["C1"], []], [["T1"], []]], ["V4", "C2", "X2"])
    assert "discard V4" in moves(State.from_dict(d))


def test_notation():
    s = State.new_game(0, expansion=True)
    k = [c.name for c in CARDS].index
    assert s.action_to_string(encode(k("OP1"), 2, k("C3"))) == "OP1@2/C3"
    assert s.action_to_string(encode(k("OP2"), 1, None)) == "OP2@1"
    assert s.action_to_string(encode(k("KC"), 3, k("C4"))) == "KC/C4"
    assert s.action_to_string(encode(k("S1"), 3, k("KC"))) == "S1/KC"
    assert s.action_to_string(encode(k("KX"), 3, None)) == "discard KX"
    assert s.action_to_string(encode(k("V2"), 1, None)) == "V2"
    assert s.action_to_string(encode(k("C3"), 0, None)) == "C3"


# --- R28 / R29 / R30: end of round --------------------------------------------------------

def end_of_round(wins, tie, rnd=3, to_move=0):
    # Two cards available, empty pile: the next move ends the round.
    side1 = ["C5"] if tie else []
    d = build([[[], side1], [[], []], [[], []]], ["X5", "T1"], pile=[],
              wins=wins, rnd=rnd, last_taker=1 if rnd > 1 else None,
              to_move=to_move)
    s = State.from_dict(d)
    play(s, "X5")  # P0: 5 points; P1: 5 (tie) or 0
    return s


def test_winner_rule_exactly_one_with_two():
    s = end_of_round([1, 0], tie=False)
    assert s.is_terminal and s.current_player is None
    assert s.to_dict()["winner"] == 0 and s.to_dict()["round"] == 3
    assert s.returns() == [1.0, -1.0]
    assert s.legal_actions() == []


def test_winner_rule_first_win_goes_on():
    s = end_of_round([0, 1], tie=False, rnd=2)
    d = s.to_dict()
    assert not s.is_terminal and d["round"] == 3 and d["round_wins"] == [1, 1]
    assert d["last_taker"] == 0 and d["to_move"] == 0
    assert len(d["available"]) == 4 and sides_of(s) == EMPTY
    assert s.returns() == [0.0, 0.0]


def test_winner_rule_tie_to_two_two_goes_on_then_sudden_death():
    s = end_of_round([1, 1], tie=True)
    assert not s.is_terminal and s.to_dict()["round_wins"] == [2, 2]
    s = end_of_round([2, 2], tie=True, rnd=5)
    assert not s.is_terminal and s.to_dict()["round"] == 6
    s = end_of_round([2, 2], tie=False, rnd=5)
    assert s.is_terminal and s.to_dict()["winner"] == 0
    assert s.returns() == [1.0, -1.0]


def test_r30_draw_after_round_9():
    s = end_of_round([2, 2], tie=True, rnd=9)
    d = s.to_dict()
    assert s.is_terminal and d["winner"] is None and d["round"] == 9
    assert s.returns() == [0.0, 0.0]
    s = end_of_round([1, 0], tie=False, rnd=9, to_move=0)  # [2, 0]: P0 wins
    assert s.to_dict()["winner"] == 0


# --- smoke -----------------------------------------------------------------------------

def check_invariants(s, expansion):
    d = s.to_dict()
    assert State.from_dict(d).to_dict() == d
    names = [seg["river"] for seg in d["segments"]]
    names += [seg["capionca"] for seg in d["segments"] if seg["capionca"]]
    names += [n for seg in d["segments"] for side in seg["sides"] for n in side]
    names += d["available"] + d["pile"] + d["discard"]
    expected = [c.name for c in CARDS if expansion or not c.expansion]
    assert sorted(names) == sorted(expected)
    for seg in d["segments"]:
        herds = [CARDS[[c.name for c in CARDS].index(n)].herd
                 for side in seg["sides"] for n in side
                 if CARDS[[c.name for c in CARDS].index(n)].kind in ("herd", "capiolin")]
        assert len(herds) == len(set(herds))
    if not s.is_terminal:
        acts = s.legal_actions()
        assert acts and acts == sorted(set(acts))
        assert 2 <= len(d["available"]) <= 4


def test_random_games_smoke():
    for i in range(200):
        expansion = i % 2 == 1
        chooser_seed = 1000 + i
        import random
        chooser = random.Random(chooser_seed)
        s = State.new_game(i, expansion)
        check_invariants(s, expansion)
        while not s.is_terminal:
            s.apply(chooser.choice(s.legal_actions()))
            check_invariants(s, expansion)
        assert s.current_player is None
        r = s.returns()
        assert r in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
        d = s.to_dict()
        assert (r == [0.0, 0.0]) == (d["winner"] is None)
        assert 1 <= d["round"] <= 9
        # random_game is the same loop
        assert random_game(i, expansion, chooser_seed).to_dict() == d
