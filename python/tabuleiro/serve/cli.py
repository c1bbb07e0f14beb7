"""``tabuleiro serve``: its options and the uvicorn run.

    tabuleiro serve [--host 127.0.0.1] [--port 8765] [--db PATH] [--allow-origin URL ...]
                    [--sync full|normal] [--wasm-dir DIR] [--LIMIT VALUE ...]

Every limit of :class:`~tabuleiro.serve.limits.Limits` has its option
(``--max-tables 500``, ``--idle-seconds 600``); docs/server.md lists them.
Only this module imports uvicorn.

>>> import argparse
>>> parser = argparse.ArgumentParser(); sub = parser.add_subparsers(dest="command")
>>> _ = add_parser(sub)
>>> args = parser.parse_args(["serve", "--max-tables", "5"])
>>> config_from_args(args).limits.max_tables, config_from_args(args).host
(5, '127.0.0.1')
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import re
import sys
import time
from typing import Any

from .limits import Limits

__all__ = ["add_parser", "config_from_args", "run"]

_HELP = {
    "max_message_bytes": "largest WebSocket message or HTTP body read (bytes)",
    "max_frame_bytes": "WebSocket frames over this close the socket (1009)",
    "rate": "messages per second per WebSocket (average)",
    "burst": "messages a WebSocket may send at once",
    "rate_strikes": "rate-limited messages in a row that close the socket",
    "max_connections": "open WebSocket connections",
    "max_seat_sockets": "open sockets per seat",
    "max_tables": "tables held",
    "max_send_queue": "messages queued for a socket before its reader is dropped",
    "max_iterations": "iterations of one search",
    "max_search_seconds": "seconds of one search",
    "max_threads": "threads of one search",
    "max_nodes": "tree nodes of one search",
    "idle_seconds": "remove tables idle this long (0: never)",
    "sweep_seconds": "how often idle tables are looked for",
    "search_workers": "threads running the agents' searches",
    "max_engine_jobs": "go/perft jobs running at once on /engine",
}


_SECRET = re.compile(r"(token=)[^&\s\"']*|(bearer\s+)\S+", re.IGNORECASE)


class OneLineLog(logging.Filter):
    """Turns the web stack's log records into one JSON line each, without
    tracebacks, with any ``token=...`` or bearer token blanked out.

    >>> rec = logging.LogRecord("uvicorn.error", logging.ERROR, "", 0, "GET /t/ws?token=abc&x=1", None, None)
    >>> OneLineLog().filter(rec), json.loads(rec.getMessage())["message"]
    (True, 'GET /t/ws?token=***&x=1')
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` in place (example: see the class)."""
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a record that does not format
            text = str(record.msg)
        text = _SECRET.sub(lambda m: (m.group(1) or m.group(2)) + "***", text)
        error = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else None
        out = {"ts": round(time.time(), 3), "event": "server_log", "level": record.levelname.lower(),
               "message": text[:300]}
        if error:
            out["error"] = error
        record.msg, record.args = json.dumps(out, separators=(",", ":")), None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` subcommand to an ``argparse`` subparsers object
    (example: see the module).

    >>> add_parser.__name__
    'add_parser'
    """
    p: argparse.ArgumentParser = sub.add_parser("serve", help="the game server: HTTP and WebSockets (docs/server.md)",
                       description="Serve tables and the engine protocol over HTTP and WebSockets "
                                   "(docs/server.md). Needs the serve extra: pip install 'tabuleiro[serve]'.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--db", default="tabuleiro-serve.db", help="SQLite database of the tables "
                   "(default ./tabuleiro-serve.db)")
    p.add_argument("--sync", choices=("full", "normal"), default="full",
                   help="SQLite synchronous mode: full survives a power cut, normal only a killed process")
    p.add_argument("--wasm-dir", default=None, metavar="DIR",
                   help="a built js/ directory (scripts/build_wasm.sh) to serve read-only at /wasm/: the web page "
                   "then offers offline play, the AI in the browser (default: none)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                   help="a browser origin allowed to open WebSockets besides the server's own (repeat; '*': any)")
    defaults = Limits()
    for f in dataclasses.fields(Limits):
        value = getattr(defaults, f.name)
        p.add_argument("--" + f.name.replace("_", "-"), type=type(value), default=value, metavar="N",
                       help=f"{_HELP.get(f.name, f.name)} (default {value:g})" if isinstance(value, float)
                       else f"{_HELP.get(f.name, f.name)} (default {value})")
    return p


def config_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~tabuleiro.serve.app.ServerConfig` of parsed options (example: see the module).

    :raises ValueError: a limit out of range, or a ``--wasm-dir`` that is not a built ``js/``.
    """
    from .app import ServerConfig

    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(Limits)}
    for name, v in values.items():
        if v < 0 or (v == 0 and name not in ("idle_seconds",)):
            raise ValueError(f"--{name.replace('_', '-')} must be positive, not {v}")
    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be in 1..65535, not {args.port}")
    return ServerConfig(host=args.host, port=args.port, db=args.db, sync=args.sync, limits=Limits(**values),
                        allowed_origins=tuple(o.rstrip("/") for o in args.allow_origin),
                        wasm_dir=getattr(args, "wasm_dir", None))


def run(args: argparse.Namespace) -> int:
    """Run the server until SIGINT/SIGTERM; the exit status.

    >>> run.__name__
    'run'
    """
    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:
        print(f"tabuleiro serve needs the serve extra: pip install 'tabuleiro[serve]' ({e})", file=sys.stderr)
        return 2
    try:
        config = config_from_args(args)
    except ValueError as e:
        print(f"tabuleiro serve: {e}", file=sys.stderr)
        return 2
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    log = logging.getLogger("tabuleiro.serve")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    web = logging.StreamHandler(sys.stderr)     # uvicorn's own records: one JSON line, no traceback, no token
    web.addFilter(OneLineLog())
    web.setFormatter(logging.Formatter("%(message)s"))
    uvlog = logging.getLogger("uvicorn")
    uvlog.addHandler(web)
    uvlog.setLevel(logging.WARNING)
    uvlog.propagate = False
    lim = config.limits
    uv = uvicorn.Config(create_app(config), host=config.host, port=config.port, access_log=False,
                        log_config=None, log_level="warning", ws="websockets-sansio",
                        ws_max_size=lim.max_frame_bytes, ws_max_queue=16, ws_per_message_deflate=False, limit_concurrency=lim.max_connections + 64,
                        timeout_graceful_shutdown=5, proxy_headers=False, server_header=False)
    print(f"tabuleiro serve: http://{config.host}:{config.port} (database {config.db})", file=sys.stderr, flush=True)
    if config.wasm_dir is not None:
        print("tabuleiro serve: the WebAssembly engine at /wasm/ (offline play on the page)", file=sys.stderr,
              flush=True)
    uvicorn.Server(uv).run()
    return 0
