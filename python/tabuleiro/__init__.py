"""tabuleiro: fast engines and search for the card games Capulana and Capivárias.

>>> import tabuleiro
>>> game = tabuleiro.load_game("capivarias")
>>> state = game.new_initial_state(seed=7)
>>> state.current_player
0
>>> from tabuleiro import capivarias
>>> capivarias.new_game(seed=7) == state
True
"""

from __future__ import annotations

from ._errors import (EngineError, GameOverError, IllegalMoveError, InvalidMoveError, InvalidStateError,
                      TabuleiroError)
from ._game import Game, GameInfo, Param, game_of, games, load_game, load_state, load_view
from ._state import Move, Outcome, State
from ._version import __version__

__all__ = [
    "EngineError",
    "Game",
    "GameInfo",
    "Param",
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidStateError",
    "Move",
    "Outcome",
    "State",
    "TabuleiroError",
    "__version__",
    "game_of",
    "games",
    "load_game",
    "load_state",
    "load_view",
]
