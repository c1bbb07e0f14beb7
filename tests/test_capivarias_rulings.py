"""One test (at least) per ruling R20-R30: build the position with from_dict,
play one move, check the outcome."""

from __future__ import annotations

import pytest

from tabuleiro import IllegalMoveError, capivarias
from tests.capivarias_positions import load, position, sides_of

NAMES = {c.name for c in capivarias.CARDS}


def test_r20_refill_reveals_pile_top_and_view_shows_only_river_sides() -> None:
    s = load(available=["C2", "X2"])
    pile = s.to_dict()["pile"]
    s.apply("C2")
    d = s.to_dict()
    assert d["available"] == ["X2"] + pile[:3]
    assert d["pile"] == pile[3:]
    v = s.view(1)
    assert v["pile"] == {"count": len(pile) - 3, "top_modifier": capivarias.CARDS[[c.name for c in capivarias.CARDS].index(pile[3])].modifier}
    assert [seg["river"] for seg in v["segments"]] == [{"modifier": 0}, {"modifier": 0}, {"modifier": 0}]
    assert "seed" not in v
    text = repr(v)
    for name in ["C3", "X3", "T4", *pile[3:]]:
        assert f"'{name}'" not in text


def test_r20_new_round_river_and_pile_hidden_but_discard_public() -> None:
    s = capivarias.new_game(seed=11)
    v = s.view(0)
    hidden = [seg["river"] for seg in s.to_dict()["segments"]] + s.to_dict()["pile"]
    assert not any(f"'{n}'" in repr(v) for n in hidden)
    assert v["available"] == s.to_dict()["available"]


def test_r21_push_moves_the_chosen_capybara_and_marks_the_segment() -> None:
    s = load(sides=[[["C4"], ["X5"]], [[], []], [[], []]], available=["OP1", "C2"])
    moves = {str(m) for m in s.legal_moves()}
    assert {"OP1@0/C4", "OP1@0/X5", "OP1@1", "OP1@2"} <= moves
    assert "OP1@0" not in moves  # a target exists: one must be chosen
    s.apply("OP1@0/X5")
    d = s.to_dict()
    assert sides_of(s)[:2] == [[["C4"], []], [[], ["X5"]]]
    assert d["segments"][0]["capionca"] == "OP1"


def test_r21_marked_segment_takes_no_second_capionca_but_a_river_capionca_marks_nothing() -> None:
    s = load(river=["OP2", "X3", "T4"], capionca=[None, "OS1", None], available=["OP1", "C2"])
    moves = {str(m) for m in s.legal_moves()}
    assert "OP1@0" in moves and "OP1@2" in moves
    assert not any(m.startswith("OP1@1") for m in moves)


def test_r21_switch_one_and_switch_all() -> None:
    s = load(sides=[[["C4", "X1"], ["T5"]], [[], []], [[], []]], available=["OS1", "OA1"])
    t = s.clone()
    s.apply("OS1@0/C4")
    assert sides_of(s)[0] == [["X1"], ["C4", "T5"]]
    t.apply("OA1@0")
    assert sides_of(t)[0] == [["T5"], ["C4", "X1"]]


def test_r22_capitico_pulls_its_guardian_to_the_movers_side() -> None:
    s = load(expansion=True, sides=[[[], []], [[], ["C4"]], [["X1"], []]], available=["KC", "C2"])
    assert {str(m) for m in s.legal_moves()} == {"KC/C4", "C2"}
    s.apply("KC/C4")
    assert sides_of(s)[1] == [["C4", "KC"], []]


def test_r23_capissor_brings_capitico_and_guardian_to_segment_0_which_pushes() -> None:
    s = load(expansion=True, sides=[[[], ["C2"]], [[], []], [["C4", "KC"], []]], available=["S1", "X2"])
    s.apply("S1/KC")
    assert sides_of(s) == [[["C4", "KC"], []], [[], ["C2"]], [[], []]]
    assert "S1" in s.to_dict()["discard"]


def test_r24_card_without_placement_is_discarded() -> None:
    s = load(expansion=True, available=["S1", "KX", "C2"])
    moves = [str(m) for m in s.legal_moves()]
    assert "discard S1" in moves and "discard KX" in moves
    s.apply("discard KX")
    assert "KX" in s.to_dict()["discard"]
    t = load(capionca=["OP1", "OS1", "OA1"], available=["OP2", "C2"])
    assert [str(m) for m in t.legal_moves() if m.card.name == "OP2"] == ["discard OP2"]
    with pytest.raises(IllegalMoveError):
        load(available=["OP2", "C2"]).apply("discard OP2")


def test_r25_one_beats_five() -> None:
    s = load(sides=[[[], ["C5"]], [[], []], [[], []]], available=["C1", "X2"])
    s.apply("C1")
    assert sides_of(s)[:2] == [[["C1"], []], [[], ["C5"]]]


def test_r25_entering_card_that_loses_is_pushed_on_and_chains_off_the_end() -> None:
    s = load(river=["T1", "T2", "T3"], sides=[[[], ["X2"]], [[], ["X1"]], [["X5"], []]], available=["X4", "C2"])
    s.apply("X4")
    assert sides_of(s) == [[["X4"], []], [[], ["X2"]], [[], ["X1"]]]
    assert "X5" in s.to_dict()["discard"]


def test_r25_guardian_loser_stays_and_winner_is_pushed_with_the_capitico() -> None:
    s = load(expansion=True, sides=[[[], ["C2", "KC"]], [[], []], [[], []]], available=["C4", "X2"])
    s.apply("C4")
    assert sides_of(s)[:2] == [[[], ["C2"]], [["C4", "KC"], []]]


def test_r26_capybara_pushed_from_beside_a_capiolin_switches_side() -> None:
    s = load(expansion=True, sides=[[[], ["C2", "V2"]], [[], []], [[], []]], available=["C4", "X2"])
    s.apply("C4")
    assert sides_of(s)[:2] == [[["C4"], ["V2"]], [["C2"], []]]


def test_r26_capiolin_enters_first_segment_free_on_the_movers_side() -> None:
    s = load(expansion=True, sides=[[["C1"], []], [["X1"], []], [[], []]], available=["V3", "X2"])
    assert [str(m) for m in s.legal_moves() if m.card.name == "V3"] == ["V3"]
    assert capivarias.Move.parse("V3", state=s).segment == 2
    s.apply("V3")
    assert sides_of(s)[2] == [["V3"], []]


def test_r27_capionca_push_never_targets_a_guardian() -> None:
    s = load(expansion=True, sides=[[["X4"], ["C2", "KC"]], [[], ["T1", "KT"]], [[], []]], available=["OP1", "X2"])
    moves = {str(m) for m in s.legal_moves() if m.card.name == "OP1"}
    assert moves == {"OP1@0/X4", "OP1@1", "OP1@2"}
    with pytest.raises(IllegalMoveError):
        s.apply("OP1@0/C2")
    s.apply("OP1@1")
    assert sides_of(s)[1] == [[], ["T1", "KT"]]


def test_r28_round_score_is_number_plus_capitico_plus_river_modifier() -> None:
    s = load(expansion=True, river=["C1", "X2", "T5"], sides=[[["C4"], []], [[], []], [[], ["X4", "KX"]]],
             available=["T2", "C2"])
    assert s.scores() == [4 + 2, 4 + 1 + 1]
    s.apply("T2")
    assert s.scores() == [4 + 2 + 2 + 2, 6]


def test_r29_second_round_win_wins_the_game() -> None:
    s = load(round=2, round_wins=[1, 0], last_taker=1, sides=[[["C5"], []], [[], []], [[], []]],
             available=["X4", "T1"], pile=[], rest_to="discard")
    s.apply("X4")
    d = s.to_dict()
    assert (d["to_move"], d["winner"], d["round_wins"]) == (None, 0, [2, 0])
    assert s.is_terminal and s.returns() == [1.0, -1.0]


def test_r29_tie_counts_for_both_and_sudden_death_goes_on_after_a_tie() -> None:
    s = load(round=5, round_wins=[2, 2], last_taker=1, available=["X4", "T1"], pile=[], rest_to="discard",
             sides=[[[], ["X5"]], [[], []], [[], []]])
    s.apply("T1")  # 1 vs 5 points... T1 enters on player 0's side
    # player 0: T1 = 1, player 1: X5 = 5 -> player 1 wins the sudden-death round
    assert s.to_dict()["winner"] == 1 and s.returns() == [-1.0, 1.0]
    t = load(round=5, round_wins=[2, 2], last_taker=1, available=["X4", "T1"], pile=[], rest_to="discard",
             river=["C3", "X3", "T5"], sides=[[[], ["T4"]], [[], []], [[], []]])
    t.apply("X4")  # 4 - 4: tied
    d = t.to_dict()
    assert (d["round"], d["round_wins"], d["winner"], d["to_move"], d["last_taker"]) == (6, [3, 3], None, 0, 0)
    assert len(d["available"]) == 4 and not t.is_terminal


def test_r30_undecided_after_round_nine_is_a_draw() -> None:
    s = load(round=9, round_wins=[4, 4], last_taker=0, available=["X4", "T1"], pile=[], rest_to="discard",
             river=["C3", "X3", "T5"], sides=[[[], ["T4"]], [[], []], [[], []]])
    s.apply("X4")
    d = s.to_dict()
    assert (d["round"], d["to_move"], d["winner"]) == (9, None, None)
    assert s.is_terminal and s.returns() == [0.0, 0.0]
