"""Simulate: random playouts of seeded deals, for the Simulate RPC.

One function, `simulate`, chooses the engine: `engine_core.batch.playouts` (GIL-free Cython)
when this build has it, else a plain loop over `State` with uniform random legal actions.
"""
from __future__ import annotations

import random
import time
from collections import Counter

from engine_core import games

MAX_DEALS = 1_000_000


class Cancelled(Exception):
    """The caller went away (cancelled or past its deadline): stop playing."""


def simulate(game_name: str, options: dict, n: int, seed: int, cancelled=lambda: False) -> dict:
    """{deals, contracts: {type: count}, mean_scores, seconds, deals_per_second, engine}."""
    game = games.get(game_name, options)
    started = time.perf_counter()
    stats = _batch(game, options, n, seed)
    engine = "batch"
    if stats is None:
        stats = _loop(game, n, seed, cancelled)
        engine = "python"
    seconds = max(time.perf_counter() - started, 1e-9)
    return {"deals": n, "contracts": stats["contracts"], "mean_scores": stats["mean_scores"],
            "seconds": seconds, "deals_per_second": n / seconds, "engine": engine}


def _batch(game, options: dict, n: int, seed: int) -> dict | None:
    """The batch engine's statistics in this module's shape, or None when it is not built or
    answers in a shape this adapter does not know."""
    try:
        from engine_core import batch
    except ImportError:
        return None
    playouts = getattr(batch, "playouts", None)
    if playouts is None:
        return None
    try:
        out = playouts(game.name, game.options.as_dict(), n, seed)
    except (ValueError, NotImplementedError):      # no batch path for this game in this build
        return None
    if isinstance(out, dict) and "contracts" in out and "mean_scores" in out:
        return {"contracts": {str(k): int(v) for k, v in dict(out["contracts"]).items()},
                "mean_scores": [float(x) for x in out["mean_scores"]]}
    return None


def _loop(game, n: int, seed: int, cancelled) -> dict:
    contracts: Counter = Counter()
    totals = [0] * game.seats
    for k in range(n):
        if k % 256 == 255 and cancelled():
            raise Cancelled()
        state = game.deal((seed + k) % 2**64, k % game.seats)
        rng = random.Random(seed + k)
        while not state.is_over():
            state.apply_code(rng.choice(state.core.legal_codes()))
        result = state.result()
        contracts[(result.get("contract") or {}).get("type", "none")] += 1
        totals = [t + s for t, s in zip(totals, result["scores"])]
    return {"contracts": dict(contracts), "mean_scores": [t / n for t in totals]}
