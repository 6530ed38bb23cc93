"""Solver per deal and per node, beside the C solver probe in the same run (issue 26).

    python bench/solver_deals.py [--probe ../shared/reference/solver_probe.c] [--deals 20]
                                 [--budget 20000000] [--only per-node,doko-full,...]
                                 [--no-sure]

Groups (--only, comma-separated; all by default):
- per-node: the probe's own deals (Rufspiel and Wenz from the first card, Doppelkopf from tricks
  4 and 6), exact values from both solvers; CPU time of this process for ours and of the child
  process for the probe (resource.getrusage), ns per node, node counts per deal (median, p90),
  values compared deal by deal.
- doko-full: the probe's first N Doppelkopf deals from the first card: "does Re reach 121?"
  (one null-window search) within --budget nodes, and exact values from trick 3.
- full-deals: Klaverjas full deals (batch.playout_record seeds, roem on) and Wenz from the first
  card: exact values.

--no-sure searches without the sure-point bounds (rules.Solver(sure=False)), to measure what
they save in the same build.

Per-deal figures are CPU milliseconds (time.process_time around each solve): the machine is
shared, and CPU time is what the solver spends. Node counts are printed the way DDS publishes
its figures (nodes and ms per deal, median and p90).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import probe_deals  # noqa: E402  (beside this script)

from engine_core import solver  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PROBE = ROOT.parent / "shared" / "reference" / "solver_probe.c"


def stats(xs):
    xs = sorted(xs)
    if not xs:
        return 0, 0, 0
    return xs[len(xs) // 2], xs[min(len(xs) - 1, int(len(xs) * 0.9))], xs[-1]


class Probe:
    """The C probe compiled with gcc -O2 into a temporary directory; run() returns its per-deal
    rows and the CPU seconds of the child process."""

    def __init__(self, source):
        self.dir = tempfile.mkdtemp(prefix="stich-probe-")
        self.exe = os.path.join(self.dir, "solver_probe")
        subprocess.run(["gcc", "-O2", "-o", self.exe, str(source)], check=True)

    def run(self, game, n, start=1, mode="solve"):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([self.exe, game, str(n), "1", str(start), "aotebsl", mode], check=True,
                             capture_output=True, text=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        rows = [line.split(",") for line in out.splitlines() if line and line[0].isdigit()]
        return {"values": [int(r[1]) for r in rows], "nodes": [int(r[2]) for r in rows],
                "ms": [float(r[3]) / 1000 for r in rows],
                "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)}

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def timed(states, fn):
    """CPU ms, nodes and answer of fn(state) per state, and the total CPU seconds."""
    ms, nodes, answers = [], [], []
    total = 0.0
    for state in states:
        t0 = time.process_time()
        answer, n = fn(state)
        dt = time.process_time() - t0
        total += dt
        ms.append(dt * 1000)
        nodes.append(n)
        answers.append(answer)
    return {"ms": ms, "nodes": nodes, "answers": answers, "cpu": total}


def exact(state):
    s = solver.solve(state)
    return (s.value if s.exact else (s.lower, s.upper)), s.nodes


def row(name, res, extra=""):
    med, p90, top = stats(res["ms"])
    nmed, np90, _ = stats(res["nodes"])
    total_nodes = sum(res["nodes"]) or 1
    print(f"| {name} | {med:.2f} | {p90:.2f} | {top:.1f} | {nmed:,} | {np90:,} | "
          f"{res['cpu'] * 1e9 / total_nodes:.0f} | {extra} |")


def header():
    print("| measure | ms median | ms p90 | ms max | nodes median | nodes p90 | ns/node | note |")
    print("|---|---|---|---|---|---|---|---|")


def per_node(args, probe):
    header()
    groups = [("ruf", 1, "Rufspiel exact, first card", list(probe_deals.states("ruf", args.deals))),
              ("wenz", 1, "Wenz exact, first card", list(probe_deals.states("wenz", args.deals))),
              ("doko", 6, "Doppelkopf exact, trick 6", list(probe_deals.doko_states(args.deals, 6))),
              ("doko", 4, "Doppelkopf exact, trick 4", list(probe_deals.doko_states(max(5, args.deals // 4), 4)))]
    for game, start, name, states in groups:
        ours = timed(states, exact)
        if probe:
            ref = probe.run(game, len(states), start)
            # the probe counts what is taken from its start trick on
            before = ([p for _, _, p in probe_deals.doko_deals(len(states), start)] if game == "doko"
                      else [0] * len(states))
            agree = sum(1 for a, b, p in zip(ours["answers"], ref["values"], before) if a == b + p)
            row("stich: " + name, ours, f"values agree with the probe on {agree}/{len(states)}")
            row("C probe: " + name, {**ref, "ms": ref["ms"]}, "ms: the probe's wall clock per deal; ns/node: its CPU")
            ratio_node = (ours["cpu"] / sum(ours["nodes"])) / (ref["cpu"] / sum(ref["nodes"]))
            print(f"| ratio stich/probe: {name} | time per deal (CPU totals) {ours['cpu'] / ref['cpu']:.2f}x | "
                  f"| | nodes {sum(ours['nodes']) / sum(ref['nodes']):.2f}x | | per node {ratio_node:.2f}x | |")
        else:
            row("stich: " + name, ours)


def doko_full(args, probe):
    header()
    states = list(probe_deals.doko_states(args.deals, 1))

    def reach(state):
        obj = solver.objective_of(state)
        answer, nodes = state.game.rules.reaches_core(state.core, solver._solver_for(state.game.rules),
                                                      obj.mask, 0, True, 121, args.budget)
        return answer, nodes
    res = timed(states, reach)
    answered = sum(1 for a in res["answers"] if a is not None)
    yes = sum(1 for a in res["answers"] if a)
    row("Doppelkopf full deal: does Re reach 121?", res,
        f"answered {answered}/{len(states)} (yes {yes}) within {args.budget:,} nodes")
    states3 = list(probe_deals.doko_states(args.deals, 3))

    def exact_budget(state):
        s = solver.solve(state, budget=args.budget)
        return (s.value if s.exact else None), s.nodes
    res3 = timed(states3, exact_budget)
    done = sum(1 for a in res3["answers"] if a is not None)
    row("Doppelkopf exact from trick 3", res3, f"exact {done}/{len(states3)} within {args.budget:,} nodes")


def full_deals(args, probe):
    import report        # bench/report.py: first_card_states (seeded batch deals)
    header()
    states = report.first_card_states("klaverjas", {}, args.deals * 5)
    row("Klaverjas exact, first card (roem on)", timed(states, exact), f"{len(states)} seeded deals")
    states = list(probe_deals.states("wenz", args.deals * 5))
    row("Wenz exact, first card", timed(states, exact), f"{len(states)} probe deals")


GROUPS = {"per-node": per_node, "doko-full": doko_full, "full-deals": full_deals}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--probe", default=str(DEFAULT_PROBE), help="solver_probe.c ('' to skip)")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=int, default=20_000_000)
    parser.add_argument("--only", default=",".join(GROUPS))
    parser.add_argument("--no-sure", action="store_true", help="search without the sure-point bounds")
    args = parser.parse_args(argv)
    if args.no_sure:
        from engine_core import games
        for name in ("schafkopf", "doppelkopf", "klaverjas", "sheepshead"):
            rules = games.get(name).rules
            solver._LOCAL.solvers = getattr(solver._LOCAL, "solvers", None) or {}
            solver._LOCAL.solvers[rules] = rules.Solver(sure=False)
    probe = Probe(args.probe) if args.probe and Path(args.probe).exists() and shutil.which("gcc") else None
    try:
        for name in args.only.split(","):
            print(f"\n## {name}\n")
            GROUPS[name](args, probe)
    finally:
        if probe:
            probe.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
