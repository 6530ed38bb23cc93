"""Sheepshead throughput: random full deals (the engine's C playout loop and the Python State
edge) and the legal-actions call. Run with `make bench` (pytest-benchmark; `benchmark` fixture)."""
import random

import pytest

from engine_core import games

GAME = games.get("sheepshead")
BATCH = 2000


def bench_random_full_deals_nogil(benchmark):
    """BATCH random deals picked, buried, called and played to the score in C
    (`Core.copy().random_playout`, the engine's loop over the rule hooks): deals per second =
    BATCH / mean."""
    base = GAME.deal(12345, 0).core
    seeds = iter(range(10**9))

    def run():
        seed = next(seeds) * BATCH
        total = 0
        for i in range(BATCH):
            total += sum(base.copy().random_playout(seed + i))
        return total

    assert benchmark(run) == 0
    benchmark.extra_info["deals_per_call"] = BATCH


def _random_deal(seed):
    state = GAME.deal(seed, seed % 5)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply_code(rng.choice(state.core.legal_codes()))
    return state.result()


def bench_random_full_deal_state_api(benchmark):
    """One random deal through the Python edge (State.apply_code, result dict)."""
    seeds = iter(range(10**9))
    result = benchmark(lambda: _random_deal(next(seeds)))
    assert sum(result["scores"]) == 0


@pytest.fixture(scope="module")
def mid_play():
    """A deal in the middle of trick 3 with a called ace in force."""
    state = GAME.deal(12345, 0)
    rng = random.Random(1)
    while state.phase() != "play" or len(state.actions) < 20:
        legal = state.core.legal_codes()
        state.apply_code(legal[0] if state.phase() == "pick" else rng.choice(legal))
    return state


def bench_legal_codes(benchmark, mid_play):
    """The core's legal-actions call (integer codes)."""
    codes = benchmark(mid_play.core.legal_codes)
    assert codes


def bench_legal_mask(benchmark, mid_play):
    """The legal cards as one mask (the play-phase fast path)."""
    assert benchmark(mid_play.core.legal_mask)


def bench_legal_actions_dicts(benchmark, mid_play):
    """State.legal_actions(): the record action objects a client receives."""
    assert benchmark(mid_play.legal_actions)


def bench_legal_actions_bury(benchmark):
    """The 28 bury exchanges after a pick."""
    state = GAME.deal(99, 0)
    state.apply({"seat": 1, "type": "bid", "call": "pick"})
    assert len(benchmark(state.core.legal_codes)) == 28
