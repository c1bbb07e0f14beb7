"""The State API every game shares, in the python-chess habit.

>>> import tabuleiro
>>> s = tabuleiro.load_game("capivarias").new_initial_state(seed=7)
>>> m = s.legal_moves()[0]
>>> s.push(m)
>>> s.peek() == m, len(s.history())
(True, 1)
>>> s.pop() == m, s.history()
(True, [])
>>> s.outcome() is None
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, Optional, Union

from . import _core
from ._errors import IllegalMoveError, InvalidMoveError, InvalidStateError
from ._fields import check_seed, int_in, plain_json

if TYPE_CHECKING:
    from typing_extensions import Self

    from ._game import Game

__all__ = ["Move", "MoveLike", "Outcome", "State", "parse_notation"]


@dataclass(frozen=True)
class Move:
    """A move of one game, identified by its action id; ``str()`` is its
    notation. Each game subclasses it with ``NUM_ACTIONS``, ``__str__`` and
    ``parse``.

    >>> from tabuleiro import toy
    >>> m = toy.Move(2)
    >>> m, str(m), m.action
    (Move.parse('play 3'), 'play 3', 2)
    """

    action: int
    NUM_ACTIONS: ClassVar[int] = 0

    def __post_init__(self) -> None:
        a = self.action
        exact = int_in(a, 0, self.NUM_ACTIONS)
        if exact is None:
            raise InvalidMoveError(f"action id {a!r} is not an integer in [0, {self.NUM_ACTIONS})")
        if type(a) is not int:
            object.__setattr__(self, "action", exact)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read the game's notation.

        >>> from tabuleiro import toy
        >>> toy.Move.parse("play 3").action
        2
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


MoveLike = Union[int, str, Move]

_SR_E_ILLEGAL = 5      # game.h's sr_error: notation naming no legal move where the position decides


def parse_notation(game_name: str, text: Any, state: Optional["State"] = None) -> int:
    """The action id a game's notation names, read by the games' JSON layer
    in C (csrc/<game>_json.c, the reader the WebAssembly engine uses too);
    ``state`` resolves notation that needs the position. The id is not
    checked for legality unless the position decides it.

    >>> parse_notation("toy", "play 3")
    2

    :raises InvalidMoveError: not a string, or not a move of the game.
    :raises IllegalMoveError: notation that needs the position names no legal move in ``state``.
    """
    from ._game import load_game

    if not isinstance(text, str):
        raise InvalidMoveError(f"notation must be a string, not {type(text).__name__}")
    core = state.game._core if state is not None else load_game(game_name)._core
    rc, action, msg = _core.parse_action(core, text, state)
    if rc == 0:
        return action
    if rc == _SR_E_ILLEGAL and state is not None:
        raise IllegalMoveError(msg, state=state.to_dict())
    raise InvalidMoveError(msg)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: ``winners`` (the players with the top
    return; several on a shared win, none on a draw), the true ``returns`` and
    the final ``scores``.

    >>> from tabuleiro import toy
    >>> s = toy.new_game(seed=2)
    >>> while not s.is_terminal:
    ...     s.push(s.legal_moves()[0])
    >>> s.outcome()
    Outcome(winners=(0,), returns=(1.0, -1.0), scores=(14, 7))
    """

    winners: tuple[int, ...]
    returns: tuple[float, ...]
    scores: tuple[int, ...]

    @property
    def winner(self) -> Optional[int]:
        """The single winner, or None on a draw or a shared win.

        >>> Outcome((0,), (1.0, -1.0), (14, 7)).winner
        0
        >>> Outcome((), (0.0, 0.0), (9, 9)).winner is None
        True
        """
        return self.winners[0] if len(self.winners) == 1 else None


class State(_core.CoreState):
    """A position of one game, held as one flat C struct, with its move stack.

    Made by ``game.new_initial_state(seed=...)`` or ``game.from_dict(d)``;
    ``push``/``apply`` check legality and leave the state untouched when they
    raise; ``pop`` undoes. Each game subclasses it (``MOVE``, ``view``,
    ``__str__``).

    >>> from tabuleiro import toy
    >>> s = toy.new_game(seed=2)
    >>> s.current_player, s.legal_moves()
    (0, [Move.parse('play 3'), Move.parse('play 6')])
    >>> s.push("play 6")
    >>> s.current_player, s.is_terminal
    (1, False)

    Two fast entry points, written in C for the adapters' step loops
    (PettingZoo, OpenSpiel), which would otherwise pay for ``push``'s checks
    and exception message: ``try_push(action)`` plays an action id if it is
    legal (True) and otherwise leaves the state untouched and returns False,
    building no exception; ``observe_into(player, obs, mask)`` writes the
    observation tensor and the legal-action mask into the caller's buffers.

    >>> s.try_push(0), s.try_push(0), s.history()    # id 0 (play 1): player 1's, not player 0's
    (True, False, [5, 0])
    >>> s.try_push(10 ** 30), s.try_push(-1)          # no such id: not legal either
    (False, False)
    >>> from array import array
    >>> obs = array("f", bytes(4 * s.game.observation_size))
    >>> mask = bytearray(s.game.num_distinct_actions)
    >>> n = s.observe_into(s.current_player, obs, mask)
    >>> n == sum(mask) == len(s.legal_actions()), list(obs) == list(s.observation(s.current_player))
    (True, True)
    """

    __slots__ = ()
    MOVE: ClassVar[type[Move]] = Move
    #: The registry name of the game this class plays (``from_dict`` picks the game by it).
    GAME_NAME: ClassVar[str] = ""

    if TYPE_CHECKING:  # provided by the C binding
        @property
        def game(self) -> "Game": ...
        @property
        def current_player(self) -> Optional[int]: ...
        @property
        def is_terminal(self) -> bool: ...
        def legal_actions(self) -> list[int]: ...
        def legal_action_mask(self) -> bytes: ...
        def returns(self) -> list[float]: ...
        def scores(self) -> list[int]: ...
        def infostate_key(self, player: int) -> int: ...
        def clone(self) -> "Self": ...

        def try_push(self, action: int) -> bool:
            """Play action id ``action`` (an int or numpy integer) if it is
            legal now and put it on the move stack: True. False, the state
            untouched, when it is not legal here (an id out of
            ``[0, num_distinct_actions)`` included, or the game is over); no
            exception is built on that path, so a step loop can afford it.

            :raises TypeError: not an integer (a bool is not one).
            """

        def observe_into(self, player: int, obs: Any, mask: Any) -> int:
            """``player``'s whole observation in one call: the tensor of
            ``observation(player)`` into ``obs`` (a writable C-contiguous
            float32 buffer of ``observation_size`` items) and the legal-action
            mask into ``mask`` (uint8/int8, ``num_distinct_actions`` bytes)
            when ``player`` is to move, all zeros otherwise. Both buffers are
            checked before either is written. Returns the number of legal
            actions (0 when ``player`` is not to move).

            :raises ValueError: a bad player, or a buffer of the wrong size or type.
            """

    # --- moves ---------------------------------------------------------------------------
    def legal_moves(self) -> list[Any]:
        """The legal moves, in ascending action id order.

        >>> from tabuleiro import toy
        >>> toy.new_game(seed=2).legal_moves()
        [Move.parse('play 3'), Move.parse('play 6')]
        """
        mv = self.MOVE
        return [mv(a) for a in self.legal_actions()]

    def parse_move(self, move: MoveLike) -> Any:
        """Turn an id, a notation string or a Move into a legal Move of this state.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> s.parse_move("play 3"), s.parse_move(5)
        (Move.parse('play 3'), Move.parse('play 6'))

        :raises InvalidMoveError: not a move at all.
        :raises IllegalMoveError: a move, but not legal here (or the game is over).
        """
        if isinstance(move, self.MOVE):
            m = move
        elif isinstance(move, str):
            m = self._parse_text(move)
        elif isinstance(move, int) and not isinstance(move, bool):
            m = self.MOVE(move)
        else:
            raise InvalidMoveError(f"a move is an action id, a notation string or a {self.game.title} Move, "
                                   f"not {type(move).__name__} {repr(move)[:60]}")
        if m.action not in self.legal_actions():
            raise self._illegal(m)
        return m

    def _parse_text(self, text: str) -> Any:
        return self.MOVE.parse(text)

    def _illegal(self, m: Move) -> IllegalMoveError:
        p = self.current_player
        why = "the game is over" if p is None else f"it is not one of player {p}'s legal moves now"
        return IllegalMoveError(f"illegal move {str(m)!r} (id {m.action}): {why}", state=self.to_dict())

    def push(self, move: MoveLike) -> None:
        """Play a move (an action id, a notation string or a Move) and put it on
        the move stack. ``apply`` is another name for it. The state is
        unchanged when it raises.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> s.push(5)                   # action id 5: play 6
        >>> s.push("play 6")            # the 6 is on player 0's pile now
        Traceback (most recent call last):
        ...
        tabuleiro._errors.IllegalMoveError: illegal move 'play 6' (id 5): it is not one of player 1's legal moves now
        >>> s.history()
        [5]

        :raises InvalidMoveError: the input is not a move at all.
        :raises IllegalMoveError: the move is not legal now.
        """
        if isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move < self.MOVE.NUM_ACTIONS:
                raise InvalidMoveError(f"action id {move} is not in [0, {self.MOVE.NUM_ACTIONS})")
            if self._apply_action(move) != 0:
                raise self._illegal(self.MOVE(move))
            return
        m = self.parse_move(move)
        self._apply_action(m.action)

    apply = push

    def pop(self) -> Any:
        """Undo the last move on the stack and return it.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> s.push("play 6")
        >>> s.pop(), s == toy.new_game(seed=2)
        (Move.parse('play 6'), True)

        :raises IndexError: the stack is empty.
        """
        return self.MOVE(self._pop())

    def peek(self) -> Any:
        """The last move on the stack.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> s.push("play 6")
        >>> s.peek()
        Move.parse('play 6')

        :raises IndexError: the stack is empty.
        """
        h = self._history()
        if not h:
            raise IndexError("peek at an empty move stack")
        return self.MOVE(h[-1])

    def history(self) -> list[int]:
        """Action ids played since the root (the new game or the loaded state);
        the root's ``to_dict()`` (``root()``) and these ids reproduce this state,
        chance included (each state carries its own generator).

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> s.push("play 6")
        >>> s.history()
        [5]
        """
        return self._history()

    def root(self) -> "Self":
        """The state the move stack starts from (a copy with an empty stack).

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> s.push("play 6")
        >>> s.root() == toy.new_game(seed=2), s.root().history()
        (True, [])
        """
        return self._root_state()  # type: ignore[no-any-return]

    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or None while it goes on.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> s.outcome() is None
        True
        >>> while not s.is_terminal:
        ...     s.push(s.legal_moves()[0])
        >>> s.outcome().winner
        0
        """
        if not self.is_terminal:
            return None
        r = self.returns()
        top = max(r)
        winners = () if min(r) == top else tuple(p for p, x in enumerate(r) if x == top)
        return Outcome(winners, tuple(r), tuple(self.scores()))

    # --- hidden information -------------------------------------------------------------------
    def _check_player(self, player: Any) -> int:
        n = self.game.num_players
        p = int_in(player, 0, n)
        if p is None:
            raise ValueError(f"player must be an integer in [0, {n - 1}], not {player!r}")
        return p

    if TYPE_CHECKING:
        # CoreState.determinize itself at run time (its docstring and doctest
        # are in src/_core.pyx): it checks the player and the seed as
        # _check_player and check_seed do, and a call runs no Python code
        def determinize(self, player: int, seed: int) -> "Self":
            """A full state drawn uniformly from those consistent with
            ``view(player)``: it depends only on that view and ``seed``, and
            its ``view(player)`` equals this state's."""

    def observation(self, player: int, *, out: Any = None) -> Any:
        """The observation tensor of ``player`` (docs/observations.md): a
        fixed-size float32 encoding of ``view(player)`` and nothing else.
        Written into ``out`` (a writable C-contiguous float32 buffer such as a
        numpy array, no copy) and returned; a new ``array('f')`` without one.

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> obs = s.observation(0)
        >>> obs.typecode, len(obs) == s.game.observation_size
        ('f', True)
        """
        return _core.observation(self, player, out)    # C checks the player as _check_player does

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: ``to_dict()`` with everything hidden from them
        replaced by counts, and no seed (RULES.md part 4; each game's
        ``State`` says what it hides). Written in C (csrc/<game>_json.c),
        the code the WebAssembly engine's views come from too.

        >>> from tabuleiro import toy
        >>> toy.new_game(seed=2).view(0)
        {'game': 'toy', 'to_move': 0, 'hands': [[3, 6], {'count': 2}], 'stock': {'count': 2}, 'piles': [[], []]}
        """
        return json.loads(_core.state_json(self, self._check_player(player)))  # type: ignore[no-any-return]

    def text(self, player: Optional[int] = None) -> str:
        """The position as text. With ``player``: exactly what that seat sees,
        drawn from a state rebuilt from ``view(player)`` alone (so it cannot
        show a card the seat has not seen); this is the text to show a seat.
        Without: the full state, every hidden card included, and its first
        line says so (``str(state)`` is this).

        >>> from tabuleiro import toy
        >>> s = toy.new_game(seed=2)
        >>> print(s.text(1))
        Toy — player 0 to move (player 1's view)
        *P0 pile: -      score 0   hand: 2 cards
         P1 pile: -      score 0   hand: 1 4
        stock: 2 cards
        >>> "full state" in str(s)
        True
        """
        if player is None:
            return self._text(None)
        p = self._check_player(player)
        return self.game.from_view(self.view(p), p)._text(p)

    def _text(self, seat: Optional[int]) -> str:
        """The text of ``text``: everything when ``seat`` is None; else only
        what ``seat`` sees (``self`` is then rebuilt from that seat's view)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()

    # --- serialisation --------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "State":
        """Load a state dict (RULES.md part 4) in the game its fields name
        (for instance Capulana's ``players``); the C engine checks it.

        >>> from tabuleiro import capulana
        >>> s = capulana.new_game(players=4, seed=2)
        >>> t = capulana.State.from_dict(s.to_dict())
        >>> t == s, t.game.num_players
        (True, 4)

        :raises InvalidStateError: (a ``ValueError``) naming the first problem.
        """
        from ._game import game_class, load_game

        gc = game_class(cls.GAME_NAME)
        if not isinstance(d, Mapping):
            raise InvalidStateError(f"invalid {gc.title} state: expected a dict, got {type(d).__name__}")
        text, tuples = plain_json(d, f"invalid {gc.title} state: it")     # one walk: checked and written
        return load_game(cls.GAME_NAME, **gc._params_from_text(text, tuples))._from_text(d, text, tuples)

    def to_dict(self) -> dict[str, Any]:
        """Full-information JSON-safe dict (RULES.md part 4), written by the
        games' JSON layer in C (csrc/state_json.h) that the WebAssembly
        engine uses too.

        >>> from tabuleiro import toy
        >>> sorted(toy.new_game(seed=2).to_dict())
        ['game', 'hands', 'piles', 'seed', 'stock', 'to_move']
        """
        return self.game._decode_fields(self._encode())

    def to_json(self) -> str:
        """``to_dict()`` as compact JSON.

        >>> from tabuleiro import toy
        >>> toy.new_game(seed=2).to_json()[:26]
        '{"game":"toy","to_move":0,'
        """
        return _core.state_json(self, -1)

    # --- python protocol -------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return bool(self._same_position(other))

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> "Self":
        return self.clone()

    def __deepcopy__(self, memo: Any) -> "Self":
        return self.clone()

    def __reduce__(self) -> Any:
        g = self.game
        return (_restore, (g.name, g.params, self.root()._encode(), self.history()))

    def __repr__(self) -> str:
        return f"State.from_dict({self.to_dict()!r})"


def _restore(name: str, params: dict[str, Any], root: list[int], history: list[int]) -> State:
    from ._game import load_game

    st: State = load_game(name, **params)._core.decode(root)
    for a in history:
        if st._apply_action(a) != 0:
            raise ValueError(f"a pickled {name} state replays an illegal action {a}")
    return st
