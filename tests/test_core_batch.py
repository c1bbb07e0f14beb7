"""The batch's parameters, checked once where they enter (issue 26 item 1).

``game.batch(n, seed=, threads=)`` and ``Batch.state(i)``: a wrong type is a
TypeError, a value out of range a ValueError, each naming the parameter and
its range, and a batch that would take more than ``MAX_BATCH_BYTES`` is
refused before anything is allocated (``capulana`` with 5 players and
n = 10**6 took ~29 GB and was OOM-killed).
"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")

import tabuleiro  # noqa: E402
from tabuleiro import vector  # noqa: E402
from tabuleiro.vector import MAX_BATCH_BYTES, Batch, VectorEnv  # noqa: E402

GAMES = [("toy", {}), ("capivarias", {}), ("capivarias", {"expansion": True}), ("capulana", {"players": 2}),
         ("capulana", {"players": 5})]


def _game(name: str, params: dict[str, Any]) -> Any:
    return tabuleiro.load_game(name, **params)


@pytest.mark.parametrize("name,params", GAMES)
def test_bytes_per_game_counts_every_buffer(name: str, params: dict[str, Any]) -> None:
    """The figure the limit is checked against covers the C states and the numpy outputs."""
    g = _game(name, params)
    b = g.batch(3, seed=1)
    numpy_bytes = sum(a.nbytes for a in b._owned) // 3
    per_game = vector.bytes_per_game(g)
    assert per_game >= numpy_bytes + g._core.info["state_size"]
    assert per_game <= numpy_bytes + 4 * g._core.info["state_size"] + 8 * 1024 + 64   # and not wildly more


@pytest.mark.parametrize("name,params", GAMES)
def test_max_games_is_the_memory_limit(name: str, params: dict[str, Any]) -> None:
    g = _game(name, params)
    most = vector.max_games(g)
    assert 1 <= most <= 2 ** 31 - 1
    assert most * vector.bytes_per_game(g) <= MAX_BATCH_BYTES
    assert most == 2 ** 31 - 1 or (most + 1) * vector.bytes_per_game(g) > MAX_BATCH_BYTES


def test_the_probe_batch_is_refused_before_allocating() -> None:
    """capulana, 5 players, 10**6 games: ~29 GB. Refused with the limit named
    (run under a 2 GB address-space limit before the fix, it raised
    MemoryError from the allocation instead; unlimited, it was OOM-killed)."""
    g = tabuleiro.load_game("capulana", players=5)
    with pytest.raises(ValueError, match=r"n must be an integer in \[1, \d+\].*MAX_BATCH_BYTES") as e:
        g.batch(10 ** 6, seed=1)
    assert "1000000" in str(e.value)


@pytest.mark.parametrize("n", [2 ** 31, 2 ** 63, 2 ** 64, 10 ** 30])
def test_huge_n_is_a_value_error(n: int) -> None:
    with pytest.raises(ValueError, match=r"n must be an integer in \[1, "):
        tabuleiro.load_game("toy").batch(n, seed=1)


@pytest.mark.parametrize("n", [0, -1, -(2 ** 64)])
def test_small_n_is_a_value_error(n: int) -> None:
    with pytest.raises(ValueError, match=r"n must be an integer in \[1, "):
        tabuleiro.load_game("toy").batch(n, seed=1)


@pytest.mark.parametrize("n", [True, False, 1.5, 2.0, "4", None, np.float64(3)])
def test_n_of_another_type_is_a_type_error(n: Any) -> None:
    with pytest.raises(TypeError, match="n must be an integer"):
        tabuleiro.load_game("toy").batch(n, seed=1)


def test_numpy_integers_are_integers() -> None:
    b = tabuleiro.load_game("toy").batch(np.int64(3), seed=np.uint64(1), threads=np.int32(2))
    assert b.n == 3 and type(b.n) is int and b._core.threads == 2
    assert b.state(np.int16(2)).current_player is not None


@pytest.mark.parametrize("threads", [True, False, 1.5, 2.0, "2", None])
def test_threads_of_another_type_is_a_type_error(threads: Any) -> None:
    with pytest.raises(TypeError, match="threads must be an integer"):
        tabuleiro.load_game("toy").batch(4, seed=1, threads=threads)


@pytest.mark.parametrize("threads", [0, -1, 65, 2 ** 31, 2 ** 64, 10 ** 30])
def test_threads_out_of_range_is_a_value_error(threads: int) -> None:
    with pytest.raises(ValueError, match=r"threads must be an integer in \[1, 64\]"):
        tabuleiro.load_game("toy").batch(4, seed=1, threads=threads)


@pytest.mark.parametrize("i", [True, False, 1.5, 1.0, "1", None])
def test_state_index_of_another_type_is_a_type_error(i: Any) -> None:
    b = tabuleiro.load_game("toy").batch(4, seed=1)
    with pytest.raises(TypeError, match="i must be an integer"):
        b.state(i)


@pytest.mark.parametrize("i", [-1, 4, 2 ** 31, 2 ** 64, -(2 ** 64)])
def test_state_index_out_of_range_is_a_value_error(i: int) -> None:
    b = tabuleiro.load_game("toy").batch(4, seed=1)
    with pytest.raises(ValueError, match=r"i must be an integer in \[0, 3\]"):
        b.state(i)


def test_vector_env_checks_the_same_way() -> None:
    g = tabuleiro.load_game("capulana", players=5)
    with pytest.raises(ValueError, match="MAX_BATCH_BYTES"):
        VectorEnv(g, 10 ** 6, seed=1)
    with pytest.raises(TypeError, match="n must be an integer"):
        VectorEnv(g, 2.0, seed=1)
    with pytest.raises(TypeError, match="threads must be an integer"):
        VectorEnv(g, 2, seed=1, threads=True)


def test_the_core_batch_checks_too() -> None:
    """The binding's own class refuses the same values (no OverflowError, no silent cast)."""
    g = tabuleiro.load_game("toy")
    core = vector._core.CoreBatch
    for n, exc in [(2 ** 64, ValueError), (1.5, TypeError), (True, TypeError), (0, ValueError)]:
        with pytest.raises(exc, match="n must be an integer"):
            core(g._core, n, 1, 1)
    for t, exc in [(2 ** 64, ValueError), (1.5, TypeError), (True, TypeError)]:
        with pytest.raises(exc, match="threads must be an integer"):
            core(g._core, 2, 1, t)


def test_valid_batches_still_work() -> None:
    b = Batch(tabuleiro.load_game("capivarias"), 4, seed=1, threads=2)
    for _ in range(20):
        b.step()
    assert b.state(3).game.name == "capivarias"
