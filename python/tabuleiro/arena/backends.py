"""Where an arena's games run: in this process (``jobs=1``), in local worker
processes (multiprocessing, spawn) or as Ray tasks.

Every backend takes chunks of games (``submit(tag, specs)``) and hands back
finished chunks (``wait()``). Worker processes find their entry points
(``_init_worker`` and ``_pool_play``; the actor class ``_RayWorker`` for
Ray) by qualified name in this module, and rebuild the run's ``_Config`` from
:mod:`tabuleiro.arena.worker`.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from .scheduling import GameSpec
from .worker import _Config, _Worker

__all__: list[str] = []


_WORKER: Optional[_Worker] = None


def _init_worker(cfg: _Config, ignore_sigint: bool = False) -> None:
    global _WORKER
    if ignore_sigint:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = _Worker(cfg)
    # the worker's engine processes are stopped when the pool closes it
    import multiprocessing.util

    multiprocessing.util.Finalize(None, _WORKER.close, exitpriority=10)


def _pool_play(specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
    assert _WORKER is not None
    return _WORKER.play_many(specs)


class _RayWorker:
    """One arena worker as a Ray actor: it plays the chunks it is sent and
    owns its engine processes until :meth:`close`, which the driver calls
    before the run returns (a task-based worker would keep them alive in a
    pooled Ray worker process for as long as the Ray session lasts)."""

    def __init__(self, cfg: _Config) -> None:
        self.worker = _Worker(cfg)

    def play(self, specs: Sequence[GameSpec]) -> list[dict[str, Any]]:
        return self.worker.play_many(specs)

    def close(self) -> bool:
        self.worker.close()
        return True


# --- backends: submit chunks of games, get finished chunks back ---------------------------

class _Inline:
    """jobs=1: play in this process (the overhead benchmark's path)."""

    def __init__(self, cfg: _Config) -> None:
        self.worker = _Worker(cfg)
        self.queue: list[tuple[int, Sequence[GameSpec]]] = []

    def submit(self, tag: int, specs: Sequence[GameSpec]) -> None:
        self.queue.append((tag, specs))

    def wait(self) -> list[tuple[int, list[dict[str, Any]]]]:
        tag, specs = self.queue.pop(0)
        return [(tag, self.worker.play_many(specs))]

    def pending(self) -> int:
        return len(self.queue)

    def cancel(self) -> None:
        self.queue.clear()

    def close(self, abort: bool = False) -> None:
        self.worker.close()


class _Pool:
    """Worker processes (multiprocessing, spawn: safe with the progress bar's
    thread, and the same on every platform). Workers ignore SIGINT: Ctrl-C
    reaches the driver, which terminates them."""

    def __init__(self, cfg: _Config, jobs: int) -> None:
        import multiprocessing as mp
        import queue

        self.pool = mp.get_context("spawn").Pool(jobs, initializer=_init_worker, initargs=(cfg, True))
        self.done: "queue.Queue[tuple[int, Any, bool]]" = queue.Queue()
        self.n = 0

    def submit(self, tag: int, specs: Sequence[GameSpec]) -> None:
        self.n += 1
        self.pool.apply_async(_pool_play, (list(specs),),
                              callback=lambda res: self.done.put((tag, res, True)),
                              error_callback=lambda exc: self.done.put((tag, exc, False)))

    def wait(self) -> list[tuple[int, list[dict[str, Any]]]]:
        out = []
        item = self.done.get()
        while True:
            tag, res, ok = item
            self.n -= 1
            if not ok:
                raise res
            out.append((tag, res))
            if self.done.empty():
                return out
            item = self.done.get()

    def pending(self) -> int:
        return self.n

    def cancel(self) -> None:
        pass                     # queued chunks are few (two a worker): let them finish

    def close(self, abort: bool = False) -> None:
        if abort:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()


def _check_ray_address(address: str, timeout: float = 5.0) -> None:
    """Fail fast, with a clear error, when nothing listens at a Ray cluster's
    ``HOST:PORT`` (``ray.init`` would otherwise retry for minutes). ``auto``
    and addresses without a port are left to Ray."""
    import socket
    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if address == "auto" or not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise ValueError(f"no Ray cluster answers at {address!r} ({e.strerror or e}): start one with "
                         f"'ray start --head' and pass the address it prints") from None


class _Ray:
    """Chunks of games on Ray actors (:class:`_RayWorker`), one per job: on
    a local instance ``jobs`` of them, on a cluster ``jobs`` or, without
    it, one per CPU of the cluster (never more than it has, so none waits
    forever to be placed). Each chunk goes to the actor with the fewest in
    flight; :meth:`close` has every actor stop its engine processes, then
    ends the actors."""

    def __init__(self, cfg: _Config, jobs: Optional[int], address: Optional[str]) -> None:
        try:
            import ray
        except ImportError:
            raise ImportError("the ray backend needs Ray: pip install 'tabuleiro[ray]'") from None
        self.ray: Any = ray            # Ray's API is untyped: keep mypy --strict out of it
        self.started = False
        if not ray.is_initialized():
            if address:
                _check_ray_address(address)
                ray.init(address=address, log_to_driver=False)
            else:
                # address="local": always a fresh instance of our own. With no
                # address Ray joins whatever it finds (RAY_ADDRESS, a running
                # gcs_server, a stale /tmp/ray/ray_current_cluster) and then
                # refuses num_cpus.
                ray.init(address="local", num_cpus=jobs, include_dashboard=False, log_to_driver=False)
            self.started = True
        cpus = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        n = cpus if jobs is None else max(1, min(jobs, cpus))
        actor: Any = self.ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_RayWorker)
        cfg_ref = self.ray.put(cfg)
        self.actors: list[Any] = [actor.remote(cfg_ref) for _ in range(n)]
        self.load = [0] * n
        self.refs: dict[Any, tuple[int, int]] = {}

    def submit(self, tag: int, specs: Sequence[GameSpec]) -> None:
        i = min(range(len(self.actors)), key=self.load.__getitem__)
        self.load[i] += 1
        self.refs[self.actors[i].play.remote(list(specs))] = (tag, i)

    def wait(self) -> list[tuple[int, list[dict[str, Any]]]]:
        done, _ = self.ray.wait(list(self.refs), num_returns=1)
        out = []
        for r in done:
            tag, i = self.refs.pop(r)
            self.load[i] -= 1
            out.append((tag, self.ray.get(r)))
        return out

    def pending(self) -> int:
        return len(self.refs)

    def cancel(self) -> None:
        for r in list(self.refs):
            try:
                self.ray.cancel(r)
            except Exception:   # pragma: no cover - a Ray that cannot cancel actor calls: let them finish
                pass
        try:
            self.ray.wait(list(self.refs), num_returns=len(self.refs), timeout=30)
        except Exception:   # pragma: no cover - best effort
            pass
        self.refs.clear()
        self.load = [0] * len(self.actors)

    def close(self, abort: bool = False) -> None:
        try:
            if not abort:
                # each actor stops its engine processes (quit, then kill) before the run returns
                try:
                    self.ray.get([a.close.remote() for a in self.actors], timeout=60)
                except Exception:   # pragma: no cover - a dead actor: its engines died with it (PDEATHSIG)
                    pass
            for a in self.actors:
                self.ray.kill(a)
            self.actors.clear()
            self.refs.clear()
        finally:
            if self.started:
                self.ray.shutdown()
