"""Where CPU-heavy work runs, bounded, never on the event loop: EvaluateRecords slices in
worker processes (the engine's record codec holds the GIL, so processes keep the loop's
latency), Simulate slices in threads (the playouts release the GIL), Analyze and Hint in a
pool of their own with admission bounds (`Analysis`; bot turns and restores have the table
pool, which analysis never occupies). A slice is small (a few
milliseconds), so a call's deadline or cancellation stops its work at the next slice; a slice
already running finishes and is dropped."""
from __future__ import annotations

import asyncio
import collections
import logging
import multiprocessing
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable

from . import errors
from . import evaluate as evaluation
from . import simulate as simulation
from .config import Config

log = logging.getLogger("stich.service")


def _worker_start() -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the server decides when workers stop
    evaluation.warm()


# Analyze and Hint: a pool of their own, so bot turns and table restores (the table pool) never
# wait behind them; a bound on calls admitted (running or queued) and on those of one peer
ANALYSIS_THREADS = 2
ANALYSIS_QUEUE = 8                 # calls admitted in all (running and waiting)
ANALYSIS_PER_PEER = 2              # calls admitted per peer address


class Analysis:
    """The bounded pool of Analyze and Hint. A call over a bound is refused at once
    (RESOURCE_EXHAUSTED, TOO_MUCH_ANALYSIS) instead of queueing behind the others. A call whose
    caller leaves (its deadline passed, a cancel) is dropped if it waits, and stopped at its
    next check (`stop()` is true) if it runs."""

    def __init__(self, threads: int = ANALYSIS_THREADS, queue: int = ANALYSIS_QUEUE,
                 per_peer: int = ANALYSIS_PER_PEER):
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="stich-analysis")
        self.queue = queue
        self.per_peer = per_peer
        self.admitted: collections.Counter = collections.Counter()
        self.total = 0

    def _admit(self, peer: str) -> None:
        if self.total >= self.queue:
            raise errors.exhausted("TOO_MUCH_ANALYSIS", f"the server has {self.total} analyses running or "
                                   "waiting; retry later")
        if self.admitted[peer] >= self.per_peer:
            raise errors.exhausted("TOO_MUCH_ANALYSIS", f"at most {self.per_peer} analyses or hints at "
                                   "a time per client; wait for one to finish")
        self.total += 1
        self.admitted[peer] += 1

    def _release(self, peer: str) -> None:
        self.total -= 1
        self.admitted[peer] -= 1
        if not self.admitted[peer]:
            del self.admitted[peer]

    async def run(self, peer: str, fn: Callable, *args, deadline: float | None = None):
        """`fn(*args, stop=...)` in the pool; `stop()` turns true once the caller is gone or
        `deadline` (time.monotonic) has passed: `fn` checks it between searches."""
        self._admit(peer)
        loop = asyncio.get_running_loop()
        left = threading.Event()

        def stop() -> bool:
            return left.is_set() or (deadline is not None and time.monotonic() >= deadline)

        try:
            job = self.pool.submit(fn, *args, stop=stop)
        except BaseException:
            self._release(peer)
            raise
        def done(_) -> None:
            try:
                loop.call_soon_threadsafe(self._release, peer)
            except RuntimeError:                     # the loop has closed (the server stopped)
                pass

        # the slot is free when the work is, not when the caller leaves
        job.add_done_callback(done)
        try:
            return await asyncio.wrap_future(job)
        except asyncio.CancelledError:
            left.set()
            job.cancel()
            raise

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class Work:
    def __init__(self, config: Config):
        self.config = config
        self.threads = ThreadPoolExecutor(config.batch_threads, thread_name_prefix="stich-batch")
        self._processes: Executor | None = None
        width = max(1, config.evaluate_processes or config.batch_threads)
        self.evaluate_window = width                  # slices in flight per stream
        self._slots = asyncio.Semaphore(2 * width)    # slices in flight in all
        self.analysis = Analysis()

    def _pool(self) -> Executor:
        if self._processes is None:
            if self.config.evaluate_processes == 0:
                self._processes = ThreadPoolExecutor(self.config.batch_threads, thread_name_prefix="stich-eval")
            else:
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["service.evaluate"])
                self._processes = ProcessPoolExecutor(self.config.evaluate_processes, mp_context=ctx,
                                                      initializer=_worker_start)
        return self._processes

    async def evaluate(self, lines: list[str], first_number: int, with_legal: bool) -> list[bytes]:
        """The framed answers of consecutive lines (evaluate.answer_slice), off the loop."""
        loop = asyncio.get_running_loop()
        async with self._slots:
            try:
                return await loop.run_in_executor(self._pool(), evaluation.answer_slice, lines,
                                                  first_number, with_legal)
            except BrokenProcessPool:
                log.error("an evaluation worker died; answering its slice line by line")
                self._processes = None
                out = []
                for i, line in enumerate(lines):
                    try:
                        out += await loop.run_in_executor(self._pool(), evaluation.answer_slice, [line],
                                                          first_number + i, with_legal)
                    except BrokenProcessPool:
                        self._processes = None
                        out += evaluation.internal_error_slice(first_number + i)
                return out

    async def simulate(self, game: str, options: dict, deals: int, seed: int) -> dict:
        return await simulation.simulate(self.threads, game, options, deals, seed)

    def close(self) -> None:
        self.analysis.close()
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
