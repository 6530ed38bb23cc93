"""Where CPU-heavy work runs, bounded, never on the event loop: EvaluateRecords slices in
worker processes (the engine's record codec holds the GIL, so processes keep the loop's
latency), Simulate slices in threads (the playouts release the GIL). A slice is small (a few
milliseconds), so a call's deadline or cancellation stops its work at the next slice; a slice
already running finishes and is dropped."""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from . import evaluate as evaluation
from . import simulate as simulation
from .config import Config

log = logging.getLogger("stich.service")


def _worker_start() -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the server decides when workers stop
    evaluation.warm()


class Work:
    def __init__(self, config: Config):
        self.config = config
        self.threads = ThreadPoolExecutor(config.batch_threads, thread_name_prefix="stich-batch")
        self._processes: Executor | None = None
        width = max(1, config.evaluate_processes or config.batch_threads)
        self.evaluate_window = width                  # slices in flight per stream
        self._slots = asyncio.Semaphore(2 * width)    # slices in flight in all

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
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
