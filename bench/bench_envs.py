"""PettingZoo random-agent loop speed (issue 12): microseconds per step of
the usual AEC loop (agent_iter, last, choose from the mask, step) on our
Capivárias and, for scale on the same machine, PettingZoo's own
connect_four_v3 (classic; needs pettingzoo[classic]'s pygame only for
rendering, not here). The machine is shared and noisy: compare the ratio.

    python bench/bench_envs.py [--steps 50000] [--raw]

The agent picks uniformly among the legal ids with numpy, reading the int8
mask through a bool view (``mask.view(np.bool_).nonzero()[0]``: numpy's
``nonzero``/``flatnonzero`` on the int8 array itself take about 7-12 us for
Capivárias' 3,248 ids, the bool view about 1.3 us). ``--sample`` uses
gymnasium's ``action_space.sample(mask)`` instead, which alone costs several
microseconds.

``pytest bench/bench_envs.py --benchmark-only`` measures the same loop on our
environment only (wrapped and raw), as steps per second, for
``bench/compare_builds.py``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def loop(env, steps: int, sample: bool) -> float:
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    done = 0
    t = time.perf_counter()
    while done < steps:
        for agent in env.agent_iter():
            obs, rew, term, trunc, info = env.last()
            if term or trunc:
                action = None
            elif sample:
                action = env.action_space(agent).sample(obs["action_mask"])
            else:
                legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                action = legal[int(rng.random() * len(legal))]
            env.step(action)
            done += 1
        env.reset()
    return (time.perf_counter() - t) / done * 1e6


def _steps(raw: bool, steps: int) -> None:
    from tabuleiro.envs import capivarias_v0

    loop((capivarias_v0.raw_env if raw else capivarias_v0.env)(), steps, False)


def test_env_loop(benchmark, raw: bool = False) -> None:  # type: ignore[no-untyped-def]
    steps = 5000
    benchmark.extra_info.update(units=steps, unit="steps", key="envs_capivarias_v0" + ("_raw" if raw else ""))
    benchmark.pedantic(_steps, args=(raw, steps), rounds=5, iterations=1)


def test_raw_env_loop(benchmark) -> None:  # type: ignore[no-untyped-def]
    test_env_loop(benchmark, raw=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=50000)
    ap.add_argument("--raw", action="store_true", help="the raw_env (no PettingZoo wrappers)")
    ap.add_argument("--sample", action="store_true", help="gymnasium's action_space.sample(mask)")
    a = ap.parse_args()
    from tabuleiro.envs import capivarias_v0

    rows = []
    mk = capivarias_v0.raw_env if a.raw else capivarias_v0.env
    rows.append(("tabuleiro capivarias_v0" + (" (raw)" if a.raw else ""), min(loop(mk(), a.steps, a.sample) for _ in range(3))))
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as e:   # pettingzoo[classic] not installed
        print(f"(connect_four_v3 not available: {e})")
    else:
        mk4 = connect_four_v3.raw_env if a.raw else connect_four_v3.env
        rows.append(("pettingzoo connect_four_v3" + (" (raw)" if a.raw else ""),
                     min(loop(mk4(), a.steps, a.sample) for _ in range(3))))
    for label, us in rows:
        print(f"{label:40s} {us:7.2f} us/step")
    if len(rows) == 2:
        print(f"ratio ours / connect_four: {rows[0][1] / rows[1][1]:.2f}")


if __name__ == "__main__":
    main()
