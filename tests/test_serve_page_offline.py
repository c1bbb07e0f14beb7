"""The reference web page playing offline: the engine as WebAssembly in a Web Worker.

``tabuleiro serve --wasm-dir js/`` serves the built ``js/`` directory at
``/wasm/`` (docs/server.md, "The web page"); the page's form then offers
"Offline (in this browser)", and ``static/offline.js`` plays the game in the
browser with the server's transport interface. Each browser test starts a
real server with the directory (built by tests/test_wasm_support.py's
fixture), opens ``/`` in headless Chromium (tests/browser_helpers.py),
chooses Offline in the form and clicks moves.

The offline transport's debug hook (``window.tabuleiroOfflineDebug``, see
offline.js) lets the test choose the deal's seed, as ``POST /tables``'s
``seed`` does on the server, and collects every view message the page was
given. Those are compared, message by message, with the messages the
server's own code builds (``tabuleiro.serve.tables``: a ``Table`` with the
server's ``level:N`` agents, seeded as the server seeds them) for the same
seed, seats and seat moves: they must be equal except the table id. So the
offline game is the game the server would have dealt and played, and the
outcome shown is the native replay's. Also: no WebSocket opened (neither in
the page nor on the server), no table on the server, the DOM never names a
card hidden from the seat, neither the seed nor the AI seeds derived from
it are anywhere on the page or the console, and the console has no error.

Skipped, saying which, where Chromium, chromedriver, Node.js or Emscripten
is absent.
"""

from __future__ import annotations

import http.client as httpclient
import json
import random
import sqlite3
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pytest

import tabuleiro
from tabuleiro.serve.limits import Limits
from tabuleiro.serve.store import Store
from tabuleiro.serve.tables import Seat, Table, Tables, _mix, encode
from tests import test_serve_page as page
from tests.browser_helpers import chromium  # noqa: F401  (the fixture)
from tests.serve_helpers import ServerProcess, http
from tests.test_wasm_support import JS, wasm_dist  # noqa: F401  (the fixture)

#: Seeds of the deals the tests choose through the debug hook (large: a leak of the number is unmistakable).
CAPIVARIAS_SEED = 8_123_456_789_012_345_678
CAPULANA_SEED = 17_293_822_569_102_704_641
REFUSAL_SEED = 12_345_678_901_234_567_891

COUNT_SOCKETS = """
window.tbSocketsOpened = 0;
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) { super(...args); window.tbSocketsOpened += 1; }
};
"""


@pytest.fixture
def wasm_server(tmp_path: Path, wasm_dist: Path) -> Iterator[ServerProcess]:  # noqa: F811
    srv = ServerProcess(tmp_path / "offline.db", "--wasm-dir", str(JS)).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def plain_server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path / "plain.db").start()
    try:
        yield srv
    finally:
        srv.stop()


class Replay:
    """The server's game for the same seed and seats, built by the server's own
    code (``Tables._agent_seat`` seeds the agents, ``Table.record_move`` keeps
    what the seat saw, ``Tables.view_message`` builds the messages), following
    the seat's moves of the page's record. Offers what ``page._check_dom`` reads."""

    def __init__(self, game_name: str, params: dict[str, Any], seats: list[str], seed: int, seat: int) -> None:
        self.game_name, self.seed, self.seat = game_name, seed, seat
        self.game = tabuleiro.load_game(game_name, **params)
        self.tables = Tables(Store(":memory:"), Limits())
        made = [Seat("human", token_hash="-") if s == "human" else self.tables._agent_seat(s, i, seed, self.game.name)
                for i, s in enumerate(seats)]
        self.table = Table("native", self.game.new_initial_state(seed=seed), made)
        self.played: list[int] = []
        self.checked = 0          # messages of the page's record compared so far

    def actions(self, ply: int) -> list[int]:
        assert len(self.played) >= ply, f"the page shows ply {ply}, the replay holds {len(self.played)} moves"
        return self.played[:ply]

    def state_at(self, ply: int) -> Any:
        state = self.game.new_initial_state(seed=self.seed)
        for a in self.actions(ply):
            state.apply(a)
        return state

    def message(self) -> dict[str, Any]:
        """The server's view message for the seat now, as JSON reads it back, without the table id."""
        msg = json.loads(encode(self.tables.view_message(self.table, self.seat)))
        msg.pop("table")
        return dict(msg)

    def follow(self, views: list[dict[str, Any]]) -> None:
        """Compare every new message of the page's record with the server's, playing the game along."""
        for k in range(self.checked, len(views)):
            got = dict(views[k])
            assert str(got.pop("table")).startswith("offline-")
            if k > 0:
                self._play(views[k])
            want = self.message()
            assert got == want, f"ply {k}: the offline view message differs from the server's:\n{got}\n{want}"
        self.checked = len(views)

    def _play(self, after: dict[str, Any]) -> None:
        st = self.table.state
        mover = st.current_player
        if mover == self.seat:
            notation = after["moves"][len(self.played)]["move"]
            action = st.parse_move(notation).action
        else:
            agent = self.table.seats[mover].agent
            assert agent is not None
            action = agent.choose(st.clone()).action
        self.table.record_move(action)
        self.played.append(action)

    def close(self) -> None:
        self.tables.pool.shutdown(wait=False)


def _open(driver: Any, server: ServerProcess) -> None:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_SOCKETS})
    driver.get(server.url + "/")
    page._wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"),
               "the page did not load")


def _start_offline(driver: Any, server: ServerProcess, game: str, players: int, seed: int) -> list[str]:
    """Choose Offline, the game and level:1 AIs in the form, start; returns the seats."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _open(driver, server)
    assert driver.find_element(By.ID, "mode-row").get_attribute("data-offline") == "available"
    driver.execute_script("window.tabuleiroOfflineDebug = {seed: arguments[0], views: []}", str(seed))
    driver.find_element(By.ID, "mode-offline").click()
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    if not driver.find_element(By.ID, "players").get_property("disabled"):
        Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    Select(driver.find_element(By.ID, "seat")).select_by_value("0")
    for select in driver.find_elements(By.CSS_SELECTOR, "#levels select"):
        Select(select).select_by_value("1")
    driver.find_element(By.ID, "start").click()
    page._wait(driver, lambda d: page._state(d)[1] is not None or page._alerts(d), "the offline game did not start")
    assert not page._alerts(driver), page._alerts(driver)
    play = driver.find_element(By.ID, "play")
    assert play.get_attribute("data-mode") == "offline"
    assert str(play.get_attribute("data-table")).startswith("offline-")
    return ["human"] + ["level:1"] * (players - 1)


def _record(driver: Any) -> list[dict[str, Any]]:
    return list(json.loads(driver.execute_script("return JSON.stringify(window.tabuleiroOfflineDebug.views)")))


def _check_nothing_online(driver: Any, server: ServerProcess) -> None:
    """No WebSocket in the page or on the server, no table and no search on the server."""
    assert driver.execute_script("return window.tbSocketsOpened") == 0, "the page opened a WebSocket"
    status, health = http("GET", server.url + "/health")
    assert status == 200
    assert health["sockets_opened"] == 0, "the server accepted a WebSocket"
    assert health["tables"] == 0 and health["searches"] == 0, health
    with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True) as con:
        assert con.execute("SELECT COUNT(*) FROM tables").fetchone() == (0,)
        assert con.execute("SELECT COUNT(*) FROM moves").fetchone() == (0,)


def _check_no_seed(driver: Any, seed: int, seats: list[str]) -> None:
    """Neither the seed nor an AI seat's seed (which gives the seed back) is on the page or the console."""
    secrets = {str(seed)} | {str(_mix(seed, i + 1)) for i, s in enumerate(seats) if s != "human"}
    html = driver.execute_script("return document.documentElement.outerHTML")
    console = json.dumps(driver.get_log("browser"))
    for secret in secrets:
        assert secret not in html and secret not in console and secret not in driver.current_url
    assert driver.execute_script("return sessionStorage.length + localStorage.length") == 0
    assert driver.execute_script("return document.cookie") == ""


def play_offline(driver: Any, server: ServerProcess, tmp_path: Path, game: str, players: int, *, seed: int,
                 choices: int, snap: Callable[[Any, int], Optional[str]] = lambda d, t: None) -> dict[str, Any]:
    """Play seat 0 to the end by clicking, checking every turn against the server's game."""
    from selenium.webdriver.common.by import By

    shots = page.shots_dir(tmp_path)
    seats = _start_offline(driver, server, game, players, seed)
    params = {"players": players} if game == "capulana" else {"expansion": False}
    replay = Replay(game, params, seats, seed, 0)
    rng = random.Random(choices)
    shown: set[str] = set()
    turns, taken = 0, set()
    try:
        while True:
            page._wait(driver, lambda d: page._state(d)[0] in ("your-turn", "over") or page._alerts(d),
                       f"{game}: no turn and no end")
            assert not page._alerts(driver), f"{game}: the page shows an error: {page._alerts(driver)}"
            status, ply = page._state(driver)
            assert ply is not None
            replay.follow(_record(driver))
            assert replay.table.ply == ply, f"the page shows ply {ply}, its messages end at {replay.table.ply}"
            page._check_dom(driver, replay, ply, shown, 0)
            if status == "over":
                break
            name = snap(driver, turns)
            if name and name not in taken:
                page._screenshot(driver, shots / f"offline-{game}-{name}.png")
                taken.add(name)
            choosers = driver.find_elements(By.CSS_SELECTOR, "button.choose")
            if len(choosers) > 1 and rng.random() < 0.5:
                rng.choice(choosers).click()
            buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "button[data-move]")
                       if b.is_displayed() and b.is_enabled()]
            assert buttons, f"{game}: the seat's turn with no move to click"
            legal = {str(m) for m in replay.table.state.legal_moves()}
            on_page = {str(b.get_attribute("data-move")) for b in buttons}
            assert on_page <= legal, f"{game}: buttons for moves that are not legal: {on_page - legal}"
            rng.choice(buttons).click()
            turns += 1
            page._wait(driver, lambda d: page._state(d)[1] != ply or page._alerts(d),
                       f"{game}: the move at ply {ply} got no answer")
        page._screenshot(driver, shots / f"offline-{game}-end.png")
        shown_outcome = json.loads(driver.find_element(By.ID, "outcome").get_attribute("data-outcome"))
        final = replay.table.state
        assert final.is_terminal, "the page says the game is over, the server's game is not"
        return {"outcome": shown_outcome, "state": final, "turns": turns, "seats": seats}
    finally:
        replay.close()


def _check_end(driver: Any, server: ServerProcess, result: dict[str, Any], seed: int) -> None:
    outcome = result["state"].outcome()
    shown = result["outcome"]
    assert shown["winners"] == list(outcome.winners)
    assert shown["returns"] == list(outcome.returns)
    assert shown["scores"] == list(outcome.scores)
    _check_nothing_online(driver, server)
    _check_no_seed(driver, seed, result["seats"])
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, f"the browser console has errors: {errors}"


@pytest.mark.slow   # a whole game, clicked, plus the engine's load
def test_offline_page_plays_capivarias_to_the_end(chromium: Any, wasm_server: ServerProcess,
                                                  tmp_path: Path) -> None:
    result = play_offline(chromium, wasm_server, tmp_path, "capivarias", 2, seed=CAPIVARIAS_SEED, choices=5)
    assert result["turns"] >= 8, "a Capivárias round alone gives the seat 8 turns"
    _check_end(chromium, wasm_server, result, CAPIVARIAS_SEED)


@pytest.mark.slow   # a whole game, clicked, plus the engine's load
def test_offline_page_plays_three_player_capulana_to_the_end(chromium: Any, wasm_server: ServerProcess,
                                                             tmp_path: Path) -> None:
    def snap(d: Any, turns: int) -> Optional[str]:
        return "weaving" if turns >= 12 and d.find_elements("css selector", "button.choose") else None

    result = play_offline(chromium, wasm_server, tmp_path, "capulana", 3, seed=CAPULANA_SEED, choices=7, snap=snap)
    assert result["state"].to_dict()["round"] == 4
    _check_end(chromium, wasm_server, result, CAPULANA_SEED)


def test_offline_page_refuses_a_move_and_plays_on(chromium: Any, wasm_server: ServerProcess) -> None:
    """An illegal move is refused with the server's code and message, nothing changes, the next
    click plays; the checks of the whole-game tests are not vacuous (a tampered message and a
    hidden card written into the page are caught); nothing went to the server."""
    from selenium.webdriver.common.by import By

    seats = _start_offline(chromium, wasm_server, "capivarias", 2, REFUSAL_SEED)
    page._wait(chromium, lambda d: page._state(d)[0] == "your-turn", "no first turn")
    ply = page._state(chromium)[1]
    button = chromium.find_element(By.CSS_SELECTOR, "button[data-move]")
    chromium.execute_script("arguments[0].dataset.move = 'discard OP1'", button)   # a move not legal now
    button.click()
    page._wait(chromium, lambda d: page._alerts(d), "the refused move shows no error")
    alerts = page._alerts(chromium)
    assert len(alerts) == 1 and "illegal_move" in alerts[0] and "discard OP1" in alerts[0], alerts
    assert page._state(chromium) == ("your-turn", ply)
    chromium.execute_script("document.querySelector('[data-code] .dismiss').click()")
    first = str(chromium.find_element(By.CSS_SELECTOR, "button[data-move]").get_attribute("data-move"))
    chromium.find_element(By.CSS_SELECTOR, "button[data-move]").click()
    page._wait(chromium, lambda d: (page._state(d)[1] or 0) > (ply or 0), "the legal move was not played")
    page._wait(chromium, lambda d: page._state(d)[0] == "your-turn", "no second turn")
    assert not page._alerts(chromium)

    replay = Replay("capivarias", {"expansion": False}, seats, REFUSAL_SEED, 0)
    try:
        views = _record(chromium)
        replay.follow(views)
        assert views[1]["moves"][0]["move"] == first
        now = page._state(chromium)[1] or 0
        tampered = json.loads(json.dumps(views))
        tampered[-1]["view"]["round_wins"] = [1, 0]
        with pytest.raises(AssertionError, match="differs from the server's"):
            Replay("capivarias", {"expansion": False}, seats, REFUSAL_SEED, 0).follow(tampered)
        page._check_dom(chromium, replay, now, set(), 0)
        pile_card = replay.state_at(now).to_dict()["pile"][-1]
        chromium.execute_script("document.getElementById('board').append(arguments[0])", pile_card)
        with pytest.raises(AssertionError, match=pile_card):
            page._check_dom(chromium, replay, now, set(), 0)
    finally:
        replay.close()
    _check_nothing_online(chromium, wasm_server)
    _check_no_seed(chromium, REFUSAL_SEED, seats)
    severe = [e for e in chromium.get_log("browser") if e.get("level") == "SEVERE"]
    assert not severe, severe


ENTRY_CASES = [
    ({"game": "capivarias", "params": {}, "seats": ["human", "human"]}, "bad_request", "exactly one human seat"),
    ({"game": "capivarias", "params": {}, "seats": ["level:1", "level:2"]}, "bad_request", "exactly one human seat"),
    ({"game": "capivarias", "params": {}, "seats": ["human", "level:11"]}, "bad_request", "'level:1'..'level:10'"),
    ({"game": "capivarias", "params": {}, "seats": ["human", "ismcts"]}, "bad_request", "'level:1'..'level:10'"),
    ({"game": "capivarias", "params": {}, "seats": "human"}, "bad_request", "list of seat strings"),
    ({"game": "capivarias", "params": {"cmd": 1}, "seats": ["human", "level:1"]}, "bad_request",
     "'cmd' is not a game parameter"),
    ({"game": "capivarias", "params": {"seed": 1}, "seats": ["human", "level:1"]}, "bad_request",
     "'seed' is not a game parameter"),
    ({"game": "capivarias", "params": {"expansion": "yes"}, "seats": ["human", "level:1"]}, "bad_request",
     "integers and booleans"),
    ({"game": "capivarias", "params": [], "seats": ["human", "level:1"]}, "bad_request", "integers and booleans"),
    ({"game": "capivarias", "params": {"players": 3}, "seats": ["human", "level:1"]}, "bad_request",
     "does not take players"),
    ({"game": "capulana", "params": {"players": 3}, "seats": ["human", "level:1"]}, "bad_request",
     "capulana is played by 3 players: give 3 seats, not 2"),
    ({"game": "capulana", "params": {"players": 9}, "seats": ["human"] + ["level:1"] * 8}, "bad_request", "players"),
    ({"game": "chess", "params": {}, "seats": ["human", "level:1"]}, "bad_request", "game"),
    ({"game": 7, "params": {}, "seats": ["human", "level:1"]}, "bad_request", "field 'game'"),
]


def test_offline_start_refuses_bad_input_at_the_entry(chromium: Any, wasm_server: ServerProcess) -> None:
    """offline.js's startTable checks its arguments where they enter (the server's codes and wording),
    before any game is dealt; a good call after them starts a table."""
    _open(chromium, wasm_server)
    chromium.set_script_timeout(60)
    got = chromium.execute_async_script("""
        const [cases, done] = arguments;
        (async () => {
          const m = await import(new URL("offline.js", document.baseURI).href);
          const out = [];
          for (const c of cases) {
            try { const t = await m.startTable(c); t.close(); out.push(["started", ""]); }
            catch (e) { out.push([String(e.code), String(e.message)]); }
          }
          const t = await m.startTable({game: "capulana", params: {players: 3}, seats: ["level:2", "human", "level:1"]});
          out.push([t.seat, t.id]);
          t.close();
          return out;
        })().then(done, (e) => done([["threw", String(e)]]));
    """, [c for c, _, _ in ENTRY_CASES])
    for (case, code, words), (got_code, message) in zip(ENTRY_CASES, got):
        assert got_code == code and words in message, (case, got_code, message)
    assert got[-1][0] == 1 and str(got[-1][1]).startswith("offline-")
    _check_nothing_online(chromium, wasm_server)


def test_offline_start_fails_clearly_when_the_engine_does_not_load(chromium: Any, tmp_path: Path,
                                                                   wasm_dist: Path) -> None:  # noqa: F811
    """A served js/ whose .wasm is damaged (a rebuild half-written, a truncated copy): the worker
    reports that the engine did not load and startTable rejects with offline_unavailable, instead
    of waiting for ever (the worker used to swallow the failure and never answer)."""
    import shutil

    broken = tmp_path / "js"
    shutil.copytree(JS, broken, ignore=shutil.ignore_patterns("node_modules", "test"))
    wasm = broken / "dist" / "tabuleiro.wasm"
    wasm.write_bytes(wasm.read_bytes()[:100])
    srv = ServerProcess(tmp_path / "broken.db", "--wasm-dir", str(broken)).start()
    try:
        _open(chromium, srv)
        chromium.set_script_timeout(60)
        got = chromium.execute_async_script("""
            const done = arguments[arguments.length - 1];
            (async () => {
              const m = await import(new URL("offline.js", document.baseURI).href);
              const t0 = performance.now();
              try { await m.startTable({game: "capivarias", params: {}, seats: ["human", "level:1"]});
                    return ["started", "", 0]; }
              catch (e) { return [String(e.code), String(e.message), performance.now() - t0]; }
            })().then(done, (e) => done(["threw", String(e), 0]));
        """)
    finally:
        srv.stop()
    code, message, ms = got
    assert code == "offline_unavailable" and "did not load" in message, got
    assert ms < 25000, got          # the worker's own report, well before offline.js's 30 s timeout


def test_offline_choice_is_disabled_without_wasm_dir(chromium: Any, plain_server: ServerProcess) -> None:
    """Without --wasm-dir the form's Offline choice is disabled and says why; the probe logs no error."""
    from selenium.webdriver.common.by import By

    _open(chromium, plain_server)
    assert chromium.find_element(By.ID, "mode-row").get_attribute("data-offline") == "unavailable"
    choice = chromium.find_element(By.ID, "mode-offline")
    assert not choice.is_enabled() and not choice.is_selected()
    assert chromium.find_element(By.ID, "mode-server").is_selected()
    note = chromium.find_element(By.ID, "offline-note").text
    assert "not available" in note and "--wasm-dir" in note, note
    label = chromium.execute_script("return document.getElementById('mode-offline').parentElement.textContent")
    assert "Offline (in this browser)" in label
    status, body = http("GET", plain_server.url + "/wasm/")
    assert status == 200 and body["available"] is False and "--wasm-dir" in body["reason"]
    assert http("GET", plain_server.url + "/wasm/index.js")[0] == 404
    severe = [e for e in chromium.get_log("browser") if e.get("level") == "SEVERE"]
    assert not severe, severe


# --- the /wasm/ route and the option, without a browser ---------------------------------------------------

def _fake_js(root: Path) -> Path:
    """A directory shaped like a built js/ (its files' contents do not matter to the route)."""
    js = root / "js"
    for name in ("index.js", "worker.js", "src/engine.js", "dist/tabuleiro_core.mjs", "dist/tabuleiro.wasm",
                 "package.json", ".gitignore", "README.md"):
        (js / name).parent.mkdir(parents=True, exist_ok=True)
        (js / name).write_bytes(b"\0asm\1\0\0\0" if name.endswith(".wasm") else f"// {name}\n".encode())
    (root / "secret.js").write_text("// outside the served directory\n")
    (js / "leak.js").symlink_to(root / "secret.js")
    (js / "pkg.js").symlink_to(js / "package.json")        # a served name leading to a file that is not served
    return js


def _get(url: str, path: str) -> tuple[int, str, bytes]:
    """A raw GET: the path is sent exactly as given (no client normalises ``..``)."""
    host, port = url.removeprefix("http://").split(":")
    con = httpclient.HTTPConnection(host, int(port), timeout=10)
    try:
        con.request("GET", path)
        r = con.getresponse()
        return r.status, r.getheader("content-type") or "", r.read()
    finally:
        con.close()


def test_wasm_route_serves_the_engine_files_only(tmp_path: Path) -> None:
    js = _fake_js(tmp_path)
    srv = ServerProcess(tmp_path / "route.db", "--wasm-dir", str(js)).start()
    try:
        status, body = http("GET", srv.url + "/wasm/")
        assert status == 200 and body == {"available": True, "version": tabuleiro.__version__,
                                          "entry": "index.js", "reason": None}
        for path, media in (("/wasm/index.js", "text/javascript"), ("/wasm/dist/tabuleiro_core.mjs", "text/javascript"),
                            ("/wasm/dist/tabuleiro.wasm", "application/wasm")):
            status, ctype, data = _get(srv.url, path)
            assert status == 200 and ctype.split(";")[0] == media, (path, status, ctype)
            assert data == (js / path.removeprefix("/wasm/")).read_bytes()
        refused = ["/wasm/../serve/app.py", "/wasm/../../pyproject.toml", "/wasm/%2e%2e/app.py",
                   "/wasm/%2E%2E/%2E%2E/pyproject.toml", "/wasm/..%2f..%2fpyproject.toml", "/wasm/src/../index.js",
                   "/wasm/./index.js", "/wasm//index.js", "/wasm/dist/", "/wasm/package.json", "/wasm/.gitignore",
                   "/wasm/README.md", "/wasm/leak.js", "/wasm/pkg.js", "/wasm/nope.js", "/wasm/%00.js", "/wasm/index.js%00",
                   "/wasm/" + "a/" * 20 + "x.js"]
        for path in refused:
            status, _, data = _get(srv.url, path)
            assert status == 404, path
            assert b"outside the served directory" not in data
        status, _, _ = _get(srv.url, "/wasm/index.js?x=1")
        assert status == 200
        (js / "index.js").unlink()          # the directory changed after the start: no longer available
        status, body = http("GET", srv.url + "/wasm/")
        assert status == 200 and body["available"] is False and "index.js" in body["reason"], body
        assert _get(srv.url, "/wasm/index.js")[0] == 404
    finally:
        srv.stop()


def test_wasm_dir_changed_after_the_config_is_checked_again(tmp_path: Path) -> None:
    """The directory is checked where the app is made too: a ServerConfig changed after its own
    check cannot open another directory (it served every .js file under / before)."""
    from tabuleiro.serve.app import ServerConfig, create_app

    config = ServerConfig(db=":memory:", wasm_dir=str(_fake_js(tmp_path)))
    config.wasm_dir = "/"
    with pytest.raises(ValueError, match="holds no index.js"):
        create_app(config)


def test_wasm_dir_is_checked_where_it_enters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ServerConfig and the --wasm-dir option refuse what is not a built js/ directory, saying why."""
    from tabuleiro.__main__ import main
    from tabuleiro.serve.app import ServerConfig

    with pytest.raises(TypeError, match="wasm_dir"):
        ServerConfig(wasm_dir=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="wasm_dir"):
        ServerConfig(wasm_dir=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="is not a directory"):
        ServerConfig(wasm_dir=str(tmp_path / "missing"))
    js = _fake_js(tmp_path)
    (js / "dist" / "tabuleiro.wasm").unlink()
    with pytest.raises(ValueError, match=r"holds no dist/tabuleiro\.wasm: .*build_wasm\.sh"):
        ServerConfig(wasm_dir=js)  # type: ignore[arg-type]
    assert main(["serve", "--wasm-dir", str(js), "--db", str(tmp_path / "x.db")]) == 2
    assert "holds no dist/tabuleiro.wasm" in capsys.readouterr().err
    (js / "dist" / "tabuleiro.wasm").write_bytes(b"\0asm")
    assert ServerConfig(wasm_dir=js).wasm_dir == str(js.resolve())  # type: ignore[arg-type]
    assert ServerConfig().wasm_dir is None
