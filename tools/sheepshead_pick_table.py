"""The table behind the easy and normal levels' Sheepshead pick (bots.simple): at each seat's
turn to pick or pass (the seats before it having passed by the normal level's rule), the deal
is played twice from there, once with the seat picking and once with it passing, the normal
level deciding everything else (the bury, the call, the later seats' picks, the leaster when
all pass); the gain of picking is the seat's score, picked minus passed. Grouped by turn (1:
the dealer's left .. the dealer), the hand's trumps and its queens: per class the count, the
share of the picks made (the picker's side took the deal) and the mean gain.

    python tools/sheepshead_pick_table.py --deals 4000 [--min 30] [--game sheepshead] [--options JSON]
Deterministic per --seed (0). Reads the classes, not the rule: a change of the normal level's
play changes the table, and the rule is re-read from it."""
import argparse
import collections
import json

from engine_core import bots, games
from engine_core.bots import play_out
from engine_core.bots.simple import _rank, default_trumps, find


def table(deals: int, seed: int = 0, options: dict | None = None, game_name: str = "sheepshead") -> dict:
    """{(turn, trumps, queens): [count, made, total gain]} over `deals` seeded deals."""
    options = options or {}
    game = games.get(game_name, options)
    players = [bots.get(game_name, "normal", seed=s, options=options) for s in range(game.seats)]
    stats = collections.defaultdict(lambda: [0, 0, 0.0])
    for deal in range(seed, seed + deals):
        state = game.deal(deal, deal % game.seats)
        turn = 0
        while not state.is_over() and state.view(None)["phase"] == "pick":
            seat = state.to_act()
            view = state.view(seat)
            picking, passing = find(view["legal"], "pick"), find(view["legal"], "pass")
            if picking is None or passing is None:
                break                      # a forced pick: no choice to weigh
            turn += 1
            hand = view["hand"]
            key = (turn, len(default_trumps(view, hand)), sum(_rank(c) == "Q" for c in hand))
            picked, passed = state.copy(), state.copy()
            picked.apply(picking)
            passed.apply(passing)
            a, b = play_out(picked, players), play_out(passed, players)
            entry = stats[key]
            entry[0] += 1
            entry[1] += a["scores"][seat] > 0
            entry[2] += a["scores"][seat] - b["scores"][seat]
            # the picking goes on as the normal level plays it (a pass by its rule: a later turn)
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
    p.add_argument("--game", default="sheepshead", help="sheepshead or a seat variant (sheepshead3, ...)")
    p.add_argument("--options", default="{}", help="game options as JSON")
    args = p.parse_args()
    stats = table(args.deals, args.seed, json.loads(args.options), args.game)
    print("turn trumps queens  count  won   mean_gain_of_picking")
    for key in sorted(stats):
        count, made, gain = stats[key]
        if count >= args.min:
            print(f"{key[0]:>4} {key[1]:>6} {key[2]:>6} {count:>6}  {made / count:.2f}  {gain / count:+.2f}")


if __name__ == "__main__":
    main()
