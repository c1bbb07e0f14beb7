"""Batched stepping in C: n games of one game in one C array (the EnvPool /
pgx idea), stepped in one call from a numpy array of actions or with random
legal actions chosen in C, finished games restarted at once, observations
(docs/observations.md), legal-action masks, rewards and done flags written by
C straight into numpy arrays: no per-game Python work, no per-step
allocation, the GIL released while C runs.

>>> import tabuleiro
>>> b = tabuleiro.load_game("capivarias").batch(4, seed=7)
>>> obs, mask, player = b.reset()
>>> obs.shape, mask.shape, obs.dtype, mask.dtype
((4, 418), (4, 3248), dtype('float32'), dtype('uint8'))
>>> obs, mask, rewards, done, player = b.step()          # random legal actions, in C
>>> actions = b.sample_actions(seed=1)                    # or any legal ids from numpy
>>> _ = b.step(actions)

Every game i has its own generator (derived from ``seed`` and i) that
draws the seed of each game it starts and its random actions, so results
do not depend on n, on the other games or on ``threads``.

Auto-reset is Gymnasium's "same-step" mode: when a step ends game i,
``done[i]`` is True, ``rewards[i]`` holds its true returns (one per player;
zeros on every other step) and ``obs[i]``, ``mask[i]`` and ``player[i]``
already describe the new game. The arrays a Batch returns are read-only
views of its own buffers, overwritten by the next call: copy what you keep
(``VectorEnv`` returns copies unless made with ``copy=False``).

>>> obs[0, 0] = 1.0
Traceback (most recent call last):
...
ValueError: assignment destination is read-only

numpy is needed here (``pip install tabuleiro[vector]``); the core package
does not import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from . import _core
from ._errors import IllegalMoveError
from ._fields import check_seed

if TYPE_CHECKING:                   # Game.batch() imports this module: no import of _game at run time
    from ._game import Game

__all__ = ["Batch", "VectorEnv", "MAX_BATCH_BYTES", "bytes_per_game", "max_games"]

#: The most memory one batch may take (4 GiB): its C states and the numpy
#: arrays it hands out together. ``game.batch(n)`` with a larger n raises
#: ValueError before anything is allocated.
MAX_BATCH_BYTES: int = _core.MAX_BATCH_BYTES


def bytes_per_game(game: Game) -> int:
    """Bytes one game of a batch of ``game`` takes (its C state and its rows
    of every output array); ``n`` games take n times as much.

    >>> import tabuleiro
    >>> bytes_per_game(tabuleiro.load_game("capulana", players=5))
    28701
    """
    return int(_core.batch_bytes_per_game(game._core))


def max_games(game: Game) -> int:
    """The largest ``n`` a batch of ``game`` may have: ``MAX_BATCH_BYTES //
    bytes_per_game(game)``, at most 2**31 - 1.

    >>> import tabuleiro
    >>> max_games(tabuleiro.load_game("capulana", players=5))
    149645
    """
    return int(_core.batch_max_games(game._core))


def _np() -> Any:
    try:
        import numpy
    except ImportError as e:  # pragma: no cover - numpy is in the test extra
        raise ImportError("tabuleiro.vector needs numpy: pip install 'tabuleiro[vector]'") from e
    return numpy


class Batch:
    """n games of ``game`` stepped together in C (``game.batch(n, seed=...)``).

    Attributes (numpy arrays, the C outputs): ``obs`` float32 (n,
    observation_size), ``mask`` uint8 (n, num_distinct_actions), ``rewards``
    float32 (n, num_players), ``done`` bool (n), ``player`` int32 (n, the
    player to move in each game), ``length`` int32 (n, actions played in the
    current game; a finished game's length on the step that ends it),
    ``legal`` int32 (n, legal_cap: each game's legal ids, ascending, in the
    first ``num_legal[i]`` entries) and ``num_legal`` int32 (n). They are
    read-only views of buffers the batch owns, overwritten by each step. C
    reads back only its own copies of what it needs (the legal ids, the
    lengths, the done flags), so even a write through to the buffers behind
    the views changes only what the writer reads (a changed ``mask`` stays
    changed where C does not rewrite it, until ``reset``).

    One batch is stepped by one thread at a time: a call while another
    thread's step or reset runs raises RuntimeError.

    ``n`` is an integer from 1 to :func:`max_games` (the batch may take at
    most ``MAX_BATCH_BYTES``, 4 GiB, counted by :func:`bytes_per_game`),
    ``threads`` one from 1 to 64: anything else raises TypeError (not an
    integer; bools and floats are not) or ValueError (out of range, the
    range named) before anything is allocated.

    >>> import tabuleiro
    >>> tabuleiro.load_game("capulana", players=5).batch(10**6, seed=1)
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer in [1, 149645] for capulana players=5 legacy_determinize=0 (a game takes 28,701 bytes, a batch at most MAX_BATCH_BYTES = 4 GiB), not 1000000
    """

    obs: Any
    mask: Any
    rewards: Any
    done: Any
    player: Any
    length: Any
    legal: Any
    num_legal: Any

    def __init__(self, game: Game, n: int, *, seed: int, threads: int = 1) -> None:
        np = _np()
        # every parameter is checked once, before anything is allocated: the
        # seed here, n (1 to max_games(game), the MAX_BATCH_BYTES limit) and
        # threads (1 to 64) by the C batch (TypeError / ValueError naming them)
        self._core = _core.CoreBatch(game._core, n, check_seed(seed), threads)
        n = self._core.n
        self.game = game
        self.n = n
        info = game.info
        self._na = info.num_distinct_actions
        shapes = [("obs", (n, info.observation_size), np.float32), ("mask", (n, info.num_distinct_actions), np.uint8),
                  ("rewards", (n, info.num_players), np.float32), ("done", (n,), np.bool_),
                  ("player", (n,), np.int32), ("length", (n,), np.int32),
                  ("legal", (n, self._core.legal_cap), np.int32), ("num_legal", (n,), np.int32)]
        owned = tuple(np.zeros(shape, dtype) for _, shape, dtype in shapes)
        self._owned = owned   # the writable buffers C writes (bench/bench_vector.py rebinds them)
        self._core.bind(*owned)
        for (name, shape, dtype), buf in zip(shapes, owned):
            # a view that cannot be made writable again (its base is a read-only memoryview)
            setattr(self, name, np.frombuffer(memoryview(buf).toreadonly(), dtype).reshape(shape))
        self._core.reset()

    def reset(self, seed: Optional[int] = None) -> tuple[Any, Any, Any]:
        """Restart every game (new per-game generators from ``seed`` if given);
        (obs, mask, player)."""
        self._core.reset(None if seed is None else check_seed(seed))
        return self.obs, self.mask, self.player

    def step(self, actions: Any = None) -> tuple[Any, Any, Any, Any, Any]:
        """One action per game (an array of n legal ids of an integer dtype,
        or a sequence of ints), or None for uniformly random legal actions
        chosen in C; (obs, mask, rewards, done, player). IllegalMoveError
        names the first game whose action is not legal (then no game has
        moved); TypeError a non-integer array (floats are not truncated).

        >>> import tabuleiro
        >>> b = tabuleiro.load_game("capivarias").batch(2, seed=7)
        >>> b.step([0, 1])
        Traceback (most recent call last):
        ...
        tabuleiro._errors.IllegalMoveError: game 0: action 0 is not legal
        >>> b.step(b.sample_actions(seed=1) + 0.5)
        Traceback (most recent call last):
        ...
        TypeError: actions must be integers, not an array of float64
        """
        if actions is not None:
            actions = self._checked_actions(actions)
        self._core.step(actions)
        return self.obs, self.mask, self.rewards, self.done, self.player

    def _checked_actions(self, actions: Any) -> Any:
        """actions as a C-contiguous int32 array of n ids in [0, A), every
        value as given (no wrapping, no truncation), or the error."""
        np = _np()
        if isinstance(actions, np.ma.MaskedArray):
            raise TypeError("actions must be a plain integer array, not a masked array (its masked values "
                            "would be played): fill it first")
        if isinstance(actions, np.ndarray):
            arr = actions
        else:
            if isinstance(actions, (list, tuple)) and any(isinstance(a, (bool, np.bool_)) for a in actions):
                raise TypeError("actions must be integers, not bools")
            arr = np.asarray(actions)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not an array of {arr.dtype}")
        if arr.shape != (self.n,):
            raise ValueError(f"actions must have shape ({self.n},), not {arr.shape}")
        if arr.dtype != np.int32:
            out_of_range = (arr < 0) | (arr >= self._na)
            if out_of_range.any():
                # the first game whose action is not legal, as C would name it: in range, the mask says
                ok = ~out_of_range
                idx = np.flatnonzero(ok)
                ok[idx] = self.mask[idx, arr[idx]] != 0
                i = int(np.flatnonzero(~ok)[0])
                raise IllegalMoveError(f"game {i}: action {int(arr[i])} is not legal")
        return np.ascontiguousarray(arr, dtype=np.int32)

    def sample_actions(self, seed: Any) -> Any:
        """A uniformly random legal action per game (int32, n), drawn in numpy
        from the legal lists; ``seed``: an integer seed or a numpy Generator
        (one to draw from across calls)."""
        np = _np()
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(check_seed(seed))
        k = (rng.random(self.n) * self.num_legal).astype(np.int64)
        return self.legal[np.arange(self.n), k]

    def state(self, i: int) -> Any:
        """A copy of game i as a State (its move stack starts here); ``i`` an
        integer in [0, n - 1] (TypeError, ValueError)."""
        return self._core.state(i)

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return f"<Batch of {self.n} {self.game!r}>"


class VectorEnv:
    """A Gymnasium-style vector environment over a :class:`Batch` (one turn
    based game per slot, every player's turn a step, "same-step" auto-reset).

    ``reset(seed=)`` returns (obs, info); ``step(actions)`` returns (obs,
    rewards, terminations, truncations, info), where obs is ``{"observation":
    float32 (n, size), "action_mask": int8 (n, A)}`` for the player to move,
    ``rewards`` float32 (n, num_players) (the returns when a game ends, else
    0), and ``info["player"]`` the player to move. With gymnasium installed,
    ``single_observation_space`` and ``single_action_space`` are gymnasium
    spaces.

    As Gymnasium's own vector environments, it returns copies by default,
    which stay as they were after the next call (``copy=False``: the batch's
    own read-only buffers, overwritten by the next call, for speed).

    >>> import tabuleiro
    >>> env = VectorEnv(tabuleiro.load_game("capivarias"), 2, seed=3)
    >>> obs, info = env.reset()
    >>> before = obs["observation"].copy()
    >>> _ = env.step(env.batch.sample_actions(seed=0))
    >>> bool((obs["observation"] == before).all())
    True
    """

    metadata = {"autoreset_mode": "SameStep"}

    def __init__(self, game: Game, num_envs: int, *, seed: int = 0, threads: int = 1, copy: bool = True) -> None:
        self.batch = Batch(game, num_envs, seed=seed, threads=threads)
        self.num_envs = self.batch.n
        self.game = game
        self.copy = bool(copy)
        try:
            import gymnasium.spaces as sp
        except ImportError:
            self.single_observation_space = self.single_action_space = None
        else:
            np = _np()
            self.single_observation_space = sp.Dict({
                "observation": sp.Box(-np.inf, np.inf, (game.observation_size,), np.float32),
                "action_mask": sp.Box(0, 1, (game.num_distinct_actions,), np.int8),
            })
            self.single_action_space = sp.Discrete(game.num_distinct_actions)

    def _out(self, a: Any) -> Any:
        return a.copy() if self.copy else a

    def _obs(self) -> dict[str, Any]:
        return {"observation": self._out(self.batch.obs), "action_mask": self._out(self.batch.mask.view("int8"))}

    def reset(self, *, seed: Optional[int] = None, options: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self.batch.reset(seed)
        return self._obs(), {"player": self._out(self.batch.player)}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        b = self.batch
        b.step(actions)
        np = _np()
        return (self._obs(), self._out(b.rewards), self._out(b.done), np.zeros(self.num_envs, np.bool_),
                {"player": self._out(b.player), "length": self._out(b.length)})

    def close(self) -> None:
        pass
