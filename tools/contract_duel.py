"""Hard against normal in the card play of one contract (a short duplicate duel per contract
family, e.g. the club contracts of a game's options).

    python tools/contract_duel.py --game schafkopf --options '{"geier": true}' --call geier --deals 20

Deals: the seeded deals (dealer = the last seat, so seat 0 speaks first) on which the easy
level at seat 0 names the contract `--call` with these options (its auction rule for that
contract, read from the declared bid families); seat 0 bids it, every other seat passes and
says no more. Each such deal is then played three times, the same cards each time:
  A  hard declares, normal defends;
  B  normal declares, normal defends (the baseline);
  C  normal declares, hard defends.
Per contract: the declarer's mean score in A, B and C, the hard level's gain as declarer
(A - B) and as defender (B - C, for the defending side: what the declarer loses), each with a
95% confidence interval over the deals (paired), and the declarer win rates. No game is named
here: the game, its options and the call are arguments.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time

from engine_core import bots, games


def forced(game, seed, call, options):
    """The deal of `seed` after seat 0 bid `call` (as the easy level chose it) and everybody
    else passed, or None if the easy level does not name `call` on seat 0's hand."""
    state = game.deal(seed, game.seats - 1)
    choice = bots.get(game.name, "easy", seed=seed, options=options).choose(state.view(0))
    if choice.get("call") != call:
        return None
    state.apply(choice)
    while state.view(None)["phase"] != "play" and not state.is_over():
        legal = state.legal_actions()
        state.apply(next(a for a in legal if a.get("call") == "pass"))
    return None if state.is_over() else state


def play(state, levels, seed, options):
    players = [bots.get(state.game.name, level, seed=seed + seat, options=options) for seat, level in enumerate(levels)]
    while not state.is_over():
        seat = state.to_act()
        state.apply(players[seat].choose(state.view(seat)))
    return state.result()["scores"][0]


def ci(values):
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("inf")
    return round(mean, 1), [round(mean - half, 1), round(mean + half, 1)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--options", default="{}", help="game options as a JSON object")
    ap.add_argument("--call", required=True, help="the contract's bid call, e.g. geier")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seeds", type=int, default=200_000, help="seeds tried to find the deals")
    args = ap.parse_args(argv)
    options = json.loads(args.options)
    game = games.get(args.game, options)
    rows, seed, t0 = [], args.seed, time.perf_counter()
    while len(rows) < args.deals and seed < args.seed + args.max_seeds:
        state = forced(game, seed, args.call, options)
        if state is not None:
            n = game.seats
            a = play(state.copy(), ["hard"] + ["normal"] * (n - 1), seed, options)
            b = play(state.copy(), ["normal"] * n, seed, options)
            c = play(state.copy(), ["normal"] + ["hard"] * (n - 1), seed, options)
            rows.append((a, b, c))
        seed += 1
    if not rows:
        print(f"no deal among {args.max_seeds} seeds on which the easy level bids {args.call}", file=sys.stderr)
        return 1
    a, b, c = zip(*rows)
    out = {
        "game": args.game, "call": args.call, "options": options, "deals": len(rows),
        "seeds_tried": seed - args.seed, "seconds": round(time.perf_counter() - t0, 1),
        "declarer_mean": {"hard_vs_normal": ci(a)[0], "normal_vs_normal": ci(b)[0], "normal_vs_hard": ci(c)[0]},
        "declarer_win_rate": {k: round(sum(v > 0 for v in x) / len(x), 2)
                              for k, x in (("hard_vs_normal", a), ("normal_vs_normal", b), ("normal_vs_hard", c))},
        "hard_gain_as_declarer": ci([x - y for x, y in zip(a, b)]),
        "hard_gain_as_defenders": ci([y - z for y, z in zip(b, c)]),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
