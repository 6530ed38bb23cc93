"""Play round trips of several builds of the server, interleaved: which change made a Play
faster, on a machine too noisy to compare one run after another (a shared host's steal time
moves a loopback round trip by a third within minutes).

Each variant is a git revision whose `src/service` the server child imports (extracted with
`git archive`; `.` is this checkout as it is). Only the server differs: the client, the engine
and its extensions are this checkout's. The servers run side by side, and the loop goes round
them `--block` Plays at a time (the loop of `make bench-report`'s four-human-seat row), so
whatever the machine does falls on every variant alike.

    python tools/ab_play.py d4f0910 . --seconds 120
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from service import benchmark as bm
from stich_client import StichClient

ROOT = Path(__file__).resolve().parents[1]


def source_of(rev: str, into: str) -> dict | None:
    """The environment of a server running revision `rev`'s service package (None: this checkout)."""
    if rev == ".":
        return None
    out = Path(into) / f"rev{len(os.listdir(into))}"
    out.mkdir()
    archive = subprocess.run(["git", "archive", rev, "src/service"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    path = os.pathsep.join(p for p in (str(out / "src"), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


def compare(revs: list[str], seconds: float, block: int, game: str = "schafkopf") -> dict[str, list[float]]:
    """Seconds per Play of each revision's server, its Plays interleaved with the others'."""
    lat: dict[str, list[float]] = {rev: [] for rev in revs}
    with tempfile.TemporaryDirectory(prefix="stich-ab-") as tmp, ExitStack() as stack:
        clients = {}
        for rev in revs:
            server = stack.enter_context(bm.ServerProcess(env=source_of(rev, tmp)))
            clients[rev] = stack.enter_context(StichClient(server.address, timeout=30))
            bm.play_latency(clients[rev], game, 50, False, 1)          # warm up
        t_end = time.perf_counter() + seconds
        while time.perf_counter() < t_end:
            for rev in revs:
                lat[rev] += bm.play_latency(clients[rev], game, block, False, 10)
    return lat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/ab_play.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("revs", nargs="+", help="git revisions of the server, or . for this checkout")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--block", type=int, default=32, help="Plays per variant per turn")
    args = parser.parse_args(argv)
    lat = compare(args.revs, args.seconds, args.block)
    first = statistics.median(lat[args.revs[0]])
    print(f"{'server':>12}  {'Play p50':>9}  {'p25':>7}  {'calls':>6}  vs {args.revs[0]}")
    for rev, xs in lat.items():
        xs.sort()
        p50 = statistics.median(xs)
        print(f"{rev:>12}  {p50 * 1e6:7.0f}µs  {xs[len(xs) // 4] * 1e6:5.0f}µs  {len(xs):6d}  {p50 / first:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
