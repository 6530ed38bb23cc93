"""Real server processes for the service tests: `python -m service` on 127.0.0.1 port 0 (the
banner names the port), stopped with SIGTERM (or killed) and waited for.

STICH_TEST_SERVER_PYTHON and STICH_TEST_SERVER_PYTHONPATH run another build's server with
the same tests (e.g. the thread-per-call server of an older commit, to see which regression
tests fail on it).
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time

_LISTENING = re.compile(r"listening on (\S+:\d+)")
_HTTP = re.compile(r"http:\s+http://(\S+:\d+)/")


class ServerProcess:
    def __init__(self, data_dir=None, *args: str, env: dict | None = None, start_timeout: float = 60.0):
        python = os.environ.get("STICH_TEST_SERVER_PYTHON", sys.executable)
        argv = [python, "-m", "service", "--address", "127.0.0.1:0", "--http-address", "127.0.0.1:0"]
        if "--database" not in args:        # PostgreSQL (--database URL) keeps everything
            argv += ["--data-dir", str(data_dir)] if data_dir is not None else ["--memory"]
        argv += list(args)
        environ = dict(os.environ, **(env or {}))
        if os.environ.get("STICH_TEST_SERVER_PYTHONPATH"):
            environ["PYTHONPATH"] = os.environ["STICH_TEST_SERVER_PYTHONPATH"]
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=environ)
        self.lines: list[str] = []
        self.banner = ""
        self.http_address = ""                  # the HTTP door (Connect, gRPC-Web, the page)
        found = threading.Event()

        def read():
            for line in self.proc.stdout:
                self.lines.append(line)
                if not found.is_set() and _LISTENING.search(line):
                    self.banner = line
                http = _HTTP.search(line)
                if http:
                    self.http_address = http.group(1)
                if not found.is_set() and self.banner and (http or "--no-http" in self.argv):
                    found.set()
            found.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        found.wait(start_timeout)
        m = _LISTENING.search(self.banner)
        if not m:
            self.kill()
            raise RuntimeError("server did not start:\n" + "".join(self.lines))
        self.address = m.group(1)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def stop(self, sig=signal.SIGTERM, timeout: float = 20.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(5)
        return self.proc.returncode

    def kill(self) -> int:
        return self.stop(signal.SIGKILL)

    def rss_mb(self, field: str = "VmRSS") -> float:
        """The server process's resident memory (VmHWM: its peak) in MiB."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def peak_rss_mb(self) -> float:
        return self.rss_mb("VmHWM")

    def __enter__(self) -> "ServerProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_until(predicate, timeout: float = 10.0, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
