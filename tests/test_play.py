"""``tabuleiro play``: the terminal game (issue 9 part 4).

The acceptance tests drive the real command through a pseudo-terminal
(pexpect) with scripted input: a whole short game of each game with bad
input, help, moves, hint, undo, save and --load. The unit tests check that
what a person is shown never holds a card their seat cannot see, and that the
numbers the screen computes from a view agree with the engine.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("rich")

from rich.console import Console  # noqa: E402

from tabuleiro import agents, capivarias, capulana, load_game  # noqa: E402
from tabuleiro import _capivarias_screen, _capulana_screen  # noqa: E402
from tabuleiro.tui.seats import level_agent, make_seat, parse_spec, split_seats  # noqa: E402
from tabuleiro.tui.session import Session, load_save, public_events  # noqa: E402

ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>])")
PROMPT = "move> "
CARD_TOKEN = re.compile(r"[A-Z]+[0-9]*")


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


# --- seats ----------------------------------------------------------------------------------------


def test_seat_specs() -> None:
    assert parse_spec("human") == ("human", {})
    assert parse_spec("ismcts:iterations=2000:c=0.7:shaped=false") == \
        ("ismcts", {"iterations": 2000, "c": 0.7, "shaped": False})
    assert parse_spec("level:7") == ("level", {"level": 7})
    assert split_seats("human,level:7,greedy") == ["human", "level:7", "greedy"]
    assert split_seats("human,ismcts:iterations=500,c=1") == ["human", "ismcts:iterations=500:c=1"]
    seat = make_seat("level:3", 1, 7)
    assert not seat.human and seat.label == "level 3"
    again = make_seat(seat.spec, 1, 999)              # the saved spec holds the seed: same agent
    assert again.agent == seat.agent
    for bad in ("nobody", "ismcts:iterations=-1", "ismcts:iterations", "level:11", "human:x=1"):
        with pytest.raises((ValueError, TypeError)):
            make_seat(bad, 0, 0)


def test_levels_make_an_agent_at_every_level() -> None:
    s = capivarias.new_game(seed=1)
    for level in (1, 2, 3, 5):
        agent, label = level_agent(level, seed=3)
        assert label == f"level {level}" and agent == agents.make("level", level=level, seed=3)
        assert agent.choose(s) in s.legal_moves()


# --- what the screen computes from a view agrees with the engine -----------------------------------


def test_view_arithmetic_matches_the_engine() -> None:
    rng = random.Random(1)
    for g in range(12):
        st = capulana.new_game(players=2 + g % 4, seed=g)
        while not st.is_terminal:
            st.push(rng.choice(st.legal_moves()))
            d = st.to_dict()
            sc = st.scores()
            for q in range(st.players):
                strips = _capulana_screen.row_strips(d["capulanas"][q])
                assert strips == st.strips(q)
                objs = capulana.objectives_met(strips, len(d["capulanas"][q]), len(d["hands"][q]), d["objectives"])
                assert capulana.score_strips(strips).total + sum(o.points for o, ok in objs if ok) == sc[q]
    for g in range(20):
        cv = capivarias.new_game(seed=g, expansion=g % 2 == 1)
        while not cv.is_terminal:
            cv.push(rng.choice(cv.legal_moves()))
            v = cv.view(0)
            pts = [sum(_capivarias_screen.side_points(seg["sides"][p], seg["river"]["modifier"]) for seg in v["segments"])
                   for p in (0, 1)]
            assert pts == cv.scores()


# --- no hidden card on a person's screen ------------------------------------------------------------


def _all_names(state: Any) -> set[str]:
    if state.game.name == "capulana":
        return {c.name for c in capulana.CARDS}
    expansion = state.game.params["expansion"]
    return {c.name for c in capivarias.CARDS if expansion or not c.expansion}


def _hidden(state: Any, player: int) -> set[str]:
    """The cards ``player`` cannot see: every card of the game not named in their view."""
    seen = set(CARD_TOKEN.findall(json.dumps(state.view(player))))
    return _all_names(state) - seen


def _leaks(text: str, hidden: set[str]) -> set[str]:
    return set(CARD_TOKEN.findall(text)) & hidden


def _session(state: Any) -> Session:
    console = Console(record=True, width=160, color_system=None, file=open(os.devnull, "w"))
    seats = [make_seat("human", q, 0) for q in range(state.game.num_players)]
    return Session(console, state, seats, hint="greedy")


def _random_states(n: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 2:
            st: Any = capulana.new_game(players=2 + i % 4, seed=rng.randrange(1 << 30))
        else:
            st = capivarias.new_game(seed=rng.randrange(1 << 30), expansion=i % 4 == 0)
        for _ in range(rng.randrange(0, 200)):
            if st.is_terminal:
                break
            st.push(rng.choice(st.legal_moves()))
        out.append(st)
    return out


def _check_screens(states: list[Any]) -> int:
    checked = 0
    for st in states:
        s = _session(st)
        for h in range(st.game.num_players):
            hidden = _hidden(st, h)
            s.viewer = h
            s.console.print(s.board(h))
            if st.current_player == h:
                s.console.print(s.moves_view(h))
                s.compact(h)
            if st.is_terminal:
                s.final()
            text = s.console.export_text()
            assert not _leaks(text, hidden), (st.to_dict(), h, _leaks(text, hidden))
            checked += 1
    return checked


def test_the_screen_never_shows_a_card_its_seat_cannot_see() -> None:
    assert _check_screens(_random_states(40, seed=5)) > 80


@pytest.mark.slow
def test_the_screen_never_shows_a_card_its_seat_cannot_see_many() -> None:
    assert _check_screens(_random_states(400, seed=6)) > 800


def test_announcements_show_only_what_the_others_may_see() -> None:
    rng = random.Random(9)
    console = Console(record=True, width=160, color_system=None, file=open(os.devnull, "w"))
    kinds = set()
    for g in range(24):
        st: Any = capulana.new_game(players=2 + g % 4, seed=g) if g % 2 else capivarias.new_game(seed=g, expansion=True)
        n = st.game.num_players
        labels = [""] * n
        while not st.is_terminal:
            mover = st.current_player
            before = st.clone()
            move = rng.choice(st.legal_moves())
            scored = st.apply_round_end(move) if isinstance(st, capivarias.State) else st.push(move)
            for e in public_events(before, st, move, mover, labels, scored):
                text = e.text.plain
                kinds.add(text.split(" ")[1] if text.startswith("P") else text.split(" ")[0])
                readers = range(n) if e.audience is None else [e.audience]
                seen_at = scored if scored is not None else st     # a round's last move: before the reshuffle
                for h in readers:
                    assert not _leaks(text, _hidden(seen_at, h)), (text, h)
            if scored is not None:
                console.print(_capivarias_screen.board(scored.view(0), 0, labels))
                assert not _leaks(console.export_text(), _hidden(scored, 0))
    assert {"made", "Auction", "Weaving", "has", "End", "took"} <= kinds, kinds


# --- saves ---------------------------------------------------------------------------------------------


def test_load_save_formats(tmp_path: Path) -> None:
    st = capulana.new_game(players=3, seed=4)
    for _ in range(7):
        st.push(st.legal_moves()[0])
    s = _session(st)
    data = json.loads(json.dumps(s.save_data()))
    again, seats = load_save(data)
    assert again == st and again.history() == st.history() and seats == ["human"] * 3
    bare, seats = load_save(st.to_dict())
    assert bare == st and seats is None
    wrapped, seats = load_save({"state": st.to_dict(), "seats": ["human", "greedy", "greedy"]})
    assert wrapped == st and seats == ["human", "greedy", "greedy"]
    bad: Any
    for bad in ([], {"game": "chess"}, {"root": st.to_dict(), "game": "capulana", "params": {"players": 3},
                                        "history": [999]}):
        with pytest.raises(ValueError):
            load_save(bad)


# --- the command through a pseudo-terminal -------------------------------------------------------------


def spawn(*args: str, cwd: Optional[Path] = None) -> Any:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="150", LINES="60", PYTHONUNBUFFERED="1")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "tabuleiro", "play", *args], env=env, encoding="utf-8",
                          dimensions=(60, 150), timeout=60, cwd=str(cwd) if cwd else None)
    return child


def until_prompt(child: Any) -> str:
    """Everything printed up to the next prompt (ANSI stripped)."""
    child.expect_exact(PROMPT)
    return plain(child.before)


def send(child: Any, line: str) -> str:
    child.sendline(line)
    return until_prompt(child)


def bad_input(child: Any, illegal: str, invalid: str) -> None:
    """Garbage, an out-of-range number, an illegal move, a move of the wrong
    shape: one line each, and the prompt again."""
    for line, why in (("garbage here", "not a move or a command"), ("999", "no move 999"),
                      (illegal, "is not legal now"), (invalid, "not a move")):
        out = send(child, line)
        lines = [x for x in out.splitlines() if x.strip() and x.strip() != line]
        assert len(lines) == 1 and why in lines[0] and "Traceback" not in out, (line, out)


def play_out(child: Any) -> str:
    """Answer 1 at this prompt and every later one until the game ends; the final screen."""
    child.sendline("1")
    while child.expect_exact([PROMPT, "Game over"], timeout=120) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    assert child.exitstatus == 0, child.exitstatus
    return plain(child.before)


def saved(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize("game", ["capivarias", pytest.param("capulana", marks=pytest.mark.slow)])
def test_play_a_whole_game_through_a_terminal(game: str, tmp_path: Path) -> None:
    t0 = time.monotonic()
    if game == "capivarias":
        args = ["capivarias", "--seed", "3", "--seats", "human,greedy"]
        first = capivarias.new_game(seed=3)
        avail = set(first.to_dict()["available"])
        illegal = next(c.name for c in capivarias.CARDS[:15] if c.name not in avail)   # a herd card not on offer
        invalid = "C9@7"
    else:
        args = ["capulana", "--players", "2", "--seed", "3", "--seats", "human,greedy"]
        illegal, invalid = "bid 4", "offer F99"             # 2 players: slots 0 and 1 only
    child = spawn(*args, "--hint", "ismcts:iterations=300", cwd=tmp_path)
    start = until_prompt(child)
    assert "Traceback" not in start
    if game == "capivarias":
        assert "river" in start and "round score" in start and "available:" in start
    else:
        assert "announced card" in start and "your hand" in start and "objective" in start

    bad_input(child, illegal, invalid)
    out = send(child, "help")
    assert "undo" in out and "save FILE" in out and "notation" in out
    listed = send(child, "moves")
    assert re.search(r"^\s*1 \S", listed, re.M), listed
    out = send(child, "hint")
    assert re.search(r"hint \([\d,]+ iterations\):(\s+\d+\. .+? \d+%){1,3}", out), out

    # undo goes back to the person's previous decision: the same position as saved before it
    assert "saved to" in send(child, "save a.json")
    send(child, "1")
    if game == "capulana":
        send(child, "1")                                    # bid, then a card into the offer
    out = send(child, "undo")
    assert "undone" in out
    if game == "capulana":
        send(child, "undo")
    assert "nothing to undo" in send(child, "undo")
    send(child, "save b.json")
    a, b = saved(tmp_path / "a.json"), saved(tmp_path / "b.json")
    assert a["history"] == b["history"] and a["root"] == b["root"]

    # a few decisions in, save, quit, and resume from the file
    out = "".join(send(child, "1") for _ in range(6))
    assert "Traceback" not in out
    if game == "capulana":
        assert "made an offer on slot" in out or "Auction" in out
    send(child, "save mid.json")
    listed_before = send(child, "moves")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    mid = saved(tmp_path / "mid.json")
    assert mid["seats"][0] == "human" and mid["seats"][1].startswith("greedy:seed=") and len(mid["history"]) >= 6

    child = spawn("--load", "mid.json", "--hint", "greedy", cwd=tmp_path)
    until_prompt(child)
    assert send(child, "moves") == listed_before
    send(child, "save again.json")
    again = saved(tmp_path / "again.json")
    assert (again["root"], again["history"], again["seats"]) == (mid["root"], mid["history"], mid["seats"])
    final = play_out(child)
    if game == "capivarias":
        assert "Rounds" in final and "round won by" in final and "The river as scored in the last round" in final
        assert re.search(r"wins the game|A draw", final), final
    else:
        assert "Final scores" in final and "objectives" in final and re.search(r"= \d+", final)
        assert "Weaving of round 4 revealed" in final or "win" in final
        assert re.search(r"P\d.* wins? with \d+ points", final), final
    assert time.monotonic() - t0 < 120


def test_two_people_pass_the_device() -> None:
    child = spawn("capivarias", "--seed", "5", "--seats", "human,human")
    until_prompt(child)
    child.sendline("1")
    child.expect_exact("Pass the device to P1")
    child.sendline("")
    out = until_prompt(child)
    assert "P1, since your last turn:" in out and "P0 (human) took" in out
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_end_of_input_and_bad_arguments(tmp_path: Path) -> None:
    child = spawn("capulana", "--players", "3", "--seats", "human,greedy,random", "--seed", "1")
    until_prompt(child)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    (tmp_path / "bad.json").write_text('{"game": "capulana", "players": 3}')
    for args in (["capulana", "--players", "9"], ["capivarias", "--level", "0"], ["capulana", "--seats", "human"],
                 ["capivarias", "--seats", "greedy,greedy"], ["capivarias", "--seats", "human,deep_blue"],
                 ["--load", str(tmp_path / "missing.json")], ["--load", str(tmp_path / "bad.json")], []):
        out = subprocess.run([sys.executable, "-m", "tabuleiro", "play", *args], capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
        assert out.returncode == 2, (args, out)
        assert "Traceback" not in out.stderr and out.stderr.strip(), (args, out.stderr)


def test_without_rich_a_one_line_hint(tmp_path: Path) -> None:
    fake = tmp_path / "rich"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('rich is not installed here')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "tabuleiro", "play", "capivarias"], capture_output=True, text=True,
                         timeout=60, env=env)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == ["tabuleiro play needs rich: pip install 'tabuleiro[play]'"]
    # the rest of the command does not need rich
    demo = subprocess.run([sys.executable, "-m", "tabuleiro", "demo", "--quiet"], capture_output=True, text=True,
                          timeout=60, env=env)
    assert demo.returncode == 0, demo.stderr


def test_a_level_seat_and_the_default_seats() -> None:
    game = load_game("capulana", players=3)
    assert game.num_players == 3
    child = spawn("capulana", "--seed", "2", "--level", "1")
    out = until_prompt(child)
    assert "P1 level 1" in out and "P2 level 1" in out
    child.sendline("quit")
    child.expect(pexpect.EOF)


# --- issue 28: known cards, the weaving grid, the levels ----------------------------------------------------

KNOWN = re.compile(r"(\d+) cards?(?: \+ (\d+) offered)? \(known([^:]*): ([^)]*)\)")


def known_in_hands(text: str) -> list[tuple[int, int, bool, int]]:
    """Every hand with known cards in a drawn players' table: (hand count,
    cards in offers, whether the known cards may lie in an offer, known)."""
    return [(int(m[1]), int(m[2] or 0), "offer" in m[3], len(m[4].split())) for m in KNOWN.finditer(text)]


def check_known(text: str) -> int:
    """Known cards said to be in a hand never outnumber it; those "in hand or
    offer" never outnumber the hand and the offers. How many hands showed
    more known cards than the hand holds."""
    over = 0
    for count, offered, or_offer, known in known_in_hands(text):
        assert known <= count + (offered if or_offer else 0), (count, offered, or_offer, known, text)
        over += known > count
    return over


def test_known_cards_never_exceed_the_hand_count() -> None:
    """Known cards may lie in face-down offers (RULES.md part 4): the table
    says so rather than put more known cards in a hand than it holds."""
    rng = random.Random(11)
    over = hands = 0
    for g in range(8):
        st = capulana.new_game(players=2 + g % 4, seed=g)
        while not st.is_terminal:
            st.push(rng.choice(st.legal_moves()))
            if rng.random() > (0.15 if st.to_dict()["phase"] == "offer" else 0.03):
                continue
            me = rng.randrange(st.players)
            console = Console(record=True, width=400, color_system=None, file=open(os.devnull, "w"))
            console.print(_capulana_screen.board(st.view(me), me, [""] * st.players))
            text = console.export_text()
            over += check_known(text)
            hands += len(known_in_hands(text))
    assert hands > 100 and over > 10, (hands, over)          # the case arose, and was said right


def _weaving_states(n: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for g in range(n):
        st: Any = capulana.new_game(players=2 + g % 4, seed=rng.randrange(1 << 30))
        while not st.is_terminal:
            if any(m.kind == "weave" for m in st.legal_moves()):
                out.append(st.clone())
            st.push(rng.choice(st.legal_moves()))
    return out


def test_the_weaving_grid_fits_a_24_line_terminal_in_pages() -> None:
    """Between two weaving decisions the status, a page of the grid, the
    "to move" line and the prompt fit 24 lines of 80 columns; the pages
    hold every weaving move once, by its number in the whole list."""
    shown = capulana.new_game(players=3, seed=1).game.presentation()
    biggest = 0
    states = _weaving_states(8, seed=3)
    assert len(states) > 60
    for st in states:
        me = st.current_player
        moves = st.legal_moves()
        numbers: list[int] = []
        page = 1
        while True:
            console = Console(record=True, width=80, height=24, color_system=None, file=open(os.devnull, "w"))
            try:
                view = shown.moves_view(st, me, page)
            except ValueError as e:
                assert page > 1 and f"no page {page} of moves" in str(e)
                break
            for part in shown.compact(st, me, [""] * st.players):
                console.print(part)
            console.print(view)
            text = console.export_text()
            lines = len(text.splitlines()) + 2
            assert lines <= 24, text
            biggest = max(biggest, lines)
            numbers += [int(x) for x in re.findall(r"(\d+)→", text)]
            page += 1
        weaves = [i for i, m in enumerate(moves, 1) if m.kind == "weave"]
        assert sorted(numbers) == weaves
    assert biggest >= 20                                   # the pages are used, not just short hands
    with pytest.raises(ValueError, match="no page 2 of moves"):
        shown.moves_view(capulana.new_game(players=3, seed=1), 0, 2)  # an offer phase: one page


def test_levels_are_announced_as_docs_levels_says() -> None:
    """The opening names what each level plays (Capulana's level 2 is
    greedy, no search); an agent's search is told in iterations a move."""
    console = Console(record=True, width=200, color_system=None, file=open(os.devnull, "w"))
    st = capulana.new_game(players=4, seed=1)
    seats = [make_seat(spec, q, 1) for q, spec in enumerate(["human", "level:2", "level:8", "level:1"])]
    s = Session(console, st, seats, hint="greedy")
    s.intro()
    text = console.export_text()
    assert "P1 level 2 plays greedy: the best immediate score, no search" in text
    assert "P2 level 8 plays ismcts, 5,000 iterations a move" in text       # docs/levels.md, Capulana level 8
    assert "P3 level 1 plays random moves" in text
    assert Session.search_note(20000, 0.5, 4) == "   5,000 iterations a move over 4 moves, 0.5 s"
    # an agent's hidden moves (a bid and its offered cards) are counted with the offer it closes
    console = Console(record=True, width=200, color_system=None, file=open(os.devnull, "w"))
    st = capulana.new_game(players=2, seed=3)
    seats = [make_seat("level:6", 0, 3), make_seat("human", 1, 3)]
    s = Session(console, st, seats, hint="greedy")
    s.viewer = 1
    while st.current_player == 0:
        s.agent_turn(0)
    text = console.export_text()
    assert re.search(r"P0 \(level 6\) made an offer on slot \d \(\d cards?\)\s+1,000 iterations( a move over \d moves)?",
                     text), text
