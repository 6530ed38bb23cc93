"""Per-decision CPU time of the baselines (engine_core.bots.baselines) and the hard level at
their default budgets: the bot in seats 0 and 2, the normal level (or `--against`) in the others, seeded deals.

    python bench/baselines_time.py --game klaverjas --bot flatmc --deals 3
    python bench/baselines_time.py --game doppelkopf --bot hard --deals 20 --preset ddv \\
        --slowest 5 --save /tmp/slow
Prints the number of timed decisions (more than one legal action), the median and the maximum
CPU seconds (time.process_time) of the card decisions and of the other decisions; `--slowest N`
lists the N slowest decisions (deal, seat, phase, trick, the action taken) and `--save DIR` writes
each of them as a JSON view that `--replay FILE` decides again under cProfile."""
import argparse
import cProfile
import heapq
import json
import os
import pstats
import statistics
import time

from engine_core import bots, games


def replay(path: str, top: int) -> None:
    """Decide a saved view again, profiled: where the time of a slow decision goes."""
    with open(path) as f:
        saved = json.load(f)
    bot = bots.get(saved["game"], saved["bot"], seed=saved["seed"], options=saved["options"])
    profile = cProfile.Profile()
    t0 = time.process_time()
    profile.enable()
    action = bot.choose(saved["view"])
    profile.disable()
    print(f"{path}: {time.process_time() - t0:.3f}s CPU, chose {json.dumps(action)}")
    pstats.Stats(profile).sort_stats("cumulative").print_stats(top)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--game", choices=games.GAMES)
    p.add_argument("--bot", choices=bots.BASELINES + ("hard",))
    p.add_argument("--deals", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--options", default="{}", help="the game's options as JSON")
    p.add_argument("--preset", help="a preset of the game's options (--options on top)")
    p.add_argument("--against", default="normal", help="the level in the other seats (default normal)")
    p.add_argument("--slowest", type=int, default=0, help="list the N slowest decisions")
    p.add_argument("--save", help="directory for the slowest decisions' views (JSON)")
    p.add_argument("--replay", help="a saved view: decide it again under cProfile")
    args = p.parse_args()
    if args.replay:
        return replay(args.replay, 25)
    if not (args.game and args.bot):
        p.error("--game and --bot are required (or --replay FILE)")
    options = json.loads(args.options)
    if args.preset:
        options = games.preset(args.game, args.preset, **options)
    game = games.get(args.game, options)
    times = {"card": [], "other": []}
    slowest = []                     # a heap of (seconds, n, record)
    n = 0
    for k in range(args.deals):
        state = game.deal(args.seed + k, k % game.seats)
        players = [bots.get(args.game, args.bot if s % 2 == 0 else args.against, seed=args.seed + s, options=options)
                   for s in range(game.seats)]
        while not state.is_over():
            seat = state.to_act()
            view = state.view(seat)
            t0 = time.process_time()
            action = players[seat].choose(view)
            spent = time.process_time() - t0
            if seat % 2 == 0 and len(view["legal"]) > 1:
                times["card" if action["type"] == "play" else "other"].append(spent)
                n += 1
                record = {"game": args.game, "bot": args.bot, "seed": args.seed + seat, "options": options,
                          "deal": k, "seat": seat, "phase": state.phase(), "cards_played":
                          sum(1 for a in view["actions"] if a["type"] == "play"), "action": action, "view": view}
                heapq.heappush(slowest, (spent, n, record))
                if len(slowest) > args.slowest:
                    heapq.heappop(slowest)
            state.apply(action)
    for kind, t in times.items():
        if t:
            print(f"{args.game:<10} {args.bot:<7} {kind:<5} n={len(t):<4} median={statistics.median(t):.3f}s "
                  f"p99={statistics.quantiles(t, n=100)[98] if len(t) > 1 else t[0]:.3f}s max={max(t):.3f}s")
    for spent, i, r in sorted(slowest, reverse=True):
        print(f"{spent:7.3f}s deal {r['deal']} seat {r['seat']} {r['phase']:<10} after {r['cards_played']:>2} cards: "
              f"{json.dumps(r['action'])}")
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            with open(os.path.join(args.save, f"{args.game}-{r['deal']}-{i}.json"), "w") as f:
                json.dump(r, f)


if __name__ == "__main__":
    main()
