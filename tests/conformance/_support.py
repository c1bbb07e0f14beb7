"""Shared tables and helpers of the game-generic conformance suites
(test_games.py, test_no_leaks.py).

``GAME_PARAMS`` lists the parameter sets each registered game is tested
with; test_games.py fails while a registered game is missing from it. The
card helpers know how each game names its cards: Capivárias and Capulana by
name strings (``C3``, ``F13``; Capulana's rows hold ``"F30 r>1"``), Toy by
the integers 1..6 (written ``play 3``, ``card 3``, ``[1, 4]`` in text).
"""

from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

import tabuleiro
from tabuleiro import capivarias, capulana, toy
from tests.helpers import strings_in

#: game name -> [(case id, load_game parameters)]
GAME_PARAMS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "capivarias": [
        ("capivarias", {}),
        ("capivarias-expansion", {"expansion": True}),
        ("capivarias-first1", {"first_player": 1}),
    ],
    "capulana": [(f"capulana-{n}p", {"players": n}) for n in (2, 3, 4, 5)],
    "toy": [("toy", {})],
}


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

CARD_NAMES: dict[str, frozenset[str]] = {
    "capivarias": frozenset(c.name for c in capivarias.CARDS),
    "capulana": frozenset(c.name for c in capulana.CARDS),
    "toy": frozenset(str(c) for c in range(1, toy.NUM_CARDS + 1)),
}

_TOKEN = re.compile(r"[A-Za-z0-9]+")


def _ints_in_lists(obj: Any, inside: bool = False) -> Iterator[int]:
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _ints_in_lists(v, False)
    elif isinstance(obj, list):
        for v in obj:
            yield from _ints_in_lists(v, True)
    elif inside and isinstance(obj, int) and not isinstance(obj, bool):
        yield obj


def card_names_in(game: str, obj: Any) -> set[str]:
    """The card names anywhere in a state dict or view (Toy: the integers that
    are list elements — hands, stock, piles — never counts or players)."""
    if game == "toy":
        return {str(c) for c in _ints_in_lists(obj)} & CARD_NAMES["toy"]
    tokens: set[str] = set()
    for s in strings_in(obj):
        tokens.update(_TOKEN.findall(s))
    return tokens & CARD_NAMES[game]


def card_names_in_text(game: str, text: str) -> set[str]:
    """Card names a piece of move notation names (its own input)."""
    if game == "toy":
        return set(re.findall(r"\b[1-6]\b", text)) & CARD_NAMES["toy"]
    return set(_TOKEN.findall(text)) & CARD_NAMES[game]


def hidden_from(state: Any, player: int) -> set[str]:
    """Cards in the full state that ``view(player)`` does not show."""
    game = state.game.name
    return card_names_in(game, state.to_dict()) - card_names_in(game, state.view(player))


def mention_pattern(game: str, card: str) -> re.Pattern[str]:
    """A message names ``card``: as a whole word for named cards (``C1`` does
    not match inside ``C12``); Toy's cards are bare numbers, so there a card
    is named as ``play N``, ``card(s) N``, ``hand: a N``, in a ``cards...: a, N`` list or
    inside a bracketed list of card numbers (``[1, 4]``; a list holding 0,
    like ``[0, 1]`` or ``[0, 6)``, is a range, and ``hands[1]`` an index,
    not cards)."""
    if game != "toy":
        return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(card)}(?![A-Za-z0-9_])")
    n = re.escape(card)
    return re.compile(
        rf"\bplay {n}\b"
        rf"|\bcards? {n}\b"
        rf"|\b(?:hand|stock|pile)s?:?\s+(?:[1-6][\s,]+)*{n}\b(?!\s*cards?\b)"
        rf"|\bcards?\b[^.;()\[\]]*?:\s*(?:[1-6],\s*)*{n}\b"
        rf"|(?<![\w\]])\[\s*(?:[1-6]\s*,\s*)*{n}\s*(?:,\s*[1-6]\s*)*\]"
    )


#: Fixed notation examples in message templates: the same text whatever the
#: state, so they name no card of it (capulana.py: "... like 'F30 r>1'").
TEMPLATE_EXAMPLES: dict[str, tuple[str, ...]] = {"capulana": ("like 'F30 r>1'",)}


def named_cards(game: str, message: str, cards: set[str]) -> set[str]:
    """The cards of ``cards`` that ``message`` names (fixed template examples aside)."""
    for example in TEMPLATE_EXAMPLES.get(game, ()):
        message = message.replace(example, "")
    if game != "toy":  # the whole words of the message (same as mention_pattern, in one pass)
        return set(_WORD.findall(message)) & cards
    return {c for c in cards if mention_pattern(game, c).search(message)}


_WORD = re.compile(r"[A-Za-z0-9_]+")
assert all(_WORD.fullmatch(c) for g in ("capivarias", "capulana") for c in CARD_NAMES[g])


def hidden_zones(state: Any, player: int) -> set[str]:
    """The cards each game's rules hide from ``player`` (RULES.md part 4),
    read from the full state dict: what no view of ``player`` may show."""
    d = state.to_dict()
    game = state.game.name
    if game == "capivarias":
        # river cards show their river side only; the pile is face down
        return {seg["river"] for seg in d["segments"]} | set(d["pile"])
    if game == "capulana":
        out = set(d["deck"])
        for q, hand in enumerate(d["hands"]):
            if q == player:
                continue
            out |= set(hand)
            w = d["woven"][q]
            if w:
                out |= {e.split()[0] for e in d["capulanas"][q][-w:]}
        for o in d["offers"] + ([d["open_offer"]] if d["open_offer"] else []):
            if o["player"] != player:
                out |= set(o["cards"])
        return out - set(d["known"])
    if game == "toy":
        return {str(c) for c in d["hands"][1 - player] + d["stock"]}
    raise AssertionError(f"no hidden zones for {game}: list them in tests/conformance/_support.py")
