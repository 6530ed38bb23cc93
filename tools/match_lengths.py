"""How many deals a match takes when the bots play it: every seat the same bot level, matches
from seeds 0..N-1, the game's options or preset (a match to a target score has no fixed length;
docs/rules/klaverjas.md 8.1 gives the figures for Klaverjas's `to_1500`).

    python tools/match_lengths.py klaverjas --preset to_1500 --level easy --matches 40
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from engine_core import bots, games
from engine_core.match import Match


def lengths(game: str, options: dict, level: str, matches: int) -> list[int]:
    g = games.get(game, options)
    return [Match(g, seed).play_out([bots.get(game, level, seed * g.seats + s) for s in range(g.seats)]).counted
            for seed in range(matches)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--preset", help="a preset of the game (games.preset)")
    parser.add_argument("--options", default="{}", help="options as a JSON object (over the preset)")
    parser.add_argument("--level", default="easy", choices=("easy", "normal", "hard"))
    parser.add_argument("--matches", type=int, default=40)
    args = parser.parse_args()
    options = json.loads(args.options)
    if args.preset:
        options = games.preset(args.game, args.preset, **options)
    began = time.process_time()
    found = lengths(args.game, options, args.level, args.matches)
    print(f"{args.level}: {args.matches} matches: deals min {min(found)}, median {statistics.median(found)}, "
          f"mean {statistics.mean(found):.1f}, max {max(found)}; more than 16 deals: {sum(n > 16 for n in found)}; "
          f"CPU {time.process_time() - began:.1f} s")


if __name__ == "__main__":
    main()
