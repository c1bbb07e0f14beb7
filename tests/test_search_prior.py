"""The search's root prior in Capulana (issue 25, docs/strength.md): at a
weaving root the first child a search expands is the first action of a
best complete weaving step, the step the greedy agent plays, not only the
best single card (csrc/search/cp_policy.c ``root_prior``)."""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from tabuleiro import agents, capulana


def weaving_roots(players: int, games: int, seed: int) -> Iterator[Any]:
    """Weaving turns with a choice, from seeded random games."""
    rng = random.Random(seed)
    for g in range(games):
        s = capulana.new_game(players=players, seed=seed * 1000 + g)
        while not s.is_terminal:
            if s.phase == "weave" and len(s.legal_moves()) > 1:
                yield s.clone()
            s.push(rng.choice(s.legal_moves()))


def step_value(s: Any, action: int, options: list[Any]) -> int:
    """The best final score a weaving step starting with ``action`` reaches:
    the best listed option that starts with it, or (an action whose steps
    all give strips an earlier option already gives, so none is listed)
    the score right after it, which its own one-card step keeps."""
    after = s.clone()
    after.push(action)
    one_card = after.scores()[s.current_player]
    return int(max([o.final_score for o in options if o.actions[0] == action] + [one_card]))


def first_children(players: int, **options: Any) -> Iterator[tuple[int, int]]:
    """(value of the first root child a 1-iteration search expands, best step value) at weaving roots."""
    for k, s in enumerate(weaving_roots(players, 3, seed=players)):
        steps = s.weaving_options()
        res = agents.SearchAgent(iterations=1, seed=k, **options).search(s)
        tried = [a.move.action for a in res.analysis if a.visits > 0]
        assert len(tried) == 1
        yield step_value(s, tried[0], steps), max(o.final_score for o in steps)


@pytest.mark.parametrize("kind", ["ismcts", "mcts"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_first_root_child_starts_a_best_weaving_step(kind: str, players: int) -> None:
    pairs = list(first_children(players, kind=kind))
    assert len(pairs) > 40
    assert all(got == best for got, best in pairs), [p for p in pairs if p[0] != p[1]]


def test_without_the_prior_the_first_child_is_often_not_a_best_step() -> None:
    """``prior=False`` expands at random: the check above can fail."""
    pairs = list(first_children(2, kind="ismcts", prior=False))
    assert sum(got < best for got, best in pairs) > len(pairs) // 4


@pytest.mark.parametrize("players", [2, 4])
def test_a_small_search_weaves_at_least_as_well_as_greedy(players: int) -> None:
    """The root's progressive bias: at 50 iterations the default search
    plays a best weaving step (by final score, what ``greedy`` plays) at
    nearly every weaving root; without the prior it does at about one in
    five (47 and 95 roots here: all of them with it, 10 and 20 without)."""
    def share(**options: Any) -> float:
        hits = []
        for k, s in enumerate(weaving_roots(players, 3, seed=players)):
            steps = s.weaving_options()
            move = agents.SearchAgent(iterations=50, seed=k, **options).choose(s)
            hits.append(step_value(s, move.action, steps) == max(o.final_score for o in steps))
        return float(sum(hits) / len(hits))

    assert share() >= 0.9
    assert share(prior=False) <= 0.5
