"""Where the hard level's card searches finish: per trick, the share of its card decisions
decided by exact values (every searched world finished, or `exact_worlds` of them within the
spare nodes) rather than by random playouts, and their CPU time. Hard plays every seat.

    python tools/exact_by_trick.py --game klaverjas --deals 6
    python tools/exact_by_trick.py --game schafkopf --deals 4 --budget exact_nodes=0

`--budget KEY=N` (repeatable) sets a budget knob of the hard level (docs/bots.md), e.g. the
spare nodes `exact_nodes`; no game is named here.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from engine_core import games
from engine_core.bots.hard import HardBot


class RecordingHard(HardBot):
    """The hard level, noting for each card decision whether exact values decided it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.finished: list[bool] = []

    def _card_values(self, *args, **kwargs):
        out = super()._card_values(*args, **kwargs)
        self.finished.append(bool(out) and all(e.get("finished") for e in out))
        return out


def by_trick(game_name: str, deals: int, seed: int = 100, options: dict | None = None,
             budget: dict | None = None) -> dict[int, dict]:
    """{trick index: {"decisions", "exact" (share), "cpu_mean", "cpu_max"}} over `deals` deals."""
    options = options or {}
    game = games.get(game_name, options)
    rows: dict[int, list[tuple[bool, float]]] = {}
    for d in range(deals):
        state = game.deal(seed + d, d % game.seats)
        players = [RecordingHard(game_name, seed=seed + 10 * d + s, options=options, **(budget or {}))
                   for s in range(game.seats)]
        while not state.is_over():
            seat = state.to_act()
            view = state.view(seat)
            if len(view["legal"]) == 1:
                state.apply(view["legal"][0])
                continue
            bot = players[seat]
            before = len(bot.finished)
            t0 = time.process_time()
            action = bot.choose(view)
            spent = time.process_time() - t0
            if action["type"] == "play" and len(bot.finished) > before:
                rows.setdefault(len(view["tricks"]), []).append((bot.finished[-1], spent))
            state.apply(action)
    return {t: {"decisions": len(r), "exact": sum(f for f, _ in r) / len(r),
                "cpu_mean": statistics.fmean(s for _, s in r), "cpu_max": max(s for _, s in r)}
            for t, r in sorted(rows.items())}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True, choices=games.GAMES)
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--options", default="{}", help="the game's options as JSON")
    ap.add_argument("--budget", action="append", default=[], metavar="KEY=N",
                    help="a hard-level budget knob, e.g. exact_nodes=0 (repeatable)")
    args = ap.parse_args(argv)
    budget = {}
    for item in args.budget:
        key, _, value = item.partition("=")
        try:
            budget[key] = int(value)
        except ValueError:
            ap.error(f"--budget {item!r}: must be KEY=N with an integer N")
    try:
        rows = by_trick(args.game, args.deals, args.seed, json.loads(args.options), budget)
    except (TypeError, ValueError) as err:
        ap.error(str(err))
    print(f"{'trick':>5} {'decisions':>9} {'exact':>6} {'cpu mean':>9} {'cpu max':>8}")
    for t, r in rows.items():
        print(f"{t + 1:>5} {r['decisions']:>9} {r['exact']:>6.0%} {r['cpu_mean']:>8.3f}s {r['cpu_max']:>7.3f}s")


if __name__ == "__main__":
    main()
