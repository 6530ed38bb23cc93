"""The pick thresholds (bots.simple.SS_PICK) against the rule they replaced, in stich's duplicate
tournament: LEVEL against LEVEL@old, where @old picks by the former rule (four trumps, or three
with two queens, scaled by hand size / 6, each blind card beyond two counting 0.4 of a trump)
and is otherwise the same bot (at the hard level, its normal level, whose pick hard keeps
unless its rollouts disagree clearly). Kept as this tool's opponent only.

    python tools/sheepshead_pick_duel.py --game sheepshead --deals 4000 --seed 1000000
    python tools/sheepshead_pick_duel.py --game sheepshead --level hard --deals 40 --seed 1000000
Use deal seeds the pick table did not read (it reads deals 0 onwards) for an honest test."""
import argparse
import json

from engine_core.bots import tournament
from engine_core.bots.knowledge import spec_of
from engine_core.bots.normal import NormalBot
from engine_core.bots.simple import _rank, default_trumps, find


class FormerPick(NormalBot):
    """The normal level with the former pick rule."""

    def _pick_and_call(self, view, legal):
        if view["phase"] != "pick":
            return super()._pick_and_call(view, legal)
        hand = view["hand"]
        trumps = len(default_trumps(view, hand))
        queens = sum(_rank(c) == "Q" for c in hand)
        extra = 0.4 * (spec_of(view).blind_size - 2)

        def need(n):
            return max(1, round(n * len(hand) / 6 - extra + 0.01))
        if find(legal, "pick") and (trumps >= need(4) or trumps >= need(3) and queens >= 2
                                    or not find(legal, "pass")):
            return find(legal, "pick")
        return find(legal, "pass") or legal[0]


def run(game: str, level: str, deals: int, seed: int, threads: int = 1) -> dict:
    """The tournament's report of LEVEL against LEVEL@old."""
    real = tournament.get

    def get(game_name, lvl, seed=0, options=None, **budget):
        former = budget.pop("former", None)
        if former and lvl == "normal":
            return FormerPick(game_name, seed, options)
        bot = real(game_name, lvl, seed=seed, options=options, **budget)
        if former:                      # hard: its normal level picks by the former rule
            bot._normal = FormerPick(game_name, seed, options)
        return bot
    tournament.get = get
    try:
        return tournament.run(game, [level, level + "@old"], deals, seed=seed, threads=threads,
                              budgets={level + "@old": {"former": True}})
    finally:
        tournament.get = real


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="sheepshead")
    p.add_argument("--level", default="normal", choices=["normal", "hard"])
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--seed", type=int, default=1_000_000)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()
    report = run(args.game, args.level, args.deals, args.seed, args.threads)
    print(tournament.table(report))
    print(json.dumps(report["difference"]))


if __name__ == "__main__":
    main()
