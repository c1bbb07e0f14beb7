"""Command-line options built from the games' parameters (``Game.param_specs()``),
shared by ``tabuleiro play``, ``tabuleiro demo`` and ``tabuleiro arena``: one
option per parameter name any registered game takes (``players`` is
``--players N``, ``expansion`` is ``--expansion``, ``first_player`` is
``--first-player N``), so no command names a game.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_param_options(p)
>>> from tabuleiro import load_game
>>> params_from_args(type(load_game("capulana")), p.parse_args(["--players", "4"]))
{'players': 4}
>>> params_from_args(type(load_game("capulana")), p.parse_args(["--expansion"]))
Traceback (most recent call last):
...
ValueError: --expansion is for Capivárias
"""

from __future__ import annotations

import argparse
from typing import Any

from ._game import Game, Param, game_class, games, load_game

__all__ = ["add_param_options", "params_from_args"]


def _specs() -> dict[str, list[tuple[type[Game], Param]]]:
    """Each parameter name, with the games taking it (in registry order)."""
    out: dict[str, list[tuple[type[Game], Param]]] = {}
    for name in games():
        cls = game_class(name)
        for p in cls.param_specs():
            out.setdefault(p.name, []).append((cls, p))
    return out


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def add_param_options(parser: argparse.ArgumentParser) -> None:
    """One option per game parameter, default None (not given), with each
    game's help line."""
    for name, owners in _specs().items():
        helps = []
        for cls, p in owners:
            extra = "" if p.type is bool else f" ({p.low} to {p.high}, default {p.default})"
            helps.append(f"{cls.title}: {p.help or name}{extra}")
        if all(p.type is bool for _, p in owners):
            parser.add_argument(_flag(name), action="store_true", default=None, help="; ".join(helps))
        else:
            parser.add_argument(_flag(name), type=int, default=None, metavar="N", help="; ".join(helps))


def params_from_args(cls: type[Game], args: argparse.Namespace) -> dict[str, Any]:
    """The parameters of game ``cls`` the parsed options give (those not
    given keep the game's defaults). ``--players N`` is accepted for a game
    with a fixed number of players when N is that number.

    :raises ValueError: an option the game does not take, or a value out of
        its range, naming the option.
    """
    specs = {p.name: p for p in cls.param_specs()}
    out: dict[str, Any] = {}
    for name, owners in _specs().items():
        value = getattr(args, name, None)
        if value is None:
            continue
        p = specs.get(name)
        if p is None:
            if name == "players":
                n = load_game(cls.name).num_players
                if value == n:
                    continue
                raise ValueError(f"{_flag(name)}: {cls.title} is played by {n} players, not {value}")
            raise ValueError(f"{_flag(name)} is for {', '.join(c.title for c, _ in owners)}")
        if p.type is bool:
            out[name] = bool(value)
        elif not p.low <= value <= p.high:
            raise ValueError(f"{_flag(name)} must be {p.low} to {p.high}")
        else:
            out[name] = value
    return out
