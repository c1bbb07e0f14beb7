"""Shared by the WebAssembly tests: build js/dist when it is missing or
stale (once per session, under a file lock so that two pytest-xdist workers
never build at the same time), skip with the reason when emcc or node is
absent, and run a long-lived ``node js/cli.mjs --serial`` engine.

(It holds no tests of its own: the fixtures live here so that every
``tests/test_wasm*.py`` file shares one build.)
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.system_tools import tool_missing

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "js"
DIST = JS / "dist"
STAMP = DIST / "build.stamp"


def _inputs_hash() -> str:
    """A hash of everything the .wasm is built from (C sources, data, the script)."""
    h = hashlib.sha256()
    files = sorted([*(ROOT / "csrc").glob("*.[ch]"), *(ROOT / "csrc/search").glob("*.[ch]"),
                    *(ROOT / "csrc/wasm").glob("*.[ch]"), *(ROOT / "python/tabuleiro/data").glob("*.csv"),
                    ROOT / "scripts/build_wasm.sh"])
    for f in files:
        h.update(str(f.relative_to(ROOT)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def missing_tool() -> str | None:
    """Why the WebAssembly tests cannot run here, or None."""
    if shutil.which("node") is None:
        return "Node.js is absent (Debian: apt-get install nodejs)"
    if shutil.which("emcc") is None and not (STAMP.exists() and STAMP.read_text() == _inputs_hash()):
        return "Emscripten's emcc is absent (Debian: apt-get install emscripten)"
    return None


def ensure_built() -> Path:
    """js/dist up to date with the sources: built here if it is not."""
    reason = missing_tool()
    if reason is not None:
        tool_missing(reason)
    want = _inputs_hash()
    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / "wasm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)         # another worker may be building: wait for it
        if not (STAMP.exists() and STAMP.read_text() == want and (DIST / "tabuleiro.wasm").exists()):
            r = subprocess.run(["bash", str(ROOT / "scripts/build_wasm.sh"), str(DIST)], capture_output=True, text=True)
            assert r.returncode == 0, r.stdout + r.stderr
            STAMP.write_text(want)
    return DIST


@pytest.fixture(scope="session")
def wasm_dist() -> Path:
    """The built js/dist (skips when emcc or node is absent, saying which)."""
    return ensure_built()


class NodeEngine:
    """``node js/cli.mjs --serial``: each request answered before the next is read."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(["node", str(JS / "cli.mjs"), "--serial"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)

    def send(self, lines: list[str]) -> None:
        """Send ``lines``; node answers them while the caller does other work."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def receive(self, n: int) -> list[dict[str, Any]]:
        """The next ``n`` answers."""
        assert self.proc.stdout is not None
        return [json.loads(self.proc.stdout.readline()) for _ in range(n)]

    def run(self, lines: list[str]) -> list[dict[str, Any]]:
        """Answers to ``lines`` (one per line, in order)."""
        self.send(lines)
        return self.receive(len(lines))

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def node_engine(wasm_dist: Path) -> Iterator[NodeEngine]:
    eng = NodeEngine()
    yield eng
    eng.close()


os.environ.setdefault("NODE_NO_WARNINGS", "1")


class _Handler(__import__("http.server").server.SimpleHTTPRequestHandler):
    extensions_map = {".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json", "": "application/octet-stream"}

    def log_message(self, *args: Any) -> None:   # quiet
        pass


def serve_js() -> tuple[Any, str]:
    """An HTTP server on 127.0.0.1 serving js/ (ES modules need http, not
    file://), on a thread; (server, base URL). The caller shuts it down."""
    import functools
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(JS)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def js_server(wasm_dist: Path) -> Iterator[str]:
    """The base URL of js/ served over http on 127.0.0.1."""
    server, url = serve_js()
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def open_test_page(driver: Any, base: str) -> None:
    """Load js/test/browser.html and wait for its module to be ready."""
    import time

    driver.set_script_timeout(120)
    driver.get(f"{base}/test/browser.html")
    deadline = time.monotonic() + 60
    while not driver.execute_script("return window.tbReady === true"):
        assert time.monotonic() < deadline, driver.get_log("browser")
        time.sleep(0.05)
