"""``tabuleiro play``: a person against the AI in the terminal (needs rich:
``pip install 'tabuleiro[play]'``).

    tabuleiro play capivarias [--expansion] [--level N] [--seed N]
    tabuleiro play capulana [--players N] [--seats human,level:7,greedy]
    tabuleiro play toy
    tabuleiro play --load FILE

Every registered game plays here; each game's parameters are options
(``--players``, ``--expansion``, ...: ``tabuleiro._cli_params``) and what the
screen shows of a game comes from its presentation (``Game.presentation()``).

This module holds only the command line (no rich import), so the core
install stays free of dependencies; see ``docs/play.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, Optional

__all__ = ["add_parser", "run", "INSTALL_HINT"]

INSTALL_HINT = "tabuleiro play needs rich: pip install 'tabuleiro[play]'"


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``play`` subcommand on an ``add_subparsers()`` object."""
    from .._cli_params import add_param_options
    from .._game import game_class, games

    titles = " or ".join(game_class(name).title for name in games())
    p: argparse.ArgumentParser = sub.add_parser(
        "play", help="play against the AI in the terminal (needs rich)",
        description=f"Play {titles} in the terminal against agents. "
                    "Seat specs: human, random, greedy, ismcts:iterations=2000, level:7 (1..10).")
    p.add_argument("game", nargs="?", choices=games(), help="the game (optional with --load)")
    add_param_options(p)
    p.add_argument("--level", type=int, default=None, help="strength of the agent seats without a spec, 1..10 (default 5, the middle of the "
                        "game's ladder; higher levels search more and are stronger; docs/levels.md)")
    p.add_argument("--seats", default=None,
                   help="comma-separated seat specs in seat order (default: human at seat 0, agents at --level)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random, printed)")
    p.add_argument("--load", metavar="FILE", default=None, help="resume a game saved with `save FILE`")
    p.add_argument("--hint", metavar="AGENT", default="ismcts:iterations=5000",
                   help="the agent behind the hint command (default ismcts:iterations=5000)")
    return p


def _fail(message: str) -> int:
    print(f"tabuleiro play: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Run ``tabuleiro play`` with parsed arguments; the exit status."""
    try:
        import rich  # noqa: F401
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from rich.console import Console

    from .._cli_params import params_from_args
    from .._game import game_class, games, load_game
    from .seats import DEFAULT_LEVEL, make_seat, split_seats
    from .session import Session, load_save

    level = DEFAULT_LEVEL if args.level is None else args.level
    if not 1 <= level <= 10:
        return _fail(f"--level must be 1..10, not {level}")
    seed = args.seed
    if seed is not None and not 0 <= seed < 2**64:
        return _fail("--seed must be in [0, 2**64)")
    saved_seats: Optional[list[str]] = None
    if args.load:
        try:
            with open(args.load, encoding="utf-8") as f:
                data = json.load(f)
            state, saved_seats = load_save(data)
        except OSError as e:
            return _fail(f"cannot read {args.load}: {e.strerror or e}")
        except ValueError as e:                 # JSON, InvalidStateError, our checks
            return _fail(f"cannot load {args.load}: {' '.join(str(e).split())[:300]}")
        except TypeError as e:
            return _fail(f"cannot load {args.load}: {e}")
        if args.game and args.game != state.game.name:
            return _fail(f"{args.load} holds a {state.game.name} game, not {args.game}")
        if seed is None:
            seed = data.get("seed", 0) if isinstance(data.get("seed", 0), int) else 0
    else:
        if not args.game:
            return _fail(f"choose a game: tabuleiro play {' | '.join(games())} (or --load FILE)")
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        try:
            params = params_from_args(game_class(args.game), args)
        except ValueError as e:
            return _fail(str(e))
        state = load_game(args.game, **params).new_initial_state(seed=seed)
    n = state.game.num_players
    if args.seats is not None:
        specs = split_seats(args.seats)
    elif saved_seats is not None and args.level is None:
        specs = saved_seats
    else:
        specs = ["human"] + [f"level:{level}"] * (n - 1)
    if len(specs) != n:
        return _fail(f"{n} seats are needed, --seats gives {len(specs)}")
    try:
        seats = [make_seat(s, i, seed) for i, s in enumerate(specs)]
        hint = make_seat(args.hint, 99, seed)
    except (ValueError, TypeError) as e:
        return _fail(str(e))
    if not any(s.human for s in seats):
        return _fail("at least one seat must be human")
    if hint.human:
        return _fail("--hint needs an agent, not human")
    console = Console(highlight=False)
    if not args.load:
        console.print(f"seed {seed}", style="dim")
    try:
        import readline  # noqa: F401  (line editing and history at the prompt, where available)
    except ImportError:  # pragma: no cover
        pass
    session = Session(console, state, seats, hint=args.hint, seed=seed)
    return session.run()
