"""Both Python clients retry through the channel's own gRPC retry policy (client.service_config),
not a loop of their own, against real server processes: a server that goes away with a call in
flight and comes back as a new process on the same data (a restart) answers the retried call;
a call that is not idempotent is not retried; `retries=0` retries nothing.

A small TCP proxy stands between the client and the server, so that the test decides when the
connection breaks: armed, it drops the connection that carries the next request (the call ends
UNAVAILABLE, as when its server dies), and holds every new connection until it is given the
server to forward to."""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import select
import socket
import threading

import pytest

from stich_client import AsyncStichClient, StichClient, UnavailableError
from stich_client.client import IDEMPOTENT, service_config

from service.testing import ServerProcess, wait_until


class Proxy:
    """Forwards loopback connections to `upstream` (host:port); `drop_next()` arms it."""

    def __init__(self, upstream: str):
        self.upstream = upstream
        self.ready = threading.Event()              # set: new connections are forwarded
        self.ready.set()
        self.armed = threading.Event()
        self.drops = 0
        self.connections = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def drop_next(self, then_hold: bool = False) -> None:
        """Drop the connection that carries the next request; `then_hold`: new connections wait
        for `forward_to`."""
        if then_hold:
            self.ready.clear()
        self.armed.set()

    def forward_to(self, upstream: str) -> None:
        self.upstream = upstream
        self.ready.set()

    def close(self) -> None:
        self.closing = True
        self.ready.set()
        self.listener.close()

    def _accept(self) -> None:
        while not self.closing:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._pipe, args=(client,), daemon=True).start()

    def _pipe(self, client: socket.socket) -> None:
        self.ready.wait()
        host, port = self.upstream.rsplit(":", 1)
        try:
            server = socket.create_connection((host, int(port)))
        except OSError:
            client.close()
            return
        frames = Frames()
        with contextlib.closing(client), contextlib.closing(server):
            while not self.closing:
                readable, _, _ = select.select([client, server], [], [], 0.2)
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client and frames.starts_a_call(data) and self.armed.is_set():
                        self.armed.clear()             # the request never reaches the server
                        self.drops += 1
                        return
                    (server if sock is client else client).sendall(data)


class Frames:
    """The client's side of one HTTP/2 connection, read as it passes: whether a chunk holds a
    HEADERS frame (a call starting), not just a ping or a window update."""
    PREFACE = 24

    def __init__(self):
        self.skip = self.PREFACE                       # bytes of the preface or a frame's payload left
        self.head = b""

    def starts_a_call(self, data: bytes) -> bool:
        found = False
        i = 0
        while i < len(data):
            if self.skip:
                step = min(self.skip, len(data) - i)
                self.skip -= step
                i += step
                continue
            take = min(9 - len(self.head), len(data) - i)
            self.head += data[i:i + take]
            i += take
            if len(self.head) == 9:
                self.skip = int.from_bytes(self.head[:3], "big")
                found |= self.head[3] == 0x1          # HEADERS
                self.head = b""
        return found


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


def restart(server: ServerProcess, data_dir, proxy: Proxy) -> ServerProcess:
    """Once the proxy has dropped the call in flight: stop the server, start a new process on
    the same data, let the proxy forward to it."""
    assert wait_until(lambda: proxy.drops == 1, 10)
    assert server.stop() == 0
    again = ServerProcess(data_dir, "--no-http")
    proxy.forward_to(again.address)
    return again


def _version_or_none(client, table_id, token):
    try:
        return client.view(table_id, token)["version"]
    except UnavailableError:
        return None


def test_the_policy_names_the_idempotent_calls_only():
    config = service_config(3)
    for name in IDEMPOTENT:
        assert f'"method": "{name}"' in config
    for name in ("CreateTable", "JoinTable", "SubmitDaily", "GetDailyDeal", "Analyze", "Simulate", "EvaluateRecords"):
        assert f'"method": "{name}"' not in config
    assert '"maxAttempts": 4' in config and "UNAVAILABLE" in config
    assert "retryPolicy" not in service_config(0)


def test_blocking_client_retries_a_read_and_an_action_across_a_restart(data_dir):
    server = ServerProcess(data_dir, "--no-http")
    proxy = Proxy(server.address)
    try:
        with StichClient(proxy.address) as c:
            t = c.create_table("schafkopf", seats=["human"] * 4, seed=3)
            view = c.deal(t.table_id, t.tokens[0])
            to_act = view["to_act"]
            proxy.drop_next(then_hold=True)
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                later = pool.submit(restart, server, data_dir, proxy)
                seen = c.view(t.table_id, t.tokens[to_act])      # retried by the channel, answered by the new process
                server = later.result()
            assert proxy.drops == 1 and seen["version"] == view["version"] and seen["legal"]
            proxy.drop_next()
            after = c.act(t.table_id, t.tokens[to_act], seen["legal"][0])   # an action, same request id
            assert proxy.drops == 2 and after["version"] == view["version"] + 1
            proxy.drop_next()
            with pytest.raises(UnavailableError):                # CreateTable is not retried
                c.create_table("schafkopf", seats=["human"] * 4)
            assert proxy.drops == 3
        with StichClient(proxy.address, retries=0) as c:
            # the first call may meet the connection the closed client is tearing down (gRPC
            # shares subchannels between channels to one address): it is the drop below that
            # counts, so this one is waited for
            assert wait_until(lambda: _version_or_none(c, t.table_id, t.tokens[to_act]) == after["version"], 10)
            proxy.drop_next()
            with pytest.raises(UnavailableError):
                c.view(t.table_id, t.tokens[to_act])
    finally:
        proxy.close()
        server.stop()


def test_async_client_retries_across_a_restart(data_dir):
    server = ServerProcess(data_dir, "--no-http")
    proxy = Proxy(server.address)

    async def main():
        nonlocal server
        async with AsyncStichClient(proxy.address) as c:
            t = await c.create_table("doppelkopf", seats=["human", "bot:easy", "bot:easy", "bot:easy"], seed=5)
            await c.deal(t.table_id, t.tokens[0])
            view = await c.wait_turn(t.table_id, t.tokens[0])
            proxy.drop_next(then_hold=True)
            later = asyncio.get_running_loop().run_in_executor(None, restart, server, data_dir, proxy)
            seen = await c.view(t.table_id, t.tokens[0])
            server = await later
            assert proxy.drops == 1 and seen["version"] == view["version"]
            proxy.drop_next()
            with pytest.raises(UnavailableError):
                await c.join_table("iv_nothing." + t.table_id)      # JoinTable is not retried
            answers = await c.evaluate_batch(["{not json"])
            assert answers[0]["error"]["reason_id"] == "MALFORMED_JSON"
            assert [a["id"] async for a in c.evaluate(["{}", "{}"])] == [1, 2]

    try:
        asyncio.run(main())
    finally:
        proxy.close()
        server.stop()
