"""Two bot levels in whole matches, duplicate: level A at the even seats and B at the odd ones,
then the same match seed with the seats swapped, so both sides get the same cards; per match
the totals' difference (A's seats minus B's, per seat) and who won. For a match rule that a
single-deal tournament does not see, e.g. Klaverjas's `match_target` (first to 1500: the
fixed partners are the even and the odd seats, docs/rules/klaverjas.md 8.1).

    python tools/match_duel.py klaverjas --preset to_1500 --levels hard,normal --matches 10
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import time

from engine_core import bots, games
from engine_core.match import Match


def play(game, levels: tuple[str, str], seed: int) -> list[int]:
    """One match: seat s played by levels[s % 2]; the final totals."""
    players = [bots.get(game.name, levels[s % 2], seed * game.seats + s, options=game.options.as_dict())
               for s in range(game.seats)]
    return Match(game, seed).play_out(players).totals


def duel(game_name: str, options: dict, a: str, b: str, matches: int, first_seed: int = 0) -> dict:
    game = games.get(game_name, options)
    diffs, wins, deals = [], [0, 0, 0], 0
    for seed in range(first_seed, first_seed + matches):
        for levels, a_parity in (((a, b), 0), ((b, a), 1)):
            totals = play(game, levels, seed)
            mine = [t for s, t in enumerate(totals) if s % 2 == a_parity]
            theirs = [t for s, t in enumerate(totals) if s % 2 != a_parity]
            d = statistics.mean(mine) - statistics.mean(theirs)
            diffs.append(d)
            wins[0 if d > 0 else 1 if d < 0 else 2] += 1
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return {"game": game_name, "options": options, "levels": [a, b], "matches": len(diffs),
            "a_minus_b_per_match": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)],
            "a_won": wins[0], "b_won": wins[1], "level": wins[2]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--preset", help="a preset of the game (games.preset)")
    parser.add_argument("--options", default="{}", help="options as a JSON object (over the preset)")
    parser.add_argument("--levels", default="hard,normal", help="two levels, A,B")
    parser.add_argument("--matches", type=int, default=10, help="match seeds (each played twice)")
    parser.add_argument("--seed", type=int, default=0, help="the first match seed")
    args = parser.parse_args()
    options = json.loads(args.options)
    if args.preset:
        options = games.preset(args.game, args.preset, **options)
    a, b = args.levels.split(",")
    began = time.process_time()
    out = duel(args.game, options, a, b, args.matches, args.seed)
    out["cpu_s"] = round(time.process_time() - began, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
