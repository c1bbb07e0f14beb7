"""Capulana benchmarks: whole random games in the C loop (2 and 4 players),
weaving_options() calls on a mid-game position, apply() + legal_actions()
per step from Python, and the pure-Python reference on the same work.
Run: ``pytest bench/bench_capulana.py --benchmark-only`` (targets: >= 20,000
random 4-player games/s in C and >= 100x the reference, printed by
bench/conftest.py)."""

from __future__ import annotations

import random

import pytest

from tabuleiro import capulana
from tests.reference import capulana as ref

C_GAMES = 20_000
REF_GAMES = 40
WEAVE_CALLS = 1_000


def mid_game(players: int = 4, seed: int = 2024) -> tuple[capulana.State, ref.State]:
    """Round 2, weaving step, a player at the start of their turn with a full hand."""
    rng = random.Random(seed)
    s = capulana.new_game(players=players, seed=seed)
    r = ref.State.new_game(players, seed)
    while True:
        d = s.to_dict()
        p = s.current_player
        if d["round"] == 2 and d["phase"] == "weave" and d["woven"][p] == 0 and len(d["hands"][p]) >= 8:
            return s, r
        legal = s.legal_actions()
        a = legal[-1] if d["phase"] == "offer" and rng.random() < 0.7 else rng.choice(legal)
        s.apply(a)
        r.apply(a)
        if s.is_terminal:
            seed += 1
            rng = random.Random(seed)
            s, r = capulana.new_game(players=players, seed=seed), ref.State.new_game(players, seed)


def reference_weaving_options(r: ref.State) -> dict[tuple[str, ...], tuple[tuple[int, ...], int]]:
    """The same work with the reference: every complete weaving step through
    the atomic actions, deduplicated by the resulting strips, scored (R10)."""
    p = r.current_player
    found: dict[tuple[str, ...], tuple[tuple[int, ...], int]] = {}

    def dfs(t: ref.State, seq: tuple[int, ...]) -> None:
        for a in t.legal_actions():
            c = t.clone()
            c.apply(a)
            if a == ref.STOP or c.current_player != p or c.phase != "weave" or c.weave_done[p]:
                key = tuple(c.visible[p])
                if key not in found:
                    found[key] = (seq + (a,), ref.score_strips(c.visible[p]))
            else:
                dfs(c, seq + (a,))

    dfs(r, ())
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_c_random_games(benchmark, players):  # type: ignore[no-untyped-def]
    seeds = iter(range(10**9))
    benchmark.extra_info.update(units=C_GAMES, unit="games", key=f"capulana_c_random_games_{players}p")
    out = benchmark(lambda: capulana.random_playouts(C_GAMES, seed=next(seeds), players=players))
    assert out["games"] == C_GAMES


@pytest.mark.parametrize("players", [2, 4])
def test_reference_random_games(benchmark, players):  # type: ignore[no-untyped-def]
    seeds = iter(range(10**9))
    benchmark.extra_info.update(units=REF_GAMES, unit="games", key=f"capulana_reference_random_games_{players}p")

    def run() -> None:
        base = next(seeds) * REF_GAMES
        for i in range(REF_GAMES):
            ref.random_game(players, base + i, base + i)

    benchmark.pedantic(run, rounds=3, iterations=1)


def test_c_weaving_options(benchmark):  # type: ignore[no-untyped-def]
    s, _ = mid_game()
    n = len(s.weaving_options())
    benchmark.extra_info.update(units=WEAVE_CALLS, unit="calls", key="capulana_c_weaving_options", options=n)

    def run() -> None:
        for _ in range(WEAVE_CALLS):
            s.weaving_options()

    benchmark(run)


def test_reference_weaving_options(benchmark):  # type: ignore[no-untyped-def]
    s, r = mid_game()
    expect = {o.strips: o.score for o in s.weaving_options()}
    benchmark.extra_info.update(units=1, unit="calls", key="capulana_reference_weaving_options")
    got = benchmark.pedantic(lambda: reference_weaving_options(r), rounds=3, iterations=1)
    assert {k: v for k, (_, v) in got.items()} == expect   # the same work, the same answer


def test_python_step_loop(benchmark):  # type: ignore[no-untyped-def]
    """apply() + legal_actions() per step, driven from Python (4 players)."""
    rng = random.Random(1)

    def game() -> None:
        s = capulana.new_game(players=4, seed=rng.randrange(2**64))
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))

    benchmark.extra_info.update(units=1, unit="games", key="capulana_python_step_loop_games_4p")
    benchmark(game)
