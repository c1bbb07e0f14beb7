"""How the binding makes state objects (issue 27): the Limited API build
calls a checked state class's tp_alloc itself and writes what CoreState's
tp_new would (the vtable pointer, core_game), the version-specific build goes
through tp_new. Whichever path a build takes, every way of making a state
must give a working object of the game's state class, with balanced
references, for the game's own class and for a user's subclass of it (one
with a ``__dict__`` and weak references, so a larger object), and an
abstract or foreign class must be refused as before."""

from __future__ import annotations

import abc
import gc
import sys
import weakref

import pytest

from tabuleiro import _core, capivarias, capulana, load_game


def test_the_limited_api_build_allocates_itself() -> None:
    abi3 = ".abi3." in _core.__file__ or _core.__file__.endswith(".pyd")
    assert _core._state_allocation() == ("tp_alloc" if abi3 else "tp_new")


def every_way_of_making(s: capulana.State) -> list[capulana.State]:
    return [s.clone(), s.determinize(0, seed=4), type(s).from_dict(s.to_dict()), s.root(),
            s.game.new_initial_state(seed=9)]


def test_every_way_of_making_a_state_gives_a_working_one() -> None:
    s = capulana.new_game(players=3, seed=5)
    for _ in range(20):
        s.push(s.legal_moves()[0])
    for t in every_way_of_making(s):
        assert type(t) is capulana.State and t.game is s.game
        assert t.legal_actions() and t.to_json()
    c = s.clone()
    assert c == s and c.history() == s.history()
    c.push(c.legal_moves()[0])
    assert c != s and len(s.history()) == 20 and c.history()[:20] == s.history()


def test_references_stay_balanced() -> None:
    s = capivarias.new_game(seed=2)
    s.push(s.legal_moves()[0])
    core = s.game._core
    for _ in range(100):            # warm caches (a freed object may keep an interned value)
        s.clone()
    gc.collect()
    before = (sys.getrefcount(core), sys.getrefcount(None), sys.getrefcount(type(s)))
    for _ in range(5000):
        t = s.clone()
        u = t.determinize(1, seed=3)
        del t, u
    gc.collect()
    after = (sys.getrefcount(core), sys.getrefcount(None), sys.getrefcount(type(s)))
    assert after[0] == before[0] and after[2] == before[2]
    assert abs(after[1] - before[1]) < 50        # None: not one reference per state made


def test_a_subclass_with_a_dict_and_weak_references() -> None:
    game = load_game("capulana", players=2)

    class Annotated(capulana.State):   # no __slots__: a __dict__ and __weakref__ after CoreState's fields
        pass

    game._core.state_class = Annotated
    try:
        s = game.new_initial_state(seed=3)
        assert type(s) is Annotated
        s.note = "kept"
        s.push(s.legal_moves()[0])
        c = s.clone()
        assert type(c) is Annotated and c == s and not hasattr(c, "note")
        assert vars(c) == {}
        ref = weakref.ref(c)
        del c
        gc.collect()
        assert ref() is None
        for t in every_way_of_making(s):
            assert type(t) is Annotated and t.legal_actions()
    finally:
        game._core.state_class = capulana.State


def test_an_abstract_or_foreign_class_is_refused() -> None:
    game = load_game("capivarias")

    class Abstract(capivarias.State, metaclass=abc.ABCMeta):  # type: ignore[misc]
        @abc.abstractmethod
        def must(self) -> None: ...

    s = game.new_initial_state(seed=1)
    try:
        game._core.state_class = Abstract
        with pytest.raises(TypeError, match="abstract"):
            s.clone()
        game._core.state_class = int
        with pytest.raises(TypeError):
            s.clone()
    finally:
        game._core.state_class = capivarias.State
    assert type(s.clone()) is capivarias.State


def test_a_class_made_abstract_later_is_refused_from_then_on() -> None:
    game = load_game("capivarias")

    class Later(capivarias.State):
        def must(self) -> None: ...

    s = game.new_initial_state(seed=2)
    try:
        game._core.state_class = Later
        assert type(s.clone()) is Later and type(s.clone()) is Later   # checked, then the cached path
        Later.__abstractmethods__ = frozenset({"must"})
        with pytest.raises(TypeError, match="abstract"):
            s.clone()
        Later.__abstractmethods__ = frozenset()
        assert type(s.clone()) is Later
    finally:
        game._core.state_class = capivarias.State
