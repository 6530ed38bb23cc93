"""OpenSchafkopf's published Eichel-Farbwenz deals (../shared/reference/openschafkopf_fwenz_deals.txt,
100 deals; their solver's median is about 17 s a deal) solved exactly by stich's solver.

    python bench/farbwenz_openschafkopf.py [--deals N] [--file PATH] [--target win]

Each line of the file: OpenSchafkopf's time, then the four hands in German notation (E = Eichel
= C, G = Gras = S, H = Herz = H, S = Schellen = D; A, Z = ten, K, O = Ober, U = Unter, 9, 8, 7);
seat 3 plays the Eichel-Farbwenz and seat 0 leads (dealer 3, three passes, then seat 3 bids
`farbwenz C`, option `farbwenz`). Prints one JSON object: per-deal exact value (the declarer's
card points with best play), nodes and seconds, and the median, p90 and max seconds, next to
OpenSchafkopf's median from the same file.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from engine_core import games, solver

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "reference" / "openschafkopf_fwenz_deals.txt"
SUITS = {"E": "C", "G": "S", "H": "H", "S": "D"}
RANKS = {"A": "A", "Z": "T", "K": "K", "O": "Q", "U": "J", "9": "9", "8": "8", "7": "7"}


def parse(line: str):
    """(OpenSchafkopf's seconds, four hands as record codes) of one line of the file."""
    stamp, rest = line.split(None, 1)
    minutes, seconds = stamp.rstrip("s").split("m")
    theirs = 60 * int(minutes) + float(seconds.replace(",", "."))
    hands = [[RANKS[c[1]] + SUITS[c[0]] for c in hand.split()] for hand in rest.split("|")]
    return theirs, hands


def position(hands):
    state = games.get("schafkopf", {"farbwenz": True}).new_deal(hands, 3)
    for call in ("pass", "pass", "pass"):
        state.apply({"seat": state.to_act(), "type": "bid", "call": call})
    state.apply({"seat": 3, "type": "bid", "call": "farbwenz", "suit": "C"})
    return state


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--file", default=str(DEFAULT))
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--target", default=None, help="a declared target (e.g. win) instead of the exact value")
    args = ap.parse_args(argv)
    lines = [l for l in Path(args.file).read_text().splitlines() if l.strip()][:args.deals]
    rows, theirs = [], []
    for line in lines:
        t_theirs, hands = parse(line)
        theirs.append(t_theirs)
        state = position(hands)
        start = time.perf_counter()
        if args.target:
            value, nodes = solver.reaches(state, args.target), None
        else:
            solution = solver.solve(state)
            assert solution.exact
            value, nodes = solution.value, solution.nodes
        rows.append({"value": value, "nodes": nodes, "seconds": round(time.perf_counter() - start, 4)})
    secs = sorted(r["seconds"] for r in rows)
    print(json.dumps({
        "deals": len(rows), "target": args.target,
        "median_s": statistics.median(secs), "p90_s": secs[int(0.9 * (len(secs) - 1))], "max_s": secs[-1],
        "openschafkopf_median_s": statistics.median(theirs), "per_deal": rows,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
