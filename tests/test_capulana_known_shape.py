"""Issue 28: ``known`` has one documented shape in a state and one in a view,
always present (docs/RULES.md part 4)."""

from __future__ import annotations

import random

import pytest

from tabuleiro import InvalidStateError, capulana


def _games(players: int, n: int) -> list[capulana.State]:
    out = []
    for seed in range(n):
        st = capulana.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            out.append(st.clone())
            st.push(rng.choice(st.legal_actions()))
        out.append(st)
    return out


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_view_shows_known_in_its_one_shape(players: int) -> None:
    over_count = 0
    for st in _games(players, 3):
        d = st.to_dict()
        assert isinstance(d["known"], dict)
        for p in range(players):
            v = st.view(p)
            assert isinstance(v["known"], dict) and v["known"] == d["known"]
            for q, hand in enumerate(v["hands"]):
                if q == p:
                    assert isinstance(hand, list)
                    continue
                assert set(hand) == {"count", "known"}, hand
                assert hand["known"] == sorted(c for c, h in v["known"].items() if h == q)
                # count is the hand alone (cards in a face-down offer are not in it)
                assert hand["count"] == len(d["hands"][q]) + d["woven"][q]
                over_count += len(hand["known"]) > hand["count"]
    # the case the docs warn about: known cards offered face down make known exceed count
    assert over_count > 0


def test_a_view_in_the_old_shape_is_refused_and_the_new_one_loads() -> None:
    """Before protocol 2 an empty hand ``known`` was left out; a view is what a
    seat sees now, exactly, so the old shape is refused (docs/RULES.md part 4)."""
    st = _games(3, 1)[40]
    v = st.view(0)
    assert st.game.from_view(v, 0).view(0) == v
    old = {**v, "hands": [h if isinstance(h, list) else {"count": h["count"]} for h in v["hands"]]}
    with pytest.raises(InvalidStateError):
        st.game.from_view(old, 0)
