"""The WebAssembly engine in headless Chromium (Debian's chromium and
chromedriver): the module loads in a page and in a Web Worker, plays a full
game of each game there, and `stop` ends a 30 s `go` quickly (the issue's
bound is 0.2 s; the test asserts < 1 s, five times that, since machines are
noisy; bench/bench_wasm.py prints the measured figures). Served from a local
http.server on 127.0.0.1 (ES modules need http, not file://).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser_helpers import chromium  # noqa: F401  (the fixture)
from tests.test_wasm_support import js_server, open_test_page, wasm_dist  # noqa: F401  (fixtures)

GAMES = [("capivarias", {}), ("capulana", {"players": 4}), ("toy", {})]


@pytest.mark.parametrize("where", ["page", "worker"])
def test_full_games_in_chromium(chromium: Any, js_server: str, where: str) -> None:  # noqa: F811
    open_test_page(chromium, js_server)
    for game, params in GAMES:
        got = chromium.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "window.tb.playGame(arguments[0], arguments[1], arguments[2], 30).then(done, e => done({error: String(e)}));",
            where, game, params)
        assert "error" not in got, got
        assert got["over"] is True and got["outcome"]["returns"], got
        assert got["moves"] > 5 and got["stateGame"] == game


@pytest.mark.parametrize("where", ["page", "worker"])
def test_stop_ends_a_30_second_go_in_chromium(chromium: Any, js_server: str, where: str) -> None:  # noqa: F811
    open_test_page(chromium, js_server)
    got = chromium.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.tb.stopLatency(arguments[0], 1000).then(done, e => done({error: String(e)}));", where)
    assert "error" not in got, got
    go, stop = got["go"], got["stop"]
    assert go["ok"] and go["stopped"] is True and go["iterations"] > 0
    assert stop == {"id": 3, "ok": True, "cmd": "stop", "stopped": True, "job": "go", "finished": True,
                    "move": go["move"]}
    # the requirement is 0.2 s; a noisy shared machine gets five times that
    assert got["goMs"] < 1000 and got["stopMs"] < 1000, got
    print(f"stop latency in the {where}: go answered {got['goMs']:.1f} ms after stop, stop {got['stopMs']:.1f} ms")


def test_the_offline_example_page_plays(chromium: Any, js_server: str) -> None:  # noqa: F811
    """js/example/index.html: Capivárias against the engine in a worker, with
    no server but the static files: the moves appear, a click plays one and
    the engine answers."""
    import time

    from selenium.webdriver.common.by import By

    chromium.get(f"{js_server}/example/index.html")
    deadline = time.monotonic() + 60
    while not chromium.find_elements(By.CSS_SELECTOR, "#moves button"):
        assert time.monotonic() < deadline, chromium.get_log("browser")
        time.sleep(0.1)
    assert '"game": "capivarias"' in chromium.find_element(By.ID, "board").text
    chromium.find_elements(By.CSS_SELECTOR, "#moves button")[0].click()
    while "AI: " not in chromium.find_element(By.ID, "log").text:
        assert time.monotonic() < deadline, chromium.get_log("browser")
        time.sleep(0.1)
    assert "you: " in chromium.find_element(By.ID, "log").text
    errors = [e for e in chromium.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
