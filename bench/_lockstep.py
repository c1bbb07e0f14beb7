"""The worker side of ``compare_builds.py``: a pytest plugin standing in for pytest-benchmark.

Each build runs the bench files in its own processes under this plugin. Its
``benchmark`` fixture does not time a benchmark by itself: at each call it
reports to the coordinator (``compare_builds.py``) and then runs the
benchmarked function only when told, a batch of calls at a time, so that the
coordinator can run every build's batch of the same benchmark back to back,
a fraction of a second apart, round after round. The test's own fixtures stay
alive meanwhile, and its asserts see the result of its last call.

The messages are JSON lines on two pipes (the coordinator passes their file
descriptors): the worker says ``{"ready": nodeid, "key": ..., "units": ...}``
at each benchmark and ``{"end": exit_code}`` at the end; the coordinator
answers ``{"cmd": "warm", "calls": n}`` (run at least n untimed calls, or the
test's ``warmup_rounds``, then time one: the answer says the seconds and the
cores it kept busy), ``{"cmd": "run", "n": n, "cpu": c, "pad": b}`` (time n
calls on core c, or on every core when c is null, with a block of b bytes
held meanwhile) and ``{"cmd": "done"}`` (return to the test). A call that
raises is answered with ``{"error": traceback}``, and the exception goes on to
fail the test. When the coordinator goes away, the worker ends at once.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from typing import Any, Callable, Optional

import pytest


class Channel:
    """JSON lines over two pipe file descriptors; the process ends (exit 3) when the coordinator is gone."""

    def __init__(self, rfd: int, wfd: int) -> None:
        for fd in (rfd, wfd):
            os.set_inheritable(fd, False)       # a child of the benchmark must not keep the pipes open
        self.r = os.fdopen(rfd, "r", buffering=1)
        self.w = os.fdopen(wfd, "w", buffering=1)

    def send(self, msg: dict[str, Any]) -> None:
        try:
            self.w.write(json.dumps(msg) + "\n")
            self.w.flush()
        except (BrokenPipeError, OSError):
            os._exit(3)

    def recv(self) -> dict[str, Any]:
        line = self.r.readline()
        if not line:
            os._exit(3)     # the coordinator ended: running the other tests would only waste the machine
        msg: dict[str, Any] = json.loads(line)
        return msg


class LockstepBenchmark:
    """What the bench files use of pytest-benchmark's fixture: a call, ``pedantic`` and ``extra_info``."""

    def __init__(self, chan: Channel, nodeid: str, timer: Callable[[], float]) -> None:
        self.chan = chan
        self.nodeid = nodeid
        self.timer = timer
        self.extra_info: dict[str, Any] = {}
        self._used = False

    def __call__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return self._serve(fn, args, kwargs, None, 1)

    def pedantic(self, target: Callable[..., Any], args: tuple = (), kwargs: Optional[dict] = None,
                 setup: Optional[Callable[[], Any]] = None, rounds: int = 1, warmup_rounds: int = 0,
                 iterations: int = 1) -> Any:
        return self._serve(target, tuple(args), dict(kwargs or {}), setup, warmup_rounds)

    def _serve(self, fn: Callable[..., Any], args: tuple, kwargs: dict, setup: Optional[Callable[[], Any]],
               warm: int) -> Any:
        if self._used:
            raise RuntimeError(f"{self.nodeid}: the benchmark fixture can only be used once per test")
        self._used = True
        result = None

        def calls(n: int) -> float:
            nonlocal result
            spent = 0.0
            for _ in range(n):
                a, k = args, kwargs
                if setup is not None:       # untimed, as in pytest-benchmark (it may return (args, kwargs))
                    got = setup()
                    if got is not None:
                        a, k = got
                t = self.timer()
                result = fn(*a, **k)
                spent += self.timer() - t
            return spent

        every_cpu = os.sched_getaffinity(0)
        self.chan.send({"ready": self.nodeid, "key": self.extra_info.get("key", self.nodeid),
                        "units": self.extra_info.get("units")})
        while True:
            cmd = self.chan.recv()
            if cmd["cmd"] == "done":
                return result
            try:
                if cmd["cmd"] == "warm":
                    calls(max(warm, cmd["calls"]))
                    cpu, wall = time.process_time(), time.perf_counter()
                    t = calls(1)
                    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                    self.chan.send({"t": t, "threads": cpu / max(wall, 1e-9)})
                elif cmd["cmd"] == "run":
                    # on the core the coordinator names (every build's batch
                    # of a round on the same one: this thread only, so a
                    # benchmark's own threads and child processes are not
                    # pinned), or on every core for a benchmark that keeps
                    # more than one busy
                    os.sched_setaffinity(0, every_cpu if cmd.get("cpu") is None else {cmd["cpu"]})
                    # a block of the size the coordinator draws, held during
                    # the batch, moves the heap blocks the calls allocate:
                    # where they fall against the test's own objects (their
                    # distance modulo the page) changes from round to round,
                    # rather than staying one process's luck
                    pad = bytearray(cmd.get("pad", 0))
                    self.chan.send({"t": calls(cmd["n"])})
                    del pad
                else:
                    raise RuntimeError(f"unknown command {cmd!r}")
            except BaseException:
                self.chan.send({"error": traceback.format_exc()[-3000:]})
                raise
            finally:
                os.sched_setaffinity(0, every_cpu)


class LockstepPlugin:
    """Registered by the worker's boot code with ``pytest.main(..., plugins=[...])``."""

    def __init__(self, chan: Channel, timer: Callable[[], float]) -> None:
        self.chan = chan
        self.timer = timer

    @pytest.hookimpl
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        # like --benchmark-only: a test that takes no benchmark does not run
        keep = [it for it in items if "benchmark" in getattr(it, "fixturenames", ())]
        config.hook.pytest_deselected(items=[it for it in items if it not in keep])
        items[:] = keep

    @pytest.fixture
    def benchmark(self, request: pytest.FixtureRequest) -> LockstepBenchmark:
        return LockstepBenchmark(self.chan, request.node.nodeid, self.timer)
