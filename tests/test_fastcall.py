"""The abi3 build's METH_FASTCALL entry points (src/fastcall.pxi, issue 27).

In the abi3 build, the methods that step loops call with arguments run
their work directly when called with exactly their positional arguments,
and hand every other call to Cython's own method. Both paths must behave
alike: the same results, the same exceptions with the same messages, the
same signature and docstring. (In the version-specific build both calls
reach Cython's method, and these tests hold trivially.)"""

from __future__ import annotations

import inspect
from array import array
from typing import Any, Callable

import pytest

from tabuleiro import _core, capivarias, capulana

METHODS = {"_apply_action": ["action"], "try_push": ["action"], "_determinize": ["player", "seed"],
           "_greedy": ["seed"], "observe_into": ["player", "obs", "mask"], "infostate_key": ["player"]}


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - compared, not swallowed
        return "raised", (type(e), str(e))
    if isinstance(r, _core.CoreState):
        return "state", (r._encode(), r._history())
    return "value", r


def both(make: Callable[[], Any], name: str, *args: Any) -> None:
    """name(*args) positionally (the fast path in abi3) and by keyword (Cython's method), on equal states."""
    a, b = make(), make()
    kw = dict(zip(METHODS[name], args))
    got_pos = outcome(lambda: getattr(a, name)(*args))
    got_kw = outcome(lambda: getattr(b, name)(**kw))
    assert got_pos == got_kw, (name, args)
    assert a._encode() == b._encode() and a._history() == b._history()


BAD = [None, "3", 2.0, True, -1, 10**30, -(10**30), 2**63, 2**64]


@pytest.mark.parametrize("make", [lambda: capivarias.new_game(seed=3),
                                  lambda: capulana.new_game(players=4, seed=3)], ids=["capivarias", "capulana"])
def test_positional_and_keyword_calls_agree(make: Callable[[], Any]) -> None:
    st = make()
    n = st.game.num_distinct_actions
    for a in st.legal_actions()[:3] + [n - 1, n, 0] + BAD:
        both(make, "_apply_action", a)
        both(make, "try_push", a)
    for p in [0, 1, 5] + BAD:
        both(make, "infostate_key", p)
        for seed in [0, 7, 2**64 - 1] + BAD:
            both(make, "_determinize", p, seed)
    for seed in [0, 9, 2**64 - 1] + BAD:
        both(make, "_greedy", seed)
    obs = array("f", bytes(4 * st.game.observation_size))
    mask = bytearray(n)
    for p in [0, 1, 9, None]:
        for o, m in [(obs, mask), (obs, bytearray(1)), (b"", mask), (None, None)]:
            both(make, "observe_into", p, o, m)


def test_wrong_argument_counts_agree() -> None:
    st = capivarias.new_game(seed=3)
    for name, params in METHODS.items():
        fn = getattr(st, name)
        for args in [(), tuple(range(len(params) + 1))]:
            with pytest.raises(TypeError) as e:
                fn(*args)
            assert name in str(e.value)
        with pytest.raises(TypeError):
            fn(*([0] * len(params)), nonsense=1)


def test_signatures_and_docstrings() -> None:
    for name, params in METHODS.items():
        m = getattr(_core.CoreState, name)
        assert list(inspect.signature(m).parameters) == ["self", *params]
        assert m.__name__ == name
    assert "legal" in (_core.CoreState.try_push.__doc__ or "")
    assert capivarias.State.try_push is _core.CoreState.try_push


def test_fast_path_on_a_subclass_and_wrong_self() -> None:
    st = capivarias.new_game(seed=3)
    a = st.legal_actions()[0]
    assert _core.CoreState._apply_action(st, a) == 0 and st.history() == [a]
    with pytest.raises(TypeError):
        _core.CoreState._apply_action(object(), a)
