"""Loopback measurements of the service, shared by `tools/bench_service.py` and `make
bench-report` (bench/report.py): Play round trips, EvaluateRecords and Simulate throughput, and
a bare grpcio unary echo as the reference the service's figures are read against (the same
machine, the same run, the same transport).

Servers run as child processes on a free 127.0.0.1 port (`ServerProcess`: `python -m service
--memory`; `EchoProcess`: `python -m service.benchmark echo-server`), so client and server
do not share one interpreter lock, as in a deployment; each is stopped with SIGTERM and
waited for. Every measurement is bounded in count, and in seconds once it has its minimum of
calls. Traffic: loopback only.
"""
from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import threading
import time
from concurrent import futures
from typing import Callable

import grpc

from engine_core import games

ECHO_METHOD = "/stich.bench.Echo/Echo"


# ---- child servers -------------------------------------------------------------------------------
from .process import LOOPBACK, ServerProcess, _Child  # noqa: E402,F401 - re-exported for bench/report.py


class EchoProcess(_Child):
    """A bare grpcio server answering one unary method with its request bytes."""

    def __init__(self, workers: int = 32):
        super().__init__([sys.executable, "-m", "service.benchmark", "echo-server",
                          "--workers", str(workers)])


class AioEchoProcess(_Child):
    """A bare grpc.aio server (the service's own server class, one event loop) answering the
    same unary echo: what the framework itself costs before any of the service's work."""

    def __init__(self):
        super().__init__([sys.executable, "-m", "service.benchmark", "aio-echo-server"])


class HttpEchoProcess(_Child):
    """A bare uvicorn ASGI app answering every POST with its request body (a Connect unary
    echo in the binary codec), CORS open: the HTTP door's reference."""

    def __init__(self):
        super().__init__([sys.executable, "-m", "service.benchmark", "http-echo-server"])


def serve_http_echo() -> int:
    import asyncio
    import socket

    import uvicorn

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        head = [(b"access-control-allow-origin", b"*"), (b"access-control-allow-headers", b"*"),
                (b"access-control-max-age", b"7200")]
        if scope["method"] == "OPTIONS":
            await send({"type": "http.response.start", "status": 204, "headers": head})
        else:
            kind = dict(scope["headers"]).get(b"content-type", b"application/proto")
            await send({"type": "http.response.start", "status": 200,
                        "headers": head + [(b"content-type", kind), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body if scope["method"] != "OPTIONS" else b""})

    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((LOOPBACK, 0))
    print(f"echo server listening on {LOOPBACK}:{sock.getsockname()[1]}", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False,
                                           http="h11", ws="none", loop="asyncio"))
    asyncio.run(server.serve(sockets=[sock]))
    return 0


def _echo_handler(echo) -> grpc.GenericRpcHandler:
    """ECHO_METHOD answered by `echo` (bytes in, bytes out), for either server class."""
    service, method = ECHO_METHOD.strip("/").split("/")
    return grpc.method_handlers_generic_handler(service, {method: grpc.unary_unary_rpc_method_handler(echo)})


def serve_echo(workers: int) -> int:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers),
                         options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers((_echo_handler(lambda req, ctx: req),))
    port = server.add_insecure_port(f"{LOOPBACK}:0")
    server.start()
    print(f"echo server listening on {LOOPBACK}:{port}", flush=True)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stopped.set())
    signal.signal(signal.SIGINT, lambda *a: stopped.set())
    while not stopped.wait(0.5):
        pass
    server.stop(1).wait()
    return 0


def serve_aio_echo() -> int:
    import asyncio

    async def echo(request, context):
        return request

    async def run():
        server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
        server.add_generic_rpc_handlers((_echo_handler(echo),))
        port = server.add_insecure_port(f"{LOOPBACK}:0")
        await server.start()
        print(f"echo server listening on {LOOPBACK}:{port}", flush=True)
        stopped = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopped.set)
        await stopped.wait()
        await server.stop(1)

    asyncio.run(run())
    return 0


# ---- the echo reference --------------------------------------------------------------------------
def _echo_stub(channel):
    return channel.unary_unary(ECHO_METHOD)        # bytes in, bytes out: no (de)serialisation


def echo_call(channel, payload: bytes = b"x" * 32) -> Callable[[], bytes]:
    """One bare echo over `channel` (the reference call: echo_one_client and
    tools/echo_pace.py make it)."""
    echo = _echo_stub(channel)
    return lambda: echo(payload, timeout=10)


def echo_one_client(address: str, calls: int, seconds: float, payload: bytes = b"x" * 32) -> dict:
    """One client, one call at a time: {p50_us, p99_us, per_s, calls}."""
    with grpc.insecure_channel(address) as channel:
        echo = echo_call(channel, payload)
        for _ in range(20):                         # connect and warm up
            echo()
        lat = []
        t_end = time.perf_counter() + seconds
        started = time.perf_counter()
        while len(lat) < calls and (len(lat) < 10 or time.perf_counter() < t_end):
            t0 = time.perf_counter()
            echo()
            lat.append(time.perf_counter() - t0)
        wall = time.perf_counter() - started
    return {**percentiles(lat), "per_s": len(lat) / wall, "calls": len(lat)}


def echo_concurrent(address: str, concurrency: int, calls: int, seconds: float,
                    payload: bytes = b"x" * 32) -> dict:
    """`concurrency` client threads over one channel, each one call at a time: {per_s, calls}."""
    with grpc.insecure_channel(address) as channel:
        echo = _echo_stub(channel)
        for _ in range(20):
            echo(payload, timeout=10)
        done = [0] * concurrency
        t_end = time.perf_counter() + seconds
        share = max(1, calls // concurrency)

        def worker(k):
            while done[k] < share and (done[k] < 2 or time.perf_counter() < t_end):
                echo(payload, timeout=10)
                done[k] += 1

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(concurrency)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
    return {"per_s": sum(done) / wall, "calls": sum(done)}


# ---- the service ---------------------------------------------------------------------------------
def percentiles(lat: list[float]) -> dict:
    """p50 and p99 in µs (nearest rank)."""
    s = sorted(lat)
    return {"p50_us": statistics.median(s) * 1e6,
            "p99_us": s[max(0, min(len(s) - 1, -(-len(s) * 99 // 100) - 1))] * 1e6}


def play_latency(client, game: str, plays: int, bots: bool, seconds: float | None = None,
                 bare: list[float] | None = None, at_least: int = 10) -> list[float]:
    """Seconds per Play call, random legal play: one human (seat 0) against easy bots (the
    call returns before the bots act; between timed calls the client follows the events to its
    next turn), or every seat human (one card per call). Bids and announcements are made between
    the timed calls. At most `plays` calls, and no more once `seconds` have passed (but at least
    `at_least`: a percentile of a few dozen calls says little on a shared machine).

    With `bare`, every other card is instead preceded by a bare call to the same server over the
    same channel (Health/Check), timed into `bare`, and that card's Play is not timed: the
    reference with everything around it the same as around a Play (the calls before it, the
    client's work in between), which a back-to-back echo is not."""
    n = games.get(game).seats
    lat: list[float] = []
    rng = random.Random(1)
    seed = 0
    cards = 0
    t_end = time.perf_counter() + (seconds if seconds is not None else 1e9)

    def more():
        return len(lat) < plays and (len(lat) < at_least or time.perf_counter() < t_end)

    while more():
        t = client.create_table(game, {}, 1, ["human"] + ["bot:easy" if bots else "human"] * (n - 1), seed=seed)
        seed += 1
        v = client.deal(t.table_id, t.tokens[0])
        if bots:
            v = client.wait_turn(t.table_id, t.tokens[0])
        while v["status"] == "in_deal" and more():
            token = t.tokens[v["to_act"]]
            if not bots:
                v = client.view(t.table_id, token)
            action = rng.choice(v["legal"])
            timed = action["type"] == "play"
            if timed and bare is not None:
                cards += 1
                if cards % 2 == 0:
                    t0 = time.perf_counter()
                    client.health()
                    bare.append(time.perf_counter() - t0)
                    timed = False
            t0 = time.perf_counter()
            v = client.act(t.table_id, token, action)
            if timed:
                lat.append(time.perf_counter() - t0)
            if bots:
                v = client.wait_turn(t.table_id, token)
            elif v["status"] == "in_deal":
                v = client.view(t.table_id, t.spectator_id)
    return lat


def finished_records(game: str, count: int, seed: int = 2) -> list[str]:
    """JSON lines of `count` complete random deals (seeded)."""
    g = games.get(game)
    rng = random.Random(seed)
    lines = []
    for k in range(count):
        state = g.deal(k, k % g.seats)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        lines.append(json.dumps(state.record()))
    return lines


def evaluate_rate(client, lines: list[str], count: int, chunk: int = 64) -> dict:
    """EvaluateRecords over one stream: `count` records (the given lines repeated), `chunk` to
    a message, every answer decoded by the client; {per_s, records}."""
    stream = (lines * (count // len(lines) + 1))[:count]
    t0 = time.perf_counter()
    n = sum(1 for _ in client.evaluate(stream, timeout=600, chunk=chunk))
    return {"per_s": n / (time.perf_counter() - t0), "records": n}


def simulate_rate(client, game: str, deals: int, seed: int = 1) -> dict:
    """One Simulate call: {per_s: deals/s over the round trip, server_per_s: as the server
    measured its playouts, deals, engine}."""
    t0 = time.perf_counter()
    stats = client.simulate(game, {}, deals=deals, seed=seed, timeout=600)
    wall = time.perf_counter() - t0
    return {"per_s": stats["deals"] / wall, "server_per_s": stats["deals_per_second"],
            "deals": stats["deals"], "engine": stats["engine"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.benchmark")
    sub = parser.add_subparsers(dest="cmd", required=True)
    echo = sub.add_parser("echo-server", help="a bare grpcio unary echo on a free loopback port")
    echo.add_argument("--workers", type=int, default=32)
    sub.add_parser("aio-echo-server", help="the same echo on a bare grpc.aio server (the service's server class)")
    sub.add_parser("http-echo-server", help="a bare uvicorn echo on a free loopback port (HTTP door reference)")
    args = parser.parse_args(argv)
    if args.cmd == "aio-echo-server":
        return serve_aio_echo()
    return serve_http_echo() if args.cmd == "http-echo-server" else serve_echo(args.workers)


if __name__ == "__main__":
    sys.exit(main())
