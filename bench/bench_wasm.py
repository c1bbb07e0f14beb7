"""Search speed of the WebAssembly build against the native one, in one run.

    python bench/bench_wasm.py [--repeat 3]

Measures the simulations per second of ``mcts`` in Capivárias and of
4-player ``ismcts`` in Capulana from a new game (seed 7, horizon off), in
the native build (the installed tabuleiro), in Node.js and in headless
Chromium (a page and a Web Worker), and prints the ratios to native and the
.wasm size (the table in docs/wasm.md). Builds js/dist first if needed.
Best of ``--repeat`` runs each. Not part of the test run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tabuleiro  # noqa: E402
from tabuleiro import agents  # noqa: E402
from tests import test_wasm_support as support  # noqa: E402

CASES = [("capivarias mcts", "capivarias", {}, "mcts", 60000),
         ("capulana 4p ismcts", "capulana", {"players": 4}, "ismcts", 15000)]

NODE = """
import { createEngine } from "%s";
const [game, params, agent, iterations, repeat] = JSON.parse(process.argv[1]);
const e = await createEngine();
let best = 0;
for (let k = 0; k < repeat; k++) {
  await e.request({ id: 1, cmd: "new", game, seed: 7, ...params });
  const t0 = performance.now();
  const a = await e.request({ id: 2, cmd: "go", agent, iterations, seed: 1, horizon: false });
  best = Math.max(best, a.iterations / ((performance.now() - t0) / 1000));
}
console.log(best);
"""


def native(game: str, params: dict, agent: str, iterations: int, repeat: int) -> float:
    st = tabuleiro.load_game(game, **params).new_initial_state(seed=7)
    bot = agents.make(agent, iterations=iterations, seed=1, horizon=False)
    best = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = bot.search(st)
        best = max(best, r.iterations / (time.perf_counter() - t0))
    return best


def node(game: str, params: dict, agent: str, iterations: int, repeat: int) -> float:
    code = NODE % (support.JS / "index.js").as_uri()
    r = subprocess.run(["node", "--input-type=module", "-e", code, json.dumps([game, params, agent, iterations, repeat])],
                       capture_output=True, text=True, check=True)
    return float(r.stdout)


def chromium_rates(repeat: int) -> dict[tuple[str, str], float]:
    from tests.browser_helpers import missing_reason, start_chromium

    if missing_reason():
        print("Chromium:", missing_reason())
        return {}
    server, url = support.serve_js()
    driver = start_chromium()
    out = {}
    try:
        support.open_test_page(driver, url)
        for where in ("page", "worker"):
            for name, game, params, agent, iterations in CASES:
                best = 0.0
                for _ in range(repeat):
                    got = driver.execute_async_script(
                        "const done = arguments[arguments.length - 1];"
                        "window.tb.bench(arguments[0], arguments[1], arguments[2], arguments[3], arguments[4]).then(done);",
                        where, game, params, agent, iterations)
                    best = max(best, got["rate"])
                out[(where, name)] = best
    finally:
        driver.quit()
        server.shutdown()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    support.ensure_built = support.ensure_built  # noqa: PLW0127 - for clarity: the same build as the tests
    reason = support.missing_tool()
    if reason:
        sys.exit(reason)
    import pytest  # ensure_built skips through pytest when a tool is missing

    try:
        support.ensure_built()
    except pytest.skip.Exception as e:
        sys.exit(str(e))
    size = (support.DIST / "tabuleiro.wasm").stat().st_size
    browser = chromium_rates(args.repeat)
    print(f"tabuleiro.wasm: {size} bytes ({size / 1024:.0f} KiB)")
    print(f"{'search':<20} {'native':>10} {'node':>10} {'ratio':>6} {'page':>10} {'ratio':>6} {'worker':>10} {'ratio':>6}")
    for name, game, params, agent, iterations in CASES:
        nat = native(game, params, agent, iterations, args.repeat)
        nod = node(game, params, agent, iterations, args.repeat)
        row = f"{name:<20} {nat:>10.0f} {nod:>10.0f} {nod / nat:>6.2f}"
        for where in ("page", "worker"):
            r = browser.get((where, name))
            row += f" {r:>10.0f} {r / nat:>6.2f}" if r else f" {'-':>10} {'-':>6}"
        print(row)


if __name__ == "__main__":
    main()
