"""The stich server: one asyncio process (`python -m service`, or `stich-server`).

gRPC on `grpc.aio`: an open stream holds no thread, so idle or slow clients cannot starve
others; CPU-heavy work runs in bounded pools (work.py); tables are held by one table manager
(manager.py) over a store (store.py: SQLite; pgstore.py: PostgreSQL with --database, shared by
several servers). Health checking and server reflection are always on.
SIGTERM/SIGINT: health goes NOT_SERVING, watchers return, new calls are refused, calls in
flight get up to `--grace` seconds, then the store is closed and the process exits 0.
Settings and limits: config.py (flags, STICH_* environment variables), docs/service.md.
"""
from __future__ import annotations

import asyncio
import errno
import logging
import os
import signal
import socket
import sqlite3
import sys
from concurrent.futures import ThreadPoolExecutor

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from stich_client.gen.stich.v1 import stich_service_pb2

from . import config as configuration
from . import observe
from .config import Config
from .manager import TableManager
from .servicer import SERVICE, StichServicer
from .envelope import ClientLeft
from .errors import ServiceError
from .store import SqliteStore, Store, StoreError
from .work import Work

SERVICE_NAME = stich_service_pb2.DESCRIPTOR.services_by_name["StichService"].full_name
log = logging.getLogger("stich.service")
assert SERVICE_NAME == SERVICE


class StartError(Exception):
    """The server cannot start (the address, the data directory, the database): the one line
    `python -m service` prints before it exits with status 1."""


def why_not_listening(address: str, reuse_port: bool = False) -> str | None:
    """Why `address` cannot be listened on (None: it can), found out by binding a plain socket
    there as gRPC will (SO_REUSEADDR: only a listening socket holds the port; `reuse_port`:
    SO_REUSEPORT too, as every worker of --workers binds it)."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    try:
        found = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
    except (socket.gaierror, ValueError) as err:
        return f"no such host {host!r} ({getattr(err, 'strerror', None) or err})"
    problems = []
    for family, kind, proto, _, where in found:      # gRPC listens if any of them binds
        with socket.socket(family, kind, proto) as probe:
            try:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if reuse_port:
                    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
                probe.bind(where)
                return None
            except OSError as err:
                problems.append(err)
    if any(err.errno == errno.EADDRINUSE for err in problems):
        return ("the port is in use (is another server running? choose another port with "
                "--address, or port 0 for a free one)")
    return problems[0].strerror or str(problems[0]) if problems else "the host has no address"


def data_dir_problem(path: str) -> str | None:
    """Why `path` cannot hold the database (None: it can; it is created if missing)."""
    if os.path.exists(path) and not os.path.isdir(path):
        return f"--data-dir {path} is a file, not a directory"
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        return f"cannot create --data-dir {path}: {err.strerror or err}"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"--data-dir {path} is not writable (permission denied)"
    return None


def say(text: str) -> None:
    """Print a banner line; a closed standard output (`| head`) is not the server's problem."""
    try:
        print(text, flush=True)
    except (BrokenPipeError, ValueError):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass


_ACCEPT_FAILED = observe.Throttled(log)
_OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def loop_exception(loop, context: dict) -> None:
    """The event loop's own errors: a failed accept for want of descriptors or memory (asyncio
    reports one per waiting connection, thousands a second) is one line at a bounded rate, no
    traceback; anything else as asyncio writes it."""
    exc = context.get("exception")
    if isinstance(exc, OSError) and exc.errno in _OUT_OF_RESOURCES:
        _ACCEPT_FAILED.warn(f"{context.get('message', 'a socket call failed')}: {exc.strerror}")
        return
    if isinstance(exc, (StoreError, ServiceError)):   # an outcome (the store went away), not a defect
        log.warning("%s: %s: %s", context.get("message", "background task"), type(exc).__name__, exc)
        return
    loop.default_exception_handler(context)


def make_store(config: Config) -> Store:
    """SQLite in --data-dir (shared by the processes of --workers), plain memory with --memory,
    or PostgreSQL with --database."""
    if config.database:
        from .pgstore import PostgresStore
        try:
            return PostgresStore(config.database, lease_seconds=config.lease_seconds, pool_size=config.pool_size,
                                 synchronous_commit=config.synchronous_commit)
        except StoreError as err:
            raise StartError(str(err)) from None
    if config.data_dir is None:
        from .memstore import MemoryStore
        return MemoryStore()
    # the workers of --workers share the file: each commit leaves a notice and marks the bots' lease
    return SqliteStore(config.data_dir, shared=config.workers > 1, lease_seconds=config.lease_seconds)


class Server:
    """A running stich server: the gRPC server, its table manager, its store and its pools.
    Create, `await start()`, `await stop()`; all on one event loop."""

    def __init__(self, config: Config, store: Store | None = None):
        self.config = config
        self.store = store or make_store(config)
        self.tables = 0
        self.stopped = asyncio.Event()
        self._stopping = False

    async def start(self) -> "Server":
        """Listen, open the store, start the pools; StartError (one line: why) if it cannot."""
        cfg = self.config
        asyncio.get_running_loop().set_exception_handler(loop_exception)
        ClientLeft.install()
        self.grpc = grpc.aio.server(options=[
            ("grpc.so_reuseport", int(cfg.workers > 1)),     # the workers share the port
            ("grpc.max_receive_message_length", cfg.max_message_bytes),
            ("grpc.max_send_message_length", cfg.max_send_bytes),
            ("grpc.max_concurrent_streams", cfg.max_connection_streams),
        ])
        # the port first, while nothing else is started; a plain socket tells why it cannot be
        # bound in words (gRPC only logs a line of its own and raises)
        problem = why_not_listening(cfg.address, cfg.workers > 1)
        if problem is None:
            try:
                self.port = self.grpc.add_insecure_port(cfg.address)
            except RuntimeError:
                self.port = 0
            if self.port == 0:
                problem = "gRPC could not bind it"
        if problem is not None:
            raise StartError(f"cannot listen on {cfg.address}: {problem}")
        self.http = None
        if cfg.http_address is not None:
            from .http_door import HttpDoor
            self.http = HttpDoor(cfg)
            problem = why_not_listening(cfg.http_address, cfg.workers > 1)
            if problem is None:
                try:
                    self.http.bind()
                except OSError as err:
                    problem = err.strerror or str(err)
            if problem is not None:
                raise StartError(f"cannot listen on {cfg.http_address} (--http-address): "
                                 + problem.replace("--address", "--http-address"))
        try:
            await self.store.open()
            self.tables = await self.store.count_tables()
        except sqlite3.Error as err:
            raise StartError(f"cannot open the database {self.store.path}: {err}") from None
        except StoreError as err:                      # PostgreSQL unreachable, a newer schema
            raise StartError(f"cannot open the database: {err}") from None
        self.table_threads = ThreadPoolExecutor(cfg.table_threads, thread_name_prefix="stich-table")
        self.work = Work(cfg)
        self.manager = TableManager(self.store, self.table_threads, cfg.live_tables,
                                    analysis=self.work.analysis, sweep_seconds=cfg.sweep_seconds,
                                    conflict_retries=cfg.conflict_retries)
        self.manager.start()
        self.servicer = StichServicer(self.manager, self.work, cfg)
        self.grpc.add_generic_rpc_handlers((self.servicer.handler(),))
        self.health = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME), self.grpc)
        self.address = cfg.address.rsplit(":", 1)[0] + f":{self.port}"
        await self.grpc.start()
        if self.http is not None:                  # the second door: same servicer, same loop
            await self.http.start(self.servicer)
        for name in ("", SERVICE_NAME):
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        return self

    async def stop(self, grace: float | None = None) -> None:
        """Graceful: NOT_SERVING first, watchers return, calls in flight finish (up to `grace`),
        then the pools and the store close."""
        if self._stopping:
            await self.stopped.wait()
            return
        self._stopping = True
        await self.health.enter_graceful_shutdown()
        await self.manager.close()
        if self.http is not None:
            await self.http.stop()
        await self.grpc.stop(self.config.grace if grace is None else grace)
        self.work.close()
        self.table_threads.shutdown(wait=True)
        await self.store.close()
        self.stopped.set()


async def serve(config: Config) -> int:
    from .http_door import raise_fd_limit
    before, after = raise_fd_limit()
    if after != before:
        log.info("file descriptor limit raised from %d to %d (the hard limit)", before, after)
    if not config.database and config.data_dir is not None and (problem := data_dir_problem(config.data_dir)):
        raise StartError(problem)
    server = Server(config)
    try:
        await server.start()
    except StartError:
        await server.store.close()
        raise
    loop = asyncio.get_running_loop()

    def on_signal(signum):
        log.info("signal %s: shutting down", signal.Signals(signum).name)
        asyncio.ensure_future(server.stop())

    # before the banner: whoever waits for it (a supervisor, a test, systemd) may stop the
    # server at once, and that stop must be the graceful one
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal, sig)
    where = "memory only" if config.data_dir is None and not config.database else server.store.path
    say(f"stich server listening on {server.address} (data: {where}; {server.tables} tables stored)\n"
        f"  connect: stich --server {server.address} play schafkopf\n"
        f"  health:  grpc_health_probe -addr={server.address}  (reflection is on: grpcurl -plaintext "
        f"{server.address} list)")
    if server.http is not None:
        from .http_door import web_dir_note
        say(f"  http:    http://{server.http.address}/ (the web page{web_dir_note(server.http.app)}; Connect and "
            f"gRPC-Web at /stich.v1.StichService/<Method>)")
    await server.stopped.wait()
    say("stich server stopped")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m service` / `stich-server`: 0 after a graceful stop, 2 for a bad flag or
    variable, 1 when the server cannot start (one line on stderr, no traceback)."""
    config = configuration.parse(argv)
    from . import workers
    worker = workers.this_worker()
    if config.workers > 1 and worker is None:
        return workers.supervise(config, sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s "
                        + ("" if worker is None else f"worker={worker} ") + "%(message)s")
    try:
        return asyncio.run(serve(config))
    except StartError as err:
        print(f"{configuration.program_name()}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:           # Ctrl-C before the signal handlers were in place
        return 130


if __name__ == "__main__":
    sys.exit(main())
