"""Klaverjas benchmarks (pytest-benchmark): random full deals in C and through the State API,
and the legal-actions call at a position inside a trick. Run with `make bench`."""
import random

import pytest

from engine_core import games

BATCH = 2000


@pytest.fixture(scope="module")
def game():
    return games.get("klaverjas")


def _mid_trick(game, ruleset_options=None):
    """A deal in its fourth trick, second seat to act (the trumping rules at work)."""
    g = games.get("klaverjas", ruleset_options) if ruleset_options else game
    rng = random.Random(3)
    state = g.deal(seed=12345, dealer=0)
    while not (state.phase() == "play" and len(state.view(0)["tricks"]) == 3
               and len(state.view(0)["trick"]["cards"]) == 1):
        state.apply(rng.choice(state.legal_actions()))
    return state


def bench_random_full_deals_nogil(benchmark, game):
    """BATCH whole random deals (trump choice, 32 cards, scoring) in nogil C: Core.random_playout
    from copies of dealt deals."""
    starts = [game.deal(seed=s, dealer=s % 4).core for s in range(16)]

    def run():
        total = 0
        for k in range(BATCH):
            total += starts[k % 16].copy().random_playout(k)[0]
        return total
    assert benchmark(run) > 0
    if benchmark.stats is not None:          # None with --benchmark-disable
        benchmark.extra_info["deals_per_second"] = BATCH / benchmark.stats.stats.mean


def bench_random_full_deal_state_api(benchmark, game):
    """One random deal through the Python State API (JSON action dicts, as a server does)."""
    rng = random.Random(7)

    def deal():
        state = game.deal(seed=rng.getrandbits(64), dealer=0)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        return state.result()
    assert benchmark(deal)["scores"]


def bench_random_full_deal_core_codes(benchmark, game):
    """One random deal through Core integer codes (legal_codes + apply), as search code does."""
    rng = random.Random(9)
    start = game.deal(seed=99, dealer=0).core

    def deal():
        core = start.copy()
        while not core.is_over():
            codes = core.legal_codes()
            core.apply(codes[rng.randrange(len(codes))])
        return core
    assert benchmark(deal).is_over()


@pytest.mark.parametrize("ruleset", ["amsterdam", "rotterdam"])
def bench_legal_codes(benchmark, game, ruleset):
    """Core.legal_codes() inside a trick (integer codes)."""
    core = _mid_trick(game, {"ruleset": ruleset}).core
    assert benchmark(core.legal_codes)


def bench_legal_mask(benchmark, game):
    """Core.legal_mask() inside a trick (one uint64)."""
    core = _mid_trick(game).core
    assert benchmark(core.legal_mask)


def bench_legal_actions_state(benchmark, game):
    """State.legal_actions() inside a trick (record action dicts)."""
    state = _mid_trick(game)
    assert benchmark(state.legal_actions)
