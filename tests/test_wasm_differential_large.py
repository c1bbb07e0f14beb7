"""The differential test of test_wasm_differential.py for Capulana with 4
and 5 players (the longest games), in a file of its own so that
pytest-xdist (``--dist loadfile``) runs it beside the other half."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_wasm_differential import LARGE, check_games, config_id
from tests.test_wasm_support import NodeEngine, node_engine, wasm_dist  # noqa: F401  (fixtures)

IDS = [config_id(g, p) for g, p in LARGE]


@pytest.mark.parametrize("game,params", LARGE, ids=IDS)
def test_wasm_equals_native_quick(node_engine: NodeEngine, game: str, params: dict[str, Any]) -> None:
    check_games(node_engine, game, params, 8)


@pytest.mark.slow
@pytest.mark.parametrize("game,params", LARGE, ids=IDS)
def test_wasm_equals_native_500_games(node_engine: NodeEngine, game: str, params: dict[str, Any]) -> None:
    check_games(node_engine, game, params, 500)
