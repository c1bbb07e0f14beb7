"""The tabuleiro command."""

from __future__ import annotations

import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tabuleiro", *args], capture_output=True, text=True, timeout=120)


def test_demo_capivarias_prints_rivers_and_result_and_is_seeded() -> None:
    a, b = run("demo", "--seed", "7"), run("demo", "--seed", "7")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    assert "end of round 1" in a.stdout and "seg 0" in a.stdout
    assert "wins" in a.stdout.splitlines()[-1] or "draw" in a.stdout.splitlines()[-1]


def test_demo_capulana() -> None:
    out = run("demo", "--game", "capulana", "--players", "4", "--seed", "3", "--quiet")
    assert out.returncode == 0, out.stderr
    assert "after round 4" in out.stdout and "final scores" in out.stdout


@pytest.mark.parametrize("args", [["demo", "--seed", "-1"], ["demo", "--players", "9"], ["fly"]])
def test_bad_arguments_exit_with_usage(args: list[str]) -> None:
    out = run(*args)
    assert out.returncode == 2 and "usage" in out.stderr
