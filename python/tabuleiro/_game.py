"""The game registry and the ``Game`` object (OpenSpiel's Game / GameInfo shape).

>>> import tabuleiro
>>> tabuleiro.games()
['capivarias', 'capulana', 'toy']
>>> game = tabuleiro.load_game("capulana", players=3)
>>> game.info.num_players, game.info.num_distinct_actions
(3, 847)
>>> state = game.new_initial_state(seed=7)
>>> state.game is game
True
>>> game.action_to_string(61)
'done'
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, Optional, Union

from . import _core
from ._errors import InvalidMoveError, InvalidStateError
from ._fields import U64, check_seed, int_in, parse_json, plain_json, short

if TYPE_CHECKING:
    from ._present import Presentation
    from ._state import Move, State

__all__ = ["Game", "GameInfo", "Param", "game_of", "games", "load_game", "load_state", "load_view"]


@dataclass(frozen=True)
class GameInfo:
    """Facts of a game instance (OpenSpiel's GameType + GameInfo).

    >>> load_game("toy").info
    GameInfo(name='toy', num_players=2, num_distinct_actions=6, min_utility=-1.0, max_utility=1.0,
             max_game_length=6, hidden_information=True, observation_size=84, utility_sum=0.0)
    >>> load_game("capulana").info.utility_sum     # 1/k to each of k tied winners
    1.0
    """

    name: str
    num_players: int
    num_distinct_actions: int
    min_utility: float
    max_utility: float
    max_game_length: int
    hidden_information: bool
    #: floats of ``State.observation(player)`` (docs/observations.md)
    observation_size: int = 0
    #: what every finished game's returns sum to (0.0: zero-sum), or None
    #: when they have no constant sum (general-sum); OpenSpiel's utility kind
    utility_sum: Optional[float] = None


@dataclass(frozen=True)
class Param:
    """One parameter a game takes (its name, type, inclusive range, default
    and a one-line help), as the registry declares it. Front ends (the CLI,
    OpenSpiel's parameter specification, PettingZoo's keyword arguments)
    build their options from these, so they name no game.

    >>> [p.name for p in load_game("capivarias").param_specs()]
    ['expansion', 'first_player']
    >>> load_game("capulana").param_specs()[0]
    Param(name='players', type=<class 'int'>, low=2, high=5, default=3, help='players at the table', tool=False)
    >>> [p.name for p in load_game("capulana").param_specs() if p.tool]
    ['legacy_determinize']
    """

    name: str
    type: type
    low: int
    high: int
    default: Union[int, bool]
    help: str = ""
    #: True: the parameter selects how one of the engine's tools works (e.g.
    #: the determinization), not the game played; the adapters of other
    #: frameworks (OpenSpiel, PettingZoo) leave it at its default
    tool: bool = False


class Game:
    """A loaded game: its rules (the shipped card tables), its facts
    (:class:`GameInfo`) and its parameters. Made by :func:`load_game`; each
    game's module subclasses it with its ``MOVE`` and ``STATE`` classes and the
    mapping between its state dicts and the C encoding.

    Games are immutable and compared by name and parameters; games with
    different parameters coexist in one process.

    >>> g = load_game("capulana", players=4)
    >>> g
    load_game('capulana', players=4, legacy_determinize=False)
    >>> g == load_game("capulana", players=4), g == load_game("capulana", players=3)
    (True, False)
    """

    name: ClassVar[str]
    #: The game's name as people write it (in messages).
    title: ClassVar[str]
    #: Parameter types, in the registry's order (bool parameters are 0/1 in C).
    PARAM_TYPES: ClassVar[dict[str, type]]
    #: One line of help per parameter (for the CLI and the adapters).
    PARAM_HELP: ClassVar[dict[str, str]] = {}
    #: The parameters that select how a tool works, not the game (``Param.tool``).
    TOOL_PARAMS: ClassVar[frozenset[str]] = frozenset()
    STATE: ClassVar[type["State"]]
    MOVE: ClassVar[type["Move"]]
    #: The module whose ``PRESENTATION`` shows the game in the front ends
    #: (imported when first asked for); "" for the generic presentation.
    PRESENTATION_MODULE: ClassVar[str] = ""
    _texts: ClassVar[Optional[list[str]]] = None

    def __init__(self, **params: Any) -> None:
        files, specs, defaults = _core.game_spec(self.name)
        values: dict[str, Any] = {}
        c_params = []
        unknown = set(params) - {s[0] for s in specs}
        if unknown:
            raise TypeError(f"{self.name} takes the parameters {', '.join(s[0] for s in specs) or '(none)'}, "
                            f"not {', '.join(sorted(unknown))}")
        for pname, lo, hi, default in specs:
            typ = self.PARAM_TYPES[pname]
            v = params.get(pname, typ(default))
            if typ is bool:
                if not isinstance(v, bool):
                    raise TypeError(f"{self.name}: {pname} must be True or False, not {v!r}")
            elif isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{self.name}: {pname} must be an integer, not {v!r}")
            else:
                exact = int_in(v, lo, hi + 1)
                if exact is None:
                    raise ValueError(f"{self.name}: {pname} must be in [{lo}, {hi}], not {v!r}")
                v = exact
            values[pname] = v
            c_params.append(int(v))
        cls = type(self)
        if cls._texts is None:
            data = resources.files("tabuleiro").joinpath("data")
            cls._texts = [data.joinpath(f).read_text("utf-8") for f in files]
        self._params = values
        self._search_defaults = defaults
        self._core = _core.CoreGame(self.name, cls._texts, c_params)
        self._core.title = self.title
        self._core.state_class = self.STATE
        self._core.owner = self
        i = self._core.info
        self._info = GameInfo(i["name"], i["num_players"], i["num_distinct_actions"], i["min_utility"],
                              i["max_utility"], i["max_game_length"], i["hidden_information"],
                              i["observation_size"], i["utility_sum"])

    # --- facts ------------------------------------------------------------------------
    @property
    def info(self) -> GameInfo:
        """The game's facts.

        >>> load_game("capivarias").info.max_game_length
        144
        """
        return self._info

    @classmethod
    def param_specs(cls) -> tuple[Param, ...]:
        """The parameters the game takes, in the registry's order.

        >>> load_game("toy").param_specs()
        ()
        """
        _, specs, _ = _core.game_spec(cls.name)
        out = []
        for pname, lo, hi, default in specs:
            typ = cls.PARAM_TYPES[pname]
            out.append(Param(pname, typ, lo, hi, typ(default), cls.PARAM_HELP.get(pname, ""),
                             pname in cls.TOOL_PARAMS))
        return tuple(out)

    @classmethod
    def presentation(cls) -> "Presentation":
        """How the front ends (``tabuleiro play``, ``tabuleiro demo``, the
        strength levels) show this game: a :class:`tabuleiro._present.Presentation`,
        so they never branch on the game's name.

        >>> load_game("toy").presentation().notation
        ('play 3         play card 3 from your hand onto your pile',)
        """
        if not cls.PRESENTATION_MODULE:
            from ._present import Presentation

            return Presentation()
        p: "Presentation" = importlib.import_module(cls.PRESENTATION_MODULE).PRESENTATION
        return p

    @property
    def params(self) -> dict[str, Any]:
        """The parameters this game was loaded with (defaults filled in).

        >>> load_game("capulana").params
        {'players': 3, 'legacy_determinize': False}
        """
        return dict(self._params)

    @property
    def determinize_is_exact(self) -> bool:
        """Whether ``State.determinize`` draws uniformly over every world
        consistent with a view (the engine's undo rule samples worlds with it,
        and refuses a seat-bound undo when it does not).

        >>> load_game("capulana").determinize_is_exact
        True
        >>> load_game("capulana", legacy_determinize=True).determinize_is_exact
        False
        """
        return bool(_core.game_facts(self._core)["exact_determinize"])   # the registry's (C) fact

    @property
    def num_players(self) -> int:
        """The number of players (``info.num_players``).

        >>> load_game("capulana", players=5).num_players
        5
        """
        return self._info.num_players

    @property
    def num_distinct_actions(self) -> int:
        """The number of action ids, legal or not (``info.num_distinct_actions``).

        >>> load_game("capivarias").num_distinct_actions
        3248
        """
        return self._info.num_distinct_actions

    @property
    def observation_size(self) -> int:
        """Floats of an observation tensor (docs/observations.md).

        >>> load_game("toy").observation_size
        84
        """
        return self._info.observation_size

    def batch(self, n: int, *, seed: int, threads: int = 1) -> Any:
        """n games of this game stepped together in C (:class:`tabuleiro.vector.Batch`, needs numpy).

        >>> b = load_game("toy").batch(8, seed=1)
        >>> b.n, b.obs.shape, b.mask.shape
        (8, (8, 84), (8, 6))
        """
        from .vector import Batch

        return Batch(self, n, seed=seed, threads=threads)

    @property
    def search_defaults(self) -> dict[str, Any]:
        """The search policy's per-game defaults: ``c``, ``shaped`` reward, ``prior``, rollout
        ``horizon``, and ``control_variates`` (ismcts's; the game has a rollout baseline).

        >>> load_game("capulana").search_defaults
        {'c': 0.4, 'shaped': True, 'prior': True, 'horizon': False, 'control_variates': False}
        """
        return dict(self._search_defaults)

    # --- states -------------------------------------------------------------------------
    def new_initial_state(self, *, seed: int) -> "State":
        """A new game dealt from ``seed`` (every later random event follows from it).

        >>> g = load_game("toy")
        >>> s = g.new_initial_state(seed=1)
        >>> s.current_player, s == g.new_initial_state(seed=1)
        (0, True)
        """
        return self._core.new_state(check_seed(seed))  # type: ignore[no-any-return]

    def from_dict(self, d: Mapping[str, Any]) -> "State":
        """Load a state dict (RULES.md part 4); the C engine checks it.

        >>> g = load_game("toy")
        >>> s = g.new_initial_state(seed=1)
        >>> g.from_dict(s.to_dict()) == s
        True

        :raises InvalidStateError: naming the first problem.
        """
        what = f"invalid {self.title} state:"
        if isinstance(d, (str, bytes)):
            value = parse_json(d, what + " a state")
            return self._from_text(value, *plain_json(value, simple=True))
        return self._from_text(d, *plain_json(d, what + " it"))     # checked as check_plain does, one walk

    def _from_plain(self, d: Any) -> "State":
        """from_dict of a value check_plain has passed."""
        return self._from_text(d, *plain_json(d))

    def _from_text(self, d: Any, text: str, tuples: list[int]) -> "State":
        """from_dict of a plain value and its JSON text (plain_json): read
        and checked by the game's JSON layer in C (csrc/<game>_json.c, then
        the decoder), the reader the WebAssembly engine uses too."""
        if not isinstance(d, Mapping):
            raise InvalidStateError(f"invalid {self.title} state: expected a dict, got {type(d).__name__}")
        return _core.state_from_json(self._core, text, -1, tuples)  # type: ignore[return-value]

    def from_view(self, view: Mapping[str, Any], player: Optional[int] = None) -> "State":
        """A full state whose ``view(player)`` is ``view`` (as ``State.view``
        returns it, or its JSON). The hidden cards are placed arbitrarily: use
        it to hand a seat's view to code that takes a state and only looks
        through that seat's eyes (agents determinize it again, and their
        choice depends only on the view). ``player`` defaults to the player to
        move.

        >>> g = load_game("toy")
        >>> s = g.new_initial_state(seed=1)
        >>> g.from_view(s.view(0)).view(0) == s.view(0)
        True

        :raises InvalidStateError: the view cannot come from a legal game.
        """
        what = f"invalid {self.title} view:"
        if isinstance(view, (str, bytes)):
            value = parse_json(view, what + " a view")
            return self._from_plain_view(value, player, *plain_json(value, simple=True))
        return self._from_plain_view(view, player, *plain_json(view, what + " it"))   # checked, one walk

    def _from_plain_view(self, view: Any, player: Optional[int], text: Optional[str] = None,
                         tuples: Optional[list[int]] = None) -> "State":
        """from_view of a value check_plain has passed (and its JSON text, plain_json's)."""
        if not isinstance(view, Mapping):
            raise InvalidStateError(f"invalid {self.title} view: expected a dict, got {type(view).__name__}")
        if player is None:
            player = view.get("to_move")
            if player is None:
                raise InvalidStateError(f"invalid {self.title} view: the game is over, so say whose view it is")
            if int_in(player, 0, self.num_players) is None:
                raise InvalidStateError(f"invalid {self.title} view: to_move must be a player in "
                                        f"[0, {self.num_players - 1}], not {short(player)}")
        checked = int_in(player, 0, self.num_players)
        if checked is None:
            raise ValueError(f"player must be an integer in [0, {self.num_players - 1}], not {player!r}")
        player = checked
        # C (csrc/<game>_json.c) places the hidden cards where they may lie
        # (seed 0), reads the result as a state and compares its view with this one
        if text is None or tuples is None:
            text, tuples = plain_json(view)
        return _core.state_from_json(self._core, text, player, tuples)  # type: ignore[return-value]

    def action_to_string(self, action: int) -> str:
        """The notation of an action id.

        >>> load_game("toy").action_to_string(2)
        'play 3'

        :raises InvalidMoveError: not an id of this game.
        """
        exact = int_in(action, 0, self.num_distinct_actions)
        if exact is None:
            raise InvalidMoveError(f"action id {action!r} is not an integer in [0, {self.num_distinct_actions})")
        return self._core.action_to_string(exact)

    def parse_move(self, text: str, *, state: Optional["State"] = None) -> "Move":
        """Read a move in the game's notation (``state`` resolves notation that
        needs the position, and then the move must be legal there).

        >>> load_game("capulana").parse_move("F13 r>2").action
        240

        :raises InvalidMoveError: not a move of this game.
        :raises IllegalMoveError: with ``state``, a move that is not legal there.
        """
        if state is not None:
            return state.parse_move(text)  # type: ignore[no-any-return]
        return self.MOVE.parse(text)

    def public_events(self, state: "State", move: Union["Move", int, str], player: int) -> list[dict[str, Any]]:
        """What ``player`` sees happen when the player to move in ``state``
        plays ``move`` (the engine's event feed, docs/protocol.md), in order:

        - the move itself: ``{"kind": "move", "player": q, "move": notation
          or None, "text": ...}``, with the notation when ``player`` made it
          or when the rules show it to everyone, and ``text`` saying what
          ``player`` saw (a bid, a card added face down);
        - what it set off that the rules make public, in the game's own
          kinds (an auction's result, the weaving shown when a step ends, a
          round's result), each with a ``text``;
        - ``{"kind": "over", "winners": [...], "scores": [...], "text": ...}``
          when the game ended.

        It reads the true state but holds only what ``player`` may know: its
        views before and after the move, and under an event's ``revealed``
        key what the rules show at that moment that no view keeps (the
        offers of a Capulana auction). tests/conformance/test_events.py plays
        the moves that leave ``player`` the same view in worlds it cannot
        tell apart and expects the same events, ``text`` and ``revealed``
        aside, whose cards must be ones the views show. ``state`` is not
        changed.

        >>> g = load_game("toy")
        >>> s = g.new_initial_state(seed=1)
        >>> g.public_events(s, s.legal_actions()[0], 1)
        [{'kind': 'move', 'player': 0, 'move': 'play 1', 'text': 'P0: play 1'}]

        :raises InvalidMoveError: not a move of this game.
        :raises IllegalMoveError: a move that is not legal in ``state``.
        :raises ValueError: ``player`` is not a player of the game.
        """
        checked = int_in(player, 0, self.num_players)
        if checked is None:
            raise ValueError(f"player must be an integer in [0, {self.num_players - 1}], not {player!r}")
        player = checked
        m = state.parse_move(move) if isinstance(move, (str, int)) else move
        state.clone().push(m)               # a Move given as such must be legal too (IllegalMoveError)
        # written by the game's JSON layer in C (csrc/<game>_json.c), as the WebAssembly engine's events are
        return json.loads(_core.events_json(state, m.action, player))  # type: ignore[no-any-return]

    def random_playouts(self, n: int, *, seed: int) -> dict[str, Any]:
        """Play ``n`` uniformly random games entirely in C (Ctrl-C stops it);
        aggregate statistics (games, actions, draws, wins, returns and score sums).

        >>> st = load_game("toy").random_playouts(100, seed=3)
        >>> st["games"], st["actions"], st["stopped"]
        (100, 600, False)
        """
        check_seed(seed)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < U64:
            raise ValueError(f"n must be an integer in [0, 2**64), not {n!r}")
        return self._core.random_playouts(n, seed)

    # --- the per-game mapping ----------------------------------------------------------
    @classmethod
    def params_from_dict(cls, d: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters of the game a state dict belongs to (for
        ``State.from_dict``), read by the game's JSON layer in C; raises
        InvalidStateError when they are unreadable.

        >>> s = load_game("capulana", players=4).new_initial_state(seed=2)
        >>> type(s.game).params_from_dict(s.to_dict())
        {'players': 4}
        >>> load_game("capivarias").params_from_dict(load_game("capivarias", expansion=True).new_initial_state(seed=1).to_dict())
        {'expansion': True}
        """
        return cls._params_from_text(*plain_json(d, f"invalid {cls.title} state: it"))

    @classmethod
    def _params_from_text(cls, text: str, tuples: list[int]) -> dict[str, Any]:
        """params_from_dict of a plain value's JSON text (plain_json's)."""
        return {k: cls.PARAM_TYPES[k](v) for k, v in _core.params_from_json(cls.name, text, tuples).items()}

    def _encode_dict(self, d: Mapping[str, Any]) -> list[int]:
        """A state dict as the C encoding (game.h), with the C reader's shape
        and type checks only (the decoder judges the rest): what tests feed
        ``_core.decode(..., loose=True)`` to compose a position."""
        return _core.fields_from_json(self._core, *plain_json(d, f"invalid {self.title} state: it"))

    def _decode_fields(self, fields: list[int]) -> dict[str, Any]:
        """The C encoding as the state dict of RULES.md part 4, written by
        the game's JSON layer in C (csrc/<game>_json.c), the writer the
        WebAssembly engine uses too."""
        return json.loads(_core.fields_json(self._core, fields, -1))  # type: ignore[no-any-return]

    # --- python protocol ----------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.name == other.name and self._params == other._params

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self._params.items()))))

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self._params.items())
        return f"load_game({self.name!r}{args})"

    def __reduce__(self) -> Any:
        return (_load_game_kwargs, (self.name, self._params))


def _load_game_kwargs(name: str, params: Mapping[str, Any]) -> Game:
    return load_game(name, **params)


_LOADED: dict[tuple[str, Any], Game] = {}


def games() -> list[str]:
    """The names of the registered games.

    >>> games()
    ['capivarias', 'capulana', 'toy']
    """
    return sorted(_core.game_names())


def game_class(name: str) -> type[Game]:
    """The Game class of a registered game: ``tabuleiro.<name>.GAME``."""
    if not isinstance(name, str) or name not in _core.game_names():
        raise ValueError(f"unknown game {name!r}; registered: {', '.join(games())}")
    module = importlib.import_module(f"tabuleiro.{name}")
    return module.GAME  # type: ignore[no-any-return]


def load_game(name: str, **params: Union[int, bool]) -> Game:
    """The game ``name`` with ``params`` (each game documents its own), loaded
    once per process and parameter set.

    >>> load_game("capivarias", expansion=True).params
    {'expansion': True, 'first_player': 0}

    :raises ValueError: an unknown game or a parameter out of range.
    :raises TypeError: an unknown parameter or one of the wrong type.
    """
    cls = game_class(name)
    key = (name, _param_key(params))
    game = _LOADED.get(key) if key[1] is not None else None
    if game is None:
        game = cls(**params)                      # checks every parameter's type and range
        game = _LOADED.setdefault((name, _param_key(game.params)), game)
        if key[1] is not None:
            _LOADED[key] = game
    return game


def _param_key(params: Mapping[str, Any]) -> Optional[tuple[tuple[str, type, int], ...]]:
    """A cache key that tells 1, 1.0 and True apart (None: not cacheable as given)."""
    if not all(type(v) in (int, bool) for v in params.values()):
        return None
    return tuple(sorted((k, type(v), int(v)) for k, v in params.items()))


def _plain(d: Any, what: str) -> tuple[Any, str, list[int]]:
    """A state dict or view given as JSON text, parsed; given as a value,
    checked to be plain JSON; with its JSON text for C (plain_json: each
    loader walks its input once)."""
    if isinstance(d, (str, bytes)):
        value = parse_json(d, f"a {what}")
        return (value, *plain_json(value, simple=True))
    return (d, *plain_json(d, f"the {what}"))


def _game_of(d: Any, what: str, text: str, tuples: list[int]) -> Game:
    """The game a plain state dict or view (see _plain) names, loaded with its parameters."""
    if not isinstance(d, Mapping):
        raise InvalidStateError(f"a {what} is a dict with a 'game' key, not {type(d).__name__}")
    name = d.get("game")
    if not isinstance(name, str) or name not in _core.game_names():
        raise InvalidStateError(f"unknown game {short(name)} in the {what}; registered: {', '.join(games())}")
    cls = game_class(name)
    return load_game(name, **cls._params_from_text(text, tuples))


def game_of(d: Union[Mapping[str, Any], str, bytes]) -> Game:
    """The game a state dict or view (or its JSON) belongs to, loaded with
    the parameters it names, without loading the state itself (a frontend
    that must know the game first: its players, a seat's range).

    >>> s = load_game("capulana", players=4).new_initial_state(seed=2)
    >>> game_of(s.view(1)).num_players, game_of(s.to_json()) is s.game
    (4, True)

    :raises InvalidStateError: not a dict naming a registered game and readable parameters.
    """
    value, text, tuples = _plain(d, "state")
    return _game_of(value, "state", text, tuples)


def load_state(d: Union[Mapping[str, Any], str, bytes]) -> "State":
    """A state from a dict (or its JSON) of any registered game: the game and
    its parameters come from the dict.

    >>> s = load_game("capulana", players=4).new_initial_state(seed=2)
    >>> load_state(s.to_json()) == s
    True

    :raises InvalidStateError: naming the first problem.
    """
    parsed, text, tuples = _plain(d, "state")
    return _game_of(parsed, "state", text, tuples)._from_text(parsed, text, tuples)


def load_view(view: Union[Mapping[str, Any], str, bytes], player: Optional[int] = None) -> "State":
    """A state whose ``view(player)`` is ``view``, for any registered game
    (see :meth:`Game.from_view`; ``player`` defaults to the player to move).

    >>> s = load_game("toy").new_initial_state(seed=2)
    >>> load_view(s.view(0)).view(0) == s.view(0)
    True
    """
    parsed, text, tuples = _plain(view, "view")
    return _game_of(parsed, "view", text, tuples)._from_plain_view(parsed, player, text, tuples)
