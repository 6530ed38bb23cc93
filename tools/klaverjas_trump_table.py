"""The table behind the easy and normal levels' Klaverjas trump naming (bots.simple, the
threshold on kj_strength): at each seat's turn of the free trump choice (the seats before it
having passed by the normal level's rule), the deal is played twice from there, once with the
seat naming its strongest suit and once with it passing, the normal level deciding everything
else; the gain of naming is the seat's team score minus the other team's, named minus passed.
Grouped by turn (1: eldest .. 4: the dealer) and kj_strength of the named suit (bands of 4):
per class the count, the share of named contracts made and the mean gain.

    python tools/klaverjas_trump_table.py --deals 4000 [--min 30] [--options JSON]
Deterministic per --seed (0). Reads the classes, not the rule: a change of the normal level's
card play changes the table, and the rule is re-read from it."""
import argparse
import collections
import json
import statistics

from engine_core import bots, games
from engine_core.bots import play_out
from engine_core.bots.simple import find, kj_strength


def table(deals: int, seed: int = 0, options: dict | None = None, band: int = 4) -> dict:
    """{(turn, strength band): [count, made, total gain]} over `deals` seeded deals."""
    options = options or {}
    game = games.get("klaverjas", options)
    players = [bots.get("klaverjas", "normal", seed=s, options=options) for s in range(game.seats)]
    stats = collections.defaultdict(lambda: [0, 0, 0.0])
    for deal in range(seed, seed + deals):
        state = game.deal(deal, deal % game.seats)
        turn = 0
        while state.view(None)["phase"] == "bidding":
            seat = state.to_act()
            view = state.view(seat)
            calls = [a for a in view["legal"] if a.get("call") == "trump"]
            passing = find(view["legal"], "pass")
            if not calls or passing is None:
                break                      # the forced fifth turn: no choice to weigh
            turn += 1
            best = max(calls, key=lambda a: (kj_strength(view, view["hand"], a["suit"]), a["suit"]))
            strength = kj_strength(view, view["hand"], best["suit"])
            named, passed = state.copy(), state.copy()
            named.apply(best)
            passed.apply(passing)
            a, b = play_out(named, players), play_out(passed, players)
            delta = [x - y for x, y in zip(a["scores"], b["scores"])]
            gain = (statistics.fmean(d for s, d in enumerate(delta) if s % 2 == seat % 2)
                    - statistics.fmean(d for s, d in enumerate(delta) if s % 2 != seat % 2))
            entry = stats[(turn, strength // band * band)]
            entry[0] += 1
            entry[1] += a["contract"].get("outcome") == "made"
            entry[2] += gain
            # the auction goes on as the normal level plays it (a pass by its rule: a later turn)
            choice = players[seat].choose(view)
            if choice.get("call") != "pass":
                break
            state.apply(choice)
    return dict(stats)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=4000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--min", type=int, default=30, help="smallest class shown")
    p.add_argument("--options", default="{}", help="Klaverjas options as JSON")
    args = p.parse_args()
    stats = table(args.deals, args.seed, json.loads(args.options))
    print("turn strength  count  made  mean_gain_of_naming")
    for key in sorted(stats):
        count, made, gain = stats[key]
        if count >= args.min:
            print(f"{key[0]:>4} {key[1]:>4}-{key[1] + 3:<3} {count:>6}  {made / count:.2f}  {gain / count:+.1f}")


if __name__ == "__main__":
    main()
