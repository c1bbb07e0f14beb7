"""weaving_options against brute force: on 2,000 random weaving positions
(turn starts and mid-turns, 2..5 players), the options must be exactly the
complete weaving steps reachable through the atomic actions, deduplicated by
the resulting visible strips, each option being the first such action
sequence in ascending order, with the score the resulting row has (checked
against the reference's R10 scorer) and the final score the state then
shows."""

from __future__ import annotations

import random

import pytest

from tabuleiro import capulana
from tests.reference import capulana as ref

POSITIONS = 2000
CHUNKS = 8


def weaving_positions(seed: int, count: int) -> list[capulana.State]:
    rng = random.Random(seed)
    out: list[capulana.State] = []
    while len(out) < count:
        s = capulana.new_game(players=rng.randint(2, 5), seed=rng.randrange(2**64))
        while not s.is_terminal and len(out) < count:
            if s.phase == "weave" and rng.random() < 0.3:
                out.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
    return out


def brute_force(s: capulana.State) -> dict[tuple[str, ...], tuple[tuple[int, ...], int]]:
    """strips -> (first action sequence in ascending order, final score), by DFS over atomic actions."""
    p = s.current_player
    found: dict[tuple[str, ...], tuple[tuple[int, ...], int]] = {}

    def turn_over(t: capulana.State) -> bool:
        return t.current_player != p or t.phase != "weave" or t.to_dict()["weave_done"][p]

    def dfs(t: capulana.State, seq: tuple[int, ...]) -> None:
        for a in t.legal_actions():
            c = t.clone()
            c.apply(a)
            if turn_over(c) or a == 62:
                key = tuple(c.strips(p))
                if key not in found:
                    found[key] = (seq + (a,), c.scores()[p])
            else:
                dfs(c, seq + (a,))

    dfs(s, ())
    return found


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_weaving_options_match_brute_force(chunk: int) -> None:
    per = POSITIONS // CHUNKS
    rng = random.Random(chunk)
    total = 0
    for s in weaving_positions(31 * chunk + 5, per):
        p = s.current_player
        opts = s.weaving_options()
        expect = brute_force(s)
        got = {o.strips: o for o in opts}
        assert len(got) == len(opts), "deduplicated by the resulting strips"
        assert set(got) == set(expect), s.to_json()
        for strips, (seq, final) in expect.items():
            o = got[strips]
            assert o.actions == seq, (strips, o.actions, seq)
            assert o.final_score == final
            assert o.cards == sum(1 for a in seq if a >= 63)
        for o in rng.sample(opts, min(10, len(opts))):
            assert o.score == ref.score_strips(list(o.strips))
        # options come in ascending order of their action sequences
        assert [o.actions for o in opts] == sorted(o.actions for o in opts)
        total += len(opts)
        assert s.to_dict()["weave_done"][p] is False
    assert total > per  # real positions with choices


def test_weaving_options_empty_outside_weaving() -> None:
    s = capulana.new_game(players=3, seed=1)
    assert s.weaving_options() == []


def test_weaving_option_applies() -> None:
    s = weaving_positions(99, 1)[0]
    p = s.current_player
    for o in s.weaving_options()[:50]:
        c = s.clone()
        for m in o.moves:
            c.apply(m)
        assert tuple(c.strips(p)) == o.strips
        assert c.capulana_scores()[p] == o.score
