"""The table behind the easy and normal levels' Farbsolo rule (bots.simple.solo_worth_playing):
in seeded Schafkopf deals, each seat with at least five trumps in its longest suit declares a
Farbsolo there (the others pass), the normal level plays the cards at every seat, and the
solos are grouped by (trumps, Ober, Ober + Unter, side tricks: side aces plus void suits, at
most 3): per class the count, the share won and the declarer's mean score.

    python tools/schafkopf_solo_table.py --deals 6000 [--min 15]
Deterministic per --seed (0). Reads the classes, not the rule: a change of the normal level's
card play changes the table, and the rule is re-read from it."""
import argparse
import collections

from engine_core import bots, games
from engine_core.bots.simple import _rank, _suit, find, sk_trumps


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=6000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--min", type=int, default=15, help="smallest class shown")
    args = p.parse_args()
    game = games.get("schafkopf")
    players = [bots.get("schafkopf", "normal", seed=s) for s in range(game.seats)]
    stats = collections.defaultdict(lambda: [0, 0, 0])
    for seed in range(args.seed, args.seed + args.deals):
        dealt = game.deal(seed, seed % game.seats)
        for seat in range(game.seats):
            hand = dealt.view(seat)["hand"]
            best = max("CSHD", key=lambda s: len(sk_trumps(hand, "suit", s)))
            n = len(sk_trumps(hand, "suit", best))
            if n < 5:
                continue
            obers = sum(_rank(c) == "Q" for c in hand)
            unters = sum(_rank(c) == "J" for c in hand)
            side = [c for c in hand if _suit(c) != best and _rank(c) not in "QJ"]
            tricks = min(3, sum(_rank(c) == "A" for c in side) + 3 - len({_suit(c) for c in side}))
            state = dealt.copy()
            while not state.is_over():
                s = state.to_act()
                view = state.view(s)
                legal = view["legal"]
                if any(a["type"] == "play" for a in legal):
                    state.apply(players[s].choose(view))
                elif s == seat and view["phase"] not in ("kontra", "re") and find(legal, "farbsolo", best):
                    state.apply(find(legal, "farbsolo", best))
                else:
                    state.apply(find(legal, "pass") or legal[0])
            result = state.core.result()
            if (result["contract"] or {}).get("declarer") != seat:
                continue
            entry = stats[(n, obers, obers + unters, tricks)]
            entry[0] += 1
            entry[1] += result["scores"][seat] > 0
            entry[2] += result["scores"][seat]
    print("trumps ober ober+unter side_tricks  solos  won  mean_score")
    for key in sorted(stats):
        count, won, total = stats[key]
        if count >= args.min:
            print(f"{key[0]:>6} {key[1]:>4} {key[2]:>10} {key[3]:>11}  {count:>5}  {won / count:.2f}  {total / count:+.0f}")


if __name__ == "__main__":
    main()
