"""Doppelkopf benchmarks (pytest-benchmark): legal actions at a typical moment, the Armut
return enumeration (the largest legal set), and full random deals through the Python edge
and entirely in C. `make bench` runs them; `make test` runs each once as a smoke test.

Figures to quote: µs per legal-actions call (bench_legal_codes_midgame), and deals per second
(bench_random_deals_nogil: ops x DEALS_PER_CALL)."""
import random

from engine_core import batch, games

GAME = games.get("doppelkopf")
DEALS_PER_CALL = 1000


def midgame_state():
    """Seed 1, all healthy, two tricks played: a follower to act in trick 3."""
    state = GAME.deal(1, 0)
    rng = random.Random(1)
    for _ in range(4):
        state.apply({"seat": state.to_act(), "type": "bid", "call": "healthy"})
    while len(state.core.public(0)["tricks"]) < 2 or not state.core.public(0)["trick"]["cards"]:
        state.apply(rng.choice([a for a in state.legal_actions() if a["type"] == "play"]))
    return state


def armut_return_state():
    """An accepted Armut: the acceptor chooses 3 of his 15 cards."""
    for seed in range(10_000):
        state = GAME.deal(seed, 0)
        if any(a["call"] == "armut" for a in state.legal_actions()):
            state.apply({"seat": 1, "type": "bid", "call": "armut"})
            for _ in range(3):
                state.apply({"seat": state.to_act(), "type": "bid", "call": "healthy"})
            state.apply(state.legal_actions()[0])
            state.apply({"seat": state.to_act(), "type": "bid", "call": "accept"})
            return state
    raise RuntimeError("no Armut hand found")


def bench_legal_codes_midgame(benchmark):
    core = midgame_state().core
    codes = benchmark(core.legal_codes)
    assert codes


def bench_legal_mask_midgame(benchmark):
    core = midgame_state().core
    assert benchmark(core.legal_mask)


def bench_legal_actions_json_midgame(benchmark):
    state = midgame_state()
    assert benchmark(state.legal_actions)


def bench_legal_codes_armut_return(benchmark):
    core = armut_return_state().core
    assert len(benchmark(core.legal_codes)) > 200


def _random_deal_core(seed):
    state = GAME.deal(seed, seed % 4)
    core = state.core
    rng = random.Random(seed)
    while not core.is_over():
        codes = core.legal_codes()
        core.apply(codes[int(rng.random() * len(codes))])
    return core.result()


def bench_random_deal_core(benchmark):
    """One full deal through the Python edge: Core.legal_codes + Core.apply + result."""
    seeds = iter(range(10**9))
    result = benchmark(lambda: _random_deal_core(next(seeds)))
    assert sum(result["scores"]) == 0


def bench_random_deal_state(benchmark):
    """One full deal through the record-level API (JSON actions, encode/decode)."""
    seeds = iter(range(10**9))

    def deal():
        seed = next(seeds)
        state = GAME.deal(seed, seed % 4)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        return state.result()
    assert sum(benchmark(deal)["scores"]) == 0


def bench_random_deals_nogil(benchmark):
    """DEALS_PER_CALL complete random deals (reservations, Armut, announcements, play, scoring)
    in C (`Core.copy().random_playout`, the engine's loop over the rule hooks): deals per
    second = DEALS_PER_CALL / mean."""
    base = GAME.deal(12345, 0).core
    seeds = iter(range(10**9))

    def run():
        seed = next(seeds) * DEALS_PER_CALL
        total = 0
        for i in range(DEALS_PER_CALL):
            total += sum(base.copy().random_playout(seed + i))
        return total

    assert benchmark(run) == 0
    benchmark.extra_info["deals_per_call"] = DEALS_PER_CALL


def bench_batch_playouts_cheapest(benchmark):
    """DEALS_PER_CALL batch playouts with bids="cheapest" (deal + mostly normal games: the shape
    of the C yardstick's doppelkopf_dealplay)."""
    seeds = iter(range(10**9))
    st = benchmark(lambda: batch.playouts("doppelkopf", n=DEALS_PER_CALL, seed=next(seeds), bids="cheapest"))
    assert st["n"] == DEALS_PER_CALL
