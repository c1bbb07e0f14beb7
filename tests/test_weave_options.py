"""State.weaving_options() returns a WeaveOptions: one packed C buffer, each
WeaveOption made on first access (issue 27). It must behave as the list it
replaced for every read: length, indices (negative too), slices, iteration
both ways, membership, equality with lists and tuples, repr, copying, and
stay valid after the state it came from moves on."""

from __future__ import annotations

import collections.abc
import copy
import pickle
import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabuleiro import capulana


def weaving_position(seed: int, players: int = 2) -> capulana.State:
    rng = random.Random(seed)
    s = capulana.new_game(players=players, seed=seed)
    while s.phase != "weave" or not s.weaving_options():
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_a_sequence_that_reads_as_the_list_it_replaced() -> None:
    s = weaving_position(3)
    opts = s.weaving_options()
    items = list(opts)
    n = len(opts)
    assert n == len(items) > 1
    assert isinstance(opts, collections.abc.Sequence)
    assert isinstance(opts, capulana.WeaveOptions)
    assert all(isinstance(o, capulana.WeaveOption) for o in items)
    assert [opts[i] for i in range(n)] == items
    assert [opts[i - n] for i in range(n)] == items
    assert opts[-1] is opts[n - 1] is items[-1]          # made once, kept
    assert list(reversed(opts)) == items[::-1]
    assert opts[1:3] == items[1:3] and opts[::-2] == items[::-2] and opts[5:2] == []
    assert isinstance(opts[:], list)
    assert opts == items and items == opts
    assert opts != tuple(items) and (items == tuple(items)) is False   # as a list: not equal to a tuple
    assert not (opts != items)
    assert opts != items[:-1] and opts != items[::-1]
    assert opts == s.weaving_options()                   # two calls, equal options
    assert repr(opts) == repr(items)
    assert items[2] in opts and "stop" not in opts and None not in opts
    assert opts.index(items[2]) == 2 and opts.count(items[2]) == 1
    # membership, index and count as a list's: identity, then ==, either side's __eq__
    assert (mock.ANY in opts) is (mock.ANY in items) is True
    assert opts.index(mock.ANY) == items.index(mock.ANY) == 0
    assert opts.count(mock.ANY) == items.count(mock.ANY) == n
    assert opts.index(items[-1], -1) == n - 1 and opts.index(items[1], 1, 2) == 1
    with pytest.raises(TypeError):
        opts.index(items[0], None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        opts.index(items[2], 3)
    assert bool(opts)
    assert max(opts, key=lambda o: o.final_score) == max(items, key=lambda o: o.final_score)
    assert sorted(opts, key=lambda o: -o.score) == sorted(items, key=lambda o: -o.score)
    assert random.Random(1).sample(opts, 2) == random.Random(1).sample(items, 2)


def test_bad_indices_name_the_problem() -> None:
    opts = weaving_position(4).weaving_options()
    n = len(opts)
    for i in (n, -n - 1, 2**70, -(2**70)):
        with pytest.raises(IndexError, match="out of range"):
            opts[i]
    with pytest.raises(TypeError, match="integers or slices, not str"):
        opts["0"]  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="not made directly"):
        capulana.WeaveOptions()
    with pytest.raises(TypeError):
        hash(opts)
    with pytest.raises(TypeError):
        opts[0] = opts[1]  # type: ignore[index]


def test_empty_outside_weaving() -> None:
    opts = capulana.new_game(players=4, seed=2).weaving_options()
    assert len(opts) == 0 and not opts and opts == [] and list(opts) == [] and repr(opts) == "[]"
    with pytest.raises(IndexError):
        opts[0]


def test_independent_of_the_state_and_copyable() -> None:
    s = weaving_position(5, players=3)
    opts = s.weaving_options()
    before = [(o.actions, o.strips, o.score, o.final_score) for o in opts]
    while not s.is_terminal:                             # the state moves on; the options stay
        s.apply(s.legal_actions()[0])
    del s
    assert [(o.actions, o.strips, o.score, o.final_score) for o in opts] == before
    assert copy.copy(opts) == opts
    with pytest.raises(TypeError, match="Pickling"):     # as the list of WeaveOptions it replaced
        pickle.dumps(opts)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), data=st.data())
def test_any_access_order_gives_the_same_options(seed: int, players: int, data: st.DataObject) -> None:
    s = weaving_position(seed, players)
    reference = list(s.weaving_options())
    opts = s.weaving_options()
    order = data.draw(st.lists(st.integers(-len(reference), len(reference) - 1), max_size=30))
    for i in order:
        assert opts[i] == reference[i]
    assert list(opts) == reference


def test_sequence_patterns_match() -> None:
    opts = weaving_position(6).weaving_options()
    match opts:
        case [first, second, *rest]:
            assert (first, second) == (opts[0], opts[1]) and len(rest) == len(opts) - 2
        case _:
            pytest.fail("a WeaveOptions of two or more options must match [first, second, *rest]")
    match capulana.new_game(players=2, seed=1).weaving_options():
        case []:
            pass
        case _:
            pytest.fail("no options must match []")


def test_an_option_made_once_even_when_asked_for_again() -> None:
    opts = weaving_position(7).weaving_options()
    first = [opts[i] for i in range(len(opts))]
    assert all(a is b for a, b in zip(first, opts))
    assert all(a is b for a, b in zip(reversed(first), reversed(opts)))
