"""The ASGI application: HTTP and WebSocket endpoints over :mod:`tabuleiro.serve.tables`.

docs/server.md is the reference (endpoints, messages, errors, limits).
:func:`create_app` builds the Starlette application; ``tabuleiro serve``
runs it on uvicorn (:mod:`tabuleiro.serve.cli`).

>>> app = create_app(ServerConfig(db=":memory:"))
>>> sorted(r.path for r in app.routes)[:3]
['', '/data', '/engine']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Optional
from urllib.parse import urlsplit

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket
except ImportError as _e:  # pragma: no cover - the extra is missing
    raise ImportError("tabuleiro serve needs the serve extra: pip install 'tabuleiro[serve]' "
                      f"({_e})") from None

import tabuleiro

from .. import engine as _engine
from .._wire import ProtocolError, _echoable, _encode, _read_request, _unicode_problem
from .limits import LimitError, Limits, RateLimiter, check_budget
from .wasm import WasmFiles, check_wasm_dir
from .store import Store
from .tables import MoveError, Table, Tables, encode, log_event

__all__ = ["ServerConfig", "create_app", "Connection", "check_wasm_dir"]

STATIC = Path(__file__).resolve().parent / "static"
#: The package's reference tables (card faces, objectives): public, read by the web page.
DATA = Path(tabuleiro.__file__).resolve().parent / "data"
_HTTP_STATUS = {"bad_json": 400, "bad_request": 400, "limit": 400, "no_token": 401, "bad_token": 403,
                "no_table": 404, "too_big": 413, "too_many_tables": 503, "internal": 500}
_CLOSE = {"no_token": 4401, "bad_token": 4403, "no_table": 4404}


@dataclass
class ServerConfig:
    """How the server runs: where, which database, which limits, which browser origins.

    ``allowed_origins``: the browser origins (``https://example.org``) whose
    WebSockets are accepted besides the server's own; ``"*"`` accepts any.
    A client that sends no ``Origin`` (not a browser) is always accepted.

    ``wasm_dir``: a built ``js/`` directory (``index.js``, ``worker.js``,
    ``src/``, ``dist/``) to serve at ``/wasm/`` (:func:`check_wasm_dir`).

    >>> ServerConfig().port
    8765
    """

    host: str = "127.0.0.1"
    port: int = 8765
    db: str = "tabuleiro-serve.db"
    sync: str = "full"
    limits: Limits = field(default_factory=Limits)
    allowed_origins: tuple[str, ...] = ()
    #: a built ``js/`` directory (docs/wasm.md) served read-only at ``/wasm/``
    #: for the page's offline play; None: not served (``/wasm/`` says so)
    wasm_dir: Optional[str] = None

    def __post_init__(self) -> None:
        if self.wasm_dir is not None:
            self.wasm_dir = str(check_wasm_dir(self.wasm_dir))


def _error(code: str, message: str, rid: Any = None) -> str:
    return encode({"type": "error", "id": rid, "code": code, "message": message})


class Connection:
    """One WebSocket: a bounded queue of messages to send and the task that
    sends them. A reader that lets ``max_send_queue`` messages pile up is
    dropped (close 1008, ``slow_reader``): the server never buffers without bound.

    >>> Connection.push.__name__
    'push'
    """

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.ws = ws
        self.queue: "asyncio.Queue[Optional[str]]" = asyncio.Queue(maxsize=limits.max_send_queue)
        self.done = asyncio.Event()
        self.close_code = 1000
        self.close_reason = ""
        self.slow = False

    def push(self, text: str) -> None:
        """Queue one message; drop the connection when its reader is too far behind
        (example: see the class)."""
        if self.done.is_set():
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.slow = True
            self.close(1008, "slow_reader: messages were not read")

    def close(self, code: int, reason: str) -> None:
        """End the connection with ``code`` (example: see the class)."""
        if not self.done.is_set():
            self.close_code, self.close_reason = code, reason
            self.done.set()

    async def writer(self) -> None:
        """Send the queued messages in order until the connection ends (example: see the class)."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.ws.send_text(text)


class _Server:
    """The application's state: the tables, the open connections, the config."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.limits = config.limits
        self.tables = Tables(Store(config.db, sync=config.sync), config.limits)
        self.connections = 0
        self.engine_jobs: set[_engine.Engine] = set()   # sessions whose go/perft may still run
        self.started = time.monotonic()
        self.sockets_opened = 0                       # WebSockets accepted since the start, every endpoint
        self.wasm = WasmFiles(config.wasm_dir)

    # --- HTTP ---------------------------------------------------------------------------------------------------
    async def health(self, request: Request) -> Response:
        return JSONResponse({"ok": True, "version": tabuleiro.__version__, "tables": self.tables.count,
                             "connections": self.connections, "sockets_opened": self.sockets_opened,
                             "uptime": round(time.monotonic() - self.started, 1),
                             "searches": self.tables.searches, "db": self.tables.store.stats()})

    @staticmethod
    def _http_error(code: str, message: str) -> Response:
        return JSONResponse({"error": {"code": code, "message": message}}, status_code=_HTTP_STATUS.get(code, 400))

    async def _body(self, request: Request) -> bytes:
        limit = self.limits.max_message_bytes
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            raise MoveError("too_big", f"the body is over {limit} bytes")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise MoveError("too_big", f"the body is over {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    async def create_table(self, request: Request) -> Response:
        try:
            raw = await self._body(request)
            try:
                body = _read_request(raw)
            except ProtocolError as e:
                raise MoveError("bad_json", e.message) from None
            out = await self.tables.create(body)
        except MoveError as e:
            return self._http_error(e.code, e.message)
        except Exception as e:  # noqa: BLE001 - never a traceback to the client
            log_event("internal", where="create", error=type(e).__name__)
            return self._http_error("internal", "internal error; please report it")
        return JSONResponse(out, status_code=201)

    async def get_table(self, request: Request) -> Response:
        try:
            table = self.tables.get(request.path_params["table_id"])
            auth = request.headers.get("authorization", "")
            token = auth[7:].strip() if auth.lower().startswith("bearer ") else request.query_params.get("token")
            seat = self.tables.seat_of(table, token)
            self.tables.touch(table)
            return Response(encode(self.tables.view_message(table, seat)), media_type="application/json")
        except MoveError as e:
            return self._http_error(e.code, e.message)
        except Exception as e:  # noqa: BLE001
            log_event("internal", where="get", error=type(e).__name__)
            return self._http_error("internal", "internal error; please report it")

    # --- WebSockets: shared ---------------------------------------------------------------------------------
    def _origin_ok(self, ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True                          # not a browser: browsers always send Origin
        allowed = self.config.allowed_origins
        if "*" in allowed or origin.rstrip("/") in allowed:
            return True
        return urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()

    async def _admit(self, ws: WebSocket) -> bool:
        """Origin and connection-limit checks, then accept. False: refused (closed)."""
        if not self._origin_ok(ws):
            log_event("ws_refused", code="origin")
            await ws.close(code=4403)           # before accept: the handshake is answered 403
            return False
        await ws.accept()
        self.sockets_opened += 1
        if self.connections >= self.limits.max_connections:
            await self._refuse(ws, "too_many_connections", f"the server holds its limit of "
                               f"{self.limits.max_connections} connections; try again later", 1013)
            return False
        return True

    @staticmethod
    async def _refuse(ws: WebSocket, code: str, message: str, close: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.send_text(_error(code, message)), 2.0)
            await asyncio.wait_for(ws.close(code=close, reason=code), 2.0)

    async def _run(self, ws: WebSocket, conn: Connection,
                   handle: Callable[[Any, str], Awaitable[None]]) -> None:
        """Read messages until the socket or the connection ends: each is
        size- and rate-checked, then handed to ``handle`` (in order)."""
        self.connections += 1
        writer = asyncio.get_running_loop().create_task(conn.writer())

        async def reader() -> None:
            limits = self.limits
            bucket = RateLimiter(limits.rate, limits.burst)
            strikes = 0
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    conn.close(1000, "")
                    return
                text = msg.get("text")
                if text is None:
                    conn.push(_error("bad_json", "binary frames are not read: send JSON as text"))
                    continue
                if not bucket.allow(time.monotonic()):
                    strikes += 1
                    if strikes >= limits.rate_strikes:
                        conn.close(1008, "rate_limited")
                        return
                    conn.push(_error("rate_limited", f"over {limits.rate:g} messages a second (bursts of "
                                     f"{limits.burst}): this message was dropped"))
                    continue
                strikes = 0
                if len(text) > limits.max_message_bytes or len(text.encode("utf-8", "surrogatepass")) > \
                        limits.max_message_bytes:
                    conn.push(_error("too_big", f"messages are at most {limits.max_message_bytes} bytes; "
                                     "this one was dropped"))
                    continue
                await handle(conn, text)

        async def guarded_reader() -> None:
            try:
                await reader()
            except Exception as e:  # noqa: BLE001 - a socket error ends this connection only
                if not isinstance(e, (OSError, RuntimeError)) and type(e).__name__ not in ("WebSocketDisconnect",
                                                                                         "ClientDisconnected"):
                    log_event("internal", where="reader", error=type(e).__name__)
                conn.close(1011, "")

        read = asyncio.get_running_loop().create_task(guarded_reader())
        ended = asyncio.get_running_loop().create_task(conn.done.wait())
        try:
            await asyncio.wait({writer, read, ended}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.connections -= 1
            conn.done.set()
            for task in (read, ended):
                task.cancel()
            if not conn.slow and not writer.done():
                with contextlib.suppress(asyncio.QueueFull):
                    conn.queue.put_nowait(None)  # let what is queued go out first, briefly
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(asyncio.shield(writer), 2.0)
            writer.cancel()
            for task in (writer, read, ended):    # retrieve what they raised (a send to a closed socket)
                if task.done() and not task.cancelled():
                    task.exception()
            if conn.slow:
                log_event("ws_dropped", code="slow_reader")
            else:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(code=conn.close_code, reason=conn.close_reason), 2.0)

    # --- the table socket ---------------------------------------------------------------------------------------
    async def table_ws(self, ws: WebSocket) -> None:
        if not await self._admit(ws):
            return
        try:
            table = self.tables.get(ws.path_params["table_id"])
            seat = self.tables.seat_of(table, ws.query_params.get("token"))
        except MoveError as e:
            log_event("ws_refused", code=e.code)
            await self._refuse(ws, e.code, e.message, _CLOSE.get(e.code, 1008))
            return
        if len(table.watchers[seat]) >= self.limits.max_seat_sockets:
            await self._refuse(ws, "too_many_connections", f"a seat may have at most "
                               f"{self.limits.max_seat_sockets} open sockets", 1013)
            return
        conn = Connection(ws, self.limits)
        table.watchers[seat].add(conn)
        self.tables.touch(table)
        conn.push(encode(self.tables.view_message(table, seat)))

        async def handle(c: Any, text: str) -> None:
            await self._table_message(table, seat, c, text)

        try:
            await self._run(ws, conn, handle)
        finally:
            table.watchers[seat].discard(conn)

    async def _table_message(self, table: Table, seat: int, conn: Connection, text: str) -> None:
        rid: Any = None
        try:
            try:
                req = _read_request(text.encode("utf-8", "surrogatepass"))
            except ProtocolError as e:
                raise MoveError("bad_json", e.message) from None
            if not isinstance(req, dict):
                raise MoveError("bad_request", "a message is a JSON object with a 'type'")
            problem = _unicode_problem(req)
            if problem is not None:
                raise MoveError("bad_request", problem)
            rid = req.get("id")
            if not _echoable(rid) or isinstance(rid, (dict, list)):
                rid = None
                raise MoveError("bad_request", "field 'id' must be a JSON scalar")
            kind = req.get("type")
            self.tables.touch(table)
            if kind == "move":
                if "move" not in req:
                    raise MoveError("bad_request", "missing field 'move' (notation or action id)")
                await self.tables.play(table, seat, req["move"], req.get("ply"),
                                       lambda ack: conn.push(encode({**ack, "id": rid})))
            elif kind == "sync":
                conn.push(encode(self.tables.view_message(table, seat)))
            elif kind == "ping":
                conn.push(encode({"type": "pong", "id": rid}))
            else:
                raise MoveError("unknown_type", "field 'type' must be move, sync or ping")
        except MoveError as e:
            conn.push(_error(e.code, e.message, rid))
        except Exception as e:  # noqa: BLE001 - never a traceback, never a crash
            log_event("internal", where="table_ws", table=table.id, error=type(e).__name__)
            conn.push(_error("internal", "internal error; nothing was played; please report it", rid))

    # --- the engine socket --------------------------------------------------------------------------------------
    async def engine_ws(self, ws: WebSocket) -> None:
        if not await self._admit(ws):
            return
        loop = asyncio.get_running_loop()
        conn = Connection(ws, self.limits)

        def write(data: bytes) -> None:
            text = data.decode("utf-8").rstrip("\n")
            loop.call_soon_threadsafe(conn.push, text)

        eng = _engine.Engine(write, log=lambda s: log_event("engine_internal"))
        lock = asyncio.Lock()

        async def handle(c: Any, text: str) -> None:
            async with lock:
                await self._engine_message(eng, conn, text)

        try:
            await self._run(ws, conn, handle)
        finally:
            await loop.run_in_executor(None, eng.finish_job)

    async def _engine_message(self, eng: _engine.Engine, conn: Connection, text: str) -> None:
        raw = text.encode("utf-8", "surrogatepass")
        try:
            req = json.loads(raw)
        except Exception:  # noqa: BLE001 - the engine answers bad_json itself
            req = None
        if isinstance(req, dict) and req.get("cmd") in ("go", "perft"):
            self.engine_jobs = {e for e in self.engine_jobs if e.busy}
            if len(self.engine_jobs) >= self.limits.max_engine_jobs and eng not in self.engine_jobs:
                rid = req.get("id")
                data = _encode({"id": rid if _echoable(rid) and not isinstance(rid, (dict, list)) else None,
                                "ok": False, "cmd": req["cmd"], "error": {
                                    "code": "limit", "message": f"the server runs at most "
                                    f"{self.limits.max_engine_jobs} engine searches at once; try again shortly"}})
                if data is not None:
                    conn.push(data.decode("utf-8").rstrip("\n"))
                return
        if isinstance(req, dict) and req.get("cmd") == "go":
            try:
                check_budget({k: req.get(k) for k in ("iterations", "time", "threads", "max_nodes") if k in req},
                             self.limits)
            except LimitError as e:
                rid = req.get("id")
                data = _encode({"id": rid if _echoable(rid) and not isinstance(rid, (dict, list)) else None,
                                "ok": False, "cmd": "go", "error": {"code": e.code, "message": e.message}})
                if data is not None:
                    conn.push(data.decode("utf-8").rstrip("\n"))
                return
        loop = asyncio.get_running_loop()
        keep = await loop.run_in_executor(None, eng.handle_line, raw)
        stop = eng.stop_job_later()              # a go/perft just started: the server's time cap
        if stop is not None:
            self.engine_jobs.add(eng)
            loop.call_later(self.limits.max_search_seconds, stop)
        if not keep:
            conn.close(1000, "quit")


def create_app(config: Optional[ServerConfig] = None) -> Starlette:
    """The Starlette application of ``config`` (default: :class:`ServerConfig()`).

    >>> create_app(ServerConfig(db=":memory:")).state.server.limits.max_tables
    10000
    """
    server = _Server(config or ServerConfig())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.tables.start()
        log_event("server_started", tables=server.tables.count)
        try:
            yield
        finally:
            await server.tables.close()
            log_event("server_stopped")

    routes = [
        Route("/health", server.health, methods=["GET"]),
        Route("/tables", server.create_table, methods=["POST"]),
        Route("/tables/{table_id}", server.get_table, methods=["GET"]),
        WebSocketRoute("/tables/{table_id}/ws", server.table_ws),
        WebSocketRoute("/engine", server.engine_ws),
        Route("/wasm/", server.wasm.manifest, methods=["GET"]),
        Route("/wasm/{path:path}", server.wasm.file, methods=["GET"]),
        Mount("/data", StaticFiles(directory=str(DATA)), name="data"),
        Mount("/", StaticFiles(directory=str(STATIC), html=True), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app
