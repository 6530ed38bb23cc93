"""A stich server as a child process on a free loopback port: what the docs' examples, the
benchmarks, the tests and tools (through service.testing) and a program that wants a private
server use. The one place that starts `python -m service` as a child.

    >>> from service.process import ServerProcess
    >>> with ServerProcess() as server:          # python -m service --memory, 127.0.0.1:0
    ...     server.address.startswith("127.0.0.1:")
    True

STICH_TEST_SERVER_PYTHON and STICH_TEST_SERVER_PYTHONPATH run another build's server with
the same tests (e.g. the thread-per-call server of an older commit, to see which regression
tests fail on it).
"""
from __future__ import annotations

import atexit
import collections
import os
import re
import signal
import subprocess
import sys
import threading

LOOPBACK = "127.0.0.1"
KEPT_LINES = 100_000            # the child's output kept for `output` (a loaded server logs each call)
_LISTENING = re.compile(r"listening on (\S+:\d+)")
_HTTP = re.compile(r"http:\s+http://(\S+:\d+)/")


class _Child:
    """A server child process that prints `... listening on HOST:PORT` once it serves (and
    `http: http://HOST:PORT/` when `http`, its HTTP door). Its output (stdout and stderr) is
    read all along, so that the child never blocks on a full pipe, and its last KEPT_LINES
    lines are kept. Stopped at the latest when this program exits."""

    def __init__(self, argv: list[str], start_timeout: float = 60.0, http: bool = False,
                 env: dict | None = None, nofile: tuple[int, int] | None = None, servers: int = 1):
        """`servers`: how many processes print the banners (the workers of --workers N: all of
        them serve before the child counts as started, so one that cannot start is seen here)."""
        self.argv = argv
        self.lines: collections.deque[str] = collections.deque(maxlen=KEPT_LINES)
        self.banner = ""                        # the `listening on` line
        self.http_address = ""                  # the HTTP door (Connect, gRPC-Web, the page)
        def limit():                            # in the child, before it runs the server
            import resource
            resource.setrlimit(resource.RLIMIT_NOFILE, nofile)
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=env, preexec_fn=None if nofile is None else limit)
        found = threading.Event()

        banners = doors = 0

        def read():
            nonlocal banners, doors
            for line in self.proc.stdout:
                self.lines.append(line)
                if _LISTENING.search(line):
                    banners += 1
                    self.banner = self.banner or line
                door = _HTTP.search(line)
                if door:
                    doors += 1
                    self.http_address = self.http_address or door.group(1)
                if banners >= servers and (doors >= servers or not http):
                    found.set()
            found.set()                         # the child exited (or closed its output)

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        found.wait(start_timeout)
        m = _LISTENING.search(self.banner)
        if not m or banners < servers or self.proc.poll() is not None:
            self.kill()
            raise RuntimeError(f"server did not start: {' '.join(argv)}\n" + self.output)
        self.address = m.group(1)
        atexit.register(self.stop)              # never outlive the program that started it
        if not self.address.startswith(LOOPBACK + ":"):
            self.stop()
            raise RuntimeError(f"server not on loopback: {self.address}")

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def stop(self, sig=signal.SIGTERM, timeout: float = 20.0) -> int | None:
        """SIGTERM (graceful shutdown), then wait; SIGKILL only if it will not exit."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(5)
        return self.proc.returncode

    def kill(self) -> int | None:
        return self.stop(signal.SIGKILL)

    def rss_mb(self, field: str = "VmRSS") -> float:
        """The child's resident memory (VmHWM: its peak) in MiB."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def peak_rss_mb(self) -> float:
        return self.rss_mb("VmHWM")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class ServerProcess(_Child):
    """`python -m service` on a free loopback port, in memory unless `data_dir` is given (or
    `--database URL` among `args`); `args`: more flags (docs/service.md, "Limits"); `env`:
    variables added to this process's environment; `nofile`: the child's (soft, hard) limit of
    open file descriptors. Stopped with SIGTERM on exit."""

    def __init__(self, data_dir=None, *args: str, env: dict | None = None, start_timeout: float = 60.0,
                 nofile: tuple[int, int] | None = None):
        python = os.environ.get("STICH_TEST_SERVER_PYTHON", sys.executable)
        argv = [python, "-m", "service", "--address", f"{LOOPBACK}:0", "--http-address", f"{LOOPBACK}:0"]
        if "--database" not in args:        # PostgreSQL (--database URL) keeps everything
            argv += ["--data-dir", str(data_dir)] if data_dir is not None else ["--memory"]
        argv += list(args)
        environ = dict(os.environ, **(env or {}))
        if os.environ.get("STICH_TEST_SERVER_PYTHONPATH"):
            environ["PYTHONPATH"] = os.environ["STICH_TEST_SERVER_PYTHONPATH"]
        workers = int(args[args.index("--workers") + 1]) if "--workers" in args else 1
        super().__init__(argv, start_timeout, http="--no-http" not in args, env=environ, nofile=nofile,
                         servers=workers)
