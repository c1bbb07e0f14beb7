"""The reference web page of ``tabuleiro serve``, played in headless Chromium.

Each test starts a real server (``python -m tabuleiro serve`` on a free
localhost port, its own database), opens ``/`` in Debian's Chromium through
Selenium (tests/browser_helpers.py: nothing downloads a browser), chooses the
game and its options through the form and plays the human seat to the end by
clicking a legal move's ``data-move`` button each turn (a seeded choice among
those on screen). At every turn the page's DOM is checked against the
server's record: the table's seed and moves, read from the server's database,
replayed here. The DOM must name no card the seat cannot see (no card of the
full state that none of the seat's views so far holds), and the "score now"
the page computes must be the engine's. At the end the outcome the page shows
must be the replayed game's exactly (winners, returns, scores), the browser
console must hold no error, and the token must be nowhere the user could
share or read back (address bar, storage, console).

Screenshots (mid-game and the end of each game) are written to
``$TABULEIRO_SCREENSHOTS`` when set, else to the test's tmp dir; docs/img/
holds the ones docs/server.md shows.
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

import tabuleiro
from tests.browser_helpers import chromium  # noqa: F401  (the fixture)
from tests.serve_helpers import ServerProcess, words


DATA = Path(tabuleiro.__file__).resolve().parent / "data"
#: Every card name of both games (the words a leak would show; a lone "3" of a hidden "F13 r>3" is no leak).
CARD_NAMES = frozenset(
    row.split(",", 1)[0] for f in ("capivarias_cards.csv", "capulana_fabric_cards.csv")
    for row in (DATA / f).read_text("utf-8").splitlines()[1:])
TURN_TIMEOUT = 60.0   # seconds for one AI reply at level 1 (it takes well under one): generous on a busy machine


@pytest.fixture
def server(tmp_path: Path) -> Any:
    srv = ServerProcess(tmp_path / "page.db").start()
    try:
        yield srv
    finally:
        srv.stop()


def shots_dir(tmp_path: Path) -> Path:
    out = Path(os.environ.get("TABULEIRO_SCREENSHOTS") or tmp_path / "shots")
    out.mkdir(parents=True, exist_ok=True)
    return out


class Record:
    """The server's record of one table (its database), replayed locally."""

    def __init__(self, db: Path, table: str) -> None:
        self.db, self.table = db, table
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            game, params, seed, seats = con.execute(
                "SELECT game, params, seed, seats FROM tables WHERE id = ?", (table,)).fetchone()
        self.game_name = game
        self.seats = json.loads(seats)
        self.game = tabuleiro.load_game(game, **json.loads(params))
        self.seed = int(seed)

    def actions(self, ply: int) -> list[int]:
        """The first ``ply`` moves the server stored (action ids)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as con:
            actions = [int(a) for (a,) in con.execute(
                "SELECT action FROM moves WHERE table_id = ? ORDER BY ply", (self.table,))]
        assert len(actions) >= ply, f"the page shows ply {ply}, the database holds {len(actions)} moves"
        return actions[:ply]

    def state_at(self, ply: int) -> Any:
        state = self.game.new_initial_state(seed=self.seed)
        for a in self.actions(ply):
            state.apply(a)
        return state


def _dom_words(driver: Any) -> set[str]:
    return words(driver.execute_script("return document.documentElement.outerHTML"))


def _wait(driver: Any, what: Callable[[Any], Any], message: str, timeout: float = TURN_TIMEOUT) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(what, message)


def _state(driver: Any) -> tuple[str, Optional[int]]:
    """(status, ply) the page shows."""
    status, ply = driver.execute_script(
        "const p = document.getElementById('play'), s = document.getElementById('status');"
        "return [s.dataset.state, p.dataset.ply === undefined ? null : Number(p.dataset.ply)];")
    return str(status), None if ply is None else int(ply)


def _alerts(driver: Any) -> list[str]:
    return [str(t) for t in driver.execute_script(
        "return [...document.querySelectorAll('#alerts .alert')].map(a => a.textContent)")]


def _start(driver: Any, server: ServerProcess, game: str, players: int) -> str:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(server.url + "/")
    _wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the page did not load")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    if not driver.find_element(By.ID, "players").get_property("disabled"):
        Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    Select(driver.find_element(By.ID, "seat")).select_by_value("0")
    levels = driver.find_elements(By.CSS_SELECTOR, "#levels select")
    assert len(levels) == players - 1, "one AI level per other seat"
    for select in levels:
        Select(select).select_by_value("1")
    driver.find_element(By.ID, "start").click()
    _wait(driver, lambda d: _state(d)[1] is not None, "the game did not start")
    table = driver.find_element(By.ID, "play").get_attribute("data-table")
    assert table and re.fullmatch(r"[A-Za-z0-9_-]+", table)
    return str(table)


def _check_dom(driver: Any, record: Record, ply: int, shown: set[str], seat: int) -> None:
    """The DOM names no card hidden from the seat, and its live scores are the engine's."""
    state = record.game.new_initial_state(seed=record.seed)
    actions = record.actions(ply)
    shown |= words(state.view(seat))
    for a in actions:                       # every view the seat was sent up to this ply
        state.apply(a)
        shown |= words(state.view(seat))
    full = state.to_dict()
    full.pop("seed", None)
    hidden = (words(full) - shown) & CARD_NAMES
    leaked = _dom_words(driver) & hidden
    assert not leaked, f"ply {ply}: the page names cards hidden from seat {seat}: {sorted(leaked)}"
    if record.game_name == "capivarias":
        page = json.loads(driver.execute_script("return document.querySelector('[data-scores]').dataset.scores"))
        assert page == [int(s) for s in state.scores()], f"ply {ply}: score now {page} != {state.scores()}"
    else:
        view_state = record.game.from_view(state.view(seat), seat)
        page = driver.execute_script(
            "return [...document.querySelectorAll('.cp-player')].map(p => [Number(p.dataset.player), "
            "Number(p.dataset.sets)])")
        assert sorted(p for p, _ in page) == list(range(record.game.num_players))
        for player, sets in page:
            want = tabuleiro.capulana.score_strips(view_state.strips(player)).total
            assert sets == want, f"ply {ply}: P{player}'s set points on the page {sets} != {want}"


def _screenshot(driver: Any, path: Path) -> None:
    """The whole page (the window grown to its height), 1280 pixels wide."""
    height, chrome = driver.execute_script(
        "window.scrollTo(0, 0); return [document.documentElement.scrollHeight, "
        "window.outerHeight - window.innerHeight]")
    driver.set_window_size(1280, max(600, min(int(height) + int(chrome), 2400)))
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(path))
    driver.set_window_size(1280, 900)


def play_through_page(driver: Any, server: ServerProcess, tmp_path: Path, game: str, players: int, *,
                      seed: int, snap: Callable[[Any, int], Optional[str]]) -> dict[str, Any]:
    """Play seat 0 to the end by clicking; returns what the checks need.

    ``snap(driver, turns)`` names a screenshot to take at this turn (each name once)."""
    from selenium.webdriver.common.by import By

    shots = shots_dir(tmp_path)
    table = _start(driver, server, game, players)
    record = Record(server.db, table)
    assert record.seats[0]["kind"] == "human" and all(s["spec"] == "level:1" for s in record.seats[1:])
    rng = random.Random(seed)
    shown: set[str] = set()
    turns, taken = 0, set()
    while True:
        _wait(driver, lambda d: _state(d)[0] in ("your-turn", "over"), f"{game}: no turn and no end")
        status, ply = _state(driver)
        assert ply is not None
        assert not _alerts(driver), f"{game}: the page shows an error: {_alerts(driver)}"
        _check_dom(driver, record, ply, shown, 0)
        if status == "over":
            break
        name = snap(driver, turns)
        if name and name not in taken:
            _screenshot(driver, shots / f"{game}-{name}.png")
            taken.add(name)
        choosers = driver.find_elements(By.CSS_SELECTOR, "button.choose")
        if len(choosers) > 1 and rng.random() < 0.5:       # weave another card than the one shown first
            rng.choice(choosers).click()
        buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "button[data-move]")
                   if b.is_displayed() and b.is_enabled()]
        assert buttons, f"{game}: the seat's turn with no move to click"
        legal = {str(m) for m in record.state_at(ply).legal_moves()}
        on_page = {str(b.get_attribute("data-move")) for b in buttons}
        assert on_page <= legal, f"{game}: buttons for moves that are not legal: {on_page - legal}"
        rng.choice(buttons).click()
        turns += 1
        _wait(driver, lambda d: _state(d)[1] != ply or _alerts(d), f"{game}: the move at ply {ply} got no answer")
    _screenshot(driver, shots / f"{game}-end.png")
    shown_outcome = json.loads(driver.find_element(By.ID, "outcome").get_attribute("data-outcome"))
    final = record.state_at(_state(driver)[1] or 0)
    assert final.is_terminal, "the page says the game is over, the server's record does not"
    return {"table": table, "outcome": shown_outcome, "state": final, "turns": turns}


def _check_end(driver: Any, result: dict[str, Any]) -> None:
    """The outcome shown is the record's; no console error; the token is nowhere to share."""
    outcome = result["state"].outcome()
    shown = result["outcome"]
    assert shown["winners"] == list(outcome.winners)
    assert shown["returns"] == list(outcome.returns)
    assert shown["scores"] == list(outcome.scores)
    text = driver.execute_script("return document.getElementById('outcome').innerText")
    assert "score" in text and "return" in text
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, f"the browser console has errors: {errors}"
    assert "token" not in driver.current_url and driver.current_url.rstrip("/").count("/") == 2
    assert driver.execute_script("return sessionStorage.length + localStorage.length") == 0
    assert driver.execute_script("return document.cookie") == ""


@pytest.mark.slow   # ~7 s here: a whole game, clicked
def test_page_plays_capivarias_to_the_end(chromium: Any, server: ServerProcess, tmp_path: Path) -> None:
    result = play_through_page(chromium, server, tmp_path, "capivarias", 2, seed=5,
                               snap=lambda d, turns: "mid" if turns >= 6 and len(
                                   d.find_elements("css selector", ".cv-side .cv-card")) >= 5 else None)
    assert result["turns"] >= 8, "a Capivárias round alone gives the seat 8 turns"
    _check_end(chromium, result)


@pytest.mark.slow   # ~8 s here: a whole game, clicked
def test_page_plays_three_player_capulana_to_the_end(chromium: Any, server: ServerProcess, tmp_path: Path) -> None:
    def snap(d: Any, turns: int) -> Optional[str]:
        if turns >= 8 and len(d.find_elements("css selector", ".cp-offer")) >= 3:
            return "offers"
        if turns >= 12 and d.find_elements("css selector", "button.choose"):
            return "weaving"
        return None

    result = play_through_page(chromium, server, tmp_path, "capulana", 3, seed=7, snap=snap)
    assert result["state"].to_dict()["round"] == 4
    _check_end(chromium, result)


def test_page_check_finds_a_hidden_card(chromium: Any, server: ServerProcess, tmp_path: Path) -> None:
    """The DOM check is not vacuous: a pile card written into the page is caught."""
    table = _start(chromium, server, "capivarias", 2)
    _wait(chromium, lambda d: _state(d)[0] == "your-turn", "no first turn")
    ply = _state(chromium)[1] or 0
    record = Record(server.db, table)
    _check_dom(chromium, record, ply, set(), 0)
    pile_card = record.state_at(ply).to_dict()["pile"][-1]
    chromium.execute_script("document.getElementById('board').append(arguments[0])", pile_card)
    with pytest.raises(AssertionError, match=pile_card):
        _check_dom(chromium, record, ply, set(), 0)


def _click_first_move(driver: Any) -> int:
    """Click the first move button on screen; returns the ply it was clicked at."""
    from selenium.webdriver.common.by import By

    _wait(driver, lambda d: _state(d)[0] == "your-turn", "not the seat's turn")
    ply = _state(driver)[1] or 0
    driver.find_element(By.CSS_SELECTOR, "button[data-move]").click()
    return ply


def test_page_shows_a_refused_move_and_plays_on(chromium: Any, server: ServerProcess) -> None:
    """The server's error for an illegal move is shown on the page; nothing is lost, play goes on."""
    from selenium.webdriver.common.by import By

    _start(chromium, server, "capivarias", 2)
    _wait(chromium, lambda d: _state(d)[0] == "your-turn", "no first turn")
    ply = _state(chromium)[1]
    button = chromium.find_element(By.CSS_SELECTOR, "button[data-move]")
    chromium.execute_script("arguments[0].dataset.move = 'discard OP1'", button)   # a move not legal now
    button.click()
    _wait(chromium, lambda d: _alerts(d), "the refused move shows no error")
    alerts = _alerts(chromium)
    assert len(alerts) == 1 and "illegal_move" in alerts[0] and "discard OP1" in alerts[0], alerts
    assert _state(chromium) == ("your-turn", ply), "a refused move changed the page's turn"
    assert all(b.is_enabled() for b in chromium.find_elements(By.CSS_SELECTOR, "button[data-move]"))
    _click_first_move(chromium)
    _wait(chromium, lambda d: (_state(d)[1] or 0) > (ply or 0), "the legal move after the error was not played")
    assert not _alerts(chromium), "the error stays after a move was played"
    severe = [e for e in chromium.get_log("browser") if e.get("level") == "SEVERE"]
    assert not severe, severe


def test_page_shows_a_lost_connection_and_reconnects(chromium: Any, server: ServerProcess) -> None:
    """A killed server is shown as a lost connection; the page reconnects to the restarted one with the
    token it holds in memory and the game goes on where it was."""
    table = _start(chromium, server, "capivarias", 2)
    ply = _click_first_move(chromium)
    _wait(chromium, lambda d: _state(d)[0] == "your-turn" and (_state(d)[1] or 0) > ply, "no second turn")
    ply = _state(chromium)[1] or 0
    server.kill()
    _wait(chromium, lambda d: any("connection" in a for a in _alerts(d)), "the lost connection is not shown", 20)
    server.start()
    _wait(chromium, lambda d: any("reconnected" in a for a in _alerts(d)), "the page did not reconnect", 30)
    assert _state(chromium) == ("your-turn", ply)
    _click_first_move(chromium)
    _wait(chromium, lambda d: (_state(d)[1] or 0) > ply, "no move after the reconnection")
    assert Record(server.db, table).state_at((_state(chromium)[1] or 0)) is not None


def test_data_route_serves_the_reference_tables_only(server: ServerProcess) -> None:
    """/data/ serves the package's public CSVs (the page reads card faces there), nothing else."""
    from tests.serve_helpers import http

    status, text = http("GET", server.url + "/data/capulana_fabric_cards.csv")
    assert status == 200 and str(text).startswith("id,kind,stripe,value,strips")
    for path in ("/data/../serve/app.py", "/data/%2e%2e/_version.py", "/data/nope.csv", "/data/"):
        assert http("GET", server.url + path)[0] == 404, path
