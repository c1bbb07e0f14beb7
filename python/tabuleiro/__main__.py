"""The ``tabuleiro`` command.

    tabuleiro play capivarias [--expansion] [--level N] [--seed N] [--load FILE]
    tabuleiro play capulana [--players N] [--seats human,level:7,greedy]

lets a person play against the AI in the terminal, seeing only their own view
(docs/play.md; needs the ``play`` extra).

    tabuleiro demo [--game capivarias|capulana|toy] [--seed N] [--expansion]
                   [--players N] [--quiet]

plays a seeded game between uniformly random players and prints what the
game's presentation shows at the end of every round (the river of
Capivárias, the capulanas of Capulana), and the result.

    tabuleiro arena GAME [--players N] [--expansion] --agents SPEC SPEC... --deals N
                   [--seed S] [--out FILE.jsonl] [--jobs N] [--backend local|ray [--address ADDR]]
                   [--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05] [--plot FILE.png]
                   [--schedule all|cycle] [--json] [--no-progress] [--force-new]

plays every deal once per seat rotation of every table of agents, appends one
JSON line per game to FILE.jsonl after its run header (a re-run of the same
run resumes; another run's file is refused unless --force-new), and prints
the summary (docs/arena.md).

    tabuleiro tune GAME --agent 'ismcts:c={c},prior={p}' --param c=0.3..3.0 --param p=0..2
                   [--against SPEC] --games N [--out FILE.jsonl] [--plot FILE.png]

tunes an agent's parameters by SPSA, resumable from FILE.jsonl (docs/arena.md).

    tabuleiro engine

answers JSON requests, one a line, on stdin with one JSON line each on
stdout: games, moves and the AI for frontends in any language
(docs/protocol.md).

    tabuleiro serve [--host 127.0.0.1] [--port 8765] [--db PATH] [--allow-origin URL ...]

serves tables and the engine protocol over HTTP and WebSockets to browsers
and other programs (docs/server.md; needs the ``serve`` extra).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, Optional, Sequence


def _demo(name: str, params: dict[str, Any], seed: int, quiet: bool) -> int:
    """A seeded game between uniformly random players, printed through the
    game's presentation (its round ends, its result line)."""
    from ._game import load_game

    state = load_game(name, **params).new_initial_state(seed=seed)
    shown = state.game.presentation()
    choose = random.Random(seed)
    moves = 0
    while not state.is_terminal:
        mover = state.current_player
        move = choose.choice(state.legal_moves())
        before = state.clone()
        scored = shown.apply(state, move)
        moves += 1
        if not quiet:
            print(f"player {mover}: {move}")
        for line in shown.demo_lines(before, state, scored):
            print(line)
    print(shown.demo_result(state, moves))
    return 0


def _featured() -> str:
    """The game the commands default to: the one whose presentation is featured."""
    from ._game import game_class, games

    names = games()
    return next((n for n in names if game_class(n).presentation().featured), names[0])


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="tabuleiro", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a seeded game between random players and print it")
    from ._cli_params import add_param_options
    from ._game import games

    default_game = _featured()
    demo.add_argument("--game", choices=games(), default=default_game, help=f"the game (default {default_game})")
    demo.add_argument("--seed", type=int, default=7, help="seed of the game and of the players (default 7)")
    add_param_options(demo)
    demo.add_argument("--quiet", action="store_true", help="print only the rivers and the result")
    from .arena.cli import add_parser as _add_arena_parser

    ar = _add_arena_parser(sub)
    from .arena.tune import add_parser as _add_tune_parser

    tp = _add_tune_parser(sub)
    sub.add_parser("engine", help="the JSON-lines engine protocol on stdin/stdout (docs/protocol.md)",
                   description="Answer JSON requests read one a line from stdin with one JSON line each on "
                               "stdout, for frontends in any language (docs/protocol.md).")
    from .tui import add_parser as _add_play_parser

    _add_play_parser(sub)
    from .serve.cli import add_parser as _add_serve_parser

    _add_serve_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "serve":
        from .serve.cli import run as _serve

        return _serve(args)
    if args.command == "play":
        from .tui import run as _play

        return _play(args)
    if args.command == "engine":
        from . import engine

        return engine.main()
    if args.command == "tune":
        from .arena.tune import main as _tune

        return _tune(args, tp)
    if args.command == "arena":
        if not 0 <= args.seed < 2**64:
            parser.error("--seed must be in [0, 2**64)")
        if args.jobs is not None and args.jobs < 1:
            parser.error("--jobs must be at least 1")
        from .arena.cli import main as _arena

        return _arena(args, ar)
    if not 0 <= args.seed < 2**64:
        parser.error("--seed must be in [0, 2**64)")
    if args.command == "demo":
        from ._cli_params import params_from_args
        from ._game import game_class

        try:
            params = params_from_args(game_class(args.game), args)
        except ValueError as e:
            parser.error(str(e))
        return _demo(args.game, params, args.seed, args.quiet)
    return 2  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
