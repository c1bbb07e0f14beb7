"""Before/after benchmark figures of two builds, measured in one run.

Runs the same pytest-benchmark suites against two installed builds (two
Python environments, each with its own copy of the bench files), alternating
old and new for several rounds (old first in even rounds, new first in odd ones) so that a shared machine's load falls on both
alike, and prints each benchmark's rate (units per second of the fastest
round seen across all rounds, and of the mean round) and the new/old ratio.

    python bench/compare_builds.py --old-python /tmp/venv-base/bin/python \\
        --old-bench /tmp/base-src/bench --rounds 3 bench_capivarias.py bench_capulana.py bench_search.py

The last column, the median over rounds of each round's new/old ratio of
mean rates, is the steadiest figure on a shared machine. Rates are units
per second, so a ratio above 1 means the new build is faster.

Each benchmark must set ``extra_info["units"]`` and ``extra_info["key"]``
(the suites in bench/ do).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_suite(python: str, bench_dir: Path, files: list[str], out: Path) -> dict[str, tuple[float, float]]:
    """{key: (fastest-round rate, mean-round rate)} of one pytest-benchmark run."""
    cmd = [python, "-m", "pytest", *[str(bench_dir / f) for f in files], "--benchmark-only", "-q",
           "-p", "no:cacheprovider", f"--benchmark-json={out}"]
    res = subprocess.run(cmd, cwd=bench_dir.parent, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}")
    rates = {}
    for b in json.loads(out.read_text())["benchmarks"]:
        info = b.get("extra_info", {})
        if "units" in info:
            key = info.get("key", b["name"])
            rates[key] = (info["units"] / b["stats"]["min"], info["units"] / b["stats"]["mean"])
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old-python", required=True)
    ap.add_argument("--old-bench", required=True, type=Path)
    ap.add_argument("--new-python", default=sys.executable)
    ap.add_argument("--new-bench", default=HERE, type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
    means: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = [("old", args.old_python, args.old_bench), ("new", args.new_python, args.new_bench)]
            for which, py, bench in (order if r % 2 == 0 else order[::-1]):   # old-new, new-old, ...
                rates = run_suite(py, bench.resolve(), args.files, Path(tmp) / f"{which}{r}.json")
                for k, (fast, mean) in rates.items():
                    best[which][k] = max(best[which].get(k, 0.0), fast)
                    means[which].setdefault(k, []).append(mean)
                print(f"round {r + 1}/{args.rounds} {which}: {len(rates)} benchmarks", file=sys.stderr)
    # a round's new/old ratio pairs runs made minutes apart: its median over
    # the rounds is the figure least moved by the machine's slow spells
    print(f"{'benchmark':<44} {'old fastest':>13} {'new fastest':>13} {'ratio':>7} {'ratio (mean rounds)':>20} "
          f"{'median round ratio':>19}")
    for k in sorted(best["new"]):
        if k not in best["old"]:
            continue
        o, n = best["old"][k], best["new"][k]
        om = sum(means["old"][k]) / len(means["old"][k])
        nm = sum(means["new"][k]) / len(means["new"][k])
        paired = statistics.median(b / a for a, b in zip(means["old"][k], means["new"][k]))
        print(f"{k:<44} {o:>13,.0f} {n:>13,.0f} {n / o:>7.3f} {nm / om:>20.3f} {paired:>19.3f}")


if __name__ == "__main__":
    main()
