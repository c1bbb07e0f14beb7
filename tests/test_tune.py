"""SPSA tuning (``tabuleiro tune``, :mod:`tabuleiro.arena.tune`): on a
synthetic objective with a known optimum it lands within 10% of it; a run
resumes from its JSONL file and ends where an uninterrupted run ends; it
tunes a builtin agent and an external engine on real games; bad input exits
2 naming the problem.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Mapping

import pytest

from tabuleiro.arena import Engine
from tabuleiro.arena.tune import SPSA, TuneParam, parse_param, spsa, tune

PY = sys.executable
OPT = {"c": 1.7, "p": 0.6}
PARAMS = [TuneParam("c", 0.3, 3.0, 0.6), TuneParam("p", 0.0, 2.0, 1.8)]


def _synthetic(seed: int):
    """Paired games between theta+ and theta-: each wins with the logistic of
    the strength difference; strength peaks at OPT (20 logits per range squared)."""
    rng = random.Random(seed)

    def strength(v: Mapping[str, float]) -> float:
        return -20.0 * sum(((v[q.name] - OPT[q.name]) / (q.hi - q.lo)) ** 2 for q in PARAMS)

    def objective(plus: Mapping[str, float], minus: Mapping[str, float], k: int) -> float:
        pw = 1 / (1 + math.exp(-(strength(plus) - strength(minus))))
        return sum(1.0 if rng.random() < pw else -1.0 for _ in range(2))

    return objective


def test_spsa_lands_within_10_percent_of_a_known_optimum() -> None:
    out = spsa(_synthetic(1), PARAMS, 3000, seed=1)
    for k, best in OPT.items():
        assert abs(out[k] - best) <= 0.1 * best, (k, out[k])
    # and from the far corners of the range too
    far = [TuneParam("c", 0.3, 3.0, 3.0), TuneParam("p", 0.0, 2.0, 0.0)]
    out = spsa(_synthetic(2), far, 3000, seed=2)
    for k, best in OPT.items():
        assert abs(out[k] - best) <= 0.1 * best, (k, out[k])


def test_the_schedules_end_at_c_end_and_r_end() -> None:
    s = SPSA(c_end=0.1, r_end=2.0)
    assert s.c_k(500, 500) == pytest.approx(0.1)
    assert s.a_k(500, 500) / s.c_k(500, 500) ** 2 == pytest.approx(2.0)
    assert s.c_k(1, 500) > s.c_k(250, 500) > s.c_k(500, 500)
    assert s.a_k(1, 500) > s.a_k(500, 500)


def test_a_resumed_spsa_ends_where_an_uninterrupted_one_ends() -> None:
    def obj(plus: Mapping[str, float], minus: Mapping[str, float], k: int) -> float:
        return float(random.Random(k).choice([-2, 0, 2])) + (plus["c"] - minus["c"])

    full: list[dict] = []
    a = spsa(obj, PARAMS, 60, seed=3, on_step=full.append)
    b = spsa(obj, PARAMS, 60, seed=3, history=full[:25])
    assert a == b


def test_tune_on_real_games_resumes_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    png = tmp_path / "t.png"
    kw = dict(games=16, against="greedy", seed=4, out=str(out), plot_to=str(png))
    first = tune("toy", "ismcts:c={c},iterations=20", ["c=0.1..3"], **kw)
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["run"] == "tabuleiro tune" and len(lines) == 1 + 4
    assert first["steps"] == 4 and first["games"] == 16 and png.stat().st_size > 0
    again = tune("toy", "ismcts:c={c},iterations=20", ["c=0.1..3"], **kw)
    assert again["values"] == first["values"] and out.read_text().splitlines() == lines     # nothing replayed
    # a torn last line is played again, to the same end
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    third = tune("toy", "ismcts:c={c},iterations=20", ["c=0.1..3"], **kw)
    assert third["values"] == first["values"] and out.read_text().splitlines() == lines
    with pytest.raises(ValueError, match="another tuning run"):
        tune("toy", "ismcts:c={c},iterations=20", ["c=0.1..2"], **kw)


def test_tune_an_external_engine_option() -> None:
    tab = Engine(cmd=[PY, "-m", "tabuleiro", "engine"], options={"iterations": 20, "c": "{c}"}, name="tab")
    res = tune("toy", "engine:tab", ["c=0.1..3"], games=8, against="random", seed=1, engines={"tab": tab})
    assert res["steps"] == 2 and res["terminations"] == {"normal": 8}
    assert 0.1 <= res["values"]["c"] <= 3


@pytest.mark.parametrize("args, message", [
    (["--param", "c=3..1"], "the range 3.0..1.0 is empty"),
    (["--param", "c=lots"], "not NAME=LO..HI"),
    (["--param", "d=0..1"], "placeholders"),
    (["--param", "c=0..1", "--games", "1"], "--games must be at least 4"),
    (["--param", "c=0..1", "--against", "nonsense"], "unknown agent"),
    (["--param", "c=0..1", "--r-end", "0"], "--r-end"),
])
def test_bad_tune_arguments_exit_2(args: list[str], message: str) -> None:
    base = ["toy", "--agent", "ismcts:c={c},iterations=10", "--games", "8", "--against", "random", "--no-progress"]
    res = subprocess.run([PY, "-m", "tabuleiro", "tune", *base, *args], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and message in res.stderr, res.stderr


def test_the_tune_command_prints_the_tuned_values(tmp_path: Path) -> None:
    res = subprocess.run([PY, "-m", "tabuleiro", "tune", "toy", "--agent", "ismcts:c={c},iterations=10",
                          "--param", "c=0.2..2@1", "--against", "random", "--games", "8", "--no-progress",
                          "--out", str(tmp_path / "t.jsonl"), "--plot", str(tmp_path / "t.png")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("tuned after 2 steps (8 games): c=")
    assert parse_param("c=0.2..2@1").start == 1.0


@pytest.mark.parametrize("against", [None, "random"])
def test_tune_seats_both_sides_at_a_three_player_table(tmp_path: Path, against: object) -> None:
    """With three players θ+ and θ- share each deal (+ - +, then - + -), or
    each plays every seat against the opponent: every game is counted, and
    a step's result, the win shares of θ+'s seats less θ-'s, lies in [-2, 2]."""
    out = tmp_path / "t3.jsonl"
    res = tune("capulana", "ismcts:iterations=20,c={c}", ["c=0.0..40.0"], games=12, seed=5, out=str(out),
               against=against, game_params={"players": 3})
    per_step = 2 if against is None else 6
    assert res["steps"] == 12 // per_step and res["games"] == res["steps"] * per_step
    lines = [json.loads(x) for x in out.read_text().splitlines()[1:]]
    assert len(lines) == res["steps"]
    assert all(-2.0 <= ln["result"] <= 2.0 for ln in lines)
    if against is None:
        # θ+ and θ- differ by some 8 in c here, so they play differently and some step is not
        # level (two agents that played alike would score 0 at every step: the seatings are
        # symmetric)
        assert any(ln["result"] != 0.0 for ln in lines)


def test_a_step_seats_each_side_and_scores_its_win_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    """One SPSA step at three players, its games played by a stand-in that
    lets one side win wherever it sits: the exact seatings of a deal
    (0 = θ+, 1 = θ-, 2 = the opponent), and a result of +2 when θ+ wins
    every game it plays, -2 when θ- does, 0 when neither does."""
    from tabuleiro import load_game
    from tabuleiro.arena import tune as tune_module

    seen: list[tuple[int, ...]] = []
    winner = {"side": 0}

    class Stand:
        def __init__(self, cfg: object) -> None:
            pass

        def play(self, spec: tuple[int, int, tuple[int, ...]]) -> dict[str, object]:
            lineup = spec[2]
            seen.append(lineup)
            side = winner["side"]
            w = lineup.index(side) if side in lineup else lineup.index(2) if 2 in lineup else 0
            return {"returns": [1.0 if seat == w else 0.0 for seat in range(len(lineup))]}

        def close(self) -> None:
            pass

    monkeypatch.setattr(tune_module, "_Worker", Stand)
    game = load_game("capulana", players=3)
    cases = [(None, [(0, 1, 0), (1, 0, 1)]),
             ("random", [(0, 2, 2), (2, 0, 2), (2, 2, 0), (1, 2, 2), (2, 1, 2), (2, 2, 1)])]
    for against, lineups in cases:
        objective = tune_module._GameObjective(game, "ismcts:iterations=2,c={c}", against, {}, seed=1, pairs=1,
                                               tc=None, margin=0.1, log_dir=None)
        for side, result in ((0, 2.0), (1, -2.0), (2, 0.0)):
            seen.clear()
            winner["side"] = side
            assert objective({"c": 1.0}, {"c": 2.0}, 1) == pytest.approx(result), (against, side)
            assert seen == lineups, against
