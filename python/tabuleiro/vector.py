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
already describe the new game. The arrays returned are the batch's own
buffers, overwritten by the next call: copy what you keep.

numpy is needed here (``pip install tabuleiro[vector]``); the core package
does not import it.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _core
from ._game import Game, check_seed

__all__ = ["Batch", "VectorEnv"]


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
    first ``num_legal[i]`` entries) and ``num_legal`` int32 (n). Treat them as
    read only: C reads ``mask``, ``legal``, ``done`` and ``length`` back.
    """

    def __init__(self, game: Game, n: int, *, seed: int, threads: int = 1) -> None:
        np = _np()
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a positive integer, not {n!r}")
        self.game = game
        self.n = n
        info = game.info
        self.obs = np.zeros((n, info.observation_size), np.float32)
        self.mask = np.zeros((n, info.num_distinct_actions), np.uint8)
        self.rewards = np.zeros((n, info.num_players), np.float32)
        self.done = np.zeros(n, np.bool_)
        self.player = np.zeros(n, np.int32)
        self.length = np.zeros(n, np.int32)
        self._core = _core.CoreBatch(game._core, n, check_seed(seed), threads)
        self.legal = np.zeros((n, self._core.legal_cap), np.int32)
        self.num_legal = np.zeros(n, np.int32)
        self._core.bind(self.obs, self.mask, self.rewards, self.done, self.player, self.length, self.legal,
                        self.num_legal)
        self._core.reset()

    def reset(self, seed: Optional[int] = None) -> tuple[Any, Any, Any]:
        """Restart every game (new per-game generators from ``seed`` if given);
        (obs, mask, player)."""
        self._core.reset(None if seed is None else check_seed(seed))
        return self.obs, self.mask, self.player

    def step(self, actions: Any = None) -> tuple[Any, Any, Any, Any, Any]:
        """One action per game (int32-convertible array of n legal ids), or
        None for uniformly random legal actions chosen in C; (obs, mask,
        rewards, done, player). IllegalMoveError names the first game whose
        action is not legal (then no game has moved)."""
        if actions is not None:
            np = _np()
            actions = np.ascontiguousarray(actions, dtype=np.int32)
            if actions.shape != (self.n,):
                raise ValueError(f"actions must have shape ({self.n},), not {actions.shape}")
        self._core.step(actions)
        return self.obs, self.mask, self.rewards, self.done, self.player

    def sample_actions(self, seed: Optional[int] = None) -> Any:
        """A uniformly random legal action per game, drawn in numpy from the
        legal lists (``seed``: an int or a numpy Generator)."""
        np = _np()
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        k = (rng.random(self.n) * self.num_legal).astype(np.int64)
        return self.legal[np.arange(self.n), k]

    def state(self, i: int) -> Any:
        """A copy of game i as a State (its move stack starts here)."""
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
    """

    metadata = {"autoreset_mode": "SameStep"}

    def __init__(self, game: Game, num_envs: int, *, seed: int = 0, threads: int = 1) -> None:
        self.batch = Batch(game, num_envs, seed=seed, threads=threads)
        self.num_envs = num_envs
        self.game = game
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

    def _obs(self) -> dict[str, Any]:
        return {"observation": self.batch.obs, "action_mask": self.batch.mask.view("int8")}

    def reset(self, *, seed: Optional[int] = None, options: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self.batch.reset(seed)
        return self._obs(), {"player": self.batch.player}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        b = self.batch
        b.step(actions)
        np = _np()
        return self._obs(), b.rewards, b.done, np.zeros(self.num_envs, np.bool_), {"player": b.player,
                                                                                   "length": b.length}

    def close(self) -> None:
        pass
