"""The gRPC server: `python -m service` (or `stich-server`).

Listens on 127.0.0.1:50051 by default (--address / STICH_ADDRESS), keeps its SQLite file in
./data (--data-dir / STICH_DATA_DIR; --memory for none), restores every stored table at
start. Health checking and server reflection are always on. SIGTERM/SIGINT: health goes
NOT_SERVING, new calls are refused, in-flight calls finish (up to --grace seconds), the
database is closed, exit 0.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from .gen.stich.v1 import stich_service_pb2, stich_service_pb2_grpc
from .servicer import StichServicer
from .store import Store
from .tables import TableManager

SERVICE_NAME = stich_service_pb2.DESCRIPTOR.services_by_name["StichService"].full_name
DEFAULT_ADDRESS = "127.0.0.1:50051"
MAX_MESSAGE = 64 * 1024 * 1024          # EvaluateRecords batches records per message
log = logging.getLogger("stich.service")


class Server:
    """A running stich server: the gRPC server, its table manager and its health servicer."""

    def __init__(self, address: str = DEFAULT_ADDRESS, data_dir: str | None = None,
                 workers: int = 64):
        self.store = Store(data_dir)
        self.manager = TableManager(self.store)
        self.restored = self.manager.restore()
        self.grpc = grpc.server(futures.ThreadPoolExecutor(max_workers=workers,
                                                           thread_name_prefix="stich"),
                                options=[("grpc.so_reuseport", 0),
                                         ("grpc.max_receive_message_length", MAX_MESSAGE),
                                         ("grpc.max_send_message_length", MAX_MESSAGE)])
        stich_service_pb2_grpc.add_StichServiceServicer_to_server(
            StichServicer(self.manager, max_watchers=max(1, workers - 16)), self.grpc)
        self.health = health.HealthServicer(experimental_non_blocking=True)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME), self.grpc)
        self.port = self.grpc.add_insecure_port(address)
        if self.port == 0:
            raise OSError(f"cannot listen on {address}")
        self.address = address.rsplit(":", 1)[0] + f":{self.port}"
        self._stopped = threading.Event()
        self.done = threading.Event()

    def start(self) -> "Server":
        self.grpc.start()
        for name in ("", SERVICE_NAME):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        return self

    def stop(self, grace: float = 10.0) -> None:
        """Graceful: NOT_SERVING first, then let in-flight calls finish, then close the store."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.health.enter_graceful_shutdown()
        self.manager.close()               # watchers return
        self.grpc.stop(grace).wait()
        self.store.close()
        self.done.set()

    def wait(self) -> None:
        self.grpc.wait_for_termination()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service", description="the stich gRPC server")
    parser.add_argument("--address", default=os.environ.get("STICH_ADDRESS", DEFAULT_ADDRESS),
                        help=f"host:port to listen on (env STICH_ADDRESS; default {DEFAULT_ADDRESS}; port 0 picks a free one)")
    parser.add_argument("--data-dir", default=os.environ.get("STICH_DATA_DIR", "data"),
                        help="directory of the SQLite database (env STICH_DATA_DIR; default ./data)")
    parser.add_argument("--memory", action="store_true", help="keep nothing on disk")
    parser.add_argument("--workers", type=int, default=64,
                        help="worker threads; open WatchTable streams may use all but 16")
    parser.add_argument("--grace", type=float, default=10.0, help="seconds in-flight calls get at shutdown")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    server = Server(args.address, None if args.memory else args.data_dir, args.workers).start()
    where = "memory only" if args.memory else server.store.path
    broken = server.manager.unrestorable
    print(f"stich server listening on {server.address} (data: {where}; {server.restored} tables restored"
          f"{f', {len(broken)} could not be: see the log' if broken else ''})\n"
          f"  connect: stich --server {server.address} play schafkopf\n"
          f"  health:  grpc_health_probe -addr={server.address}  (reflection is on: grpcurl -plaintext "
          f"{server.address} list)", flush=True)

    def on_signal(signum, frame):
        log.info("signal %s: shutting down", signal.Signals(signum).name)
        threading.Thread(target=server.stop, args=(args.grace,), daemon=True).start()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.wait()
    server.done.wait()
    print("stich server stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
