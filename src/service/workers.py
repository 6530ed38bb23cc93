"""`--workers N`: N server processes on one machine, sharing its ports and the store (PostgreSQL,
or the SQLite file of --data-dir), so that a server uses every core (a Python process runs on one).

The process started (`python -m service --workers N ...`) serves nothing itself: it starts N
workers (`python -m service` with the same flags, STICH_WORKER=0..N-1 in their environment),
each binding the gRPC and HTTP ports with SO_REUSEPORT, so the kernel spreads new connections
over them; a client's connection stays with one worker, and every worker serves every table
(the store is shared, as between servers on several machines: docs/service.md, "Several
servers"). A port 0 is chosen here once, so that all workers listen on the same one (this
process keeps it reserved until it ends). SIGTERM or SIGINT is passed on to every worker (each
stops gracefully). A worker that ends by itself ends them all, with its exit status (1 if it
was killed): the service manager (systemd, docker) restarts the whole server, as it would a
server of one process.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

from .config import Config

WORKER_ENV = "STICH_WORKER"


def this_worker() -> int | None:
    """This process's worker number under --workers, None if it was started by hand."""
    value = os.environ.get(WORKER_ENV, "")
    return int(value) if value.isdigit() else None


def _reserve(address: str) -> tuple[str, socket.socket | None]:
    """`address` with its port 0 made a free port (that the workers then share), and the socket
    that keeps it reserved (bound with SO_REUSEPORT, never listening: it takes no connection)."""
    host, _, port = address.rpartition(":")
    if port != "0":
        return address, None
    bare = host.strip("[]")
    sock = socket.socket(socket.AF_INET6 if ":" in bare else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((bare, 0))
    return f"{host}:{sock.getsockname()[1]}", sock


def supervise(config: Config, argv: list[str]) -> int:
    """Run config.workers workers until they end; their exit status (0 after a graceful stop)."""
    address, held = _reserve(config.address)
    reserved = [held]
    args = [*argv, "--address", address]
    if config.http_address is not None:
        http_address, held = _reserve(config.http_address)
        reserved.append(held)
        args += ["--http-address", http_address]
    children = [subprocess.Popen([sys.executable, "-m", "service", *args], env={**os.environ, WORKER_ENV: str(i)})
                for i in range(config.workers)]
    print(f"stich server: {config.workers} workers on {address} (pids "
          f"{', '.join(str(c.pid) for c in children)})", flush=True)
    stopping = False

    def stop(signum, _frame=None) -> None:
        nonlocal stopping
        stopping = True
        for c in children:
            if c.poll() is None:
                c.send_signal(signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stop)
    status = 0
    try:
        while any(c.poll() is None for c in children):
            for c in children:
                code = c.poll()
                if code is not None and not stopping:      # a worker ended by itself: all end
                    status = code if code > 0 else 1
                    print(f"stich server: worker pid {c.pid} ended with status {code}; stopping the others",
                          file=sys.stderr, flush=True)
                    stop(signal.SIGTERM)
            time.sleep(0.1)
        if status == 0:                                    # stopped by a signal: each worker's say
            failed = [c.returncode for c in children if c.returncode]
            status = 0 if not failed else failed[0] if failed[0] > 0 else 1
    finally:
        for sock in reserved:
            if sock is not None:
                sock.close()
    return status
