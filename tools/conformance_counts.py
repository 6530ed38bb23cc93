"""The project's own conformance lines per variant (tests/conformance/<game>/own-*.jsonl):
scenarios / legal-action traces / illegal records, a line counted once for every option it sets
away from its game's default (a line with three house rules counts three times), and for its
game where that is a seat or deck variant kept in another game's directory.

    python tools/conformance_counts.py
"""
from __future__ import annotations

import collections
import json
from pathlib import Path

from engine_core import games

ROOT = Path(__file__).resolve().parent.parent / "tests" / "conformance"
KINDS = ("scenarios", "legal", "illegal")
# match bookkeeping and stakes: not a variant of the rules
SKIP = {"deals_per_match", "tariff_rufspiel", "tariff_solo", "tariff_increment", "bock_next",
        "pflicht_played", "pflicht_round_deals"}


def counts(directory: Path) -> tuple[list[int], dict[str, list[int]]]:
    total = [0, 0, 0]
    by = collections.defaultdict(lambda: [0, 0, 0])
    for i, kind in enumerate(KINDS):
        path = directory / f"own-{kind}.jsonl"
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            record = json.loads(line)["record"]
            game = record.get("game") or directory.name
            defaults = games.get(game).options.as_dict()
            keys = [f"{k}={json.dumps(v)}" for k, v in sorted((record.get("options") or {}).items())
                    if k not in SKIP and defaults.get(k) != v]
            if game != directory.name:
                keys.append(f"game {game}")
            total[i] += 1
            for key in keys or ["(defaults)"]:
                by[key][i] += 1
    return total, dict(by)


def main() -> None:
    for directory in sorted(p for p in ROOT.iterdir() if (p / "own-scenarios.jsonl").exists()):
        total, by = counts(directory)
        print(f"{directory.name}: {' / '.join(map(str, total))}")
        for key, row in sorted(by.items()):
            print(f"  {key:45} {' / '.join(map(str, row))}")


if __name__ == "__main__":
    main()
