"""Capivárias as a PettingZoo AEC environment (``capivarias_v0``).

| property | value |
|---|---|
| agents | ``player_0``, ``player_1`` |
| actions | Discrete(3248) with ``action_mask`` (RULES 2.7 ids) |
| observation | ``{"observation": float32 (418,), "action_mask": int8 (3248,)}`` (docs/observations.md) |
| rewards | +1 / -1 to the winner / loser at the end, 0 / 0 on an R30 draw |
| parameters | ``expansion`` (bool, default False), ``first_player`` (0 or 1) |
| render | ``render_mode="ansi"`` |

    from tabuleiro.envs import capivarias_v0
    env = capivarias_v0.env(expansion=True)

Changelog: v0 — first version.
"""

from __future__ import annotations

from typing import Any, Optional

from ._aec import TabuleiroAEC, wrap


class raw_env(TabuleiroAEC):  # noqa: N801 - PettingZoo's naming
    metadata = {"render_modes": ["ansi"], "name": "capivarias_v0", "is_parallelizable": False}
    GAME = "capivarias"

    def __init__(self, render_mode: Optional[str] = None, expansion: bool = False, first_player: int = 0) -> None:
        super().__init__(render_mode=render_mode, expansion=expansion, first_player=first_player)


def env(**kwargs: Any) -> Any:
    """The wrapped environment (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
    return wrap(raw_env(**kwargs))
