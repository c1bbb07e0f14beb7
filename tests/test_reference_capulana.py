"""Tests of the pure-Python Capulana reference implementation (the oracle).

These check the oracle itself against docs/RULES.md; the differential tests
compare it with the C engine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference import capulana as ref  # noqa: E402

A = ref.string_to_action


def fabric_names(exclude=()):
    return [f"F{i:02d}" for i in range(1, 57) if f"F{i:02d}" not in exclude]


def make_state(
    *,
    players=2,
    round=1,
    start_player=0,
    phase="offer",
    to_move=0,
    slots=(),
    offers=(),
    open_offer=None,
    hands=None,
    capulanas=None,
    woven=None,
    weave_done=None,
    known=None,
    objectives=("OBJ1", "OBJ5", "OBJ9"),
):
    """A consistent Capulana state dict: every fabric card not placed
    elsewhere goes to the deck."""
    hands = hands or [[] for _ in range(players)]
    capulanas = capulanas or [[f"I{p + 1} n+"] for p in range(players)]
    used = set(slots)
    for o in list(offers) + ([open_offer] if open_offer else []):
        used.update(o["cards"])
    for h in hands:
        used.update(h)
    for row in capulanas:
        used.update(e.split()[0] for e in row)
    d = {
        "game": "capulana",
        "players": players,
        "round": round,
        "start_player": start_player,
        "phase": phase,
        "to_move": to_move,
        "seed": 12345,
        "objectives": list(objectives),
        "deck": fabric_names(used),
        "slots": list(slots),
        "offers": list(offers),
        "open_offer": open_offer,
        "hands": [sorted(h) for h in hands],
        "capulanas": capulanas,
        "woven": woven or [0] * players,
        "weave_done": weave_done or [False] * players,
        "known": known or {},
    }
    return ref.State.from_dict(d)


def strs(actions):
    return [ref.action_to_string(a) for a in actions]


# ---------------------------------------------------------------------------
# Tables and notation


def test_tables():
    assert len(ref.CARDS) == 61 and len(ref.OBJECTIVES) == 10
    assert ref.CARDS[0].name == "F01" and ref.CARDS[55].name == "F56"
    assert ref.CARDS[56].name == "I1" and ref.CARDS[56].strips == ("YD", "YD", "GD")
    assert ref.CARDS[12] == ref.Card(12, "F13", "fabric", "black", 10, ("RT", "RT", "YT", "YZ"))
    assert ref.OBJECTIVES[9] == ref.Objective(9, "OBJ10", 4, "perfect-match")


def test_action_strings_round_trip():
    assert ref.NUM_ACTIONS == 847
    assert ref.action_to_string(2) == "bid 2"
    assert ref.action_to_string(5 + 12) == "offer F13"
    assert ref.action_to_string(61) == "done"
    assert ref.action_to_string(62) == "stop"
    assert ref.action_to_string(63 + 14 * 12 + 7 + 2) == "F13 r>2"
    assert ref.action_to_string(846) == "F56 r<3"
    for a in range(ref.NUM_ACTIONS):
        assert ref.string_to_action(ref.action_to_string(a)) == a
    for bad in ["bid 5", "offer I1", "I1 n+", "F13 x>2", "F13 n>4", "F57 n+", "", "done now"]:
        with pytest.raises(ValueError):
            ref.string_to_action(bad)
    for bad in [-1, 847]:
        with pytest.raises(ValueError):
            ref.action_to_string(bad)


def test_rng_splitmix64():
    r = ref.Rng(0)
    assert r.draw() == 0xE220A8397B1DCDAF  # the published splitmix64 sequence from 0
    assert r.draw() == 0x6E789E6AA1B965F4
    with pytest.raises(ValueError):
        ref.Rng(2**64)
    with pytest.raises(ValueError):
        ref.State.new_game(4, -1)
    with pytest.raises(ValueError):
        ref.State.new_game(6, 1)


def test_setup_follows_engine_notes():
    seed = 987654321
    for n in range(2, 6):
        st = ref.State.new_game(n, seed)
        d = st.to_dict()
        rng = ref.Rng(seed)
        initials = list(range(56, 61))
        rng.shuffle(initials)
        black = list(range(40))
        rng.shuffle(black)
        deck = black[7 * n :] + list(range(40, 56))
        rng.shuffle(deck)
        objs = list(range(10))
        rng.shuffle(objs)
        name = lambda c: ref.CARDS[c].name  # noqa: E731
        assert d["seed"] == rng.state
        assert d["capulanas"] == [[f"{name(initials[p])} n+"] for p in range(n)]
        assert d["hands"] == [sorted(name(c) for c in black[7 * p : 7 * p + 7]) for p in range(n)]
        assert d["slots"] == [name(c) for c in deck[:n]]
        assert d["deck"] == [name(c) for c in deck[n:]]
        assert d["objectives"] == [f"OBJ{i + 1}" for i in sorted(objs[:3])]
        assert (d["phase"], d["round"], d["start_player"], d["to_move"]) == ("offer", 1, 0, 0)
        assert d["woven"] == [0] * n and d["weave_done"] == [False] * n and d["known"] == {}


# ---------------------------------------------------------------------------
# Scoring


def test_figure_vi_scores_19():
    strips = "RC YC YZ YD YD YD Y* *T GT GT GL".split()
    assert ref.score_strips(strips) == 19
    got = [(s.kind, s.symbol, s.start, s.length) for s in ref.score_sets(strips)]
    assert got == [
        ("colour", "Y", 1, 7),
        ("colour", "G", 7, 4),
        ("pattern", "D", 3, 4),
        ("pattern", "T", 6, 4),
    ]


def test_sets_need_an_exact_symbol_and_ignore_raw():
    assert ref.score_strips(["*T", "*T", "*T"]) == 3  # T set; no colour set
    assert ref.score_strips(["*T", "*T", "Y*"]) == 6  # T set and Y set
    assert ref.score_strips(["YD", "--", "YD", "YD"]) == 0
    assert ref.score_strips(["YD", "YD"]) == 0


def test_objectives():
    row = ["I1 n+", "F17 n+"]  # YD YD GD GD YD YD YZ
    assert ref.visible_strips(row) == (["YD", "YD", "GD", "GD", "YD", "YD", "YZ"], 4)
    assert ref.objective_met("long-pattern", row, 0)  # D x6
    assert not ref.objective_met("long-color", row, 0)
    # RL RL YL YL *L RL RZ: yellow 2..4 lies inside leaves 0..5
    assert ref.objective_met("perfect-match", ["I5 n+", "F53 n+"], 0)
    assert not ref.objective_met("perfect-match", row, 0)  # yellow sets are 2 long
    assert ref.objective_met("saver", row, 4) and not ref.objective_met("saver", row, 3)
    assert ref.objective_met("two-wilds", ["I1 n+", "F38 n+", "F45 n<1"], 0)
    assert not ref.objective_met("many-pieces", row, 9)


# ---------------------------------------------------------------------------
# Offers and auction


def test_offer_order_and_turns():
    st = ref.State.new_game(3, 5)
    order = []
    while st.phase == "offer":
        p = st.current_player
        if st.open_offer is None:
            order.append(p)
        st.apply(st.legal_actions()[-1])  # done as soon as possible
    assert order == [0, 1, 2, 2, 1, 0]


def test_figure_iv_exchange():
    # Slot 0: P0 offers $20 (F37), P1 offers 2 x $5 (F01, F02): P0 wins, takes
    # the announced card and the two $5 cards; P1 takes the $20 card.
    st = make_state(
        slots=["F41", "F42"],
        offers=[
            {"player": 0, "slot": 0, "cards": ["F37"]},
            {"player": 1, "slot": 0, "cards": ["F01", "F02"]},
            {"player": 1, "slot": 1, "cards": ["F03"]},
        ],
        open_offer={"player": 0, "slot": 1, "cards": ["F13"]},
        hands=[["F20", "F21"], ["F22"]],
        to_move=0,
    )
    assert strs(st.legal_actions()) == ["offer F20", "offer F21", "done"]
    st.apply("done")
    d = st.to_dict()
    assert d["phase"] == "weave" and d["to_move"] == 0
    assert d["slots"] == [] and d["offers"] == [] and d["open_offer"] is None
    assert d["hands"] == [
        ["F01", "F02", "F03", "F20", "F21", "F41", "F42"],
        ["F13", "F22", "F37"],
    ]
    assert d["known"] == {
        "F01": 0, "F02": 0, "F03": 0, "F13": 1, "F37": 1, "F41": 0, "F42": 0,
    }


def test_auction_tie_breaks():
    # start player 1 -> offer order 1, 0, 0, 1
    st = make_state(
        start_player=1,
        to_move=1,
        slots=["F41", "F42"],
        offers=[
            {"player": 1, "slot": 0, "cards": ["F01"]},
            {"player": 0, "slot": 0, "cards": ["F02"]},  # 5 = 5, 1 = 1 card: P1 is nearer
            {"player": 0, "slot": 1, "cards": ["F13"]},  # 10 vs 5+5: P1 has more cards
        ],
        open_offer={"player": 1, "slot": 1, "cards": ["F03", "F05"]},
        hands=[["F20"], ["F21"]],
    )
    st.apply("done")
    d = st.to_dict()
    assert d["hands"] == [["F01", "F03", "F05", "F20"], ["F02", "F13", "F21", "F41", "F42"]]
    assert d["to_move"] == 1


def test_empty_offers():
    # slot 0: both empty -> the nearer player (the start player 0) wins F41;
    # slot 1: P0 empty vs P1 F13 -> P1 wins F42 only, P0 takes F13.
    st = make_state(
        slots=["F41", "F42"],
        offers=[
            {"player": 0, "slot": 0, "cards": []},
            {"player": 1, "slot": 0, "cards": []},
            {"player": 1, "slot": 1, "cards": ["F13"]},
        ],
        open_offer={"player": 0, "slot": 1, "cards": []},
        hands=[[], ["F20"]],
    )
    assert strs(st.legal_actions()) == ["done"]  # empty hand
    st.apply("done")
    d = st.to_dict()
    assert d["hands"] == [["F13", "F41"], ["F20", "F42"]]
    assert d["known"] == {"F13": 0, "F41": 0, "F42": 1}


def test_r3_dead_end():
    # 3 players, order 0 1 2 2 1 0.  After P0->0, P1->1, P2->2, P2->1, P1 must
    # take slot 0: on slot 2 the last offer (P0, already on slot 0) would have
    # nowhere to go.
    offers = [
        {"player": 0, "slot": 0, "cards": ["F01"]},
        {"player": 1, "slot": 1, "cards": ["F02"]},
        {"player": 2, "slot": 2, "cards": ["F03"]},
        {"player": 2, "slot": 1, "cards": ["F04"]},
    ]
    st = make_state(
        players=3, slots=["F41", "F42", "F43"], offers=offers, to_move=1,
        hands=[["F05"], ["F06"], ["F07"]],
    )
    assert strs(st.legal_actions()) == ["bid 0"]
    with pytest.raises(ValueError):
        st.apply("bid 2")
    # Before P2's second offer both slot 0 and slot 1 were possible.
    st2 = make_state(
        players=3, slots=["F41", "F42", "F43"], offers=offers[:3], to_move=2,
        hands=[["F05"], ["F06"], ["F07", "F04"]],
    )
    assert strs(st2.legal_actions()) == ["bid 0", "bid 1"]


def test_r3_first_offers_never_stack_badly():
    # 2 players: P0 on slot 0; P1 may join slot 0 or take slot 1.
    st = make_state(slots=["F41", "F42"], offers=[{"player": 0, "slot": 0, "cards": ["F01"]}],
                    to_move=1, hands=[["F05"], ["F06"]])
    assert strs(st.legal_actions()) == ["bid 0", "bid 1"]


def test_r4_empty_offer():
    def open_state(hand):
        return make_state(slots=["F41", "F42"], to_move=0, hands=[hand, ["F30"]],
                          open_offer={"player": 0, "slot": 0, "cards": []})

    assert strs(open_state(["F01", "F02"]).legal_actions()) == ["offer F01", "offer F02"]
    assert strs(open_state(["F01"]).legal_actions()) == ["offer F01", "done"]
    assert strs(open_state([]).legal_actions()) == ["done"]
    # through play: held 2 cards at the start, offered one -> done is legal
    st = open_state(["F01", "F02"])
    with pytest.raises(ValueError):
        st.apply("done")
    st.apply("offer F01")
    assert strs(st.legal_actions()) == ["offer F02", "done"]


def test_three_card_limit():
    st = make_state(slots=["F41", "F42"], to_move=0, hands=[["F01", "F02", "F03", "F04"], ["F30"]])
    st.apply("bid 1")
    for c in ["F01", "F02", "F03"]:
        st.apply(f"offer {c}")
    assert strs(st.legal_actions()) == ["done"]
    with pytest.raises(ValueError):
        st.apply("offer F04")
    st.apply("done")
    d = st.to_dict()
    assert d["offers"] == [{"player": 0, "slot": 1, "cards": ["F01", "F02", "F03"]}]
    assert d["hands"][0] == ["F04"] and d["to_move"] == 1


# ---------------------------------------------------------------------------
# Weaving


def test_r8_limits():
    assert ref.visible_strips(["I1 n+"]) == (["YD", "YD", "GD"], 3)
    assert ref.visible_strips(["I1 n+", "F13 n>2"]) == (["YD", "RT", "RT", "YT", "YZ"], 4)
    assert ref.visible_strips(["I1 n+", "F13 r<3"]) == (["YD", "YD", "GD", "RT"], 1)
    # F13 n<1 -> YD YD GD | RT YT YZ (v = 3); F17 r>2 covers YT YZ
    assert ref.visible_strips(["I1 n+", "F13 n<1", "F17 r>2"]) == (
        "YD YD GD RT YZ YD YD GD".split(), 4
    )
    for bad in (
        ["I1 n+", "F13 n>3"],  # over: k <= v - 1 = 2
        ["I1 n+", "F13 n<3", "F14 n>1"],  # v = 1: no over at all
        ["I1 n+", "F13 n<3", "F14 n<2"],  # under: k <= v = 1
        ["F13 n+"],  # no initial card
        ["I1 r+"],
        ["I1 n+", "I2 n+"],
        ["I1 n+", "F13 n+", "F13 n+"],
        [],
    ):
        with pytest.raises(ValueError):
            ref.visible_strips(bad)
    assert ref.visible_strips(["I1 n+", "F13 n<3", "F14 n<1"])[1] == 3
    # legal actions honour the same limits: after an I-card (v = 3)
    st = make_state(phase="weave", hands=[["F13"], []])
    assert strs(st.legal_actions()) == [
        "stop", "F13 n+", "F13 n>1", "F13 n>2", "F13 n<1", "F13 n<2", "F13 n<3",
        "F13 r+", "F13 r>1", "F13 r>2", "F13 r<1", "F13 r<2", "F13 r<3",
    ]


def test_r9_without_second_card():
    # F01 = "-- YD YT GT": alone it may only hide its raw strip under the row.
    st = make_state(phase="weave", hands=[["F01"], []])
    assert strs(st.legal_actions()) == ["stop", "F01 n<1", "F01 n<2", "F01 n<3"]


def test_r9_with_second_card():
    # With F13 (no raw strip) in hand, F01 reversed ("GT YT YD --") may be
    # placed touching or under as long as F13 can then cover the raw strip.
    st = make_state(phase="weave", hands=[["F01", "F13"], []])
    legal = strs(st.legal_actions())
    assert "F01 r+" in legal and "F01 r<1" in legal and "F01 r<3" not in legal
    assert "F01 n+" not in legal  # its raw strip would be 4 from the end
    st.apply("F01 r+")
    assert strs(st.legal_actions()) == ["F13 n>1", "F13 n>2", "F13 n>3", "F13 r>1", "F13 r>2", "F13 r>3"]
    with pytest.raises(ValueError):
        st.apply("stop")
    st.apply("F13 n>1")
    d = st.to_dict()
    assert d["to_move"] == 1 and d["weave_done"] == [True, False] and d["woven"] == [2, 0]
    assert d["capulanas"][0] == ["I1 n+", "F01 r+", "F13 n>1"]
    # F01 r<3 leaves "--" as the last card's only visible strip: no over
    # placement is possible on v = 1, so even F13 cannot fix it.


def test_weaving_step_ends_round():
    st = make_state(
        phase="weave", start_player=1, to_move=1, round=2, slots=[],
        hands=[["F13"], ["F17", "F21"]], known={"F13": 0, "F17": 1, "F21": 1},
    )
    st.apply("F17 n+")
    st.apply("stop")
    assert st.to_dict()["woven"] == [0, 1] and st.current_player == 0
    st.apply("F13 n+")
    assert st.current_player == 0
    st.apply("stop")
    d = st.to_dict()
    assert d["round"] == 3 and d["start_player"] == 0 and d["phase"] == "offer"
    assert d["to_move"] == 0 and d["woven"] == [0, 0] and d["weave_done"] == [False, False]
    assert d["known"] == {"F21": 1}
    assert len(d["slots"]) == 2


def test_game_over_after_round_4():
    st = make_state(phase="weave", round=4, hands=[["F13"], []])
    st.apply("stop")
    st.apply("stop")
    assert st.is_terminal and st.current_player is None and st.legal_actions() == []
    d = st.to_dict()
    assert d["phase"] == "over" and d["to_move"] is None
    assert d["weave_done"] == [True, True] and d["woven"] == [0, 0] and d["slots"] == []
    assert sum(st.returns()) == pytest.approx(1.0)


def test_perft():
    st = ref.State.new_game(3, 11)
    assert ref.perft(st, 0) == 1
    assert ref.perft(st, 1) == len(st.legal_actions()) == 3
    assert ref.perft(st, 2) == 3 * 7  # each bid, then 7 offers (no done, R4)


# ---------------------------------------------------------------------------
# Smoke test


def check_conservation(d):
    places = list(d["deck"]) + list(d["slots"])
    for o in d["offers"] + ([d["open_offer"]] if d["open_offer"] else []):
        places += o["cards"]
    for h in d["hands"]:
        places += h
    for row in d["capulanas"]:
        places += [e.split()[0] for e in row[1:]]
    assert sorted(places) == fabric_names()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games(players):
    import random

    for g in range(100):
        chooser = random.Random(1000 * players + g)
        st = ref.State.new_game(players, 7919 * g + players)
        while True:
            d = st.to_dict()
            assert json.loads(json.dumps(d)) == d
            assert ref.State.from_dict(d).to_dict() == d
            if g < 5:
                check_conservation(d)
                assert st.clone().to_dict() == d
            if st.is_terminal:
                break
            legal = st.legal_actions()
            assert legal and legal == sorted(set(legal))
            assert d["phase"] != "offer" or d["weave_done"] == [False] * players
            assert d["phase"] != "offer" or d["woven"] == [0] * players
            st.apply(chooser.choice(legal))
        r = st.returns()
        assert sum(r) == pytest.approx(1.0)
        assert st.round == 4 and all(st.to_dict()["weave_done"])
        best = max(st.scores())
        assert all((r[p] > 0) == (st.scores()[p] == best) for p in range(players))


def test_random_game_helper_is_deterministic():
    a = ref.random_game(4, 3, 9).to_dict()
    b = ref.random_game(4, 3, 9).to_dict()
    assert a == b and a["phase"] == "over"
