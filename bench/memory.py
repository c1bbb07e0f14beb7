"""Memory soak: does the binding leak?

10**6 mixed API calls over every game (new states, push/pop, legal moves,
dict and JSON round trips, views, determinizations, clones, pickling, errors
raised and caught, the random and greedy agents, perft, weaving options),
then 10**3 small searches (every kind, every game, 1 and 2 threads, choose
and analyse, some with a StopFlag). The resident set size (VmRSS) is read
after a warm-up that runs the same mix, after the API phase and at the end;
the growth from the warm-up to the end must stay within 5 MB.

    python bench/memory.py [--calls 1000000] [--searches 1000] [--limit-mb 5]

Exit status 1 if the growth is over the limit. Not a pytest benchmark (it is
not collected: its name does not start with ``bench_``).
"""

from __future__ import annotations

import argparse
import gc
import pickle
import random
import resource
import sys
import time
from typing import Any, Callable

import tabuleiro
from tabuleiro import agents, capulana

CONFIGS: list[tuple[str, dict[str, Any]]] = [("capivarias", {"expansion": False}), ("capivarias", {"expansion": True}),
           ("capulana", {"players": 2}),
           ("capulana", {"players": 3}), ("capulana", {"players": 5}), ("toy", {})]
EXPECTED = (tabuleiro.TabuleiroError, TypeError, ValueError, IndexError)


def rss_kb() -> int:
    """Current resident set size in kB (VmRSS), or the peak from getrusage elsewhere."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


def settle() -> int:
    gc.collect()
    gc.collect()
    return rss_kb()


class Mix:
    """The API mix: each ``step`` makes about a dozen calls on one of a few
    live states and counts them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.games = [tabuleiro.load_game(n, **p) for n, p in CONFIGS]
        self.states = [g.new_initial_state(seed=i) for i, g in enumerate(self.games)]
        self.rand = agents.make("random", seed=1)
        self.greedy = agents.make("greedy", seed=2)
        self.calls = 0
        self.errors = 0

    def expect_error(self, f: Callable[[], Any]) -> None:
        self.calls += 1
        try:
            f()
        except EXPECTED:
            self.errors += 1
        else:
            raise AssertionError("an error was expected")

    def step(self) -> None:
        rng = self.rng
        k = rng.randrange(len(self.states))
        g, s = self.games[k], self.states[k]
        if s.is_terminal or len(s.history()) > 150:
            s = self.states[k] = g.new_initial_state(seed=rng.getrandbits(64))
            self.calls += 1
        legal = s.legal_actions()
        mv = s.legal_moves()
        mask = s.legal_action_mask()
        self.calls += 3
        assert len(mask) == g.num_distinct_actions and len(mv) == len(legal)
        a = rng.choice(legal)
        form = rng.randrange(3)
        s.push(a if form == 0 else str(s.MOVE(a)) if form == 1 else s.MOVE(a))
        self.calls += 1
        r = rng.random()
        if r < 0.25 and s.history():
            s.pop()
            self.calls += 1
        elif r < 0.35:
            self.calls += 1
            s.peek()
        d = s.to_dict()
        t = g.from_dict(d)
        self.calls += 2
        if rng.random() < 0.2:
            t = g.from_dict(s.to_json())
            self.calls += 2
        p = rng.randrange(g.num_players)
        s.view(p)
        w = s.determinize(p, rng.getrandbits(64))
        c = s.clone()
        self.calls += 3
        assert w.view(p) == s.view(p) and c == s and t == s
        self.calls += 4
        if rng.random() < 0.1:
            pickle.loads(pickle.dumps(s))
            self.calls += 2
        s.scores()
        s.returns()
        s.infostate_key(p)
        s.current_player
        self.calls += 4
        if not s.is_terminal:
            self.rand.choose(s)
            self.calls += 1
            if rng.random() < 0.3:
                self.greedy.choose(s)
                self.calls += 1
        if rng.random() < 0.05:
            s.perft(1)
            self.calls += 1
        if isinstance(s, capulana.State) and rng.random() < 0.1:
            s.weaving_options()
            s.strips(0)
            self.calls += 2
        # errors raised and caught
        r = rng.random()
        if r < 0.15:
            illegal = next((x for x in range(g.num_distinct_actions) if x not in set(s.legal_actions())), None)
            if illegal is not None:
                self.expect_error(lambda: s.push(illegal))
        elif r < 0.25:
            self.expect_error(lambda: s.push(rng.choice([None, -1, 10**9, "no such move", 1.5, b"x"])))
        elif r < 0.32:
            bad = dict(d)
            bad.pop(rng.choice(sorted(bad)))
            self.expect_error(lambda: g.from_dict(bad))
        elif r < 0.36:
            self.expect_error(lambda: g.from_dict("{not json"))
        elif r < 0.40:
            self.expect_error(lambda: agents.make("mcts", iterations=-1))
        elif r < 0.43:
            self.expect_error(lambda: s.view(99))
        elif r < 0.46:
            e = g.new_initial_state(seed=1)
            self.calls += 1
            self.expect_error(e.pop)
        elif r < 0.48:
            self.expect_error(lambda: s.perft(2**40))
        elif r < 0.50:
            self.expect_error(lambda: tabuleiro.load_game("capivarias", first_player=1.0))
        elif r < 0.52:
            self.expect_error(lambda: type(s)())


def api_phase(mix: Mix, calls: int, report: Callable[[str], None]) -> None:
    next_report = mix.calls + calls // 10
    end = mix.calls + calls
    while mix.calls < end:
        mix.step()
        if mix.calls >= next_report:
            report(f"{mix.calls:>9} calls")
            next_report += calls // 10


def search_phase(n: int, seed: int, report: Callable[[str], None]) -> None:
    rng = random.Random(seed)
    games = [tabuleiro.load_game(name, **p) for name, p in CONFIGS]
    kinds = ["flatmc", "mcts", "ismcts"]
    for i in range(n):
        g = games[i % len(games)]
        kind = kinds[(i // len(games)) % 3]
        threads = 1 + (i // (3 * len(games))) % 2
        s = g.new_initial_state(seed=rng.getrandbits(64))
        for _ in range(rng.randrange(20)):
            if s.is_terminal:
                break
            s.push(rng.choice(s.legal_actions()))
        bot = agents.make(kind, iterations=rng.choice([1, 20, 60, 500]), threads=threads, seed=i,
                          rollout=rng.choice(["random", "heuristic"]), max_nodes=rng.choice([16, 1 << 12, 1 << 20]))
        if s.is_terminal or i % 50 == 0:
            while not s.is_terminal:
                s.push(rng.choice(s.legal_actions()))
            try:                                       # the error path frees what it took too
                bot.choose(s)
            except tabuleiro.GameOverError:
                pass
            else:
                raise AssertionError("a search on a finished game returned")
        elif i % 7 == 0:
            flag = agents.StopFlag()
            flag.set()
            bot.choose(s, stop=flag)
        elif i % 2:
            bot.analyse(s)
        else:
            bot.choose(s)
        if (i + 1) % (n // 5 or 1) == 0:
            report(f"{i + 1:>9} searches")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=10**6)
    ap.add_argument("--searches", type=int, default=10**3)
    ap.add_argument("--limit-mb", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()

    def report(what: str) -> None:
        print(f"  {what}: RSS {rss_kb() / 1024:8.1f} MB   ({time.perf_counter() - t0:6.1f} s)", flush=True)

    print(f"tabuleiro {tabuleiro.__version__}, Python {sys.version.split()[0]}")
    start = settle()
    mix = Mix(args.seed)
    print("warm-up (the same mix, 5% of the calls and searches)")
    api_phase(mix, max(args.calls // 20, 1000), report)
    search_phase(max(args.searches // 20, 12), args.seed + 1, report)
    warm = settle()
    print(f"API phase: {args.calls} calls")
    before_calls = mix.calls
    api_phase(mix, args.calls, report)
    after_api = settle()
    print(f"search phase: {args.searches} searches")
    search_phase(args.searches, args.seed + 2, report)
    end = settle()
    growth = (end - warm) / 1024
    print()
    print(f"calls made        {mix.calls - before_calls} (+{before_calls} in the warm-up), {mix.errors} errors caught")
    print(f"RSS at start      {start / 1024:8.1f} MB")
    print(f"RSS after warm-up {warm / 1024:8.1f} MB")
    print(f"RSS after API     {after_api / 1024:8.1f} MB   ({(after_api - warm) / 1024:+.1f} MB)")
    print(f"RSS at the end    {end / 1024:8.1f} MB   ({growth:+.1f} MB from the warm-up)")
    print(f"peak RSS          {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:8.1f} MB")
    ok = growth <= args.limit_mb
    print(f"growth {growth:+.2f} MB {'within' if ok else 'OVER'} the {args.limit_mb:g} MB limit "
          f"({time.perf_counter() - t0:.0f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
