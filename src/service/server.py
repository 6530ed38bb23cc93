"""The stich server: one asyncio process (`python -m service`, or `stich-server`).

gRPC on `grpc.aio`: an open stream holds no thread, so idle or slow clients cannot starve
others; CPU-heavy work runs in bounded pools (work.py); tables are held by one table manager
(manager.py) over a store (store.py). Health checking and server reflection are always on.
SIGTERM/SIGINT: health goes NOT_SERVING, watchers return, new calls are refused, calls in
flight get up to `--grace` seconds, then the store is closed and the process exits 0.
Settings and limits: config.py (flags, STICH_* environment variables), docs/service.md.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import sys
from concurrent.futures import ThreadPoolExecutor

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from stich_client.gen.stich.v1 import stich_service_pb2

from . import config as configuration
from .config import Config
from .manager import TableManager
from .servicer import SERVICE, StichServicer
from .store import SqliteStore, Store
from .work import Work

SERVICE_NAME = stich_service_pb2.DESCRIPTOR.services_by_name["StichService"].full_name
log = logging.getLogger("stich.service")
assert SERVICE_NAME == SERVICE


class Server:
    """A running stich server: the gRPC server, its table manager, its store and its pools.
    Create, `await start()`, `await stop()`; all on one event loop."""

    def __init__(self, config: Config, store: Store | None = None):
        self.config = config
        self.store = store or SqliteStore(config.data_dir)
        self.tables = 0
        self.stopped = asyncio.Event()
        self._stopping = False

    async def start(self) -> "Server":
        cfg = self.config
        await self.store.open()
        self.tables = await self.store.count_tables()
        self.table_threads = ThreadPoolExecutor(cfg.table_threads, thread_name_prefix="stich-table")
        self.work = Work(cfg)
        self.manager = TableManager(self.store, self.table_threads, cfg.live_tables)
        self.grpc = grpc.aio.server(options=[
            ("grpc.so_reuseport", 0),
            ("grpc.max_receive_message_length", cfg.max_message_bytes),
            ("grpc.max_send_message_length", cfg.max_send_bytes),
            ("grpc.max_concurrent_streams", cfg.max_connection_streams),
        ])
        self.servicer = StichServicer(self.manager, self.work, cfg)
        self.grpc.add_generic_rpc_handlers((self.servicer.handler(),))
        self.health = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME), self.grpc)
        self.port = self.grpc.add_insecure_port(cfg.address)
        if self.port == 0:
            raise OSError(f"cannot listen on {cfg.address}")
        self.address = cfg.address.rsplit(":", 1)[0] + f":{self.port}"
        await self.grpc.start()
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
        await self.grpc.stop(self.config.grace if grace is None else grace)
        self.work.close()
        self.table_threads.shutdown(wait=True)
        await self.store.close()
        self.stopped.set()


async def serve(config: Config) -> int:
    server = await Server(config).start()
    where = "memory only" if config.data_dir is None else server.store.path
    print(f"stich server listening on {server.address} (data: {where}; {server.tables} tables stored)\n"
          f"  connect: stich --server {server.address} play schafkopf\n"
          f"  health:  grpc_health_probe -addr={server.address}  (reflection is on: grpcurl -plaintext "
          f"{server.address} list)", flush=True)
    loop = asyncio.get_running_loop()

    def on_signal(signum):
        log.info("signal %s: shutting down", signal.Signals(signum).name)
        asyncio.ensure_future(server.stop())

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal, sig)
    await server.stopped.wait()
    print("stich server stopped", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    config = configuration.parse(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    return asyncio.run(serve(config))


if __name__ == "__main__":
    sys.exit(main())
