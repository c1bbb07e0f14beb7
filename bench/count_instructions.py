"""Instructions per operation of two builds, counted by valgrind's callgrind:
a figure the shared machine's noise does not move (wall-clock ratios of the
same build vary by 10-20% between runs here). Used for the abi3 build against
the version-specific one (issue 11), next to ``compare_builds.py``'s timings.

    python bench/count_instructions.py --old-python /tmp/v-full/bin/python --new-python /tmp/v-abi3/bin/python

Each operation runs 2N times in a fresh interpreter and N times (same
set-up); the difference over N is its cost. Needs ``valgrind`` on the PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# op name -> (repetitions, statement run each time; `i` is the repetition[, set-up of its own])
OPS: dict[str, tuple[int, ...]] = {
    "capivarias legal_actions": (2000, "s.legal_actions()"),
    "capivarias is_terminal": (5000, "s.is_terminal"),
    "capivarias current_player": (5000, "s.current_player"),
    "capivarias clone": (2000, "s.clone()"),
    "capivarias push+pop": (2000, "s.push(a); s.pop()"),
    "capivarias try_push+pop": (2000, "s.try_push(a); s.pop()"),
    "capivarias returns": (2000, "s.returns()"),
    "capulana 4p push+pop": (1000, "c4.push(ca); c4.pop()"),
    "capulana 4p determinize": (1000, "c4.determinize(0, i)"),
    "capulana weaving_options": (40, "m.weaving_options()",
                                 "from bench_capulana import mid_game\nm, _ = mid_game()"),
    "capivarias python step loop (game)": (20, "game(capivarias.new_game(seed=i), i)"),
    "capulana 4p python step loop (game)": (4, "game(capulana.new_game(players=4, seed=i), i)"),
    "capivarias arena worker loop (2 games)": (10, "arena_loop(1)", "from bench_arena import _loop as arena_loop"),
    "capivarias env steps (raw, 100)": (10, "env_loop(env, 100, False)",
                                        "from bench_envs import loop as env_loop\n"
                                        "from tabuleiro.envs import capivarias_v0\nenv = capivarias_v0.raw_env()"),
    "capivarias batch step (1024 games)": (20, "batch.step(None)",
                                           "import tabuleiro\nbatch = tabuleiro.load_game('capivarias')"
                                           ".batch(1024, seed=1)._core\nbatch.reset()"),
    "capivarias mcts (200 iterations)": (10, "s._search(1, i, 200, 0.0, 1.4, False, False, False, False, False, 1, 1 << 20)"),
    "capivarias C random games (20)": (10, "s.game._core.random_playouts(20, i)"),
}

SETUP = """
import random, sys
sys.path[:0] = [{bench!r}, {root!r}]
from tabuleiro import capivarias, capulana
s = capivarias.new_game(seed=3)
c4 = capulana.new_game(seed=3, players=4)
a = s.legal_actions()[0]; ca = c4.legal_actions()[0]
def game(g, seed):
    rng = random.Random(seed)
    while not g.is_terminal:
        g.apply(rng.choice(g.legal_actions()))
{extra}
i = 0
{stmt}
for i in range({n}):
    {stmt}
"""


def count(python: str, op: str, n: int) -> int:
    """Instructions of the whole run (set-up included) with n repetitions."""
    stmt = str(OPS[op][1])
    extra = str(OPS[op][2]) if len(OPS[op]) > 2 else ""
    code = SETUP.format(bench=str(ROOT / "bench"), root=str(ROOT), extra=extra, stmt=stmt, n=n)
    # one BLAS thread: numpy's OpenBLAS workers spin while waiting, and
    # callgrind counts their spinning (a batch step's figure moved by 20%)
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    res = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", code],
                         capture_output=True, text=True, env=env)
    if res.returncode != 0:
        sys.exit(f"{python}: {op} failed:\n{res.stderr[-2000:]}")
    m = re.search(r"Collected : (\d+)", res.stderr)
    if not m:
        sys.exit(f"no instruction count in callgrind's output:\n{res.stderr[-2000:]}")
    return int(m.group(1))


def per_op(python: str, op: str) -> float:
    """(count(2n) - count(n)) / n: set-up, the interpreter's warm-up
    (specializing the loop's bytecode) and teardown cancel out; with 0 and n
    repetitions they did not, and a small operation's figure moved by a
    hundred instructions or more with the layout of the code around it."""
    n = int(OPS[op][0])
    return (count(python, op, 2 * n) - count(python, op, n)) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old-python", required=True)
    ap.add_argument("--new-python", default=sys.executable)
    ap.add_argument("ops", nargs="*", default=list(OPS), help="a subset of: " + ", ".join(OPS))
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not on the PATH")
    print(f"{'operation':<40} {'old instr/op':>14} {'new instr/op':>14} {'new/old':>8}")
    for op in args.ops:
        if op not in OPS:
            sys.exit(f"unknown operation {op!r}; known: {', '.join(OPS)}")
        o, n = per_op(args.old_python, op), per_op(args.new_python, op)
        print(f"{op:<40} {o:>14,.0f} {n:>14,.0f} {n / o:>8.3f}", flush=True)


if __name__ == "__main__":
    main()
