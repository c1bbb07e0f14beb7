"""tabuleiro: fast engines and search for the card games Capulana and Capivárias.

>>> from tabuleiro import capivarias
>>> state = capivarias.new_game(seed=7)
>>> state.current_player
0
"""

from __future__ import annotations

from ._errors import IllegalMoveError, InvalidMoveError, InvalidStateError

__version__ = "0.1.0"

__all__ = ["IllegalMoveError", "InvalidMoveError", "InvalidStateError", "__version__"]
