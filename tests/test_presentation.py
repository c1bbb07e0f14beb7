"""Every registered game plays through the generic front ends (issue 27):
``tabuleiro play`` (a whole Toy game through a pseudo-terminal), ``tabuleiro
demo``, the strength levels and the parameter options, all driven by the
game's presentation (``Game.presentation()``) and its parameter specs, and a
seat's screen depends only on its view.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tabuleiro
from tabuleiro import agents, load_game
from tabuleiro._cli_params import add_param_options, params_from_args
from tabuleiro._present import Presentation

GAMES = tabuleiro.games()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tabuleiro", *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


# --- the registry's games, each with a presentation ---------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_presentation(name: str) -> None:
    game = load_game(name)
    shown = game.presentation()
    assert isinstance(shown, Presentation) and shown is game.presentation()
    assert shown.title(game).startswith(game.title) and shown.notation
    assert shown.levels is None or len(shown.levels) == 10


def test_levels_come_from_the_presentations() -> None:
    ladders = {n for n in GAMES if load_game(n).presentation().levels is not None}
    assert set(agents.LEVELS) == ladders | {"default"}
    featured = [n for n in GAMES if load_game(n).presentation().featured]
    assert len(featured) == 1
    # the default ladder: the featured game's budgets, without the search
    # parameters pinned for that game alone (a toy level searches with toy's c)
    shown = load_game(featured[0]).presentation()
    assert shown.level_search and agents.LEVELS["default"] != agents.LEVELS[featured[0]]
    for level, (kind, params) in agents.LEVELS[featured[0]].items():
        pinned = {k: v for k, v in params.items() if k in shown.level_search}
        assert pinned in ({}, dict(shown.level_search))
        assert agents.LEVELS["default"][level] == (kind, {k: v for k, v in params.items() if k not in pinned})
    assert agents.make("level", level=6, seed=2).agent_for("toy").c is None
    for n in GAMES:                          # a game without a ladder plays the default one
        kind, params = agents.LEVELS.get(n, agents.LEVELS["default"])[4]
        assert agents.make("level", level=4, seed=1).agent_for(n) == agents.make(kind, seed=1, **params)


# --- a seat's screen is a function of its view -----------------------------------------------------------


def _screens(state: Any, seat: int) -> str:
    pytest.importorskip("rich")
    from rich.console import Console

    from tabuleiro.tui.seats import make_seat
    from tabuleiro.tui.session import Session

    console = Console(record=True, width=160, color_system=None, file=open(os.devnull, "w"))
    s = Session(console, state, [make_seat("human", q, 0) for q in range(state.game.num_players)], hint="greedy")
    s.viewer = seat
    console.print(s.board(seat))
    if state.current_player == seat:
        console.print(s.moves_view(seat))
        s.compact(seat)
    if state.is_terminal:
        s.final()
    return console.export_text()


@pytest.mark.parametrize("name", GAMES)
def test_a_screen_depends_only_on_the_seats_view(name: str) -> None:
    """Two states a seat cannot tell apart (determinize keeps its view) draw the same screen."""
    rng = random.Random(3)
    game = load_game(name)
    checked = 0
    for deal in range(6):
        st = game.new_initial_state(seed=deal)
        for _ in range(rng.randrange(0, 60)):
            if st.is_terminal:
                break
            st.push(rng.choice(st.legal_moves()))
        for seat in range(game.num_players):
            other = st.determinize(seat, seed=deal + 17)
            assert other.view(seat) == st.view(seat)
            assert _screens(st, seat) == _screens(other, seat), (name, st.to_dict(), seat)
            checked += 1
    assert checked >= 12


# --- tabuleiro demo --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_demo_plays_every_game(name: str) -> None:
    a, b = run("demo", "--game", name, "--seed", "5"), run("demo", "--game", name, "--seed", "5")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout and "Traceback" not in a.stderr
    lines = a.stdout.strip().splitlines()
    assert lines[0].startswith("player ") and "moves" in lines[-1] and "returns" in lines[-1]
    quiet = run("demo", "--game", name, "--seed", "5", "--quiet")
    assert quiet.returncode == 0 and quiet.stdout.strip().splitlines()[-1] == lines[-1]


# --- the parameter options ------------------------------------------------------------------------------------


def test_parameter_options_come_from_the_specs() -> None:
    p = argparse.ArgumentParser()
    add_param_options(p)
    flags = {a.dest for a in p._actions}
    specs = {s.name for n in GAMES for s in load_game(n).param_specs()}
    assert specs <= flags and {"players", "expansion"} <= flags

    def params(name: str, *argv: str) -> dict[str, Any]:
        return params_from_args(type(load_game(name)), p.parse_args(list(argv)))

    assert params("capulana", "--players", "4") == {"players": 4}
    assert params("capivarias", "--expansion") == {"expansion": True}
    assert params("capivarias", "--players", "2") == {} and params("toy") == {}
    for name, argv, msg in [("capulana", ["--players", "9"], "--players must be 2 to 5"),
                            ("capulana", ["--expansion"], "--expansion is for Capivárias"),
                            ("capivarias", ["--players", "3"], "played by 2 players"),
                            ("toy", ["--expansion"], "--expansion is for")]:
        with pytest.raises(ValueError, match=msg):
            params(name, *argv)


def test_the_commands_take_the_old_flags() -> None:
    out = run("play", "--help")
    assert out.returncode == 0 and all(n in out.stdout for n in GAMES)
    assert "--players" in out.stdout and "--expansion" in out.stdout
    for argv in (["play", "capulana", "--players", "9"], ["play", "capulana", "--expansion"],
                 ["demo", "--game", "capulana", "--expansion"], ["demo", "--players", "9"]):
        r = run(*argv)
        assert r.returncode == 2 and r.stderr.strip() and "Traceback" not in r.stderr, (argv, r.stderr)


# --- a whole Toy game through a pseudo-terminal ----------------------------------------------------------


def test_toy_plays_a_whole_game_in_the_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("rich")
    from test_play import PROMPT, bad_input, play_out, saved, send, spawn, until_prompt

    child = spawn("toy", "--seed", "3", "--seats", "human,greedy", "--hint", "greedy", cwd=tmp_path)
    start = until_prompt(child)
    assert "Traceback" not in start and "Toy — player 0 to move (player 0's view)" in start
    assert "hand: 2 cards" in start and "stock: 2 cards" in start          # the others' cards as counts
    hand = load_game("toy").new_initial_state(seed=3).to_dict()["hands"][0]
    illegal = f"play {next(c for c in range(1, 7) if c not in hand)}"
    bad_input(child, illegal, "play 9")
    out = send(child, "help")
    assert "Toy notation" in out and "play 3" in out and "undo" in out
    assert "hint:" in send(child, "hint")
    assert "saved to" in send(child, "save a.json")
    out = send(child, "1")
    assert f"P0 (you): play {hand[0]}" in out and "P1 (greedy): play" in out
    assert "undone 2 moves" in send(child, "undo")
    send(child, "save b.json")
    assert saved(tmp_path / "a.json")["root"] == saved(tmp_path / "b.json")["root"]
    send(child, "1")
    child.sendline("save mid.json")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert saved(tmp_path / "mid.json")["game"] == "toy"

    child = spawn("--load", "mid.json", "--hint", "greedy", cwd=tmp_path)
    until_prompt(child)
    final = play_out(child)
    assert "result: " in final and ("wins: scores" in final or "A draw" in final), final


# --- issue 28: what the terminal says ---------------------------------------------------------------------


def test_the_presentation_has_no_public_moves_flag() -> None:
    """Which moves everyone sees is the rules' (``Game._seen_move``), read through the event feed."""
    assert not hasattr(Presentation, "public_moves")
    for name in GAMES:
        assert not hasattr(load_game(name).presentation(), "public_moves"), name


@pytest.mark.parametrize("name", GAMES)
def test_the_default_announcements_are_the_event_feed(name: str) -> None:
    """The generic ``events`` shows each seat its own feed's texts: a line
    every seat's feed holds alike goes to all, others to their seat."""
    pytest.importorskip("rich")
    game = load_game(name)
    rng = random.Random(4)
    shown = Presentation()
    for deal in range(3):
        st = game.new_initial_state(seed=deal)
        while not st.is_terminal:
            mover = st.current_player
            move = rng.choice(st.legal_moves())
            labels = [""] * game.num_players
            events = shown.events(st.clone(), st, move, mover, labels)
            for q in range(game.num_players):
                mine = [e.text.plain for e in events if e.audience in (None, q)]
                feed = [e["text"] for e in game.public_events(st, move, q)]
                assert len(mine) == len(feed)
                for line, text in zip(mine, feed):
                    assert text.lower() in line.lower().replace("━━ ", "").replace(" ━━", ""), (line, text)
            st.push(move)


def test_rules_pages_fit_a_terminal_and_help_reaches_them() -> None:
    pytest.importorskip("rich")
    for name in GAMES:
        for params in ({}, {"expansion": True}) if name == "capivarias" else ({},):
            game = load_game(name, **params)
            pages = game.presentation().rules(game)
            assert pages, name
            for page in pages:
                lines = page.splitlines()
                assert lines[0].startswith("How to play ") and len(lines) <= Presentation.page_lines, (name, page)
                assert max(len(x) for x in lines) <= 79, (name, max(lines, key=len))
            state = game.new_initial_state(seed=1)
            text = _commands(state, ["help", "rules", "help rules", *(f"rules {i}" for i in range(2, len(pages) + 1)),
                                     f"rules {len(pages) + 1}", "rules x"])
            assert "rules" in text.split("notation:")[0]                     # help names the command
            for page in pages:
                assert page.splitlines()[0] in text
            assert f"no page {len(pages) + 1} of rules" in text and "rules takes a page number" in text


def _commands(state: Any, lines: list[str]) -> str:
    from rich.console import Console

    from tabuleiro.tui.seats import make_seat
    from tabuleiro.tui.session import Session

    console = Console(record=True, width=100, color_system=None, file=open(os.devnull, "w"))
    s = Session(console, state, [make_seat("human", q, 0) for q in range(state.game.num_players)], hint="greedy")
    for line in lines:
        assert s.command(state.current_player, line) is False
    return console.export_text()


def test_help_lists_only_the_notation_of_the_game_played() -> None:
    pytest.importorskip("rich")
    expansion_only = ("KC/C4", "S1/KC", "capitico", "capissor", "capiolin")
    base = _commands(load_game("capivarias").new_initial_state(seed=1), ["help"])
    assert "OP1@2/C3" in base and not any(w in base for w in expansion_only), base
    rules = _commands(load_game("capivarias").new_initial_state(seed=1), ["rules", "rules 2"])
    assert not any(w in rules for w in expansion_only), rules
    full = _commands(load_game("capivarias", expansion=True).new_initial_state(seed=1), ["help", "rules"])
    assert all(w in full for w in expansion_only), full
    capulana = _commands(load_game("capulana").new_initial_state(seed=1), ["help"])
    assert "offer F13" in capulana and "OP1@2" not in capulana


def test_a_new_round_has_a_banner_after_the_old_rounds_scores() -> None:
    """Every game with rounds: the move that starts round N shows "Round N
    begins" to everyone, after what it scored (Capivárias' river as scored)."""
    pytest.importorskip("rich")
    from rich.console import Console

    from tabuleiro.tui.seats import make_seat
    from tabuleiro.tui.session import Session

    for name, params in (("capivarias", {}), ("capulana", {"players": 3})):
        game = load_game(name, **params)
        st = game.new_initial_state(seed=2)
        console = Console(record=True, width=160, color_system=None, file=open(os.devnull, "w"))
        s = Session(console, st, [make_seat("human", q, 0) for q in range(game.num_players)], hint="greedy")
        rng = random.Random(2)
        while not s.state.is_terminal:
            s.viewer = s.state.current_player
            s.play(rng.choice(s.state.legal_moves()), s.state.current_player)
        text = console.export_text()
        rounds = s.state.to_dict()["round"]
        assert rounds >= 2
        for r in range(2, rounds + 1):
            assert text.count(f"Round {r} begins") == 1, (name, r)
        if name == "capivarias":
            assert text.index("The river as scored, round 1") < text.index("Round 2 begins")
