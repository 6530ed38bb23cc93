import json
from pathlib import Path

import pytest

CONFORMANCE = Path(__file__).parent / "conformance"


def conformance_lines(game: str, kind: str):
    path = CONFORMANCE / game / f"{kind}.jsonl"
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def conformance_params(games, kind):
    return [pytest.param(game, line, id=f"{game}:{line['id']}")
            for game in games for line in conformance_lines(game, kind)]
