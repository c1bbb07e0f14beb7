"""The tabuleiro games as OpenSpiel Python games (``pip install
'tabuleiro[openspiel]'``).

>>> from tabuleiro import openspiel            # doctest: +SKIP
>>> openspiel.register()                      # doctest: +SKIP
>>> import pyspiel                            # doctest: +SKIP
>>> game = pyspiel.load_game("tabuleiro_capulana", {"players": 3})   # doctest: +SKIP

Every registered game (``tabuleiro.games()``) is registered as
``tabuleiro_<name>``, its GameType made from the game's facts and parameters
(:func:`game_type`): its parameters are the game's own (``Game.param_specs()``,
those of the rules: not a ``tool`` parameter) with their defaults, plus
``deals`` (int, 4096) and ``seed`` (int, 0) below; the utility kind follows
``GameInfo.utility_sum`` (0: zero-sum, another number: constant-sum, None:
general-sum); the player range is the ``players`` parameter's (a game
without one has its fixed number of players). So:

- ``tabuleiro_capivarias``: ``expansion`` (bool, False), ``first_player``
  (int, 0), ``deals``, ``seed``; zero-sum;
- ``tabuleiro_capulana``: ``players`` (int 2..5, 3), ``deals``, ``seed``;
  constant-sum (1);
- ``tabuleiro_toy``: ``deals``, ``seed``; zero-sum.

Chance is explicit: the initial state is a chance node with ``deals``
equally likely outcomes k, and outcome k deals our game from the seed
``mix(seed, k)``. Every later random event of our games (the reshuffles of
Capivárias, the Capulana deck) is drawn from the state's own generator,
which no player sees, so after that one chance node the game is
deterministic given the hidden deal — which is how OpenSpiel's algorithms
see it (the hidden generator is part of the hidden information).

Imperfect information: ``information_state_string(p)`` has perfect recall:
the player's own sequence of observations (the 64-bit key of each distinct
``view(p)`` they saw, in order) and own actions; ``observation_string(p)``
is ``view(p)`` as JSON. Both tensors are the observation tensor of
docs/observations.md (what p sees now: the information-state tensor is not
perfect-recall). ``resample_from_infostate(p, sampler)`` is our
determinization (``State.determinize``), keeping p's information-state
string. Python games are slow under search (OpenSpiel's own warning); our
own agents (tabuleiro.agents) search in C.
"""

from __future__ import annotations

import json
from typing import Any, Optional

try:
    import numpy as np
    import pyspiel
except ImportError:   # the module stays importable (docs, doctests); register() says what is missing
    pyspiel = None

from ._game import games, load_game

__all__ = ["register", "GAMES", "PREFIX", "DEFAULT_DEALS"]

#: OpenSpiel's name of a game: this prefix and the registry's name
PREFIX = "tabuleiro_"
#: the chance node's outcomes (parameter ``deals``) unless given
DEFAULT_DEALS = 4096

_M64 = (1 << 64) - 1


def _mix(seed: int, k: int) -> int:
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return (z ^ (z >> 31)) >> 1   # a non-negative 63-bit seed


if pyspiel is not None:   # the classes subclass pyspiel's

    class _Observer:
        """OpenSpiel's py-observer: ``tensor`` (the observation tensor) and
        ``string_from`` (perfect recall or the current view)."""

        def __init__(self, game: "TabuleiroGame", perfect_recall: bool) -> None:
            self.tensor = np.zeros(game.tb.observation_size, np.float32)
            self.dict = {"observation": self.tensor}
            self._perfect_recall = perfect_recall

        def set_from(self, state: "TabuleiroState", player: int) -> None:
            st = state.tb_state
            if st is None:
                self.tensor.fill(0)
            else:
                st.observation(player, out=self.tensor)

        def string_from(self, state: "TabuleiroState", player: int) -> str:
            if self._perfect_recall:
                return state._infostate(player)
            st = state.tb_state
            if st is None:
                return f"p{player} (not dealt)"
            return json.dumps(st.view(player), sort_keys=True, separators=(",", ":"))


    class TabuleiroState(pyspiel.State):  # type: ignore[misc]
        """One of our states behind OpenSpiel's State API (the chance node first)."""

        def __init__(self, game: "TabuleiroGame") -> None:
            super().__init__(game)
            self._g = game
            self._st: Any = None
            self._n = game.tb.num_players
            # per player: the keys of the distinct views seen, and own actions
            self._tokens: list[list[str]] = [[] for _ in range(self._n)]

        @property
        def tb_state(self) -> Any:
            """The tabuleiro State being played (None before the deal)."""
            return self._st

        # --- OpenSpiel API ---------------------------------------------------------------------
        def current_player(self) -> int:
            if self._st is None:
                return int(pyspiel.PlayerId.CHANCE)
            p = self._st.current_player
            return int(pyspiel.PlayerId.TERMINAL) if p is None else int(p)

        def _legal_actions(self, player: int) -> list[int]:
            if self._st is None or player != self._st.current_player:
                return []
            return self._st.legal_actions()  # type: ignore[no-any-return]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            assert self._st is None
            k = self._g.deals
            return [(i, 1.0 / k) for i in range(k)]

        def _observe_all(self, actor: Optional[int]) -> None:
            st = self._st
            for p in range(self._n):
                tok = format(st.infostate_key(p), "016x")
                toks = self._tokens[p]
                if p == actor or not toks or toks[-1] != tok:
                    toks.append(tok)

        def _apply_action(self, action: int) -> None:
            if self._st is None:
                if not 0 <= action < self._g.deals:   # an outcome of chance_outcomes(), nothing else
                    raise pyspiel.SpielError(f"chance outcome {action} is not in [0, {self._g.deals})")
                self._st = self._g.tb.new_initial_state(seed=_mix(self._g.seed, action))
                self._observe_all(None)
                return
            p = self._st.current_player
            if not self._st.try_push(action):
                raise pyspiel.SpielError(f"illegal action {action}")
            self._tokens[p].append(f"a{action}")
            self._observe_all(p)

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"deal {action}"
            return self._g.tb.action_to_string(action)

        def is_terminal(self) -> bool:
            return self._st is not None and self._st.is_terminal

        def returns(self) -> list[float]:
            if self._st is None:
                return [0.0] * self._n
            return list(self._st.returns())

        def _infostate(self, player: int) -> str:
            return f"p{player}:" + " ".join(self._tokens[player])

        def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "TabuleiroState":
            """A state drawn from our determinization for player_id (its seed
            from one draw of ``probability_sampler``, a callable returning a
            float in [0, 1), such as ``pyspiel.UniformProbabilitySampler``),
            with the same information-state string for that player. The other
            players' strings are their current views in the drawn world (their
            recall of the true game would say what player_id cannot see), and
            the drawn state has no OpenSpiel history (``history()`` is empty:
            no deal outcome gives that world)."""
            if self._st is None:
                return self.clone()  # type: ignore[no-any-return]
            if not callable(probability_sampler):
                raise TypeError("resample_from_infostate needs a probability_sampler: a callable returning a float "
                                "in [0, 1), e.g. pyspiel.UniformProbabilitySampler(0., 1.)")
            u = float(probability_sampler())
            if not 0.0 <= u < 1.0:
                raise ValueError(f"the probability_sampler must return a float in [0, 1), not {u!r}")
            out = self._g.new_initial_state()
            out._st = self._st.determinize(player_id, seed=int(u * (1 << 53)))
            out._tokens = [list(t) if q == player_id else [format(out._st.infostate_key(q), "016x")]
                           for q, t in enumerate(self._tokens)]
            return out

        def __str__(self) -> str:
            return "(not dealt)" if self._st is None else str(self._st)

        def __deepcopy__(self, memo: Any) -> "TabuleiroState":
            out = TabuleiroState(self._g)
            out._st = None if self._st is None else self._st.clone()
            out._tokens = [list(t) for t in self._tokens]
            return out


    class TabuleiroGame(pyspiel.Game):  # type: ignore[misc]
        """One of our games as an OpenSpiel game (see the module docstring);
        :func:`game_class` makes a subclass per registered game."""

        NAME = ""
        GAME_TYPE: Any = None

        def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
            params = dict(params or {})
            defaults = self.GAME_TYPE.parameter_specification
            full = {k: params.get(k, v) for k, v in defaults.items()}
            self.deals = int(full.pop("deals"))
            self.seed = int(full.pop("seed"))
            if not 1 <= self.deals <= 1 << 20:
                raise ValueError(f"deals must be in [1, 2^20], not {self.deals}")
            self.tb = load_game(self.NAME, **full)
            i = self.tb.info
            info = pyspiel.GameInfo(
                num_distinct_actions=i.num_distinct_actions,
                max_chance_outcomes=self.deals,
                num_players=i.num_players,
                min_utility=i.min_utility,
                max_utility=i.max_utility,
                utility_sum=i.utility_sum,
                max_game_length=i.max_game_length + 1)
            super().__init__(self.GAME_TYPE, info, params)

        def new_initial_state(self) -> TabuleiroState:
            return TabuleiroState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            """The observer OpenSpiel asks for: a player's own observation
            (public and that player's private information), with or without
            perfect recall. Other types (public information only, every
            player's private information) are refused: the tensor and strings
            of docs/observations.md are one player's view."""
            if iig_obs_type is None:
                return _Observer(self, False)
            if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise ValueError(f"{self.NAME}: only a player's own observation (public_info=True, "
                                 f"private_info=SINGLE_PLAYER) is provided, not public_info="
                                 f"{iig_obs_type.public_info}, private_info={iig_obs_type.private_info}")
            return _Observer(self, bool(iig_obs_type.perfect_recall))


    def _utility(utility_sum: Optional[float]) -> Any:
        """OpenSpiel's utility kind of a game whose returns sum to utility_sum (None: no constant sum)."""
        if utility_sum is None:
            return pyspiel.GameType.Utility.GENERAL_SUM
        if utility_sum == 0.0:
            return pyspiel.GameType.Utility.ZERO_SUM
        return pyspiel.GameType.Utility.CONSTANT_SUM


    def game_type(name: str) -> Any:
        """The OpenSpiel GameType of the registered game ``name``, from its
        facts (``GameInfo`` of its default instance) and ``param_specs()``.

        >>> game_type("capulana").parameter_specification   # doctest: +SKIP
        {'players': 3, 'deals': 4096, 'seed': 0}
        """
        game = load_game(name)
        specs = [p for p in game.param_specs() if not p.tool]
        players = next((p for p in specs if p.name == "players"), None)
        lo, hi = (players.low, players.high) if players is not None else (game.num_players, game.num_players)
        info = game.info
        params: dict[str, Any] = {p.name: p.default for p in specs}
        params.update(deals=DEFAULT_DEALS, seed=0)
        return pyspiel.GameType(
            short_name=PREFIX + name, long_name=f"tabuleiro {game.title}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if info.hidden_information
                         else pyspiel.GameType.Information.PERFECT_INFORMATION),
            utility=_utility(info.utility_sum),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=hi, min_num_players=lo,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=params)


    def game_class(name: str) -> type:
        """A :class:`TabuleiroGame` subclass for the registered game ``name``
        (named after its Game class: ``CapulanaGame`` for ``Capulana``)."""
        cls_name = type(load_game(name)).__name__ + "Game"
        return type(cls_name, (TabuleiroGame,), {
            "NAME": name, "GAME_TYPE": game_type(name), "__module__": __name__, "__qualname__": cls_name,
            "__doc__": f"{load_game(name).title} as an OpenSpiel game (``{PREFIX}{name}``)."})


    #: OpenSpiel name -> game class, one per registered game
    GAMES: dict[str, Any] = {PREFIX + name: game_class(name) for name in games()}
    globals().update({cls.__name__: cls for cls in GAMES.values()})   # importable (and picklable) by name
else:
    GAMES = {}

_registered = False


def register() -> None:
    """Register every game of :data:`GAMES` with pyspiel (once; later calls do nothing)."""
    global _registered
    if pyspiel is None:
        raise ImportError("tabuleiro.openspiel needs OpenSpiel: pip install 'tabuleiro[openspiel]'")
    if _registered:
        return
    for cls in GAMES.values():
        pyspiel.register_game(cls.GAME_TYPE, cls)
    _registered = True
