"""PettingZoo AEC environments of the tabuleiro games (``pip install
'tabuleiro[pettingzoo]'``): one module ``<game>_v0`` for every registered
game (``tabuleiro.games()``: ``capivarias_v0``, ``capulana_v0``, ``toy_v0``),
each with ``raw_env`` and the wrapped ``env()``, whose keyword parameters are
the game's own (``Game.param_specs()``). Observations are the tensors of
docs/observations.md with the legal-action mask; numpy, gymnasium and
pettingzoo are imported only when an environment module is.

The modules are made from the registry (``_aec.fill_module``) when first
imported, by any of ``from tabuleiro.envs import capulana_v0``, ``import
tabuleiro.envs.capulana_v0``, ``tabuleiro.envs.capulana_v0`` or
``importlib.import_module``: no file here names a game.

>>> import tabuleiro.envs
>>> tabuleiro.envs.__all__
['capivarias_v0', 'capulana_v0', 'toy_v0']
>>> tabuleiro.envs.env_name("toy")
'toy_v0'
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any, Optional, Sequence

from .._game import games

#: the version suffix of every environment's name
VERSION = "_v0"


def env_name(game: str) -> str:
    """The environment module's name of a registered game.

    >>> env_name("capulana")
    'capulana_v0'
    """
    return game + VERSION


def game_of_module(fullname: str) -> Optional[str]:
    """The registered game whose environment module ``fullname`` is
    (``"tabuleiro.envs.capulana_v0"`` -> ``"capulana"``), or None.

    >>> game_of_module("tabuleiro.envs.capulana_v0"), game_of_module("tabuleiro.envs.chess_v0")
    ('capulana', None)
    """
    prefix = __name__ + "."
    if not fullname.startswith(prefix) or not fullname.endswith(VERSION):
        return None
    game = fullname[len(prefix):-len(VERSION)]
    return game if game in games() else None


class _EnvModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and makes ``tabuleiro.envs.<game>_v0`` for the registered
    games (only those names: every other import is left to the usual
    finders, which come first)."""

    tabuleiro_envs = True

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        game = game_of_module(fullname)
        if game is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, origin=f"tabuleiro.envs._aec ({game})")

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[ModuleType]:
        return None   # the default module

    def exec_module(self, module: ModuleType) -> None:
        from ._aec import fill_module   # numpy, gymnasium and pettingzoo from here on

        game = game_of_module(module.__name__)
        assert game is not None
        fill_module(module, game)


# one finder, also when this package is reloaded
sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "tabuleiro_envs", False)] + [_EnvModules()]

__all__ = [env_name(g) for g in games()]


def __getattr__(name: str) -> Any:
    """``tabuleiro.envs.<game>_v0`` without importing it first."""
    if game_of_module(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
