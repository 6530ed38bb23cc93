"""Simulate: random playouts of seeded deals through `engine_core.batch.playouts`, the only
playout path, in slices so that a long run honours its deadline and cancellation.

Deal k (0-based) is dealt from deal_seed(seed, k) = seed + k with dealer k % seats, and its
random choices come from the same stream: a slice of deals [k0, k1) is playouts(n=k1-k0,
seed=seed+k0) as long as k0 is a multiple of the seat count (every slice here is a multiple of
the game's seat count long: 20,000 rounded down to one), and the statistics are integer sums, so the answer is the same as
one `playouts(game, options, deals, seed)` call, whatever the slicing.
"""
from __future__ import annotations

import asyncio
import time
from collections import Counter
from concurrent.futures import Executor

from engine_core import batch, games

MAX_DEALS = 1_000_000
SLICE = 20_000            # deals per unit of work, rounded down to a multiple of the game's seat count


async def simulate(executor: Executor, game_name: str, options: dict, n: int, seed: int) -> dict:
    """{deals, contracts: {type: count}, mean_scores, seconds, deals_per_second, engine}."""
    game = games.get(game_name, options)
    resolved = game.options.as_dict()
    loop = asyncio.get_running_loop()
    contracts: Counter = Counter()
    sums = [0] * game.seats
    started = time.perf_counter()
    step = SLICE - SLICE % game.seats
    for k0 in range(0, n, step):
        k1 = min(n, k0 + step)
        part = await loop.run_in_executor(executor, lambda a=k0, b=k1: batch.playouts(
            game_name, resolved, b - a, (seed + a) % 2**64))
        contracts.update(part["contracts"])
        sums = [s + t for s, t in zip(sums, part["score_sums"])]
    seconds = max(time.perf_counter() - started, 1e-9)
    return {"deals": n, "contracts": dict(contracts), "mean_scores": [s / n for s in sums],
            "seconds": seconds, "deals_per_second": n / seconds, "engine": "batch"}
