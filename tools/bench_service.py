"""Service numbers over loopback: Play round-trip latency (p50/p99) and EvaluateRecords
throughput. Starts its own server in-process (memory store unless --data-dir) or uses
--server. Usage: python tools/bench_service.py [--game schafkopf] [--plays 2000] [--records 5000]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time

from engine_core import games
from service.server import Server
from stich_client import StichClient


def play_latency(client: StichClient, game: str, plays: int, bots: bool) -> list[float]:
    """Seconds per Play call: one human against bots (each call also runs the bots' moves),
    or every seat human (the call is one card and one commit)."""
    n = games.get(game).seats
    lat: list[float] = []
    rng = random.Random(1)
    seed = 0
    while len(lat) < plays:
        t = client.create_table(game, {}, 1, ["human"] + ["bot" if bots else "human"] * (n - 1), seed=seed)
        seed += 1
        v = client.deal(t.table_id, t.tokens[0])
        while v["status"] == "in_deal" and len(lat) < plays:
            token = t.tokens[v["to_act"]]
            if not bots:
                v = client.view(t.table_id, token)
            action = rng.choice(v["legal"])
            t0 = time.perf_counter()
            v = client.act(t.table_id, token, action)
            if action["type"] == "play":
                lat.append(time.perf_counter() - t0)
            if not bots and v["status"] == "in_deal":
                v = client.view(t.table_id, t.spectator_id)
    return lat


def evaluate_rate(client: StichClient, game: str, count: int) -> float:
    g = games.get(game)
    lines = []
    rng = random.Random(2)
    for k in range(min(count, 500)):
        state = g.deal(k, k % g.seats)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        lines.append(json.dumps(state.record()))
    lines = (lines * (count // len(lines) + 1))[:count]
    t0 = time.perf_counter()
    n = sum(1 for _ in client.evaluate(lines, timeout=600))
    return n / (time.perf_counter() - t0)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server")
    parser.add_argument("--data-dir", help="persist to this directory (default: a temp dir)")
    parser.add_argument("--game", default="schafkopf")
    parser.add_argument("--plays", type=int, default=2000)
    parser.add_argument("--records", type=int, default=5000)
    args = parser.parse_args()
    server = None
    if args.server is None:
        server = Server("127.0.0.1:0", args.data_dir or tempfile.mkdtemp(prefix="stich-bench-")).start()
        args.server = server.address
    try:
        with StichClient(args.server, timeout=30) as client:
            for bots in (False, True):
                lat = sorted(play_latency(client, args.game, args.plays, bots))
                p50 = statistics.median(lat) * 1e3
                p99 = lat[int(len(lat) * 0.99) - 1] * 1e3
                who = "one human + bots" if bots else "all seats human"
                print(f"Play round trip ({args.game}, {who}, {len(lat)} calls, SQLite commit each): "
                      f"p50 {p50:.2f} ms, p99 {p99:.2f} ms")
            rate = evaluate_rate(client, args.game, args.records)
            print(f"EvaluateRecords ({args.game}, {args.records} finished records, one stream): "
                  f"{rate:,.0f} records/s")
    finally:
        if server is not None:
            server.stop(1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
