"""One test (at least) per ruling R1-R11 of RULES.md part 1, plus the
rulebook's worked examples: build the position with from_dict, play one move,
check the outcome."""

from __future__ import annotations

import pytest

from tabuleiro import IllegalMoveError, InvalidStateError, capulana
from tests.capulana_positions import load, moves, position


# --- worked examples -----------------------------------------------------------------


def test_figure_vi_scores_19() -> None:
    b = capulana.score_strips("RC YC YZ YD YD YD Y* *T GT GT GL")
    assert b.total == 19
    assert [(s.kind, s.symbol, s.start, s.length) for s in b.sets] == [
        ("colour", "Y", 1, 7), ("colour", "G", 7, 4), ("pattern", "D", 3, 4), ("pattern", "T", 6, 4)]


def test_woven_row_scores_as_score_strips() -> None:
    s = load(phase="weave", hands=[["F17", "F46"], []], capulanas=[["I1 n+"], ["I2 n+"]])
    s.apply("F17 n+")
    s.apply("F46 n+")
    strips = s.strips(0)
    assert strips == "YD YD GD GD YD YD YZ YC YL YL YC".split()
    assert s.capulana_scores()[0] == capulana.score_strips(strips).total == 7 + 6   # yellow 4..10, diamonds 0..5


def test_figure_iv_exchange_twenty_beats_two_fives() -> None:
    # Slot 0: P0 offers $20 (F37), P1 offers 2 x $5 (F01, F02). P0 wins the
    # announced card and the two $5 cards; P1, the loser, receives the $20 card.
    s = load(slots=["F41", "F42"], offers=[
        {"player": 0, "slot": 0, "cards": ["F37"]},
        {"player": 1, "slot": 0, "cards": ["F01", "F02"]},
        {"player": 1, "slot": 1, "cards": ["F03"]}],
        open_offer={"player": 0, "slot": 1, "cards": ["F13"]}, hands=[["F20", "F21"], ["F22"]])
    s.apply("done")
    d = s.to_dict()
    assert d["hands"] == [["F01", "F02", "F03", "F20", "F21", "F41", "F42"], ["F13", "F22", "F37"]]
    assert d["phase"] == "weave" and d["to_move"] == 0 and d["slots"] == [] and d["offers"] == []


# --- setup, offers, auction ----------------------------------------------------------------


def test_r1_each_capulana_starts_with_an_initial_card() -> None:
    for n in range(2, 6):
        d = capulana.new_game(players=n, seed=n).to_dict()
        firsts = [row[0] for row in d["capulanas"]]
        assert all(len(row) == 1 and f.startswith("I") and f.endswith(" n+") for row, f in zip(d["capulanas"], firsts))
        assert len(set(firsts)) == n
    s = load(phase="weave", hands=[["F13"], []])        # I1 = YD YD GD, the first piece, n+
    s.apply("F13 n>2")                                  # may cover the initial card's strips (R8)
    assert s.to_dict()["capulanas"][0] == ["I1 n+", "F13 n>2"]
    assert s.strips(0) == ["YD", "RT", "RT", "YT", "YZ"]
    with pytest.raises(InvalidStateError, match="initial"):
        load(capulanas=[["I1 r+"], ["I2 n+"]])
    with pytest.raises(InvalidStateError, match="initial"):
        load(capulanas=[["F30 n+"], ["I2 n+"]])


def test_r2_start_player_passes_clockwise_after_the_weaving_step() -> None:
    s = load(players=3, phase="weave", start_player=2, to_move=1, round=2,
             weave_done=[True, False, True], hands=[[], [], []])
    s.apply("stop")
    d = s.to_dict()
    assert (d["round"], d["start_player"], d["to_move"], d["phase"]) == (3, 0, 0, "offer")
    assert len(d["slots"]) == 3


def test_offer_order_clockwise_then_back() -> None:
    s = load(players=3, start_player=1, to_move=1, hands=[["F01"], ["F02"], ["F03"]])
    order = []
    while s.to_dict()["phase"] == "offer":
        if s.to_dict()["open_offer"] is None:
            order.append(s.current_player)
        s.apply(s.legal_actions()[-1])
    assert order == [1, 2, 0, 0, 2, 1]


def test_r3_dead_end_slot_is_illegal() -> None:
    # order 0 1 2 2 1 0: after P0->0, P1->1, P2->2, P2->1, P1 must take slot 0:
    # on slot 2 the last offer (P0, already on slot 0) would have nowhere to go.
    offers = [{"player": 0, "slot": 0, "cards": ["F01"]}, {"player": 1, "slot": 1, "cards": ["F02"]},
              {"player": 2, "slot": 2, "cards": ["F03"]}, {"player": 2, "slot": 1, "cards": ["F04"]}]
    s = load(players=3, offers=offers, to_move=1, hands=[["F05"], ["F06"], ["F07"]])
    assert moves(s) == ["bid 0"]
    before = s.to_dict()
    with pytest.raises(IllegalMoveError):
        s.apply("bid 2")
    assert s.to_dict() == before
    s.apply("bid 0")
    assert s.to_dict()["open_offer"] == {"player": 1, "slot": 0, "cards": []}
    # from_dict rejects the dead end once it is made
    bad = position(players=3, offers=offers + [{"player": 1, "slot": 2, "cards": ["F06"]}], to_move=0,
                   hands=[["F05"], [], ["F07"]])
    with pytest.raises(InvalidStateError, match="R3"):
        capulana.State.from_dict(bad)


def test_r3_second_offer_on_another_slot() -> None:
    s = load(offers=[{"player": 0, "slot": 0, "cards": ["F01"]}, {"player": 1, "slot": 1, "cards": ["F02"]}],
             to_move=1, hands=[["F05"], ["F06"]])
    assert moves(s) == ["bid 0"]


def test_r4_empty_offer_only_with_at_most_one_card() -> None:
    def opened(hand: list[str]) -> capulana.State:
        return load(to_move=0, hands=[hand, ["F30"]], open_offer={"player": 0, "slot": 0, "cards": []})

    assert moves(opened(["F01", "F02"])) == ["offer F01", "offer F02"]
    assert moves(opened(["F01"])) == ["offer F01", "done"]
    assert moves(opened([])) == ["done"]
    s = opened(["F01", "F02"])
    with pytest.raises(IllegalMoveError):
        s.apply("done")
    s.apply("offer F01")
    assert moves(s) == ["offer F02", "done"]
    s.apply("done")
    assert s.to_dict()["offers"] == [{"player": 0, "slot": 0, "cards": ["F01"]}]
    # an empty closed offer from a player who held 2 cards is rejected
    with pytest.raises(InvalidStateError, match="R4"):
        load(offers=[{"player": 0, "slot": 0, "cards": []}], to_move=1, hands=[["F01", "F02"], ["F03"]])


def test_three_card_limit() -> None:
    s = load(to_move=0, hands=[["F03", "F04"], ["F30"]],
             open_offer={"player": 0, "slot": 1, "cards": ["F01", "F02"]})
    s.apply("offer F03")
    assert moves(s) == ["done"]
    with pytest.raises(IllegalMoveError):
        s.apply("offer F04")
    s.apply("done")
    d = s.to_dict()
    assert d["offers"] == [{"player": 0, "slot": 1, "cards": ["F01", "F02", "F03"]}]
    assert d["hands"][0] == ["F04"] and d["to_move"] == 1
    with pytest.raises(InvalidStateError, match="more than 3"):
        load(offers=[{"player": 0, "slot": 1, "cards": ["F01", "F02", "F03", "F04"]}], to_move=1)


def test_r5_ties_value_then_cards_then_nearer_player() -> None:
    # start player 1: offer order 1, 0, 0, 1
    s = load(start_player=1, to_move=1, offers=[
        {"player": 1, "slot": 0, "cards": ["F01"]},
        {"player": 0, "slot": 0, "cards": ["F02"]},   # 5 = 5, 1 card each: P1 is nearer the start
        {"player": 0, "slot": 1, "cards": ["F13"]}],  # 10 = 5 + 5: P1 offered more cards
        open_offer={"player": 1, "slot": 1, "cards": ["F03", "F05"]}, hands=[["F20"], ["F21"]])
    s.apply("done")
    assert s.to_dict()["hands"] == [["F01", "F03", "F05", "F20"], ["F02", "F13", "F21", "F41", "F42"]]


def test_r5_empty_offers() -> None:
    # slot 0 both empty: the nearer player (start player 0) wins F41;
    # slot 1: P0 empty loses to P1's F13 and takes it; P1 gets F42 only.
    s = load(offers=[{"player": 0, "slot": 0, "cards": []}, {"player": 1, "slot": 0, "cards": []},
                     {"player": 1, "slot": 1, "cards": ["F13"]}],
             open_offer={"player": 0, "slot": 1, "cards": []}, hands=[[], []])
    s.apply("done")
    d = s.to_dict()
    assert d["hands"] == [["F13", "F41"], ["F42"]]
    assert d["known"] == {"F13": 0, "F41": 0, "F42": 1}


def test_r6_known_holders_after_the_auction_and_until_woven() -> None:
    s = load(slots=["F41", "F42"], offers=[
        {"player": 0, "slot": 0, "cards": ["F37"]}, {"player": 1, "slot": 0, "cards": ["F01", "F02"]},
        {"player": 1, "slot": 1, "cards": ["F03"]}],
        open_offer={"player": 0, "slot": 1, "cards": ["F13"]}, hands=[["F20", "F21"], ["F22"]])
    s.apply("done")
    assert s.to_dict()["known"] == {"F01": 0, "F02": 0, "F03": 0, "F13": 1, "F37": 1, "F41": 0, "F42": 0}
    s.apply("F41 n+")     # P0 weaves a known card: still known until the step ends
    s.apply("stop")
    assert s.to_dict()["known"]["F41"] == 0
    s.apply("stop")       # P1 stops: the step ends, F41 is woven and no longer "known"
    d = s.to_dict()
    assert "F41" not in d["known"] and d["known"]["F13"] == 1


def test_r6_known_card_offered_stays_known_under_its_offerer() -> None:
    s = load(to_move=0, hands=[["F01", "F02"], ["F03"]], known={"F01": 0})
    s.apply("bid 0")
    s.apply("offer F01")
    s.apply("done")
    d = s.to_dict()
    assert d["known"] == {"F01": 0}
    v = s.view(1)
    assert v["offers"] == [{"player": 0, "slot": 0, "cards": {"count": 1}}]
    assert v["hands"][0] == {"count": 1, "known": ["F01"]}   # known under P0, hand or offer


def test_r7_weaving_in_seat_order_hidden_until_the_step_ends() -> None:
    s = load(players=3, phase="weave", start_player=1, to_move=1, round=2,
             hands=[["F13"], ["F17", "F21"], ["F30"]], known={"F17": 1})
    s.apply("F17 n+")
    s.apply("stop")
    assert s.current_player == 2
    v = s.view(0)
    assert v["capulanas"][1] == ["I2 n+"] and v["woven"][1] == 0
    assert v["hands"][1] == {"count": 2, "known": ["F17"]}
    assert s.view(1)["capulanas"][1] == ["I2 n+", "F17 n+"]
    s.apply("stop")
    s.apply("stop")
    v = s.view(0)
    assert v["capulanas"][1] == ["I2 n+", "F17 n+"] and v["hands"][1] == {"count": 1, "known": []}


def test_r8_over_and_under_limits() -> None:
    s = load(phase="weave", hands=[["F13"], []])      # after an initial card v = 3
    assert moves(s) == ["stop", "F13 n+", "F13 n>1", "F13 n>2", "F13 n<1", "F13 n<2", "F13 n<3",
                        "F13 r+", "F13 r>1", "F13 r>2", "F13 r<1", "F13 r<2", "F13 r<3"]
    with pytest.raises(IllegalMoveError):
        s.apply("F13 n>3")                           # over k needs k <= v - 1
    s = load(phase="weave", hands=[["F14"], []], capulanas=[["I1 n+", "F13 n<3"], ["I2 n+"]])  # v = 1
    # F14 = BZ GZ GD --: n<1 would leave its raw strip showing (R9), r<1 hides it
    assert [m for m in moves(s) if ">" in m or "<" in m] == ["F14 r<1"]
    s.apply("F14 r<1")
    assert s.strips(0) == ["YD", "YD", "GD", "YZ", "GD", "GZ", "BZ"]
    assert s.to_dict()["capulanas"][0] == ["I1 n+", "F13 n<3", "F14 r<1"]
    with pytest.raises(InvalidStateError, match="R8"):
        load(phase="weave", capulanas=[["I1 n+", "F13 n<3", "F14 n>1"], ["I2 n+"]])


def test_r9_raw_strip_without_a_second_card() -> None:
    s = load(phase="weave", hands=[["F01"], []])     # F01 = -- YD YT GT
    assert moves(s) == ["stop", "F01 n<1", "F01 n<2", "F01 n<3"]
    s.apply("F01 n<1")
    assert s.strips(0) == ["YD", "YD", "GD", "YD", "YT", "GT"]


def test_r9_raw_strip_with_a_second_card() -> None:
    s = load(phase="weave", hands=[["F01", "F13"], []])
    legal = moves(s)
    assert "F01 r+" in legal and "F01 r<1" in legal
    assert "F01 n+" not in legal and "F01 r<3" not in legal
    s.apply("F01 r+")                                # GT YT YD --: F13 must cover the raw strip
    assert moves(s) == ["F13 n>1", "F13 n>2", "F13 n>3", "F13 r>1", "F13 r>2", "F13 r>3"]
    with pytest.raises(IllegalMoveError):
        s.apply("stop")
    s.apply("F13 n>1")
    d = s.to_dict()
    assert d["to_move"] == 1 and d["weave_done"] == [True, False] and d["woven"] == [2, 0]
    assert "--" not in s.strips(0)
    with pytest.raises(InvalidStateError, match="raw"):
        load(phase="weave", to_move=1, weave_done=[True, False], capulanas=[["I1 n+", "F01 r+"], ["I2 n+"]])


def test_turn_ends_after_two_cards() -> None:
    s = load(phase="weave", hands=[["F13", "F17", "F21"], []])
    s.apply("F13 n+")
    s.apply("F17 n+")
    assert s.current_player == 1 and s.to_dict()["hands"][0] == ["F21"]


def test_r10_wilds_join_several_sets_and_sets_need_an_exact_strip() -> None:
    assert capulana.score_strips("*T *T *T").total == 3
    assert capulana.score_strips("*T *T Y*").total == 6
    assert capulana.score_strips("YD -- YD YD").total == 0
    b = capulana.score_strips("YT G* GT *T YT")
    assert [(s.kind, s.symbol, s.start, s.length) for s in b.sets] == [
        ("colour", "G", 1, 3), ("pattern", "T", 0, 5)]
    assert b.total == 8


def test_r10_engine_scores_the_woven_row() -> None:
    s = load(phase="weave", hands=[["F38"], []], capulanas=[["I2 n+"], ["I1 n+"]])   # GT GT BT
    s.apply("F38 n<1")                                # hides RT: GT GT BT *T GZ GZ
    assert s.strips(0) == ["GT", "GT", "BT", "*T", "GZ", "GZ"]
    assert s.capulana_scores()[0] == 4 + 3            # triangles 0..3, green 3..5 (the wild in both)


def test_r11_objectives_and_tied_winners_share() -> None:
    # round 4, last weaving turn: P1 stops, the game ends; equal scores tie
    s = load(phase="weave", round=4, to_move=1, weave_done=[True, False], objectives=["OBJ8"],
             hands=[["F01", "F02", "F03", "F04"], ["F05", "F06", "F07", "F08"]])
    s.apply("stop")
    assert s.is_terminal and s.current_player is None
    assert s.scores() == [3 + 3, 3 + 3]               # initial rows score 3, OBJ8 saver 3 each
    assert s.returns() == [0.5, 0.5]
    s = load(phase="weave", round=4, to_move=1, weave_done=[True, False], objectives=["OBJ8"],
             hands=[["F01", "F02", "F03", "F04"], ["F05", "F06", "F07"]])
    s.apply("stop")
    assert s.scores() == [6, 3] and s.returns() == [1.0, 0.0]


def test_r11_objective_keys() -> None:
    def final(objective: str, row: list[str], hand: list[str]) -> int:
        s = load(phase="weave", round=4, to_move=1, weave_done=[True, False], objectives=[objective],
                 capulanas=[row, ["I2 n+"]], hands=[hand, []])
        return s.scores()[0] - s.capulana_scores()[0]

    assert final("OBJ2", ["I1 n+", "F17 n+"], []) == 3          # YD YD GD GD YD YD YZ: D x6
    assert final("OBJ1", ["I1 n+", "F17 n+"], []) == 0
    assert final("OBJ10", ["I5 n+", "F53 n+"], []) == 4         # yellow 2..4 inside leaves 0..5
    assert final("OBJ10", ["I1 n+", "F17 n+"], []) == 0
    assert final("OBJ7", ["I1 n+", "F38 n+", "F45 n<1"], []) == 2
    assert final("OBJ9", ["I1 n+", "F17 n+"], []) == 0
    assert final("OBJ8", ["I1 n+"], ["F01", "F02", "F03", "F04"]) == 3
