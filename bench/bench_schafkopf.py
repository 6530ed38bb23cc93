"""pytest-benchmark suites for Schafkopf: legal actions, apply, a full deal, batch playouts,
record evaluation. `make bench` times them; `make test` runs each once (--benchmark-disable)
as a smoke test. No timed assertions here: `make bench-report` prints the comparison table."""
import json
import random
from pathlib import Path

import pytest

from engine_core import batch, games, records

RANDOM_LINES = Path(__file__).resolve().parent.parent / "tests" / "conformance" / "schafkopf" / "random.jsonl"


@pytest.fixture(scope="module")
def game():
    return games.get("schafkopf")


@pytest.fixture(scope="module")
def mid_play(game):
    """A Core in the middle of the card play of a Rufspiel or solo (trick 3, second card)."""
    rng = random.Random(1)
    for seed in range(100):
        core = game.deal(seed, 0).core
        while core.phase() == "auction":
            legal = core.legal_list()               # the first speaker bids, the others pass
            core.step(legal[1] if len(legal) > 1 and core.to_act() == 1 else legal[0])
        for _ in range(9):
            if core.is_over():
                break
            core.step(rng.choice(core.legal_list()))
        if not core.is_over() and len(core.legal_list()) > 1:
            return core
    raise AssertionError("no deal reached the middle of the play")


@pytest.fixture(scope="module")
def complete_records():
    with RANDOM_LINES.open(encoding="utf-8") as f:
        recs = [json.loads(line)["record"] for line in f if line.strip()]
    return [r for r in recs if "result" in records.evaluate(r)]


def bench_legal_list(benchmark, mid_play):
    assert benchmark(mid_play.legal_list)


def bench_legal_mask(benchmark, mid_play):
    assert benchmark(mid_play.legal_mask)


def bench_state_legal_actions(benchmark, game):
    """The generic edge: record action dicts (what the service returns)."""
    state = game.deal(7, 0)
    assert benchmark(state.legal_actions)


def bench_apply_undo(benchmark, mid_play):
    code = mid_play.legal_list()[0]

    def apply_undo():
        mid_play.apply(code)
        mid_play.undo()
    benchmark(apply_undo)


def bench_full_deal_step_api(benchmark, game):
    """One seeded deal played to the end with random legal codes from Python."""
    rng = random.Random(5)

    def deal():
        core = game.deal(rng.getrandbits(63), 0).core
        seat = core.to_act()
        while seat >= 0:
            seat = core.step(rng.choice(core.legal_list()))
        return core.scores()
    assert sum(benchmark(deal)) == 0


def bench_full_deal_random_playout(benchmark, game):
    """The same, the moves chosen and applied in C (Core.random_playout)."""
    rng = random.Random(5)

    def deal():
        return game.deal(rng.getrandbits(63), 0).core.random_playout(rng.getrandbits(63))
    assert sum(benchmark(deal)) == 0


def bench_full_deal_state_api(benchmark, game):
    """The same through State with JSON actions (the service path)."""
    rng = random.Random(5)

    def deal():
        state = game.deal(rng.getrandbits(63), 0)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        return state.result()
    assert sum(benchmark(deal)["scores"]) == 0


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("bids", batch.BIDS)
def bench_batch_playouts(benchmark, threads, bids):
    st = benchmark(batch.playouts, "schafkopf", None, 20_000, 1, threads, None, bids)
    assert st["n"] == 20_000 and sum(st["score_sums"]) == 0


def bench_evaluate_records(benchmark, complete_records):
    out = benchmark(batch.evaluate, complete_records)
    assert all("result" in o for o in out)


def bench_evaluate_json_lines(benchmark, complete_records):
    lines = [json.dumps(r) for r in complete_records]
    out = benchmark(batch.evaluate, lines)
    assert all("result" in o for o in out)


def bench_evaluate_generic(benchmark, complete_records):
    """records.evaluate (the generic State replay) on the same records, for comparison."""
    recs = complete_records[:30]
    out = benchmark(lambda: [records.evaluate(r) for r in recs])
    assert all("result" in o for o in out)
