"""Agents: strength by seeded matches, determinism, hidden information,
picklability. Win rates are printed with their 95% Wilson interval."""

from __future__ import annotations

import math
import pickle
from typing import Any

import pytest

from tabuleiro import agents, capivarias
from tabuleiro.agents import make


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def capivarias_match(a: agents.Agent, b: agents.Agent, games: int, *, seed0: int = 0) -> float:
    """Games won by `a` (draws count 1/2), a and b alternating seats and first move."""
    score = 0.0
    for g in range(games):
        s = capivarias.new_game(seed=seed0 + g, expansion=bool(g % 4 >= 2), first_player=g % 2)
        seat_a = (g // 2) % 2
        seats = {seat_a: a, 1 - seat_a: b}
        while not s.is_terminal:
            s.apply(seats[s.current_player].choose(s))
        r = s.returns()[seat_a]
        score += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
    return score


def report(label: str, wins: float, n: int) -> float:
    lo, hi = wilson(wins, n)
    print(f"{label}: {wins}/{n} = {wins / n:.1%} (95% CI {lo:.1%}-{hi:.1%})")
    return wins / n


@pytest.mark.slow
def test_ismcts_beats_random_at_capivarias() -> None:
    n = 200
    wins = capivarias_match(make("ismcts", iterations=1000, seed=1), make("random", seed=2), n, seed0=1000)
    assert report("ismcts(1000) vs random, Capivárias", wins, n) >= 0.90


@pytest.mark.slow
def test_ismcts_beats_greedy_at_capivarias() -> None:
    n = 200
    wins = capivarias_match(make("ismcts", iterations=1000, seed=3), make("greedy", seed=4), n, seed0=2000)
    assert report("ismcts(1000) vs greedy, Capivárias", wins, n) >= 0.70


@pytest.mark.slow
def test_more_iterations_beat_fewer() -> None:
    n = 100
    wins = capivarias_match(make("ismcts", iterations=4000, seed=5), make("ismcts", iterations=250, seed=6), n,
                            seed0=3000)
    assert report("ismcts(4000) vs ismcts(250), Capivárias", wins, n) > 0.5
    assert wilson(wins, n)[0] > 0.5 - 0.05  # and not by a fluke of one seed


@pytest.mark.slow
@pytest.mark.parametrize("name", ["flatmc", "mcts"])
def test_other_searches_beat_random(name: str) -> None:
    n = 40
    wins = capivarias_match(make(name, iterations=500, seed=7), make("random", seed=8), n, seed0=4000)
    assert report(f"{name}(500) vs random, Capivárias", wins, n) >= 0.8


# --- determinism, hidden information, purity -----------------------------------------------

def midgame(seed: int, steps: int = 9, expansion: bool = True) -> capivarias.State:
    s = capivarias.new_game(seed=seed, expansion=expansion)
    r = make("random", seed=seed)
    for _ in range(steps):
        s.apply(r.choose(s))
    return s


@pytest.mark.parametrize("name", agents.NAMES)
def test_same_seed_same_move_and_statistics(name: str) -> None:
    s = midgame(11)
    params: dict[str, Any] = {} if name in ("random", "greedy") else {"iterations": 600}
    a, b = make(name, seed=42, **params), make(name, seed=42, **params)
    assert a.choose(s) == b.choose(s)
    assert a.analyse(s) == b.analyse(s)


@pytest.mark.parametrize("name", ["flatmc", "mcts", "ismcts"])
def test_two_threads_are_deterministic_with_an_iteration_budget(name: str) -> None:
    s = midgame(12)
    a = make(name, iterations=2000, threads=2, seed=9)
    first = a.analyse(s)
    assert sum(x.visits for x in first) >= 1900
    for _ in range(3):
        assert a.analyse(s) == first


@pytest.mark.parametrize("name", agents.NAMES)
def test_agent_never_reads_hidden_cards(name: str) -> None:
    params: dict[str, Any] = {} if name in ("random", "greedy") else {"iterations": 400}
    agent = make(name, seed=5, **params)
    differing = 0
    for seed in range(12):
        s = midgame(100 + seed, steps=seed % 7)
        p = s.current_player
        other = s.determinize(p, 777 + seed)  # same view for the mover, other hidden cards
        assert other.view(p) == s.view(p)
        differing += other.to_dict() != s.to_dict()
        assert agent.choose(s) == agent.choose(other)
        assert agent.analyse(s) == agent.analyse(other)
    assert differing >= 10  # the hidden cards really differed


@pytest.mark.parametrize("name", agents.NAMES)
def test_choose_does_not_mutate_and_is_legal(name: str) -> None:
    s = midgame(21)
    before = s.to_dict()
    params: dict[str, Any] = {} if name in ("random", "greedy") else {"iterations": 300}
    move = make(name, seed=1, **params).choose(s)
    assert s.to_dict() == before
    assert move in s.legal_moves()


@pytest.mark.parametrize("name", agents.NAMES)
def test_agents_pickle_by_parameters(name: str) -> None:
    params: dict[str, Any] = {} if name in ("random", "greedy") else {"iterations": 300, "c": 0.9}
    a = make(name, seed=3, **params)
    b = pickle.loads(pickle.dumps(a))
    assert a == b
    s = midgame(5)
    assert a.choose(s) == b.choose(s)


def test_analyse_lists_root_moves_with_visits() -> None:
    s = midgame(8)
    out = make("ismcts", iterations=1000, seed=2).analyse(s)
    assert {x.move for x in out} == set(s.legal_moves())
    assert sum(x.visits for x in out) == 1000
    assert out[0].visits == max(x.visits for x in out)
    assert all(-1.0 <= x.mean <= 1.0 for x in out)


def test_time_budget_and_node_cap() -> None:
    s = midgame(9)
    move = make("ismcts", iterations=0, time=0.05, seed=1).choose(s)
    assert move in s.legal_moves()
    capped = make("mcts", iterations=3000, max_nodes=64, seed=1).analyse(s)
    assert sum(x.visits for x in capped) == 3000  # iterations go on past the cap


@pytest.mark.parametrize("bad", [
    {"iterations": -1}, {"iterations": 0}, {"threads": 0}, {"rollout": "smart"}, {"time": -1.0}, {"max_nodes": 2},
])
def test_bad_parameters_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        make("ismcts", **bad)
    with pytest.raises(ValueError):
        make("alphazero")


def test_terminal_state_has_no_move() -> None:
    s = capivarias.new_game(seed=1)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    with pytest.raises(ValueError):
        make("ismcts").choose(s)


# --- Capulana ---------------------------------------------------------------------------

def capulana_game(seats: list[agents.Agent], seed: int) -> tuple[list[float], list[int]]:
    from tabuleiro import capulana
    s = capulana.new_game(players=len(seats), seed=seed)
    while not s.is_terminal:
        s.apply(seats[s.current_player].choose(s))
    return s.returns(), s.scores()


@pytest.mark.slow
def test_ismcts_finishes_first_against_two_random_capulana_players() -> None:
    n = 30
    first = 0.0
    for g in range(n):
        seat = g % 3
        seats: list[agents.Agent] = [make("random", seed=10 * g + i) for i in range(3)]
        seats[seat] = make("ismcts", iterations=1000, seed=g)
        returns, _ = capulana_game(seats, 5000 + g)
        first += returns[seat] > 0
    assert report("ismcts(1000) first among 3 with 2 random, Capulana", first, n) >= 0.80


@pytest.mark.slow
def test_ismcts_outscores_greedy_capulana_players() -> None:
    n = 30
    mine, theirs = 0.0, 0.0
    for g in range(n):
        seat = g % 3
        seats: list[agents.Agent] = [make("greedy", seed=10 * g + i) for i in range(3)]
        seats[seat] = make("ismcts", iterations=1000, seed=g)
        _, scores = capulana_game(seats, 6000 + g)
        mine += scores[seat]
        theirs += sum(scores[i] for i in range(3) if i != seat) / 2
    print(f"mean final score, Capulana 3p: ismcts(1000) {mine / n:.1f} vs greedy seats {theirs / n:.1f}")
    assert mine > theirs


@pytest.mark.parametrize("name", agents.NAMES)
def test_capulana_agent_never_reads_hidden_cards(name: str) -> None:
    from tabuleiro import capulana
    params: dict[str, Any] = {} if name in ("random", "greedy") else {"iterations": 300}
    agent = make(name, seed=5, **params)
    differing = 0
    for seed in range(6):
        s = capulana.new_game(players=3 + seed % 2, seed=seed)
        r = make("random", seed=seed)
        for _ in range(7 * seed + 5):
            s.apply(r.choose(s))
        p = s.current_player
        other = s.determinize(p, 99 + seed)
        assert other.view(p) == s.view(p)
        differing += other.to_dict() != s.to_dict()
        assert agent.choose(s) == agent.choose(other)
        assert agent.analyse(s) == agent.analyse(other)
    assert differing >= 5


def test_the_round_horizon_is_capivarias_default_only() -> None:
    from tabuleiro import load_game
    assert load_game("capivarias").search_defaults["horizon"] is True
    assert load_game("capivarias", expansion=True).search_defaults["horizon"] is True
    assert load_game("capulana").search_defaults["horizon"] is False
    assert load_game("toy").search_defaults["horizon"] is False


@pytest.mark.parametrize("name", ["flatmc", "mcts", "ismcts"])
def test_the_horizon_changes_capivarias_searches_and_nothing_without_one(name: str) -> None:
    """Capivárias: horizon=None is horizon=True, and False searches otherwise
    (rollouts to the game's end); Capulana has no horizon, so the knob is inert."""
    from tabuleiro import capulana
    s = capivarias.new_game(seed=11)
    runs = {h: make(name, iterations=400, seed=4, horizon=h).search(s) for h in (None, True, False)}
    assert runs[None].analysis == runs[True].analysis != runs[False].analysis
    c = capulana.new_game(seed=11, players=3)
    on, off = (make(name, iterations=150, seed=4, horizon=h).search(c) for h in (True, False))
    assert on.analysis == off.analysis
