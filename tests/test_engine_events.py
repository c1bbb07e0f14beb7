"""Issue 28: a seat-bound session tells the seat what it saw happen (``events``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tabuleiro
from tabuleiro import engine


def _session() -> tuple[engine.Engine, list[bytes]]:
    lines: list[bytes] = []
    return engine.Engine(lines.append), lines


def _ask(e: engine.Engine, lines: list[bytes], **req: Any) -> dict[str, Any]:
    e.handle_line(json.dumps(req).encode())
    out: dict[str, Any] = json.loads(lines.pop())
    assert out["ok"], out
    return out


@pytest.mark.parametrize("name, params", [("capivarias", {}), ("capulana", {"players": 3}), ("toy", {})])
def test_every_played_move_brings_the_seats_events(name: str, params: dict[str, Any]) -> None:
    e, lines = _session()
    seat = 1
    _ask(e, lines, cmd="new", game=name, seed=9, seat=seat, **params)
    truth = tabuleiro.load_game(name, **params).new_initial_state(seed=9)
    rng = random.Random(4)
    kinds: set[str] = set()
    while not truth.is_terminal:
        a = rng.choice(truth.legal_actions())
        expected = truth.game.public_events(truth, a, seat)
        q, notation = truth.current_player, str(truth.parse_move(a))
        r = _ask(e, lines, cmd="play", move=a)
        truth.push(a)
        assert r["events"] == expected and r["events"][0]["player"] == q
        if q == seat:
            assert r["events"][0]["move"] == notation              # the seat's own move, always named
        kinds.update(ev["kind"] for ev in r["events"])
        assert r["view"] == truth.view(seat)
    assert "over" in kinds
    if name == "capulana":
        assert {"auction", "woven", "round"} <= kinds


def test_an_unbound_session_gets_no_events() -> None:
    e, lines = _session()
    _ask(e, lines, cmd="new", game="toy", seed=1)
    assert "events" not in _ask(e, lines, cmd="play", move=0)


def test_a_relayed_offer_is_told_without_its_card() -> None:
    e, lines = _session()
    _ask(e, lines, cmd="new", game="capulana", players=3, seed=3, seat=2)
    _ask(e, lines, cmd="play", move="bid 0")                   # player 0 bids: public
    legal = tabuleiro.load_game("capulana", players=3).new_initial_state(seed=3)
    legal.push("bid 0")
    offer = next(m for m in legal.legal_moves() if m.kind == "offer")  # type: ignore[attr-defined]
    r = _ask(e, lines, cmd="play", move=str(offer))
    assert r["move"] is None and r["events"][0]["move"] is None
    assert offer.card.name not in json.dumps(r)                # type: ignore[attr-defined]
    assert r["events"][0]["text"] == "P0 adds a card to the offer on slot 0, face down"
