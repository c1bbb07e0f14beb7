"""The ``tabuleiro`` command.

    tabuleiro play capivarias [--expansion] [--level N] [--seed N] [--load FILE]
    tabuleiro play capulana [--players N] [--seats human,level:7,greedy]

lets a person play against the AI in the terminal, seeing only their own view
(docs/play.md; needs the ``play`` extra).

    tabuleiro demo [--game capivarias|capulana] [--seed N] [--expansion]
                   [--players N] [--quiet]

plays a seeded game between uniformly random players and prints the river
(Capivárias) or the capulanas (Capulana) at the end of every round, and the
result.

    tabuleiro arena GAME [--players N] [--expansion] --agents SPEC SPEC... --deals N
                   [--seed S] [--out FILE.jsonl] [--jobs N] [--backend local|ray [--address ADDR]]
                   [--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05] [--plot FILE.png]
                   [--schedule all|cycle] [--json] [--no-progress] [--force-new]

plays every deal once per seat rotation of every table of agents, appends one
JSON line per game to FILE.jsonl after its run header (a re-run of the same
run resumes; another run's file is refused unless --force-new), and prints
the summary (docs/arena.md).

    tabuleiro engine

answers JSON requests, one a line, on stdin with one JSON line each on
stdout: games, moves and the AI for frontends in any language
(docs/protocol.md).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Optional, Sequence


def _demo_capivarias(seed: int, expansion: bool, quiet: bool) -> int:
    from . import capivarias

    state = capivarias.new_game(seed=seed, expansion=expansion)
    choose = random.Random(seed)
    rnd = 1
    moves = 0
    while not state.is_terminal:
        mover = state.current_player
        move = choose.choice(state.legal_moves())
        river = state.apply_round_end(move)
        moves += 1
        if not quiet:
            print(f"player {mover}: {move}")
        if river is not None:
            print(f"\n--- end of round {rnd}: the river as scored ---")
            print(river)
            print(f"round wins now {state.to_dict()['round_wins']}\n")
            rnd += 1
    d = state.to_dict()
    result = "a draw (R30)" if d["winner"] is None else f"player {d['winner']} wins"
    print(f"{moves} moves, {d['round']} rounds: {result}; returns {state.returns()}")
    return 0


def _demo_capulana(seed: int, players: int, quiet: bool) -> int:
    from . import capulana

    state = capulana.new_game(players=players, seed=seed)
    choose = random.Random(seed)
    moves, rnd = 0, 1
    while not state.is_terminal:
        mover = state.current_player
        move = choose.choice(state.legal_moves())
        state.apply(move)
        moves += 1
        if not quiet:
            print(f"player {mover}: {move}")
        if state.is_terminal or state.to_dict()["round"] != rnd:
            print(f"\n--- after round {rnd} ---")
            print(state)
            print()
            rnd += 1
    scores = state.scores()
    best = max(scores)
    winners = [p for p, x in enumerate(scores) if x == best]
    print(f"{moves} moves; final scores {scores}; winner(s) {winners}; returns {state.returns()}")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="tabuleiro", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a seeded game between random players and print it")
    demo.add_argument("--game", choices=["capivarias", "capulana"], default="capivarias")
    demo.add_argument("--players", type=int, default=3, help="Capulana: 2 to 5 players (default 3)")
    demo.add_argument("--seed", type=int, default=7, help="seed of the game and of the players (default 7)")
    demo.add_argument("--expansion", action="store_true", help="Capivárias: play with the expansion cards")
    demo.add_argument("--quiet", action="store_true", help="print only the rivers and the result")
    from .arena.cli import add_parser as _add_arena_parser

    ar = _add_arena_parser(sub)
    sub.add_parser("engine", help="the JSON-lines engine protocol on stdin/stdout (docs/protocol.md)",
                   description="Answer JSON requests read one a line from stdin with one JSON line each on "
                               "stdout, for frontends in any language (docs/protocol.md).")
    from .tui import add_parser as _add_play_parser

    _add_play_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "play":
        from .tui import run as _play

        return _play(args)
    if args.command == "engine":
        from . import engine

        return engine.main()
    if args.command == "arena":
        if not 0 <= args.seed < 2**64:
            parser.error("--seed must be in [0, 2**64)")
        if args.jobs is not None and args.jobs < 1:
            parser.error("--jobs must be at least 1")
        from .arena.cli import main as _arena

        return _arena(args, ar)
    if not 0 <= args.seed < 2**64:
        parser.error("--seed must be in [0, 2**64)")
    if not 2 <= args.players <= 5:
        parser.error("--players must be 2 to 5")
    if args.command == "demo" and args.game == "capulana":
        return _demo_capulana(args.seed, args.players, args.quiet)
    if args.command == "demo":
        return _demo_capivarias(args.seed, args.expansion, args.quiet)
    return 2  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
