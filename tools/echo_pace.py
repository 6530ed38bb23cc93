"""The reference echo's round trip as a function of the pause before it: what a bare grpcio
call costs when the client does something between its calls, as every Play loop does.

`make bench-report` reads the service's Play against a back-to-back echo, the best case a
transport has: its threads and its connection stay awake. Here the same echo server and
client make the same call after a pause of each length (a sleep, or a busy loop of the same
length: the client computing), the pauses in random order, so that whatever the machine does
falls on every pause alike. Nothing else runs.

    python tools/echo_pace.py --seconds 60 --pauses 0,0.2,1,3,10
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import grpc

from service import benchmark as bm


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def pace(pauses_ms: list[float], seconds: float, seed: int = 3) -> dict[tuple[str, float], list[float]]:
    """Seconds per echo after each (how, pause in ms); how is "sleep" or "busy"."""
    kinds = [(how, p) for how in ("sleep", "busy") for p in pauses_ms]
    lat: dict[tuple[str, float], list[float]] = {k: [] for k in kinds}
    rng = random.Random(seed)
    with bm.EchoProcess() as server, grpc.insecure_channel(server.address) as channel:
        echo = bm.echo_call(channel)
        for _ in range(50):                         # connect and warm up
            echo()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end or min(len(x) for x in lat.values()) < 3:
            how, pause = kind = rng.choice(kinds)
            echo()                                  # the call before the pause
            if pause:
                (time.sleep if how == "sleep" else _busy)(pause / 1000)
            t0 = time.perf_counter()
            echo()
            lat[kind].append(time.perf_counter() - t0)
    return lat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/echo_pace.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pauses", default="0,0.2,1,3,10", help="pauses before the timed call, in ms")
    args = parser.parse_args(argv)
    pauses = [float(p) for p in args.pauses.split(",")]
    lat = pace(pauses, args.seconds)
    back_to_back = statistics.median(lat[("sleep", pauses[0])])
    print(f"{'pause':>8}  {'how':>5}  {'echo p50':>9}  {'calls':>6}  vs {pauses[0]:g} ms")
    for (how, pause), xs in sorted(lat.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        p50 = statistics.median(xs)
        print(f"{pause:6g}ms  {how:>5}  {p50 * 1e6:7.0f}µs  {len(xs):6d}  {p50 / back_to_back:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
