"""RPC benchmarks over loopback (a server process on a free port, SQLite in a temp dir):
one Play round trip against bots, and EvaluateRecords throughput. Run by `make bench`; under
`make test` (--benchmark-disable) each runs once as a smoke test. The percentile and echo-
referenced figures are `make bench-report`'s gRPC rows (service.benchmark)."""
from __future__ import annotations

import random
import time

import pytest

from engine_core import games
from service.benchmark import ServerProcess, finished_records
from stich_client import StichClient

GAME = "schafkopf"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with ServerProcess(str(tmp_path_factory.mktemp("bench-data"))) as srv, \
            StichClient(srv.address, timeout=30) as c:
        yield c


def bench_play_round_trip(benchmark, client):
    """One Play call (the human's card and its SQLite commit; the bots answer afterwards, off
    the request path)."""
    n = games.get(GAME).seats
    rng = random.Random(1)
    state = {"table": None, "view": None, "seed": 0}

    def next_play():
        while True:
            v = state["view"]
            if v is None or v["status"] != "in_deal":
                t = client.create_table(GAME, {}, 1, ["human"] + ["bot"] * (n - 1), seed=state["seed"])
                state["seed"] += 1
                state["table"] = t
                v = state["view"] = client.deal(t.table_id, t.tokens[0])
                continue
            if not v["legal"]:
                # the bots are to act: they think off the request path, so wait for the
                # human's turn (setup, not timed)
                time.sleep(0.001)
                state["view"] = client.view(state["table"].table_id, state["table"].tokens[0])
                continue
            plays = [a for a in v["legal"] if a["type"] == "play"]
            if plays:
                return state["table"], rng.choice(plays)
            state["view"] = client.act(state["table"].table_id, state["table"].tokens[0], rng.choice(v["legal"]))

    def play(table, action):
        state["view"] = client.play(table.table_id, table.tokens[0], action["card"])

    benchmark.pedantic(lambda args: play(*args), setup=lambda: ((next_play(),), {}), rounds=200)


def bench_evaluate_records_1000(benchmark, client):
    lines = finished_records(GAME, 1000)
    answers = benchmark(lambda: sum(1 for _ in client.evaluate(lines, timeout=120)))
    assert answers == 1000
