"""Shared tables and helpers of the game-generic conformance suites
(test_games.py, test_no_leaks.py). No line here names a game.

``GAME_PARAMS`` lists the parameter sets each registered game is tested
with, made from the registry: the defaults, then each parameter of the
rules (``Game.param_specs()``, not a ``tool`` one) at every other value of
its range (at most ``MAX_VALUES`` of them). What the suites must know of a
game's cards (how they are named, which the rules hide) is in the game's
own module ``tests/conformance/games/<game>.py``: ``CARDS``, a
:class:`NamedCards` (cards named by words: ``C3``, ``F13``) or a
:class:`NumberedCards` (cards that are bare integers), and
``hidden_zones(state, player)``. A registered game without that module
fails ``test_every_registered_game_is_listed``.
"""

from __future__ import annotations

import importlib
import random
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, Iterator, Optional

import tabuleiro
from tests.helpers import strings_in

#: values tried per integer parameter besides its default
MAX_VALUES = 8


def _param_cases(name: str) -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = [(name, {})]
    for p in tabuleiro.load_game(name).param_specs():
        if p.tool:
            continue   # a tool's variant (e.g. an old determinization) is tested where it is kept
        values = [not p.default] if p.type is bool else [v for v in range(p.low, p.high + 1) if v != p.default]
        cases += [(f"{name}-{p.name}={v}", {p.name: v}) for v in values[:MAX_VALUES]]
    return cases


#: game name -> [(case id, load_game parameters)]
GAME_PARAMS: dict[str, list[tuple[str, dict[str, Any]]]] = {name: _param_cases(name) for name in tabuleiro.games()}


@dataclass(frozen=True)
class Case:
    id: str
    name: str
    params: tuple[tuple[str, Any], ...]

    @property
    def game(self) -> tabuleiro.Game:
        return tabuleiro.load_game(self.name, **dict(self.params))


CASES: list[Case] = [Case(cid, name, tuple(sorted(p.items())))
                     for name, rows in GAME_PARAMS.items() for cid, p in rows]
CASE_BY_ID = {c.id: c for c in CASES}

AGENT_NAMES = ("random", "greedy", "flatmc", "mcts", "ismcts")


def case_seed(case_id: str, salt: str = "") -> int:
    return zlib.crc32(f"{case_id}/{salt}".encode())


@lru_cache(maxsize=None)
def random_games(case_id: str, n_games: int) -> tuple[tuple[Any, tuple[int, ...]], ...]:
    """``n_games`` seeded uniformly random games: (final state, action ids)."""
    case = CASE_BY_ID[case_id]
    rng = random.Random(case_seed(case_id, "games"))
    out = []
    for _ in range(n_games):
        s = case.game.new_initial_state(seed=rng.randrange(2**64))
        while not s.is_terminal:
            s.push(rng.choice(s.legal_actions()))
        out.append((s, tuple(s.history())))
    return tuple(out)


@lru_cache(maxsize=None)
def _positions(case_id: str, n_games: int, per_game: int) -> tuple[Any, ...]:
    """States reached by random play: from each game the root, ``per_game``
    positions spread along it and the final (terminal) position."""
    rng = random.Random(case_seed(case_id, f"positions/{n_games}/{per_game}"))
    out = []
    for final, actions in random_games(case_id, n_games):
        s = final.root()
        picks = set(rng.sample(range(1, len(actions)), min(per_game, len(actions) - 1)))
        out.append(s.clone())
        for i, a in enumerate(actions, 1):
            s.push(a)
            if i in picks:
                out.append(s.clone())
        out.append(s.clone())
        assert s.is_terminal
    return tuple(out)


def positions(case_id: str, n_games: int = 6, per_game: int = 10) -> list[Any]:
    """Fresh clones of the cached positions (callers may mutate them)."""
    return [s.clone() for s in _positions(case_id, n_games, per_game)]


# --- cards -------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"[A-Za-z0-9_]+")


class NamedCards:
    """Cards named by words (``C3``, ``OP1``, ``F13``), found as whole words
    in strings (a state's strings may hold more: Capulana's rows hold
    ``"F30 r>1"``); ``template_examples`` are fixed notation examples in
    message templates (the same text whatever the state, so they name no
    card of it)."""

    #: a seat's text may be searched for card names (no false matches)
    words_in_text = True

    def __init__(self, names: frozenset[str], template_examples: tuple[str, ...] = ()) -> None:
        assert all(_WORD.fullmatch(c) for c in names)
        self.names = names
        self.template_examples = template_examples

    def in_obj(self, obj: Any) -> set[str]:
        """The card names anywhere in a state dict or view."""
        tokens: set[str] = set()
        for s in strings_in(obj):
            tokens.update(_TOKEN.findall(s))
        return tokens & self.names

    def in_text(self, text: str) -> set[str]:
        """Card names a piece of move notation names (its own input)."""
        return set(_TOKEN.findall(text)) & self.names

    def mention_pattern(self, card: str) -> re.Pattern[str]:
        """A message names ``card`` as a whole word (``C1`` does not match inside ``C12``)."""
        return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(card)}(?![A-Za-z0-9_])")

    def named(self, message: str, cards: set[str]) -> set[str]:
        """The cards of ``cards`` that ``message`` names (fixed template examples aside)."""
        for example in self.template_examples:
            message = message.replace(example, "")
        return set(_WORD.findall(message)) & cards   # (mention_pattern's whole words, in one pass)

    def card_at(self, value: Any, in_list: bool) -> Optional[str]:
        """The card a leaf of a state dict holds (a string's first word), or None."""
        if isinstance(value, str):
            first = value.split()[0] if value.split() else ""
            return first if first in self.names else None
        return None

    def put(self, parent: Any, key: Any, card: str) -> None:
        """Put ``card`` at ``parent[key]`` in place of the card there (keeping what follows its name)."""
        old = parent[key]
        parent[key] = card + old[old.index(" "):] if isinstance(old, str) and " " in old else card


class NumberedCards:
    """Cards that are the integers 1..n: in a state dict, the integers that
    are list elements (hands, stock, piles; never counts or players); in
    text, a number named in context (``play 3``, ``card 3``, ``hand: 2 6``,
    ``[1, 4]``; see :meth:`mention_pattern`)."""

    #: bare numbers in a seat's text ("hand: 2 cards") would match: that test compares texts instead
    words_in_text = False

    def __init__(self, n: int) -> None:
        self.names = frozenset(str(c) for c in range(1, n + 1))
        self._num = "(?:" + "|".join(sorted(self.names, key=lambda c: (-len(c), c))) + ")"

    def in_obj(self, obj: Any) -> set[str]:
        return {str(c) for c in _ints_in_lists(obj)} & self.names

    def in_text(self, text: str) -> set[str]:
        return set(re.findall(rf"\b{self._num}\b", text)) & self.names

    def mention_pattern(self, card: str) -> re.Pattern[str]:
        """A message names ``card`` as ``play N``, ``card(s) N``, ``hand: a
        N``, in a ``cards...: a, N`` list or inside a bracketed list of card
        numbers (``[1, 4]``; a list holding 0, like ``[0, 1]`` or ``[0, 6)``,
        is a range, and ``hands[1]`` an index, not cards)."""
        n, k = re.escape(card), self._num
        return re.compile(
            rf"\bplay {n}\b"
            rf"|\bcards? {n}\b"
            rf"|\b(?:hand|stock|pile)s?:?\s+(?:{k}[\s,]+)*{n}\b(?!\s*cards?\b)"
            rf"|\bcards?\b[^.;()\[\]]*?:\s*(?:{k},\s*)*{n}\b"
            rf"|(?<![\w\]])\[\s*(?:{k}\s*,\s*)*{n}\s*(?:,\s*{k}\s*)*\]"
        )

    def named(self, message: str, cards: set[str]) -> set[str]:
        return {c for c in cards if self.mention_pattern(c).search(message)}

    def card_at(self, value: Any, in_list: bool) -> Optional[str]:
        if in_list and isinstance(value, int) and not isinstance(value, bool) and str(value) in self.names:
            return str(value)
        return None

    def put(self, parent: Any, key: Any, card: str) -> None:
        parent[key] = int(card)


def _ints_in_lists(obj: Any, inside: bool = False) -> Iterator[int]:
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _ints_in_lists(v, False)
    elif isinstance(obj, list):
        for v in obj:
            yield from _ints_in_lists(v, True)
    elif inside and isinstance(obj, int) and not isinstance(obj, bool):
        yield obj


@lru_cache(maxsize=None)
def profile(game: str) -> ModuleType:
    """The game's own conformance module, ``tests/conformance/games/<game>.py``."""
    return importlib.import_module(f"tests.conformance.games.{game}")


def cards(game: str) -> Any:
    """The game's cards (:class:`NamedCards` or :class:`NumberedCards`)."""
    return profile(game).CARDS


class _CardNames(dict):  # type: ignore[type-arg]
    """game -> its card names, read from its module on first use."""

    def __missing__(self, game: str) -> frozenset[str]:
        names: frozenset[str] = cards(game).names
        self[game] = names
        return names


CARD_NAMES: dict[str, frozenset[str]] = _CardNames()


def card_names_in(game: str, obj: Any) -> set[str]:
    """The card names anywhere in a state dict or view."""
    return cards(game).in_obj(obj)  # type: ignore[no-any-return]


def card_names_in_text(game: str, text: str) -> set[str]:
    """Card names a piece of move notation names (its own input)."""
    return cards(game).in_text(text)  # type: ignore[no-any-return]


def hidden_from(state: Any, player: int) -> set[str]:
    """Cards in the full state that ``view(player)`` does not show."""
    game = state.game.name
    return card_names_in(game, state.to_dict()) - card_names_in(game, state.view(player))


def mention_pattern(game: str, card: str) -> re.Pattern[str]:
    """How a message names ``card`` (the game's cards say)."""
    return cards(game).mention_pattern(card)  # type: ignore[no-any-return]


def named_cards(game: str, message: str, cards_: set[str]) -> set[str]:
    """The cards of ``cards_`` that ``message`` names (fixed template examples aside)."""
    return cards(game).named(message, cards_)  # type: ignore[no-any-return]


def hidden_zones(state: Any, player: int) -> set[str]:
    """The cards the game's rules hide from ``player`` (RULES.md part 4),
    read from the full state dict: what no view of ``player`` may show."""
    return profile(state.game.name).hidden_zones(state, player)  # type: ignore[no-any-return]
