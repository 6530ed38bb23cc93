"""Two levels in the card play of the contract that follows when every seat passes (a
Sheepshead or Schafkopf leaster, a Schafkopf Ramsch): a duplicate duel, seat by seat.

    python tools/pass_duel.py --game sheepshead --levels hard,normal --deals 40 --seed 11
    python tools/pass_duel.py --game schafkopf --options '{"ramsch": true}' --levels hard,normal --deals 40

Each seeded deal is passed out (every seat passes while it may) and played once with B at every
seat (the baseline), then once per seat with A at that seat and B at the others, the same
cards each time. Per seat and deal: A's score there minus B's at the same seat in the baseline;
the mean with a 95% confidence interval over all seats and deals. `--per-seat-by-points`
makes the hard level judge such a contract by the solver's fewest points of its own, as it
did before stop 38 (docs/bots.md). No game is named here: the game and its options are
arguments.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys

from engine_core import bots, games


def passed_out(game, seed: int, dealer: int):
    """The deal after every seat passed (the first `pass` call while there is one), or None
    when the auction cannot be passed out or the deal ends without card play."""
    state = game.deal(seed, dealer)
    while state.view(None)["phase"] != "play" and not state.is_over():
        legal = state.legal_actions()
        passes = [a for a in legal if a.get("call") == "pass"]
        if not passes:
            return None
        state.apply(passes[0])
    return None if state.is_over() else state


def play(state, levels: list[str], seed: int, options: dict) -> list:
    players = [bots.get(state.game.name, level, seed=seed + seat, options=options)
               for seat, level in enumerate(levels)]
    while not state.is_over():
        seat = state.to_act()
        view = state.view(seat)
        state.apply(players[seat].choose(view) if len(view["legal"]) > 1 else view["legal"][0])
    return state.result()["scores"]


def duel(game_name: str, options: dict, a: str, b: str, deals: int, seed: int = 1) -> dict:
    game = games.get(game_name, options)
    n = game.seats
    diffs, contracts = [], set()
    for k in range(deals):
        state = passed_out(game, seed + k, k % n)
        if state is None:
            continue
        contracts.add(state.view(None)["contract"]["type"])
        base = play(state.copy(), [b] * n, seed + 7 * k, options)
        for s in range(n):
            levels = [b] * n
            levels[s] = a
            diffs.append(play(state.copy(), levels, seed + 7 * k, options)[s] - base[s])
    if not diffs:
        raise SystemExit(f"no deal of {game_name} with these options is passed out into card play")
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("inf")
    return {"game": game_name, "options": options, "contracts": sorted(contracts), "levels": [a, b],
            "plays": len(diffs), "mean": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--options", default="{}", help="the game's options as JSON")
    ap.add_argument("--levels", default="hard,normal", help="A,B: A at one seat, B at the others")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-seat-by-points", action="store_true",
                    help="hard judges the contract by its fewest points (as before stop 38)")
    args = ap.parse_args(argv)
    if args.per_seat_by_points:
        from engine_core.bots.hard import HardBot
        HardBot.per_seat_by_score = False
    a, b = args.levels.split(",")
    out = duel(args.game, json.loads(args.options), a, b, args.deals, args.seed)
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
