"""Smoke test of an installed tabuleiro, run outside the checkout.

    python -I scripts/smoke_wheel.py CHECKOUT [--abi3]

Checks that ``tabuleiro`` is imported from site-packages and not from
CHECKOUT, that its version is the installed distribution's, that (with
--abi3) the extension is the stable-ABI module, then imports every
registered game, plays a seeded game of each to the end twice (same moves,
same outcome), has an agent choose one move, and runs ``tabuleiro --help``,
``python -m tabuleiro --help`` and the seeded demo. scripts/ci_wheel.sh runs
it in fresh virtual environments from an empty directory; ``-I`` keeps the
script's directory, the working directory and PYTHON* variables off sys.path.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path


def check(cond: bool, what: str) -> None:
    if not cond:
        sys.exit(f"smoke test FAILED: {what}")


def play(game, seed: int) -> tuple[list[int], object]:  # type: ignore[no-untyped-def]
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal:
        state.push(rng.choice(state.legal_moves()))
        steps += 1
        check(steps <= game.info.max_game_length, f"{game.info.name}: no end after {steps} moves")
    return state.history(), state.outcome()


def run(*cmd: str) -> str:
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    check(res.returncode == 0, f"{' '.join(cmd)} exited {res.returncode}:\n{res.stdout}\n{res.stderr}")
    return res.stdout


def main() -> None:
    checkout = Path(sys.argv[1]).resolve()
    abi3 = "--abi3" in sys.argv[2:]

    import tabuleiro
    from tabuleiro import _core, agents

    where = Path(tabuleiro.__file__).resolve()
    site = Path(sysconfig.get_paths()["platlib"]).resolve()
    check(site in where.parents, f"tabuleiro imported from {where}, not from {site}")
    check(checkout not in where.parents, f"tabuleiro imported from the checkout ({where})")
    check(not any(Path(p or ".").resolve() == checkout for p in sys.path), f"the checkout is on sys.path: {sys.path}")
    dist = importlib.metadata.version("tabuleiro")
    check(tabuleiro.__version__ == dist, f"__version__ {tabuleiro.__version__!r} != distribution {dist!r}")
    ext = Path(_core.__file__).name
    if abi3:
        check(".abi3." in ext or ext == "_core.pyd", f"the extension is not the stable-ABI module: {ext}")
    print(f"tabuleiro {tabuleiro.__version__} on Python {sys.version.split()[0]}: {where.parent} ({ext})")

    names = tabuleiro.games()
    check({"capivarias", "capulana"} <= set(names), f"games() = {names}")
    for name in names:
        importlib.import_module(f"tabuleiro.{name}")
        game = tabuleiro.load_game(name)
        first = play(game, seed=7)
        check(first == play(game, seed=7), f"{name}: the seeded game is not reproducible")
        check(first[1] is not None, f"{name}: no outcome at the end")
        print(f"  {name}: seeded game of {len(first[0])} moves, {first[1]}")

    state = tabuleiro.load_game("capulana", players=3).new_initial_state(seed=7)
    move = agents.make("ismcts", iterations=300, seed=1).choose(state)
    check(move in state.legal_moves(), f"agent move {move} is not legal")
    check(state.history() == [], "the agent mutated the state")
    print(f"  ismcts agent, Capulana 3p seed 7: {move}")

    scripts = sysconfig.get_path("scripts")     # bin/, or Scripts\\ on Windows
    script = shutil.which("tabuleiro", path=scripts)
    check(script is not None, f"no tabuleiro command in {scripts}")
    out = run(str(script), "--help")
    check("demo" in out, f"tabuleiro --help:\n{out}")
    out = run(sys.executable, "-m", "tabuleiro", "--help")
    check("demo" in out, f"python -m tabuleiro --help:\n{out}")
    out = run(sys.executable, "-m", "tabuleiro", "demo", "--seed", "7", "--quiet")
    check(bool(out.strip()), "the demo printed nothing")
    print("  tabuleiro --help, python -m tabuleiro --help, tabuleiro demo --seed 7: ok")
    print("smoke test passed")


if __name__ == "__main__":
    main()
