"""Game knowledge lives only in the game's own modules (issue 27).

Shared code (the TUI, the commands, the agents, the arena, the engine) asks
a game's presentation (``Game.presentation()``) and its parameter specs
(``Game.param_specs()``) for everything that differs between games, so no
Python name and no string in it may contain a registered game's name (its
registry name or its title, any case). Docstrings and comments may: they
name games in examples.

A game's own modules are those whose file name contains the game's name
(``capulana.py``, ``_capulana_show.py``, ``envs/capulana_v0.py``, ...).
``envs/`` and ``openspiel.py`` are left out here for now: another change
moves their game knowledge (the lead folds this check into test_layout.py).
"""

from __future__ import annotations

import ast
import io
import tokenize
import unicodedata
from pathlib import Path

import pytest

import tabuleiro

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "tabuleiro"
NOT_YET = ("envs/", "openspiel.py")


def _fold(text: str) -> str:
    """Lower case without accents (Capivárias and capivarias are one name)."""
    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(c))


def game_names() -> frozenset[str]:
    """Every registered game's name and title, folded."""
    names = set()
    for name in tabuleiro.games():
        names.add(_fold(name))
        names.add(_fold(tabuleiro.load_game(name).title))
    return frozenset(names)


NAMES = game_names()


def _docstring_starts(tree: ast.AST) -> set[tuple[int, int]]:
    """(line, column) where each docstring's string starts."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add((first.value.lineno, first.value.col_offset))
    return out


def hits(source: str) -> list[tuple[int, str]]:
    """(line, token) of every name or non-docstring string naming a game."""
    docstrings = _docstring_starts(ast.parse(source))
    string_kinds = {tokenize.STRING} | {getattr(tokenize, k) for k in ("FSTRING_START", "FSTRING_MIDDLE",
                                                                       "FSTRING_END") if hasattr(tokenize, k)}
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME or (tok.type in string_kinds and tok.start not in docstrings):
            folded = _fold(tok.string)
            if any(name in folded for name in NAMES):
                out.append((tok.start[0], tok.string))
    return out


def _own(rel: str) -> bool:
    """A game's own module: its file name names the game."""
    stem = _fold(Path(rel).stem)
    return any(name in stem for name in NAMES)


def shared_modules() -> list[str]:
    rels = [p.relative_to(PACKAGE).as_posix() for p in sorted(PACKAGE.rglob("*.py"))]
    return [r for r in rels if not _own(r) and not r.startswith(NOT_YET)]


def test_the_check_sees_what_it_must() -> None:
    src = ('"""The capulana docstring may name a game."""\n'
           'def f() -> str:\n'
           '    """Toy too."""\n'
           '    # a comment may: capivarias\n'
           '    x = "Capivárias"\n'
           '    toy_level = 3\n'
           '    return f"{x} capulana"\n')
    assert sorted({line for line, _ in hits(src)}) == [5, 6, 7]
    assert {"capulana", "capivarias", "toy"} <= NAMES
    assert _own("_capulana_show.py") and _own("envs/capivarias_v0.py") and not _own("tui/session.py")
    assert "tui/session.py" in shared_modules() and "capulana.py" not in shared_modules()


@pytest.mark.parametrize("rel", shared_modules())
def test_shared_modules_name_no_game(rel: str) -> None:
    found = hits((PACKAGE / rel).read_text(encoding="utf-8"))
    assert not found, f"{rel} names a game outside docstrings and comments: {found}"
