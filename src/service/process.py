"""A stich server as a child process on a free loopback port: what the docs' examples, the
benchmarks and a program that wants a private server use.

    >>> from service.process import ServerProcess
    >>> with ServerProcess() as server:          # python -m service --memory, 127.0.0.1:0
    ...     server.address.startswith("127.0.0.1:")
    True
"""
from __future__ import annotations

import atexit
import re
import signal
import subprocess
import sys
import threading
import time

LOOPBACK = "127.0.0.1"
_LISTENING = re.compile(r"listening on (\S+:\d+)")
_HTTP = re.compile(r"http:\s+http://(\S+:\d+)/")


class _Child:
    """A server child process that prints `... listening on HOST:PORT` once it serves."""

    def __init__(self, argv: list[str], start_timeout: float = 30.0, http: bool = False,
                 env: dict | None = None):
        self.http_address = ""                  # the HTTP door, when the server has one
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1, env=env)
        found: list[str] = []

        def read_banner():
            grpc_at = None
            for line in self.proc.stdout:
                m = _LISTENING.search(line)
                if m:
                    grpc_at = m.group(1)
                    if not http:
                        found.append(grpc_at)
                        break
                h = _HTTP.search(line)
                if h and grpc_at:
                    self.http_address = h.group(1)
                    found.append(grpc_at)
                    break
            for _ in self.proc.stdout:      # keep the pipe drained until the child exits
                pass

        self._reader = threading.Thread(target=read_banner, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + start_timeout
        while not found and self.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        if not found:
            self.stop()
            raise RuntimeError(f"server did not start: {' '.join(argv)}")
        self.address = found[0]
        atexit.register(self.stop)              # never outlive the program that started it
        if not self.address.startswith(LOOPBACK + ":"):
            self.stop()
            raise RuntimeError(f"server not on loopback: {self.address}")

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM (graceful shutdown), then wait; SIGKILL only if it will not exit."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(1)
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class ServerProcess(_Child):
    """`python -m service` on a free loopback port, in memory unless `data_dir` is given;
    `args`: more flags (docs/service.md, "Limits"); `env`: the child's environment (default
    this process's). Stopped with SIGTERM on exit."""

    def __init__(self, data_dir: str | None = None, args: tuple[str, ...] = (), env: dict | None = None):
        store = ["--data-dir", data_dir] if data_dir else ["--memory"]
        super().__init__([sys.executable, "-m", "service", "--address", f"{LOOPBACK}:0",
                          "--http-address", f"{LOOPBACK}:0", "--grace", "2", *store, *args],
                         http="--no-http" not in args, env=env)
