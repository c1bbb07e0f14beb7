"""Instructions per operation of two builds, counted by valgrind's callgrind:
a figure the shared machine's noise does not move (wall-clock ratios of the
same build vary by 10-20% between runs here). Used for the abi3 build against
the version-specific one (issue 11), next to ``compare_builds.py``'s timings.

    python bench/count_instructions.py --old-python /tmp/v-full/bin/python --new-python /tmp/v-abi3/bin/python

Each operation runs N times in a fresh interpreter and once with N = 0 (same
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

# op name -> (repetitions, statement run each time; `i` is the repetition)
OPS: dict[str, tuple[int, str]] = {
    "capivarias legal_actions": (2000, "s.legal_actions()"),
    "capivarias is_terminal": (5000, "s.is_terminal"),
    "capivarias clone": (2000, "s.clone()"),
    "capivarias push+pop": (2000, "s.push(a); s.pop()"),
    "capulana 4p push+pop": (1000, "c4.push(ca); c4.pop()"),
    "capulana weaving_options": (40, "m.weaving_options()"),
    "capivarias python step loop (game)": (20, "game(capivarias.new_game(seed=i), i)"),
    "capulana 4p python step loop (game)": (4, "game(capulana.new_game(players=4, seed=i), i)"),
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
if {weave}:
    from bench_capulana import mid_game
    m, _ = mid_game()
i = 0
{stmt}
for i in range({n}):
    {stmt}
"""


def count(python: str, op: str, n: int) -> int:
    """Instructions of the whole run (set-up included) with n repetitions."""
    reps, stmt = OPS[op]
    code = SETUP.format(bench=str(ROOT / "bench"), root=str(ROOT), weave="weaving" in op, stmt=stmt, n=n)
    env = dict(os.environ, PYTHONHASHSEED="0")
    res = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", code],
                         capture_output=True, text=True, env=env)
    if res.returncode != 0:
        sys.exit(f"{python}: {op} failed:\n{res.stderr[-2000:]}")
    m = re.search(r"Collected : (\d+)", res.stderr)
    if not m:
        sys.exit(f"no instruction count in callgrind's output:\n{res.stderr[-2000:]}")
    return int(m.group(1))


def per_op(python: str, op: str) -> float:
    n = OPS[op][0]
    return (count(python, op, n) - count(python, op, 0)) / n


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
