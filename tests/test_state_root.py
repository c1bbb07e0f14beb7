"""The move stack's root, saved lazily (issue 27): a new state, a
determinization, a loaded state and a clone of a root copy nothing until the
first push, so every path into and out of an empty stack must still give
back the root exactly."""

from __future__ import annotations

import random

import pytest

import tabuleiro

CONFIGS = [("capivarias", {}), ("capulana", {"players": 2}), ("capulana", {"players": 4}), ("toy", {})]


def _walk(s: tabuleiro.State, rng: random.Random, n: int) -> list[int]:
    played = []
    for _ in range(n):
        if s.is_terminal:
            break
        a = rng.choice(s.legal_actions())
        s.push(a)
        played.append(a)
    return played


@pytest.mark.parametrize("name,params", CONFIGS, ids=lambda x: str(x))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_kind_of_root_pops_back_exactly(name: str, params: dict[str, int], seed: int) -> None:
    game = tabuleiro.load_game(name, **params)
    rng = random.Random(seed)
    start = game.new_initial_state(seed=seed)
    _walk(start, rng, 5)
    roots = {
        "new": game.new_initial_state(seed=seed + 10),
        "determinized": start.determinize(0, seed),
        "loaded": game.from_dict(start.to_dict()),
        "root of a played state": start.root(),
        "clone of a root": start.determinize(1 % game.num_players, seed).clone(),
    }
    for label, root in roots.items():
        before = root.to_dict()
        assert root.root().to_dict() == before, label          # an empty stack: the state is its root
        # an illegal push at the root leaves the root as it was
        assert root.try_push(game.num_distinct_actions - 1) in (True, False)
        while root.history():
            root.pop()
        assert root.to_dict() == before, label
        played = _walk(root, rng, 19)                            # past two copies (every 8 actions)
        assert root.root().to_dict() == before, label
        twin = root.clone()
        assert twin.root().to_dict() == before and twin.history() == root.history(), label
        for _ in played:
            root.pop()
        assert root.to_dict() == before and root.history() == [], label
        assert twin.history() == played, label                   # the clone kept its own stack
        again = _walk(root, random.Random(seed), 3)              # the saved root is reused
        for _ in again:
            root.pop()
        assert root.to_dict() == before, label


def test_a_clone_of_a_root_is_independent() -> None:
    game = tabuleiro.load_game("capulana", players=3)
    s = game.new_initial_state(seed=4)
    c = s.clone()
    c.push(c.legal_actions()[0])
    assert s.history() == [] and s.root() == s
    assert c.root() == s
    c.pop()
    assert c == s


def test_a_state_object_fits_glibcs_small_block_cache() -> None:
    """A state object (GC header, object header, the inline state buffer of
    SR_MAX_STATE bytes, the move stack's fields) must stay a request glibc
    serves from its per-thread cache (at most 1,032 bytes): at 1,136 bytes,
    with SR_MAX_STATE 1024, every new state, clone and determinization went
    through malloc's slow path (~450 instructions of the ~1,900 a clone
    cost, cachegrind; docs/engine-notes.md, issue 27)."""
    gc_header = 16                                 # PyGC_Head on 64-bit CPython 3.11+
    for cls in (tabuleiro._core.CoreState, type(tabuleiro.load_game("capulana").new_initial_state(seed=1))):
        assert cls.__basicsize__ + gc_header <= 1032, cls
