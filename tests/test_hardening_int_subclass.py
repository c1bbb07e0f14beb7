"""An int subclass that overrides its comparisons must not pass a range check
whose value goes on to C. Before the fix ``Liar(7)`` was accepted as a player
of a two-player game by ``view``, ``determinize``, ``infostate_key`` and
``observation`` (C then read a player 7 out of bounds), as a game parameter
(``players=Liar(99)``) and as a perft depth: each check compared with the
subclass's own ``<=``/``<``, which say True to anything."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tabuleiro
from tabuleiro import capulana


class Liar(int):
    """An int whose comparisons always say yes."""

    def __lt__(self, other: Any) -> bool:
        return True

    def __le__(self, other: Any) -> bool:
        return True

    def __gt__(self, other: Any) -> bool:
        return True

    def __ge__(self, other: Any) -> bool:
        return True


def _state() -> Any:
    return tabuleiro.load_game("capulana", players=2).new_initial_state(seed=1)


CALLS: dict[str, Callable[[], Any]] = {
    "view": lambda: _state().view(Liar(7)),
    "determinize": lambda: _state().determinize(Liar(7), 3),
    "infostate_key": lambda: _state().infostate_key(Liar(100000)),
    "observation": lambda: _state().observation(Liar(7)),
    "strips": lambda: _state().strips(Liar(7)),
    "from_view": lambda: _state().game.from_view(_state().view(0), player=Liar(7)),
    "load_game players": lambda: tabuleiro.load_game("capulana", players=Liar(99)),
    "perft depth": lambda: _state().perft(Liar(1000)),
    "move_to_string": lambda: _state().game.action_to_string(Liar(1 << 40)),
    "Move": lambda: capulana.Move(Liar(1 << 40)),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_an_int_subclass_is_judged_by_its_value(name: str) -> None:
    with pytest.raises(ValueError, match="must be|not an integer"):
        CALLS[name]()


def test_an_honest_int_subclass_still_works_and_is_stored_as_an_int() -> None:
    class Tagged(int):
        pass

    s = _state()
    assert s.view(Tagged(1)) == s.view(1)
    assert s.determinize(Tagged(1), 3).to_dict() == s.determinize(1, 3).to_dict()
    assert s.infostate_key(Tagged(0)) == s.infostate_key(0)
    m = capulana.Move(Tagged(3))
    assert type(m.action) is int and m == capulana.Move(3)
    g = tabuleiro.load_game("capulana", players=Tagged(3))
    assert g.num_players == 3 and all(type(v) is int for v in g.params.values() if not isinstance(v, bool))
