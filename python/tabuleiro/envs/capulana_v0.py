"""Capulana as a PettingZoo AEC environment (``capulana_v0``).

| property | value |
|---|---|
| agents | ``player_0`` .. ``player_{players-1}`` |
| actions | Discrete(847) with ``action_mask`` (RULES 1.6 ids) |
| observation | ``{"observation": float32 (2161/3146/4135/5128 for 2..5 players,), "action_mask": int8 (847,)}`` (docs/observations.md) |
| rewards | the game's returns at the end: 1/k to each of k tied winners, 0 to the others |
| parameters | ``players`` (2..5, default 3) |
| render | ``render_mode="ansi"`` |

    from tabuleiro.envs import capulana_v0
    env = capulana_v0.env(players=4)

Changelog: v0 — first version.
"""

from __future__ import annotations

from typing import Any, Optional

from ._aec import TabuleiroAEC, wrap


class raw_env(TabuleiroAEC):  # noqa: N801 - PettingZoo's naming
    metadata = {"render_modes": ["ansi"], "name": "capulana_v0", "is_parallelizable": False}
    GAME = "capulana"

    def __init__(self, render_mode: Optional[str] = None, players: int = 3) -> None:
        super().__init__(render_mode=render_mode, players=players)


def env(**kwargs: Any) -> Any:
    """The wrapped environment (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
    return wrap(raw_env(**kwargs))
