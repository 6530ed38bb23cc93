"""Run one long-running server command of a documentation block (tests/test_docs.py):
start it in its own process group, wait until its banner says where it listens and the gRPC
health check there answers SERVING, then stop it with SIGTERM and check that it stopped
gracefully ("stich server stopped"). Exit 0 if all of that held, else 1 with the log.

    python tests/docs_serve.py PRELUDE COMMAND
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from service.testing import serving

LISTENING = re.compile(r"listening on (\S+:\d+)")


def main(prelude: str, command: str) -> int:
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(["bash", "-c", f". {prelude}\n{command}"], stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)

        def text() -> str:
            log.flush()
            log.seek(0)
            return log.read()

        deadline = time.monotonic() + 90
        address = None
        while address is None and proc.poll() is None and time.monotonic() < deadline:
            m = LISTENING.search(text())
            address = m.group(1) if m else None
            time.sleep(0.05)
        ok = address is not None and serving(address, deadline)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        end = time.monotonic() + 30                     # the server itself may outlive make's shell
        while "stich server stopped" not in text() and time.monotonic() < end and ok:
            time.sleep(0.05)
        try:
            os.killpg(proc.pid, 0)
            os.killpg(proc.pid, signal.SIGKILL)         # nothing of it may be left running
        except ProcessLookupError:
            pass
        out = text()
    if not ok or "stich server stopped" not in out:
        why = "did not start serving" if not ok else "did not stop gracefully on SIGTERM"
        print(f"{command!r} {why}:\n{out}", file=sys.stderr)
        return 1
    print(f"{command}: served on {address} and stopped on SIGTERM")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
