"""``tabuleiro serve``: the games and the AI over HTTP and WebSockets (docs/server.md).

Needs the ``serve`` extra (``pip install 'tabuleiro[serve]'``): Starlette,
uvicorn and websockets. The modules:

- :mod:`~tabuleiro.serve.limits`: every limit and its default (no web imports);
- :mod:`~tabuleiro.serve.store`: SQLite (WAL) persistence with group commit;
- :mod:`~tabuleiro.serve.tables`: tables, seats, tokens, moves, agents, expiry;
- :mod:`~tabuleiro.serve.app`: the Starlette application (:func:`~tabuleiro.serve.app.create_app`);
- :mod:`~tabuleiro.serve.cli`: ``tabuleiro serve``'s options and the uvicorn run.

>>> from tabuleiro.serve.limits import Limits
>>> Limits().max_message_bytes
65536
"""
