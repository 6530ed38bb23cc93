"""Service numbers over loopback: Play round-trip latency (p50/p99), EvaluateRecords and
Simulate throughput, beside a bare grpcio unary echo measured in the same run. Starts its own
server as a child process on a free 127.0.0.1 port (memory store unless --data-dir) or uses
--server. The measurements are `service.benchmark`'s (the same as `make bench-report`'s rows).

    python tools/bench_service.py [--game schafkopf] [--plays 2000] [--records 5000] [--deals 200000]
"""
from __future__ import annotations

import argparse
import sys

from service import benchmark as bm
from stich_client import StichClient


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", help="use this server instead of starting one")
    parser.add_argument("--data-dir", help="the started server persists to this directory (SQLite commit per action)")
    parser.add_argument("--game", default="schafkopf")
    parser.add_argument("--plays", type=int, default=2000)
    parser.add_argument("--records", type=int, default=5000)
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--no-echo", action="store_true", help="skip the grpcio echo reference")
    args = parser.parse_args()
    server = None
    if args.server is None:
        server = bm.ServerProcess(data_dir=args.data_dir)
        args.server = server.address
    store = "SQLite commit each" if args.data_dir else "memory store"
    try:
        with StichClient(args.server, timeout=30) as client:
            for bots in (False, True):
                lat = bm.play_latency(client, args.game, args.plays, bots)
                p = bm.percentiles(lat)
                who = "one human + bots" if bots else "all seats human"
                print(f"Play round trip ({args.game}, {who}, {len(lat)} calls, {store}): "
                      f"p50 {p['p50_us'] / 1e3:.2f} ms, p99 {p['p99_us'] / 1e3:.2f} ms")
            lines = bm.finished_records(args.game, min(args.records, 500))
            ev = bm.evaluate_rate(client, lines, args.records)
            print(f"EvaluateRecords ({args.game}, {ev['records']} finished records, one stream): "
                  f"{ev['per_s']:,.0f} records/s")
            sim = bm.simulate_rate(client, args.game, args.deals)
            print(f"Simulate ({args.game}, {sim['deals']} deals, engine {sim['engine']}): "
                  f"{sim['per_s']:,.0f} deals/s over the call ({sim['server_per_s']:,.0f} as the server measured)")
    finally:
        if server is not None:
            server.stop()
    if not args.no_echo:
        with bm.EchoProcess() as echo:
            one = bm.echo_one_client(echo.address, 5000, 2.0)
            many = bm.echo_concurrent(echo.address, 16, 20000, 2.0)
        print(f"grpcio unary echo (reference): one client p50 {one['p50_us']:.0f} µs, "
              f"{one['per_s']:,.0f} req/s; 16 concurrent {many['per_s']:,.0f} req/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
