"""``/wasm/``: the built WebAssembly engine (``js/``, docs/wasm.md), served
read-only for the web page's offline play (``tabuleiro serve --wasm-dir DIR``).

The engine is not in the Python wheel: ``scripts/build_wasm.sh`` builds
``js/dist``, and the server serves that ``js/`` directory as it is. Only
JavaScript modules (``.js``, ``.mjs``, as ``text/javascript``) and WebAssembly
(``.wasm``, as ``application/wasm``) are served, by a path of plain names
(letters, digits, ``_``, ``.``, ``-``; none starting with a dot, so no
``..``) that resolves inside the directory (a symbolic link out of it is
refused); anything else answers 404. ``GET /wasm/`` answers whether the
engine is served, so the page can ask without a failed request.

>>> safe_path("dist/tabuleiro.wasm"), safe_path("../app.py"), safe_path("package.json")
('dist/tabuleiro.wasm', None, None)
>>> WasmFiles(None).root is None
True
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Optional

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

import tabuleiro

__all__ = ["MAX_FILE_BYTES", "MEDIA_TYPES", "REQUIRED", "WasmFiles", "check_wasm_dir", "safe_path"]

#: What is served, by file name ending, and its ``Content-Type``.
MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
               ".wasm": "application/wasm"}
#: The files a built ``js/`` directory must hold (``scripts/build_wasm.sh`` writes ``dist/``).
REQUIRED = ("index.js", "worker.js", "src/engine.js", "dist/tabuleiro_core.mjs", "dist/tabuleiro.wasm")
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")
_MAX_PARTS = 8
_HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}
#: The largest file served (the built engine's files are some 150 KB).
MAX_FILE_BYTES = 16 * 1024 * 1024


def check_wasm_dir(path: Any) -> Path:
    """The resolved directory of a built ``js/`` (every file of :data:`REQUIRED`).

    :raises TypeError: ``path`` is not a string or a path.
    :raises ValueError: it is not a directory, or a built file is missing
        (the message names it and how to build it).

    >>> check_wasm_dir(3)
    Traceback (most recent call last):
    ...
    TypeError: wasm_dir (--wasm-dir) must be a directory's path (a string), not int
    >>> check_wasm_dir("/nonexistent/js")
    Traceback (most recent call last):
    ...
    ValueError: wasm_dir (--wasm-dir) '/nonexistent/js' is not a directory: give the js/ directory of a ...
    """
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"wasm_dir (--wasm-dir) must be a directory's path (a string), not {type(path).__name__}")
    raw = os.fspath(path)
    if not isinstance(raw, str) or not raw or "\x00" in raw:
        raise ValueError("wasm_dir (--wasm-dir) must be a non-empty directory path without NUL characters")
    root = Path(raw).expanduser().resolve()
    if not root.is_dir():
        raise ValueError(f"wasm_dir (--wasm-dir) {raw[:200]!r} is not a directory: give the js/ directory of a "
                         "tabuleiro checkout, built with scripts/build_wasm.sh (docs/wasm.md)")
    for name in REQUIRED:
        if not (root / name).is_file():
            raise ValueError(f"wasm_dir (--wasm-dir) {raw[:200]!r} holds no {name}: it must be a built js/ "
                             "directory (run scripts/build_wasm.sh; docs/wasm.md)")
    return root


def safe_path(path: str) -> Optional[str]:
    """``path`` if it names a file that may be served (plain names, a served
    ending), else None. Nothing here touches the disk (example: see the module)."""
    parts = path.split("/")
    if len(path) > 400 or len(parts) > _MAX_PARTS or not all(_NAME.fullmatch(p) for p in parts):
        return None
    if not any(parts[-1].endswith(ext) for ext in MEDIA_TYPES):
        return None
    return path


def _not_found(message: str) -> Response:
    return JSONResponse({"error": {"code": "not_found", "message": message}}, status_code=404, headers=_HEADERS)


class WasmFiles:
    """The ``/wasm/`` endpoints over ``root`` (a directory :func:`check_wasm_dir`
    accepted), or over nothing when ``root`` is None (example: see the module)."""

    def __init__(self, root: Optional[str]) -> None:
        # checked here too, not only where ServerConfig takes it: a config
        # changed after it was made must not open another directory
        self.root = None if root is None else check_wasm_dir(root)

    async def manifest(self, request: Request) -> Response:
        """``GET /wasm/``: ``{"available", "version", "entry"}``, or the reason it is not available."""
        if self.root is None:
            return JSONResponse({"available": False, "version": tabuleiro.__version__, "entry": None,
                                 "reason": "the server was started without --wasm-dir (docs/server.md)"},
                                headers=_HEADERS)
        missing = next((name for name in REQUIRED if not (self.root / name).is_file()), None)
        if missing is not None:     # the directory changed after the server started
            return JSONResponse({"available": False, "version": tabuleiro.__version__, "entry": None,
                                 "reason": f"the served js/ directory holds no {missing} now: rebuild it "
                                           "(scripts/build_wasm.sh) and restart the server"},
                                headers=_HEADERS)
        return JSONResponse({"available": True, "version": tabuleiro.__version__, "entry": "index.js",
                             "reason": None}, headers=_HEADERS)

    async def file(self, request: Request) -> Response:
        """``GET /wasm/{path}``: one file of the engine, or 404."""
        if self.root is None:
            return _not_found("the WebAssembly engine is not served (the server was started without --wasm-dir)")
        path = safe_path(str(request.path_params.get("path", "")))
        if path is None:
            return _not_found("no such file of the WebAssembly engine (only .js, .mjs and .wasm files are served)")
        full = (self.root / path).resolve()
        if not full.is_relative_to(self.root) or not full.is_file():
            return _not_found("no such file of the WebAssembly engine")
        # the rules again on the file a symbolic link leads to: its ending
        # decides whether it is served and as what, not the name asked for
        real = safe_path(full.relative_to(self.root).as_posix())
        if real is None:
            return _not_found("no such file of the WebAssembly engine (only .js, .mjs and .wasm files are served)")
        media = next(t for ext, t in MEDIA_TYPES.items() if real.endswith(ext))
        try:
            if full.stat().st_size > MAX_FILE_BYTES:
                return _not_found(f"that file is larger than {MAX_FILE_BYTES} bytes: not a file of the engine")
            data = full.read_bytes()
        except OSError:             # removed or unreadable since the check: a 404, never a 500
            return _not_found("no such file of the WebAssembly engine")
        return Response(data, media_type=media, headers=_HEADERS)
