"""Stop latency of the engine's perft (issue 26 item 3).

Plays Capulana (2 players, seed 1) 17 random moves (random.Random(1)) to a
position with 97 legal moves, runs the engine's perft path (engine._perft)
at depth 8 on a worker thread, sets its StopFlag after 0.5 s and prints how
long the perft took to return after the flag was set.
"""
import random
import threading
import time

import tabuleiro
from tabuleiro import agents, engine

g = tabuleiro.load_game("capulana", players=2)
s = g.new_initial_state(seed=1)
rng = random.Random(1)
for _ in range(17):
    s.push(rng.choice(s.legal_actions()))
assert len(s.legal_actions()) == 97
for trial in range(3):
    stop = agents.StopFlag()
    out = {}
    t = threading.Thread(target=lambda: out.update(nodes=engine._perft(s.clone(), 8, stop), t=time.monotonic()))
    t.start()
    time.sleep(0.5)
    t0 = time.monotonic()
    stop.set()
    t.join()
    print(f"trial {trial}: returned {out['nodes']!r} {out['t'] - t0:.3f} s after stop was set")
