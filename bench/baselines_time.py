"""Per-decision CPU time of the baselines (engine_core.bots.baselines) at their default
budgets: the baseline in seats 0 and 2, the normal level in the others, seeded deals.

    python bench/baselines_time.py --game klaverjas --bot flatmc --deals 3
Prints the number of timed decisions (more than one legal action), the median and the maximum
CPU seconds (time.process_time) of the card decisions and of the other decisions."""
import argparse
import statistics
import time

from engine_core import bots, games


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--game", required=True, choices=games.GAMES)
    p.add_argument("--bot", required=True, choices=bots.BASELINES + ("hard",))
    p.add_argument("--deals", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    game = games.get(args.game)
    times = {"card": [], "other": []}
    for k in range(args.deals):
        state = game.deal(args.seed + k, k % game.seats)
        players = [bots.get(args.game, args.bot if s % 2 == 0 else "normal", seed=args.seed + s)
                   for s in range(game.seats)]
        while not state.is_over():
            seat = state.to_act()
            view = state.view(seat)
            t0 = time.process_time()
            action = players[seat].choose(view)
            spent = time.process_time() - t0
            if seat % 2 == 0 and len(view["legal"]) > 1:
                times["card" if action["type"] == "play" else "other"].append(spent)
            state.apply(action)
    for kind, t in times.items():
        if t:
            print(f"{args.game:<10} {args.bot:<7} {kind:<5} n={len(t):<4} median={statistics.median(t):.3f}s "
                  f"max={max(t):.3f}s")


if __name__ == "__main__":
    main()
