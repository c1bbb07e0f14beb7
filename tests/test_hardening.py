"""Regression tests for the hardening issue: each finding of the issue has a
test here that failed on the code before the rebuild on the game contract
(endless searches, a segfault, states from_dict accepted that play could not
keep, live states read without the GIL, overflowing budgets, errors of the
wrong type). Ctrl-C has its own module, tests/test_interrupt.py.

Anything that could hang or crash on a regression runs in a child process
with a timeout, so a regression fails the test instead of the suite. The
child is ``sys.executable`` unless ``TABULEIRO_TEST_PYTHON`` names another
interpreter (to run the children against another build of the package).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import pickle
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabuleiro
from tabuleiro import agents, capivarias, capulana, toy
from tests.capivarias_positions import position as capivarias_position
from tests.capulana_positions import position as capulana_position

ROOT = Path(__file__).resolve().parents[1]
PYTHON = os.environ.get("TABULEIRO_TEST_PYTHON", sys.executable)


def run_child(code: str, *, timeout: float = 60.0, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter (the project root importable,
    ``stdin`` on its standard input); a child still running after
    ``timeout`` seconds fails the test."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        return subprocess.run([PYTHON, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                              input=stdin, timeout=timeout, cwd=str(ROOT), env=env)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    pytest.fail(f"the child did not finish within {timeout} s (a hang); its output so far:\n{out[-2000:]}")


def check_child(code: str, *, timeout: float = 60.0, stdin: str = "") -> str:
    """``run_child`` that must exit 0 (a crash or an exception fails); its stdout."""
    r = run_child(code, timeout=timeout, stdin=stdin)
    assert r.returncode == 0, f"child exited with {r.returncode}\nstdout:\n{r.stdout[-2000:]}\nstderr:\n{r.stderr[-3000:]}"
    return r.stdout


def play_random(state: Any, steps: int, seed: int) -> Any:
    """``state`` after up to ``steps`` uniformly random legal moves (in place)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.push(rng.choice(state.legal_actions()))
    return state


def new_state(game: str, seed: int) -> Any:
    if game == "capivarias":
        return capivarias.new_game(seed=seed, expansion=bool(seed % 2))
    if game == "capulana":
        return capulana.new_game(players=2 + seed % 4, seed=seed)
    return toy.new_game(seed=seed)


GAMES = ["capivarias", "capulana"]


# --- 1. iterations < threads: the search used to spin for ever --------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind,iterations,threads", [("mcts", 1, 2), ("ismcts", 3, 4), ("flatmc", 10, 64),
                                                     ("mcts", 1, 64), ("ismcts", 1, 2), ("flatmc", 1, 2)])
def test_fewer_iterations_than_threads_returns(game: str, kind: str, iterations: int, threads: int) -> None:
    out = check_child(f"""
        from tabuleiro import agents, capivarias, capulana
        s = capivarias.new_game(seed=5) if {game!r} == "capivarias" else capulana.new_game(players=3, seed=5)
        bot = agents.make({kind!r}, iterations={iterations}, threads={threads})
        m = bot.choose(s)
        assert m in s.legal_moves(), m
        a = bot.analyse(s)
        assert sum(x.visits for x in a) <= {iterations}, a
        print("OK")
    """, timeout=20)
    assert out.strip() == "OK"


# --- 2. a huge node cap: make() refuses it (it used to segfault in the search) -----------------------------

@pytest.mark.parametrize("max_nodes", [2**60, tabuleiro._core.MAX_NODES + 1, 2**63, 2**64])
def test_huge_max_nodes_is_refused(max_nodes: int) -> None:
    with pytest.raises(ValueError):
        agents.make("mcts", iterations=0, time=0.5, max_nodes=max_nodes)


@pytest.mark.parametrize("game", GAMES)
def test_huge_max_nodes_cannot_reach_the_search(game: str) -> None:
    """The issue's reproducer in a child, both games: a ValueError at make,
    never a crash; the largest cap allowed searches normally (the tree grows
    on demand)."""
    out = check_child(f"""
        from tabuleiro import agents, capivarias, capulana
        s = capivarias.new_game(seed=5) if {game!r} == "capivarias" else capulana.new_game(players=3, seed=5)
        try:
            agents.make("mcts", iterations=0, time=0.5, max_nodes=2**60).choose(s)
        except ValueError:
            print("refused", flush=True)
        from tabuleiro import _core
        m = agents.make("mcts", iterations=0, time=0.3, max_nodes=_core.MAX_NODES).choose(s)
        assert m in s.legal_moves()
        print("OK")
    """, timeout=30)
    assert out.split() == ["refused", "OK"]


# --- 3. a Capulana state from_dict accepted and the search could not finish --------------------------------

R9_ROWS = [["I5 n+", "F27 n<1", "F39 n+"], ["I1 n+", "F11 r>2", "F40 r>1", "F18 r<1"], ["I4 n+"]]


def r9_position(**kw: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(players=3, phase="weave", to_move=2, capulanas=R9_ROWS, woven=[2, 2, 0],
                                weave_done=[True, True, False])
    args.update(kw)
    return capulana_position(**args)


@pytest.mark.parametrize("hands", [None, [[], [], ["F01", "F02"]]])
def test_raw_strip_at_the_start_of_the_step_is_rejected(hands: Any) -> None:
    """Player 1's row showed a raw strip when this weaving step began (R9):
    the state cannot arise, and the search from it never ended."""
    with pytest.raises(tabuleiro.InvalidStateError, match="R9"):
        capulana.State.from_dict(r9_position(hands=hands))


def r9_family() -> list[dict[str, Any]]:
    """The rows of the issue under every woven / weave_done / to_move / hands."""
    out = []
    for woven in itertools.product(range(3), repeat=3):
        for done in itertools.product([False, True], repeat=3):
            for to_move in range(3):
                for hands in (None, [[], [], ["F01", "F02"]], [["F03"], ["F04"], ["F01", "F02"]]):
                    out.append(r9_position(woven=list(woven), weave_done=list(done), to_move=to_move, hands=hands))
    return out


def weave_mutants(n_games: int) -> list[dict[str, Any]]:
    """Real weave-phase states with woven / weave_done / to_move changed."""
    out = []
    for seed in range(n_games):
        s = capulana.new_game(players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            d = s.to_dict()
            if d["phase"] == "weave" and rng.random() < 0.3:
                n = d["players"]
                m = dict(d)
                m["woven"] = [rng.choice([0, 0, 1, 2]) for _ in range(n)]
                m["weave_done"] = [rng.random() < 0.5 for _ in range(n)]
                m["to_move"] = rng.randrange(n)
                out.append(m)
            s.push(rng.choice(s.legal_actions()))
    return out


def test_flatmc_returns_from_every_accepted_weave_state() -> None:
    """Every state of the family that from_dict accepts is searchable: flatmc
    (and the two tree searches) returns a legal move, and random play from it
    ends. The child loads the family itself (what its build accepts is what
    it must search), with a timeout: a regression hangs there, not here. It
    loads without the counts the rules imply (issue 26; the family's
    positions name only the cards that matter), a superset of what from_dict
    accepts."""
    family = r9_family() + weave_mutants(12)
    out = check_child("""
        import json, random, sys
        import tabuleiro
        from tabuleiro import agents, capulana
        accepted = 0
        for i, d in enumerate(json.load(sys.stdin)):
            try:
                g = tabuleiro.load_game("capulana", players=d["players"])
                s = g._core.decode(g._encode_dict(d), loose=True)
            except ValueError:
                continue
            accepted += 1
            print("searching", i, flush=True)
            for kind in ("flatmc", "mcts", "ismcts"):
                m = agents.make(kind, iterations=64, threads=1 + i % 2, seed=i).choose(s)
                assert m in s.legal_moves(), (i, kind, m)
            rng = random.Random(i)
            while not s.is_terminal:
                s.apply(rng.choice(s.legal_actions()))
        print("OK", accepted)
    """, timeout=60, stdin=json.dumps(family))
    assert out.splitlines()[-1].split()[0] == "OK" and int(out.split()[-1]) > 40, out[-500:]


# --- 5. states not made by a game ----------------------------------------------------------------------------

@pytest.mark.parametrize("cls", [tabuleiro.State, capivarias.State, capulana.State, toy.State])
def test_state_constructor_refuses(cls: type) -> None:
    with pytest.raises(TypeError):
        cls()


# Every public method or property, as an expression of the blank state `s`.
BLANK_CALLS = {
    "common": [
        "s.current_player", "s.is_terminal", "s.legal_actions()", "s.legal_moves()", "s.legal_action_mask()",
        "s.returns()", "s.scores()", "s.outcome()", "s.push(0)", "s.apply(0)", "s.pop()", "s.peek()",
        "s.history()", "s.root()", "s.clone()", "copy.copy(s)", "copy.deepcopy(s)", "s.to_dict()", "s.to_json()",
        "s.view(0)", "s.determinize(0, 1)", "s.infostate_key(0)", "s.perft(1)", "pickle.dumps(s)", "str(s)",
        "repr(s)", "s.parse_move(0)", "agents.make('random').choose(s)", "agents.make('greedy').choose(s)",
        "agents.make('mcts', iterations=10).choose(s)", "agents.make('ismcts', iterations=10).analyse(s)",
    ],
    "capivarias": ["s.apply_round_end(0)"],
    "capulana": ["s.weaving_options()", "s.strips(0)", "s.capulana_scores()", "s.phase", "s.players"],
    "toy": [],
}

_BLANK_CHILD = """
import copy, pickle, sys
from tabuleiro import agents, {game}
skip = set(sys.argv[1:])
for call in {calls!r}:
    if call in skip:
        continue
    print("start", call, flush=True)
    s = {game}.State.__new__({game}.State)
    try:
        eval(call)
    except TypeError:
        print("result", call, "TypeError", flush=True)
    except BaseException as e:
        print("result", call, type(e).__name__, str(e)[:100].replace(chr(10), " "), flush=True)
    else:
        print("result", call, "no error", flush=True)
"""

_blank_results: dict[str, dict[str, str]] = {}


def blank_results(game: str) -> dict[str, str]:
    """Each call's outcome on a blank state of ``game``, from child processes
    (rerun without a call that crashed its child: that call's outcome is the crash)."""
    if game not in _blank_results:
        calls = BLANK_CALLS["common"] + BLANK_CALLS[game]
        results: dict[str, str] = {}
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        while len(results) < len(calls):
            code = _BLANK_CHILD.format(game=game, calls=[c for c in calls if c not in results])
            r = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=120, cwd=str(ROOT),
                               env=env)
            started = None
            for line in r.stdout.splitlines():
                kind, rest = line.split(" ", 1)
                if kind == "start":
                    started = rest
                else:
                    call = next(c for c in calls if rest.startswith(c + " "))
                    results[call] = rest[len(call) + 1:]
                    started = None
            if started is not None:
                results[started] = f"crashed the interpreter (exit {r.returncode}): {r.stderr[-300:]}"
            elif r.returncode != 0:
                raise AssertionError(f"child exited with {r.returncode}: {r.stderr[-2000:]}")
        _blank_results[game] = results
    return _blank_results[game]


@pytest.mark.parametrize("game,call", [(g, c) for g in ("capivarias", "capulana", "toy")
                                       for c in BLANK_CALLS["common"] + BLANK_CALLS[g]])
def test_state_made_without_a_game_raises_type_error(game: str, call: str) -> None:
    """``State.__new__(State)`` gives a state with no game: every method must
    raise TypeError (never crash, never another error)."""
    assert blank_results(game)[call] == "TypeError"


# --- 6. from_dict accepts only states play can keep ----------------------------------------------------------

def test_round_wins_beyond_the_rounds_played_are_rejected() -> None:
    with pytest.raises(tabuleiro.InvalidStateError):
        capivarias.State.from_dict(capivarias_position(round=8, round_wins=(9, 9)))


def round_trips(s: Any) -> None:
    d = s.to_dict()
    back = type(s).from_dict(d)
    assert back == s and back.to_dict() == d
    again = pickle.loads(pickle.dumps(s))
    assert again == s and again.history() == s.history() and again.to_dict() == d


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), rnd=st.integers(1, 9),
       wins=st.tuples(st.integers(0, 10), st.integers(0, 10)), last_taker=st.sampled_from([None, 0, 1]),
       play_seed=st.integers(0, 2**32))
def test_capivarias_accepted_states_stay_loadable_under_play(seed: int, steps: int, rnd: int, wins: tuple[int, int],
                                                              last_taker: Any, play_seed: int) -> None:
    s = play_random(capivarias.new_game(seed=seed, expansion=bool(seed % 2)), steps, seed)
    d = s.to_dict()
    d["round"], d["round_wins"], d["last_taker"] = rnd, list(wins), last_taker
    try:
        s = capivarias.State.from_dict(d)
    except tabuleiro.InvalidStateError:
        return
    rng = random.Random(play_seed)
    round_trips(s)
    while not s.is_terminal:
        s.push(rng.choice(s.legal_actions()))
        round_trips(s)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 80), rnd=st.integers(1, 5), start=st.integers(0, 4),
       play_seed=st.integers(0, 2**32))
def test_capulana_accepted_states_stay_loadable_under_play(seed: int, steps: int, rnd: int, start: int,
                                                           play_seed: int) -> None:
    s = play_random(capulana.new_game(players=2 + seed % 4, seed=seed), steps, seed)
    d = s.to_dict()
    d["round"], d["start_player"] = rnd, start
    try:
        s = capulana.State.from_dict(d)
    except tabuleiro.InvalidStateError:
        return
    rng = random.Random(play_seed)
    round_trips(s)
    while not s.is_terminal:
        s.push(rng.choice(s.legal_actions()))
        round_trips(s)


# --- 7. reading a state another thread is changing ----------------------------------------------------------

_RACE_CHILD = """
import random, sys, threading
sys.setswitchinterval(1e-5)
import tabuleiro
from tabuleiro import agents, capivarias, capulana, toy
game = {game!r}
rng = random.Random(3)
if game == "capulana":
    s = capulana.new_game(players=3, seed=11)
    while s.phase != "weave":                      # into a weaving turn: weaving_options are not empty
        s.push(rng.choice(s.legal_actions()))
elif game == "capivarias":
    s = capivarias.new_game(seed=11, expansion=True)
    for _ in range(6):
        s.push(rng.choice(s.legal_actions()))
else:
    s = toy.new_game(seed=11)
s = type(s).from_dict(s.to_dict())                  # an empty move stack
seq, t = [], s.clone()
for _ in range(8):
    if t.is_terminal:
        break
    a = rng.choice(t.legal_actions())
    seq.append(a)
    t.push(a)
positions = [s.clone()]
for a in seq:
    positions.append(positions[-1].clone())
    positions[-1].push(a)
perfts = {{p.perft(2) for p in positions}}
weaves = {{tuple((o.actions, o.strips, o.score, o.final_score) for o in p.weaving_options()) for p in positions}} \\
    if game == "capulana" else set()
moves = {{a for p in positions for a in p.legal_actions()}}
greedy = agents.make("greedy", seed=1)
stop = threading.Event()

def mutate():
    while not stop.is_set():
        for a in seq:
            s.push(a)
        for _ in seq:
            s.pop()

m = threading.Thread(target=mutate, daemon=True)
m.start()
bad = []
try:
    for i in range({rounds}):
        n = s.perft(2)
        if n not in perfts:
            bad.append(("perft", n))
        if game == "capulana":
            w = tuple((o.actions, o.strips, o.score, o.final_score) for o in s.weaving_options())
            if w not in weaves:
                bad.append(("weaving_options", len(w)))
        try:
            mv = greedy.choose(s)
            if mv.action not in moves:
                bad.append(("greedy", str(mv)))
        except tabuleiro.TabuleiroError:
            pass
finally:
    stop.set()
    m.join()
assert s.history() == [] and s == positions[0]
print("BAD" if bad else "OK", bad[:5])
"""


@pytest.mark.parametrize("game", ["capivarias", "capulana", "toy"])
def test_reads_see_a_position_the_state_passed_through(game: str) -> None:
    """perft(2), weaving_options() and the greedy agent on a state another
    thread pushes and pops: each result is that of one position the state
    passed through, and nothing but the package's errors is raised."""
    out = check_child(_RACE_CHILD.format(game=game, rounds=300), timeout=120)
    assert out.startswith("OK"), out


_RANDOM_AGENT_CHILD = """
import sys, threading
sys.setswitchinterval(1e-6)
import tabuleiro
from tabuleiro import agents, toy
s = toy.new_game(seed=2)
while True:                                   # to the last move: pushing `last` ends the game
    last = s.legal_actions()[0]
    t = s.clone()
    t.push(last)
    if t.is_terminal:
        break
    s.push(last)
stop = threading.Event()

def flip():
    while not stop.is_set():
        s.push(last)
        s.pop()

m = threading.Thread(target=flip, daemon=True)
m.start()
bot = agents.make("random", seed=1)
over = chosen = 0
try:
    for _ in range({rounds}):
        try:
            mv = bot.choose(s)
            assert mv.action == last, mv
            chosen += 1
        except tabuleiro.GameOverError:
            over += 1
finally:
    stop.set()
    m.join()
print("OK", chosen, over)
"""


def test_random_agent_survives_the_game_ending_in_another_thread() -> None:
    """RandomAgent.choose snapshots the state: a Move or GameOverError, never
    IndexError from choosing among no moves."""
    out = check_child(_RANDOM_AGENT_CHILD.format(rounds=20000), timeout=120)
    assert out.startswith("OK"), out


# --- 8. the largest iteration budget --------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["flatmc", "mcts", "ismcts"])
@pytest.mark.parametrize("threads", [1, 2])
def test_largest_iteration_budget_searches(game: str, kind: str, threads: int) -> None:
    """iterations at the maximum with a time budget: the search runs on the
    clock and reports its visits (an overflowing budget used to report 0)."""
    s = new_state(game, 5)
    a = agents.make(kind, iterations=agents.MAX_ITERATIONS, time=0.3, threads=threads).analyse(s)
    assert sum(x.visits for x in a) > 0


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_core_search_takes_the_largest_c_long(kind: int) -> None:
    """The C layer itself with LONG_MAX iterations (the old build's overflow
    showed there: 0 visits); make() keeps users below 2**62."""
    s = capivarias.new_game(seed=5)
    best, stats, iterations, _, _, _ = s._search(kind, 1, 2**63 - 1, 0.3, 1.4, False, False, False, False, False, 1, 1 << 16, None)
    assert iterations > 0 and sum(v for _, v, _ in stats) > 0


# --- 9. errors: the right type, at the right place -------------------------------------------------------------

SEARCHES = ["flatmc", "mcts", "ismcts"]
BAD_SEARCH_PARAMS = [
    (dict(time=math.inf), ValueError), (dict(time=math.nan), ValueError), (dict(time=0), ValueError),
    (dict(time=-1.0), ValueError), (dict(iterations=-1), ValueError), (dict(iterations=2**63), ValueError),
    (dict(iterations=2**63 - 1), ValueError), (dict(iterations=agents.MAX_ITERATIONS + 1), ValueError),
    (dict(max_nodes=2**63), ValueError), (dict(max_nodes=15), ValueError), (dict(iterations=True), TypeError),
    (dict(threads=True), TypeError), (dict(time=True), TypeError), (dict(max_nodes=True), TypeError),
    (dict(iterations=1.0), TypeError), (dict(threads=0), ValueError), (dict(threads=65), ValueError),
    (dict(c=math.nan), ValueError), (dict(c=-1.0), ValueError), (dict(rollout="greedy"), ValueError),
    (dict(shaped=1), TypeError), (dict(iterations=0), ValueError), (dict(budget=3), TypeError),
    (dict(horizon="yes"), TypeError), (dict(horizon=0), TypeError),
]


@pytest.mark.parametrize("kind", SEARCHES)
@pytest.mark.parametrize("params,error", BAD_SEARCH_PARAMS, ids=[repr(p) for p, _ in BAD_SEARCH_PARAMS])
def test_make_rejects_bad_search_parameters(kind: str, params: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        agents.make(kind, **params)


BAD_SEEDS = [(1.0, TypeError), (-1, ValueError), (2**70, ValueError), (2**64, ValueError), (True, TypeError),
             ("1", TypeError), (None, TypeError)]


@pytest.mark.parametrize("kind", agents.NAMES)
@pytest.mark.parametrize("seed,error", BAD_SEEDS, ids=[repr(s) for s, _ in BAD_SEEDS])
def test_make_rejects_bad_seeds(kind: str, seed: Any, error: type) -> None:
    with pytest.raises(error):
        agents.make(kind, seed=seed)


def test_make_rejects_an_unknown_agent() -> None:
    with pytest.raises(ValueError):
        agents.make("minimax")


# (label, warm-up loading the valid twin of the bad parameters, the call, the error)
BAD_CALLS: list[tuple[str, Callable[[], Any], Callable[[], Any], Any]] = [
    ("infostate_key(2**64)", lambda: None, lambda: capivarias.new_game(seed=1).infostate_key(2**64), ValueError),
    ("infostate_key(-1)", lambda: None, lambda: capulana.new_game(players=3, seed=1).infostate_key(-1), ValueError),
    ("perft(2**31)", lambda: None, lambda: capivarias.new_game(seed=1).perft(2**31), ValueError),
    ("perft(2**64)", lambda: None, lambda: capulana.new_game(players=2, seed=1).perft(2**64), ValueError),
    ("perft(-1)", lambda: None, lambda: toy.new_game(seed=1).perft(-1), ValueError),
    ("capivarias.random_playouts(2**64)", lambda: None, lambda: capivarias.random_playouts(2**64, seed=1), ValueError),
    ("capulana.random_playouts(2**64)", lambda: None,
     lambda: capulana.random_playouts(2**64, seed=1, players=3), ValueError),
    ("toy.random_playouts(2**64)", lambda: None, lambda: toy.random_playouts(2**64, seed=1), ValueError),
    ("random_playouts(-1)", lambda: None, lambda: capivarias.random_playouts(-1, seed=1), ValueError),
    ("random_playouts(seed=2**64)", lambda: None, lambda: capivarias.random_playouts(1, seed=2**64), ValueError),
    ("view(1.0)", lambda: None, lambda: capivarias.new_game(seed=1).view(1.0), (TypeError, ValueError)),
    ("view(2)", lambda: None, lambda: capivarias.new_game(seed=1).view(2), ValueError),
    ("perft(1.5)", lambda: None, lambda: capivarias.new_game(seed=1).perft(1.5), (TypeError, ValueError)),
    ("determinize(0, 2**64)", lambda: None, lambda: capivarias.new_game(seed=1).determinize(0, 2**64), ValueError),
    ("determinize(0, 1.0)", lambda: None, lambda: capivarias.new_game(seed=1).determinize(0, 1.0),
     (TypeError, ValueError)),
    ("new_game(seed=2**64)", lambda: None, lambda: capivarias.new_game(seed=2**64), ValueError),
    ("new_game(seed=-1)", lambda: None, lambda: capulana.new_game(players=3, seed=-1), ValueError),
    ("first_player=1.0", lambda: None, lambda: capivarias.new_game(seed=1, first_player=1.0), TypeError),
    ("first_player=1.0 after first_player=1", lambda: capivarias.new_game(seed=1, first_player=1),
     lambda: capivarias.new_game(seed=1, first_player=1.0), TypeError),
    ("first_player=2", lambda: None, lambda: capivarias.new_game(seed=1, first_player=2), ValueError),
    ('expansion="no"', lambda: None, lambda: capivarias.new_game(seed=1, expansion="no"), TypeError),
    ("expansion=1 after expansion=True", lambda: capivarias.new_game(seed=1, expansion=True),
     lambda: capivarias.new_game(seed=1, expansion=1), TypeError),
    ("players=3.0 after players=3", lambda: capulana.new_game(players=3, seed=1),
     lambda: capulana.new_game(players=3.0, seed=1), TypeError),
    ("players=6", lambda: None, lambda: capulana.new_game(players=6, seed=1), ValueError),
    ("load_game(first_player=True) after first_player=1", lambda: tabuleiro.load_game("capivarias", first_player=1),
     lambda: tabuleiro.load_game("capivarias", first_player=True), TypeError),
    ("load_game(unknown parameter)", lambda: None, lambda: tabuleiro.load_game("toy", players=2), TypeError),
    ("load_game(unknown game)", lambda: None, lambda: tabuleiro.load_game("chess"), ValueError),
]


@pytest.mark.parametrize("label,warm,call,error", BAD_CALLS, ids=[b[0] for b in BAD_CALLS])
def test_bad_arguments_raise_the_documented_error(label: str, warm: Callable[[], Any], call: Callable[[], Any],
                                                  error: Any) -> None:
    """ValueError for a value out of range (never OverflowError), TypeError
    for a wrong type; a game already loaded with the valid twin of a bad
    parameter does not let the bad one through."""
    warm()
    with pytest.raises(error):
        call()
