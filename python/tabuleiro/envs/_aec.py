"""The shared PettingZoo AEC environment over any registered game, and the
factory that makes each game's versioned module (``tabuleiro.envs.<game>_v0``:
``raw_env``, ``env``, a docstring with its table) from the registry."""

from __future__ import annotations

import inspect
import operator
import random
from types import ModuleType
from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._errors import GameOverError, IllegalMoveError
from .._fields import check_seed
from .._game import Param, load_game

_empty = np.empty
_F32, _I8 = np.dtype(np.float32), np.dtype(np.int8)


class ActionIds(spaces.Discrete):
    """gymnasium's ``Discrete(n)`` over the game's action ids, whose
    ``contains`` answers a Python ``int`` or a numpy ``int64`` (what a policy
    passes every step, and PettingZoo's AssertOutOfBoundsWrapper asks about
    every step) in one comparison; any other input goes to
    ``Discrete.contains``. The answers are Discrete's
    (tests/test_envs.py); the fast path takes about 3 µs off a wrapped step.

    >>> space = ActionIds(3248)
    >>> space.contains(3247), space.contains(3248), space.contains(np.int64(5)), space.contains(1.0)
    (True, False, True, False)
    """

    def __init__(self, n: int, seed: Any = None) -> None:
        super().__init__(n, seed=seed)
        self._stop = int(n)

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return 0 <= x < self._stop
        if type(x) is np.int64:
            return 0 <= int(x) < self._stop
        return bool(super().contains(x))


class TabuleiroAEC(AECEnv):  # type: ignore[misc]
    """One game of a registered game as a PettingZoo AEC environment.

    Agents ``player_0 .. player_{n-1}``; the agent to move is the game's
    current player. ``observe(agent)`` is ``{"observation": float32
    (observation_size,), "action_mask": int8 (num_distinct_actions,)}``: the
    tensor of docs/observations.md (what that player sees, nothing else) and
    the legal-action mask (all zeros for an agent not to move), both
    read-only. Rewards are 0 until the game ends, then the game's true
    returns. ``reset(seed=)`` deals the game from a seed drawn from ``seed``
    (an integer in [0, 2**64)); later resets without a seed continue that
    generator (a first reset without one is unseeded, as PettingZoo's are). ``step(action)`` takes an integer action id (a float is
    refused, not truncated). ``render()`` (render_mode="ansi") returns the
    position as text as the agent to move sees it (``State.text(player)``,
    drawn from that player's view alone: no hidden card, and no other
    player's weaving of the current step).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "tabuleiro", "is_parallelizable": False}
    GAME = ""

    def __init__(self, render_mode: Optional[str] = None, **params: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.game = load_game(self.GAME, **params)
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        size, na = self.game.observation_size, self.game.num_distinct_actions
        self._size, self._na = size, na
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (na,), np.int8),
        })
        act_space = ActionIds(na)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._rng: Optional[random.Random] = None
        self._state: Any = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # --- AEC -------------------------------------------------------------------------------
    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None:
            # check_seed: random.Random would take -5 as 5 and a float as a hash of it
            self._rng = random.Random(check_seed(seed))
        elif self._rng is None:
            self._rng = random.Random()
        self._state = self.game.new_initial_state(seed=self._rng.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player]
        self._moves = 0
        self._cache_agent: Optional[str] = None
        self._cache_moves = -1
        self._cache: Any = None

    def observe(self, agent: str) -> dict[str, Any]:
        # one observation per (agent, position): the wrappers observe the
        # agent to move twice a step (TerminateIllegal, then last())
        if self._cache_agent == agent and self._cache_moves == self._moves:
            return self._cache  # type: ignore[no-any-return]
        obs = _empty(self._size, _F32)
        mask = _empty(self._na, _I8)
        self._state.observe_into(self._index[agent], obs, mask)
        # read-only: the same arrays are handed out again for this position
        # (and TerminateIllegalWrapper judges the move by this mask)
        obs.setflags(write=False)          # (cheaper than setting .flags.writeable)
        mask.setflags(write=False)
        out = {"observation": obs, "action_mask": mask}
        self._cache_agent, self._cache_moves, self._cache = agent, self._moves, out
        return out

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """(observation, cumulative reward, terminated, truncated, info) of the
        agent to move, as AECEnv.last, in one call."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        try:
            agent = self.agent_selection
            dead = self.terminations[agent] or self.truncations[agent]
        except (KeyError, AttributeError):       # before reset, or every agent has stepped out
            raise GameOverError("the game is over and every agent has left it (or it was never reset): "
                                "call reset() first") from None
        if dead:
            self._was_dead_step(action)
            return
        try:
            if isinstance(action, (bool, np.bool_)):
                raise TypeError
            a = operator.index(action)    # an int or numpy integer, never a truncated float or a bool
        except TypeError:
            raise TypeError(f"an action is an integer id, not {type(action).__name__} {action!r}") from None
        if not self._state.try_push(a):       # out of range too; never an exception built here
            raise IllegalMoveError(f"illegal action {a} for {agent}")
        self._moves += 1
        self._cumulative_rewards[agent] = 0.0
        p = self._state.current_player
        if p is None:
            for name, r in zip(self.possible_agents, self._state.returns()):
                self.rewards[name] = float(r)
                self.terminations[name] = True
            self._accumulate_rewards()
            self.agent_selection = agent
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[p]

    def render(self) -> Optional[str]:
        """The position as the agent to move (``agent_selection``) sees it:
        ``State.text(player)``, drawn from that player's view alone, never the
        full state (None without a render mode; before reset, an error)."""
        if self.render_mode is None:
            return None
        if self._state is None:
            raise GameOverError("nothing to render before reset()")
        return self._state.text(self._index[self.agent_selection])  # type: ignore[no-any-return]

    def close(self) -> None:
        pass

    @property
    def state_obj(self) -> Any:
        """The tabuleiro State being played (for tests and debugging)."""
        return self._state


class _Forwarded:
    """The raw environment's attribute `name`, read by a wrapper: the same
    value PettingZoo's BaseWrapper.__getattr__ finds, without the failed
    lookup (an AttributeError raised and caught) it costs on every access
    through every wrapper. A non-data descriptor, so everything else stays as
    with PettingZoo's wrappers: a value assigned on the wrapper shadows it
    there, and an attribute the raw env lacks (before reset) falls through to
    the wrapper's __getattr__ (OrderEnforcingWrapper's "cannot be accessed
    before reset")."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        return getattr(obj._raw, self.name)


# what the AEC loop reads through the wrappers on every step
_HOT = ("agent_selection", "rewards", "terminations", "truncations", "infos", "agents", "num_agents",
        "_cumulative_rewards", "possible_agents", "max_num_agents")
_HOT_SET = frozenset(_HOT)


def _fast(cls: type, name: str) -> type:
    """cls with the hot attributes forwarded; named `name` in this module (so it pickles)."""
    ns: dict[str, Any] = {n: _Forwarded(n) for n in _HOT}
    ns["__doc__"] = f"{cls.__doc__ or cls.__name__}\n\n(tabuleiro: the loop's attributes are read from the raw env.)"
    ns["__module__"] = __name__
    ns["__qualname__"] = name
    ns["__str__"] = lambda self: str(self.env)   # as PettingZoo's wrappers print: the env's name
    return type(name, (cls,), ns)


_TerminateIllegal = _fast(wrappers.TerminateIllegalWrapper, "_TerminateIllegal")
_AssertOutOfBounds = _fast(wrappers.AssertOutOfBoundsWrapper, "_AssertOutOfBounds")
_OrderEnforcingBase = _fast(wrappers.OrderEnforcingWrapper, "_OrderEnforcingBase")


class _OrderEnforcing(_OrderEnforcingBase):  # type: ignore[misc, valid-type]
    """The outer wrapper of env(), which runs the loop's usual calls through
    the three wrappers in one Python call each: ``observe`` and ``last`` as
    the chain does them (OrderEnforcing's reset check, TerminateIllegal
    keeping the observation it will judge the next move by), and ``step``
    for its common case, a legal integer id from the observed mask for a
    live agent, as raw.step after the wrappers' bookkeeping. Every other
    case (before reset, after the end, a dead agent's None, an illegal or
    out-of-range action, anything not an int) goes through PettingZoo's own
    wrapper methods. tests/test_envs.py plays the same random games, illegal
    moves included, through this and through PettingZoo's plain wrappers
    and compares every result. A value assigned on any of the three wrappers
    (shadowing the raw env's, as PettingZoo allows) sends every call the
    PettingZoo way."""

    _ti: Any

    def _direct(self) -> bool:
        """Reset, and no wrapper shadows an attribute the chain reads (then
        the raw env's values are what every wrapper sees)."""
        return (self._has_reset and _HOT_SET.isdisjoint(self.__dict__) and _HOT_SET.isdisjoint(self.env.__dict__)
                and _HOT_SET.isdisjoint(self._ti.__dict__))

    def observe(self, agent: str) -> Any:
        if not self._direct():
            return super().observe(agent)
        return self._observe(agent)

    def _observe(self, agent: str) -> Any:
        raw, ti = self._raw, self._ti
        obs = raw.observe(agent)
        if agent == raw.agent_selection:          # TerminateIllegalWrapper.observe
            ti._prev_obs = obs
            ti._prev_info = raw.infos[agent] if agent in raw.infos else {}
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._direct():
            return super().last(observe)  # type: ignore[no-any-return]
        raw = self._raw
        agent = raw.agent_selection
        assert agent is not None
        return (self._observe(agent) if observe else None, raw._cumulative_rewards[agent],
                raw.terminations[agent], raw.truncations[agent], raw.infos[agent])

    def step(self, action: Any) -> None:
        raw, ti = self._raw, self._ti
        t = type(action)
        if ((t is int or t is np.int64) and self._direct() and raw.agents and 0 <= action < raw._na
                and not ti._terminated and type(ti._prev_obs) is dict):
            agent = raw.agent_selection
            mask = ti._prev_obs.get("action_mask")
            if not (raw.terminations[agent] or raw.truncations[agent]) and mask is not None and mask[action]:
                self._has_updated = True                    # OrderEnforcingWrapper.step
                ti._prev_obs = ti._prev_info = None         # TerminateIllegalWrapper.step, legal move
                raw.step(action)
                return
        super().step(action)


def wrap(raw: TabuleiroAEC) -> Any:
    """PettingZoo's usual wrappers: an illegal move ends the game (-1 for
    its maker), out-of-range actions assert, and the call order is enforced.
    They are subclasses of PettingZoo's own classes (isinstance holds) that
    read the attributes the loop uses every step straight from the raw
    environment; the outer one does the loop's common calls in one call
    each (_OrderEnforcing), PettingZoo's own methods the rest."""
    env: Any = raw
    for cls, kw in ((_TerminateIllegal, {"illegal_reward": -1}), (_AssertOutOfBounds, {}), (_OrderEnforcing, {})):
        env = cls(env, **kw)
        env._raw = raw
    env._ti = env.env.env
    return env


# --- the versioned modules, made from the registry -----------------------------------------------


def env_params(game: str) -> tuple[Param, ...]:
    """The keyword parameters of ``game``'s environment: its parameters of
    the rules (``Game.param_specs()`` without the ``tool`` ones).

    >>> [p.name for p in env_params("capivarias")]
    ['expansion', 'first_player']
    >>> [p.name for p in env_params("capulana")]
    ['players']
    """
    return tuple(p for p in load_game(game).param_specs() if not p.tool)


def make_raw_env(game: str, module: str) -> type[TabuleiroAEC]:
    """``raw_env`` of ``game``: TabuleiroAEC taking exactly the game's
    :func:`env_params` (with their defaults) and ``render_mode``, named
    ``raw_env`` in ``module`` (so it pickles), ``metadata["name"]`` the
    module's last name.

    >>> cls = make_raw_env("capulana", "tabuleiro.envs.capulana_v0")
    >>> cls.metadata["name"], str(inspect.signature(cls))
    ('capulana_v0', "(render_mode: 'Optional[str]' = None, players: 'int' = 3) -> 'None'")
    >>> cls(legacy_determinize=True)
    Traceback (most recent call last):
    ...
    TypeError: capulana_v0 takes the parameters render_mode, players: got an unexpected keyword argument 'legacy_determinize'
    """
    specs = env_params(game)
    names = [p.name for p in specs]
    env_id = module.rsplit(".", 1)[-1]

    sig = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
           inspect.Parameter("render_mode", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
                             annotation="Optional[str]")]
    sig += [inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=p.default,
                              annotation=p.type.__name__) for p in specs]
    signature = inspect.Signature(sig, return_annotation="None")

    def __init__(self: TabuleiroAEC, *args: Any, **kwargs: Any) -> None:
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{env_id} takes the parameters {', '.join(['render_mode'] + names)}: {e}") from None
        params = {k: v for k, v in bound.arguments.items() if k != "self"}
        TabuleiroAEC.__init__(self, **params)

    __init__.__signature__ = signature  # type: ignore[attr-defined]
    __init__.__qualname__ = "raw_env.__init__"
    __init__.__module__ = module
    ns: dict[str, Any] = {
        "__init__": __init__, "GAME": game, "__module__": module, "__qualname__": "raw_env",
        "metadata": {"render_modes": ["ansi"], "name": env_id, "is_parallelizable": False},
        "__doc__": f"{load_game(game).title} as a PettingZoo AEC environment ({env_id}; see TabuleiroAEC)."}
    return type("raw_env", (TabuleiroAEC,), ns)


def env_table(game: str) -> str:
    """The markdown table of ``game``'s environment (its module docstring's):
    agents, actions, observation, rewards, parameters, render.

    >>> print(env_table("toy"))  # doctest: +NORMALIZE_WHITESPACE
    | property | value |
    |---|---|
    | agents | ``player_0``, ``player_1`` |
    | actions | Discrete(6) with ``action_mask`` |
    | observation | ``{"observation": float32 (84,), "action_mask": int8 (6,)}`` (docs/observations.md) |
    | rewards | 0 until the game ends, then its returns, in [-1.0, 1.0], summing to 0.0 |
    | parameters | none |
    | render | ``render_mode="ansi"`` |
    """
    specs = env_params(game)
    base = load_game(game)
    players = next((p for p in specs if p.name == "players"), None)
    instances = ([load_game(game, players=n) for n in range(players.low, players.high + 1)] if players is not None
                 else [base])
    if players is not None:
        agents = f"``player_0`` .. ``player_{{players-1}}`` ({players.low}..{players.high})"
        size = "/".join(str(g.observation_size) for g in instances) + f" for {players.low}..{players.high} players"
    else:
        agents = ", ".join(f"``player_{i}``" for i in range(base.num_players))
        size = str(base.observation_size)
    na = base.num_distinct_actions
    sums = {g.info.utility_sum for g in instances}
    sums_to = (f", summing to {sums.pop()}" if len(sums) == 1 and None not in sums else "")
    lo, hi = base.info.min_utility, base.info.max_utility
    params = "; ".join(f"``{p.name}`` ({p.type.__name__}"
                       + (f", {p.low}..{p.high}" if p.type is int else "")
                       + f", default {p.default!r}): {p.help}" for p in specs) or "none"
    rows = [("agents", agents),
            ("actions", f"Discrete({na}) with ``action_mask``"),
            ("observation", f'``{{"observation": float32 ({size},), "action_mask": int8 ({na},)}}`` '
                            "(docs/observations.md)"),
            ("rewards", f"0 until the game ends, then its returns, in [{lo}, {hi}]{sums_to}"),
            ("parameters", params),
            ("render", '``render_mode="ansi"``')]
    return "\n".join(["| property | value |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows])


def fill_module(module: ModuleType, game: str) -> None:
    """Make ``module`` the environment module of ``game``: ``raw_env``,
    ``env`` and its docstring (what ``tabuleiro.envs`` does on import).

    >>> import types
    >>> m = types.ModuleType("tabuleiro.envs.toy_v0")
    >>> fill_module(m, "toy")
    >>> m.raw_env.metadata["name"], m.__all__
    ('toy_v0', ['env', 'raw_env'])
    """
    raw = make_raw_env(game, module.__name__)
    env_id = raw.metadata["name"]
    specs = env_params(game)
    example = ", ".join(f"{p.name}={p.default!r}" for p in specs)

    def env(**kwargs: Any) -> Any:
        """The wrapped environment (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
        return wrap(raw(**kwargs))

    env.__module__ = module.__name__
    env.__signature__ = inspect.signature(raw)  # type: ignore[attr-defined]
    module.raw_env = raw  # type: ignore[attr-defined]
    module.env = env  # type: ignore[attr-defined]
    module.__all__ = ["env", "raw_env"]  # type: ignore[attr-defined]
    module.__doc__ = (f"{load_game(game).title} as a PettingZoo AEC environment (``{env_id}``), made "
                      f"from the registry by tabuleiro.envs._aec.\n\n{env_table(game)}\n\n"
                      f"    from tabuleiro.envs import {env_id}\n    env = {env_id}.env({example})\n\n"
                      "Changelog: v0 — first version.\n")
