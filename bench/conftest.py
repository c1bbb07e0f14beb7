"""Print rates and ratios of the benchmarks of one run.

Each benchmark stores ``extra_info["units"]`` (work done per round, e.g. games)
and ``extra_info["unit"]``; this hook prints, after pytest-benchmark's own
table, units per second from the fastest round (the least disturbed by other
work on a shared machine) and from the mean round, and the ratios named in
``RATIOS`` (numerator, denominator) on both, when both ran in this run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# the project root (for tests.reference), also when run from elsewhere or with another config
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RATIOS = [
    ("capivarias_c_random_games", "capivarias_reference_random_games", 200),
    ("capivarias_c_random_games_expansion", "capivarias_reference_random_games_expansion", 200),
    ("capulana_c_random_games_4p", "capulana_reference_random_games_4p", 100),
    ("capulana_c_weaving_options", "capulana_reference_weaving_options", None),
]


@pytest.hookimpl(trylast=True)   # after pytest-benchmark's table, as the docstring says
def pytest_terminal_summary(terminalreporter, exitstatus, config):  # type: ignore[no-untyped-def]
    bs = getattr(config, "_benchmarksession", None)
    if bs is None or not bs.benchmarks:
        return
    best, mean = {}, {}
    tr = terminalreporter
    tr.section("rates (units per second: fastest round / mean round)")
    for b in bs.benchmarks:
        info = b.extra_info
        if "units" not in info or not b.stats:
            continue
        key = info.get("key", b.name)
        best[key] = info["units"] / b.stats.min
        mean[key] = info["units"] / b.stats.mean
        tr.write_line(f"{key:<48} {best[key]:>14,.0f} / {mean[key]:>12,.0f} {info.get('unit', 'ops')}/s")
    for num, den, target in RATIOS:
        if num in best and den in best:
            rb, rm = best[num] / best[den], mean[num] / mean[den]
            verdict = "" if target is None else f"  (target >= {target}: {'met' if rb >= target else 'NOT met'})"
            tr.write_line(f"ratio {num} / {den} = {rb:,.0f}x fastest, {rm:,.0f}x mean{verdict}")
