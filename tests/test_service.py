"""The gRPC service against a real server on a free port: full matches of every available
game, hidden cards never shown, every error code with its details, races, health and
reflection, batch evaluation, simulation and the Python client's commands."""
from __future__ import annotations

import io
import json
import random
import threading

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from engine_core import games, records
from engine_core.cli import evaluate_line
from engine_core.errors import IllegalActionError, OptionError
from service import convert
from service.gen.stich.v1 import stich_service_pb2 as pb
from service.server import Server
from stich_client import (InvalidRequestError, NotFoundError, PermissionDeniedError, StaleVersionError,
                          StichClient)
from stich_client import cli as stich_cli
from stich_client.errors import PreconditionError

from conftest import CONFORMANCE
from service_util import Mirror, card_strings

GAMES = games.available()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server("127.0.0.1:0", str(tmp_path_factory.mktemp("stich-data"))).start()
    yield srv
    srv.stop(2)


@pytest.fixture(scope="module")
def client(server):
    with StichClient(server.address, timeout=20) as c:
        yield c


def _rpc(method, request):
    return method(request, timeout=20)


# ---- health, reflection, games ------------------------------------------------------------------
def test_health_and_reflection(server, client):
    stub = health_pb2_grpc.HealthStub(client.channel)
    for name in ("", "stich.v1.StichService"):
        r = stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
        assert r.status == health_pb2.HealthCheckResponse.SERVING
    refl = reflection_pb2_grpc.ServerReflectionStub(client.channel)
    answers = list(refl.ServerReflectionInfo(iter([
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="stich.v1.StichService"),
    ]), timeout=5))
    services = {s.name for s in answers[0].list_services_response.service}
    assert {"stich.v1.StichService", "grpc.health.v1.Health"} <= services
    assert answers[1].file_descriptor_response.file_descriptor_proto


def test_list_games(client):
    listed = {g["name"]: g for g in client.list_games()}
    assert sorted(listed) == sorted(GAMES)
    for name in GAMES:
        rules = games.rules_of(name)
        assert listed[name]["seats"] == rules.SEATS
        assert listed[name]["options"] == json.loads(json.dumps([s.schema() for s in rules.OPTIONS]))


# ---- a full match of every game, hidden cards checked on every message ----------------------------
def _seat_views(client, table, seats, mirror):
    """Every seat's view and the spectator's, each checked for hidden cards (raw messages)."""
    views = {}
    for seat in [*range(seats), None]:
        token = table.tokens[seat] if seat is not None else table.spectator_id
        msg = _rpc(client.stub.GetView, pb.GetViewRequest(table_id=table.table_id, token=token)).view
        mirror.check(msg, seat)
        views[seat] = convert.view_dict(msg)
    return views


@pytest.mark.parametrize("game", GAMES)
def test_full_match_all_humans(client, game):
    """Every seat human: the test plays each seat with its token; at every step each seat's
    view shows its own hand and legal actions only when it is to act, the spectator sees no
    hand at all, and every event matches what that viewer may know at that version."""
    _play_match_all_humans(client, game, {}, games.get(game).seats, 1000 + len(game))


def _flipped_options(game: str) -> dict:
    """Every supported yes/no option of the game switched from its default, as far as the
    game accepts them together (announcements, Ramsch, Kontra and the like come into play)."""
    flips = {s.name: not s.default for s in games.rules_of(game).OPTIONS
             if s.kind == "bool" and s.status == "supported"}
    try:
        games.get(game, flips)
        return flips
    except OptionError:
        ok = {}
        for name, value in flips.items():
            try:
                games.get(game, {**ok, name: value})
                ok[name] = value
            except OptionError:
                pass
        return ok


@pytest.mark.parametrize("game", GAMES)
def test_full_match_with_options_switched(client, game):
    options = _flipped_options(game)
    _play_match_all_humans(client, game, options, 2, 2000 + len(game))


def test_exchange_in_a_game_without_exchanges_is_invalid(client):
    if "schafkopf" not in GAMES:
        pytest.skip("needs schafkopf")
    t = client.create_table("schafkopf", {}, 1, seed=3)
    v = client.deal(t.table_id, t.tokens[0])
    with pytest.raises(InvalidRequestError) as e:
        client.exchange(t.table_id, t.tokens[v["to_act"]], "bury", ["QC", "JC"])
    assert e.value.field == "call"


def _play_match_all_humans(client, game: str, options: dict, deals: int, seed: int) -> None:
    g = games.get(game, options)
    n = g.seats
    table = client.create_table(game, options, deals, ["human"] * n, seed=seed)
    assert sorted(table.tokens) == list(range(n)) and table.spectator_id
    assert not card_strings(table.view)
    rng = random.Random(seed)
    allowed_at: dict[int, dict] = {}
    totals = [0] * n
    for k in range(deals):
        view = client.deal(table.table_id, table.tokens[0])
        deal_game = games.get(game, view["options"])     # the match layer may carry state in
        mirror = Mirror(deal_game.deal(seed + k, k % n), n)
        mirror.check(view, 0)
        assert view["dealer"] == k % n and view["deal_number"] == k + 1
        allowed_at[view["version"]] = {s: mirror.allowed(s) for s in [*range(n), None]}
        sent = []
        while True:
            views = _seat_views(client, table, n, mirror)
            spectator = views[None]
            assert spectator["hand"] == [] and spectator["legal"] == []
            to_act = spectator["to_act"]
            for s in range(n):
                v = views[s]
                assert v["hand"] == [g.deck.code(i) for i in mirror.state.core.sort_cards(mirror.state.core.hand(s))]
                assert (v["legal"] != []) == (s == to_act)
            if to_act is None:
                break
            legal = views[to_act]["legal"]
            assert sorted(map(json.dumps, legal)) == sorted(map(json.dumps, mirror.state.legal_actions()))
            action = rng.choice(legal)
            resp = client.act(table.table_id, table.tokens[to_act], action, expected_version=views[to_act]["version"])
            mirror.apply(action)
            mirror.check(resp, to_act)
            sent.append(action)
            allowed_at[resp["version"]] = {s: mirror.allowed(s) for s in [*range(n), None]}
        score = client.score(table.table_id, table.tokens[0])
        mirror.check(score, 0)
        record = {"game": game, "options": deal_game.options.as_dict(), "dealer": k % n,
                  "hands": mirror.state.hands, "blind": mirror.state.blind, "actions": sent}
        if not g.rules.BLIND_SIZE:
            del record["blind"]
        expected = records.evaluate(record)["result"]
        assert score["result"] == json.loads(json.dumps(expected))
        totals = [a + b for a, b in zip(totals, expected["scores"])]
        assert score["match_scores"] == totals and score["deal_number"] == k + 1
    assert client.view(table.table_id, table.spectator_id)["status"] == "match_over"
    with pytest.raises(PreconditionError):
        client.deal(table.table_id, table.tokens[0])
    # every event each viewer gets, checked against what it could know at that version
    for seat in [*range(n), None]:
        token = table.tokens[seat] if seat is not None else table.spectator_id
        events = list(client.stub.WatchTable(pb.WatchTableRequest(table_id=table.table_id, token=token),
                                             timeout=20))
        versions = [r.event.version for r in events]
        assert versions == list(range(1, len(versions) + 1))
        for r in events:
            allowed = allowed_at.get(r.event.version)
            if allowed is not None:
                assert not card_strings(r.event) - allowed[seat], (seat, r.event)
            else:   # the creation event has no cards at all
                assert not card_strings(r.event)
        assert convert.event_dict(events[-1].event)["status"] == "match_over"


@pytest.mark.parametrize("game", GAMES)
def test_one_human_and_bots_play_to_the_end(client, game):
    """Only the human acts; bots act in between from their own views; the human never sees a
    card beyond its own hands, the cards played and the results."""
    n = games.get(game).seats
    seat = n - 1
    kinds = ["bot"] * n
    kinds[seat] = "human"
    table = client.create_table(game, {}, 3, kinds, seed=77)
    token = table.tokens[seat]
    assert list(table.tokens) == [seat]
    rng = random.Random(3)
    own: set[str] = set()
    deals = 0
    while True:
        v = client.view(table.table_id, token)
        if v["status"] == "match_over":
            break
        v = client.deal(table.table_id, token)
        deals += 1
        played: set[str] = set()
        while True:
            own |= set(v["hand"])
            for t in v["tricks"]:
                played |= set(t[1])
            if v["trick"]:
                played |= set(v["trick"]["cards"])
            played |= {a["card"] for a in v["actions"] if a["type"] == "play"}
            result_cards = card_strings(v["result"]) if v["result"] else set()
            assert not card_strings(v) - own - played - result_cards
            if v["status"] != "in_deal":
                break
            assert v["to_act"] == seat and v["legal"]
            v = client.act(table.table_id, token, rng.choice(v["legal"]), expected_version=v["version"])
    assert deals == 3
    score = client.score(table.table_id, token)
    assert score["match_over"] and score["deals_finished"] == 3


def test_all_bot_table_deals_without_token(client):
    game = GAMES[0]
    n = games.get(game).seats
    table = client.create_table(game, {}, 2, ["bot"] * n, seed=5)
    assert table.tokens == {}
    for _ in range(2):
        v = client.deal(table.table_id)
        assert v["status"] in ("waiting_for_deal", "match_over") and v["hand"] == []
    assert client.score(table.table_id, table.spectator_id)["match_over"]


def test_daily_deal_is_the_same_for_everyone(client):
    game = GAMES[0]
    n = games.get(game).seats
    a = client.create_table(game, {}, 1, daily_date="2026-11-29")
    b = client.create_table(game, {}, 1, daily_date="2026-11-29")
    va, vb = client.deal(a.table_id, a.tokens[0]), client.deal(b.table_id, b.tokens[0])
    assert va["hand"] == vb["hand"] == games.get(game).daily("2026-11-29").view(0)["hand"]
    assert n == len(va["seats"])


# ---- errors: every code, with its details; the table unchanged ---------------------------------
def _details(err: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    status = rpc_status.from_call(err)
    info = error_details_pb2.ErrorInfo()
    assert status.details and status.details[0].Unpack(info)
    assert info.domain == "stich.v1"
    return info


@pytest.fixture()
def table(client):
    game = GAMES[0]
    n = games.get(game).seats
    t = client.create_table(game, {}, 2, ["human"] * n, seed=42)
    client.deal(t.table_id, t.tokens[0])
    return t


def _snapshot(client, t):
    return [client.view(t.table_id, tok) for tok in [*t.tokens.values(), t.spectator_id]]


def _raw_error(call, request) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=10)
    return info.value


def test_invalid_argument(client, table):
    before = _snapshot(client, table)
    v = before[0]
    to_act = v["to_act"]
    token = table.tokens[to_act]
    err = _raw_error(client.stub.Play, pb.PlayRequest(table_id=table.table_id, token=token, card="ZZ"))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    info = _details(err)
    assert info.reason == "INVALID_ARGUMENT" and info.metadata["field"] == "card"
    assert "bad card code" in info.metadata["message"]
    with pytest.raises(InvalidRequestError) as e:
        client.bid(table.table_id, token, "no_such_call")
    assert e.value.field == "call" and e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(InvalidRequestError):
        client.play(table.table_id, token, "")
    with pytest.raises(OptionError) as e:
        client.create_table(GAMES[0], {"no_such_option": True})
    assert e.value.field == "options.no_such_option" and e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    err = _raw_error(client.stub.CreateTable, pb.CreateTableRequest(game="chess"))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and _details(err).reason == "BAD_OPTION"
    with pytest.raises(InvalidRequestError):
        client.create_table(GAMES[0], seats=["human"])
    with pytest.raises(InvalidRequestError):
        client.create_table(GAMES[0], daily_date="yesterday")
    with pytest.raises(InvalidRequestError):
        client.simulate(GAMES[0], deals=0)
    assert _snapshot(client, table) == before


def test_failed_precondition(client, table):
    before = _snapshot(client, table)
    to_act = before[0]["to_act"]
    other = (to_act + 1) % len(table.tokens)
    v = client.view(table.table_id, table.tokens[to_act])
    # not your turn: no legal alternatives are revealed to the wrong seat
    err = _raw_error(client.stub.Bid, pb.BidRequest(table_id=table.table_id, token=table.tokens[other], call="pass"))
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    info = _details(err)
    assert info.reason == "NOT_YOUR_TURN" and "legal" not in info.metadata
    # an illegal action: the reason and the legal alternatives
    card = v["hand"][0]
    err = _raw_error(client.stub.Play, pb.PlayRequest(table_id=table.table_id, token=table.tokens[to_act], card=card))
    info = _details(err)
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION and info.reason == "ILLEGAL_ACTION"
    assert json.loads(info.metadata["legal"]) == v["legal"] and info.metadata["message"]
    with pytest.raises(IllegalActionError) as e:
        client.play(table.table_id, table.tokens[to_act], card)
    assert e.value.legal == v["legal"] and e.value.reason
    with pytest.raises(PreconditionError) as e:
        client.deal(table.table_id, table.tokens[0])
    assert e.value.error_reason == "DEAL_IN_PROGRESS"
    with pytest.raises(PreconditionError):
        client.score(table.table_id, table.tokens[0], 1)
    assert _snapshot(client, table) == before


def test_permission_denied(client, table):
    before = _snapshot(client, table)
    to_act = before[0]["to_act"]
    for token in ("", "st_forged", table.spectator_id):
        err = _raw_error(client.stub.Bid, pb.BidRequest(table_id=table.table_id, token=token, call="pass"))
        assert err.code() == grpc.StatusCode.PERMISSION_DENIED and _details(err).reason == "BAD_SEAT_TOKEN"
    other = client.create_table(GAMES[0], {}, 1)
    with pytest.raises(PermissionDeniedError):
        client.view(table.table_id, other.tokens[to_act])
    with pytest.raises(PermissionDeniedError):
        list(client.watch(table.table_id, "nope", timeout=5))
    with pytest.raises(PermissionDeniedError):
        client.deal(table.table_id, "")
    assert _snapshot(client, table) == before


def test_not_found(client, table):
    err = _raw_error(client.stub.GetView, pb.GetViewRequest(table_id="t_nope", token="x"))
    assert err.code() == grpc.StatusCode.NOT_FOUND and _details(err).reason == "TABLE_NOT_FOUND"
    with pytest.raises(NotFoundError):
        client.play("t_nope", "x", "QC")
    with pytest.raises(NotFoundError) as e:
        client.score(table.table_id, table.tokens[0], 7)
    assert e.value.error_reason == "DEAL_NOT_FOUND"
    with pytest.raises(NotFoundError):
        client.score(table.table_id, table.tokens[0])      # no deal finished yet


def test_aborted_on_stale_version(client, table):
    before = _snapshot(client, table)
    v = before[0]
    to_act = v["to_act"]
    legal = client.view(table.table_id, table.tokens[to_act])["legal"]
    err = _raw_error(client.stub.Bid, pb.BidRequest(table_id=table.table_id, token=table.tokens[to_act],
                                                    call=legal[0]["call"], suit=legal[0].get("suit", ""),
                                                    expected_version=v["version"] - 1))
    assert err.code() == grpc.StatusCode.ABORTED
    info = _details(err)
    assert info.reason == "STALE_VERSION" and int(info.metadata["version"]) == v["version"]
    with pytest.raises(StaleVersionError) as e:
        client.act(table.table_id, table.tokens[to_act], legal[0], expected_version=v["version"] + 5)
    assert e.value.current_version == v["version"]
    assert _snapshot(client, table) == before
    after = client.act(table.table_id, table.tokens[to_act], legal[0], expected_version=v["version"])
    assert after["version"] == v["version"] + 1


# ---- concurrency ---------------------------------------------------------------------------------
def test_racing_clients_get_exactly_one_action(client, table):
    v = client.view(table.table_id, table.spectator_id)
    to_act = v["to_act"]
    token = table.tokens[to_act]
    legal = client.view(table.table_id, token)["legal"]
    barrier = threading.Barrier(8)
    outcomes = []

    def racer(i: int, expected):
        barrier.wait()
        try:
            client.act(table.table_id, token, legal[i % len(legal)], expected_version=expected)
            outcomes.append("ok")
        except StaleVersionError:
            outcomes.append("stale")
        except IllegalActionError:
            outcomes.append("illegal")

    for expected in (v["version"], None):
        outcomes.clear()
        barrier.reset()
        threads = [threading.Thread(target=racer, args=(i, expected)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert outcomes.count("ok") == 1, outcomes
        if expected is not None:
            assert outcomes.count("stale") == 7
        now = client.view(table.table_id, table.spectator_id)
        assert now["version"] == v["version"] + 1
        v = now
        to_act = v["to_act"]
        token = table.tokens[to_act]
        legal = client.view(table.table_id, token)["legal"]


def test_many_tables_in_parallel(client):
    game = GAMES[0]
    n = games.get(game).seats
    errors: list = []

    def run(i: int):
        try:
            t = client.create_table(game, {}, 1, ["human"] + ["bot"] * (n - 1), seed=i)
            v = client.deal(t.table_id, t.tokens[0])
            rng = random.Random(i)
            while v["status"] == "in_deal":
                v = client.act(t.table_id, t.tokens[0], rng.choice(v["legal"]), expected_version=v["version"])
            assert client.score(t.table_id, t.tokens[0])["match_over"]
        except Exception as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# ---- batch evaluation and simulation -------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_evaluate_records_matches_the_cli(client, game):
    lines = []
    for kind in ("scenarios", "illegal", "legal"):
        path = CONFORMANCE / game / f"{kind}.jsonl"
        for i, line in enumerate(path.read_text().splitlines()):
            if line.strip() and i < 40:
                obj = json.loads(line)
                lines.append(json.dumps({"id": obj["id"], "record": obj["record"]}))
    lines.append("{not json")
    lines.append(json.dumps({"game": game}))
    for with_legal in (False, True):
        answers = list(client.evaluate(lines, with_legal, timeout=60))
        expected = [json.loads(json.dumps(evaluate_line(line, i, with_legal))) for i, line in enumerate(lines, 1)]
        assert answers == expected


def test_evaluate_records_is_the_cli_byte_for_byte(client, capsys):
    """Every Schafkopf conformance file through the service and through `python -m engine_core
    evaluate`: the same output lines, byte for byte (the service answers through the CLI's line
    function, fast text path included), and each typed result says the same as its line."""
    from engine_core import cli
    for path in sorted((CONFORMANCE / "schafkopf").glob("*.jsonl")):
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        assert cli.main(["evaluate", str(path)]) == 0
        expected = capsys.readouterr().out.splitlines()
        reqs = (pb.EvaluateRecordsRequest(lines=lines[i:i + 50]) for i in range(0, len(lines), 50))
        answers = [a for r in client.stub.EvaluateRecords(reqs, timeout=60) for a in r.answers]
        assert [a.json for a in answers] == expected, path.name
        for a in answers:
            want = json.loads(a.json)
            assert convert.from_value(a.id) == want["id"]
            if "result" in want:
                assert convert.result_dict(a.result) == want["result"]
            else:
                assert a.error.reason == want["error"]["reason"]
                assert (a.error.index if a.error.HasField("index") else None) == want["error"]["index"]


def test_evaluate_records_typed_answers(client):
    game = GAMES[0]
    state = games.get(game).deal(9, 0)
    rng = random.Random(9)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    rec = state.record()
    reqs = [pb.EvaluateRecordsRequest(lines=[json.dumps(rec)]),
            pb.EvaluateRecordsRequest(lines=[json.dumps({**rec, "actions": rec["actions"][:3]}), "[]"])]
    first, second = list(client.stub.EvaluateRecords(iter(reqs), timeout=10))
    assert len(first.answers) == 1 and len(second.answers) == 2
    (done,), (unfinished, malformed) = first.answers, second.answers
    assert convert.from_value(malformed.id) == 3 and malformed.error.reason and not malformed.error.HasField("index")
    assert convert.result_dict(done.result) == json.loads(json.dumps(state.result()))
    assert convert.from_value(done.id) == 1
    assert unfinished.error.index == 3 and "deal not finished" in unfinished.error.reason


def test_simulate(client):
    game = GAMES[0]
    stats = client.simulate(game, {}, deals=200, seed=1)
    assert stats["deals"] == 200 and sum(stats["contracts"].values()) == 200
    assert len(stats["mean_scores"]) == games.get(game).seats and stats["deals_per_second"] > 0
    with pytest.raises(OptionError):
        client.simulate(game, {"nope": 1}, deals=5)


# ---- the stich command ------------------------------------------------------------------------------
def test_stich_play_in_the_terminal(client):
    out = io.StringIO()
    answers = iter(["zz", "1"] + ["1"] * 10_000)
    rc = stich_cli.play(client, GAMES[0], {}, 2, 11, 0, read=lambda prompt: next(answers), out=out)
    text = out.getvalue()
    assert rc == 0
    assert "your hand (seat 0)" in text and "*" in text and "[1]" in text
    assert "total" in text and "match totals" in text and "match over: totals" in text


def test_stich_evaluate_file(server, tmp_path, capsys):
    src = CONFORMANCE / GAMES[0] / "scenarios.jsonl"
    lines = [json.dumps({"id": o["id"], "record": o["record"]})
             for o in map(json.loads, src.read_text().splitlines()[:30])]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    assert stich_cli.main(["--server", server.address, "evaluate", str(path), "-o", str(out)]) == 0
    got = [json.loads(x) for x in out.read_text().splitlines()]
    assert got == [json.loads(json.dumps(evaluate_line(x, i, False))) for i, x in enumerate(lines, 1)]
    assert f"{len(lines)}/{len(lines)} records" in capsys.readouterr().err


def test_watch_live_and_resume(client):
    """A watcher sees each event as it happens, in version order; a second watcher resuming
    from a middle version gets exactly the rest."""
    game = GAMES[0]
    n = games.get(game).seats
    t = client.create_table(game, {}, 1, ["human"] + ["bot"] * (n - 1), seed=21)
    live: list[dict] = []
    watcher = threading.Thread(target=lambda: live.extend(client.watch(t.table_id, t.tokens[0], 0, timeout=30)))
    watcher.start()
    v = client.deal(t.table_id, t.tokens[0])
    rng = random.Random(21)
    while v["status"] == "in_deal":
        v = client.act(t.table_id, t.tokens[0], rng.choice(v["legal"]))
    watcher.join(30)
    assert not watcher.is_alive()
    assert [e["version"] for e in live] == list(range(1, v["version"] + 1))
    assert live[-1]["status"] == "match_over" and live[-1]["result"] is not None
    assert live[-1]["match_scores"] == live[-1]["result"]["scores"]
    middle = v["version"] // 2
    spectator = list(client.watch(t.table_id, t.spectator_id, middle, timeout=10))
    assert [e["version"] for e in spectator] == [e["version"] for e in live[middle:]]
    resumed = list(client.watch(t.table_id, t.tokens[0], middle, timeout=10))
    assert resumed == live[middle:]
    assert client.score(t.table_id, t.tokens[0])["result"]["scores"] == live[-1]["result"]["scores"]
    opts = client.create_table(game, {}, 3).view["options"]
    if "deals_per_match" in opts:
        assert opts["deals_per_match"] == 3


def test_watchers_are_bounded(tmp_path):
    """Open watches hold worker threads, so their number is capped (RESOURCE_EXHAUSTED past
    it) and the server keeps answering everything else."""
    srv = Server("127.0.0.1:0", None, workers=18).start()     # room for 2 watchers
    try:
        with StichClient(srv.address, timeout=10) as c:
            game = GAMES[0]
            t = c.create_table(game, {}, 1)
            streams = [c.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id),
                                         timeout=10) for _ in range(2)]
            assert all(next(s).event.version == 1 for s in streams)
            with pytest.raises(grpc.RpcError) as e:
                next(c.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id),
                                       timeout=10))
            assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert c.view(t.table_id, t.spectator_id)["version"] == 1
            for s in streams:
                s.cancel()
    finally:
        srv.stop(1)


@pytest.mark.skipif("sheepshead" not in GAMES, reason="needs sheepshead")
def test_match_layer_carries_the_sheepshead_doubler_stake(client):
    """A doubler (everyone passes) is redealt by the same dealer, does not count toward the
    match, and doubles the next deal's stake (`multiplier` from `contract.next_multiplier`)."""
    t = client.create_table("sheepshead", {"no_pick": "doubler"}, 3, seed=3)
    stakes, dealers = [], []
    while len(stakes) < 3 or client.view(t.table_id, t.spectator_id)["status"] != "waiting_for_deal":
        v = client.view(t.table_id, t.spectator_id)
        assert v["status"] != "match_over"
        if v["status"] == "waiting_for_deal":
            dealt = client.deal(t.table_id, t.tokens[0])
            stakes.append(dealt["options"]["multiplier"])
            dealers.append(dealt["dealer"])
            continue
        seat = v["to_act"]
        legal = client.view(t.table_id, t.tokens[seat])["legal"]
        passes = [a for a in legal if a["type"] == "bid" and a["call"] == "pass"]
        client.act(t.table_id, t.tokens[seat], passes[0] if passes else legal[0])
    assert stakes == [1, 2, 4] and dealers == [0, 0, 0]
    score = client.score(t.table_id, t.tokens[0], 3)
    assert score["result"]["contract"]["next_multiplier"] == 8
    assert not score["match_over"]


# ---- the loopback benchmark's child servers (make bench-report) -------------------------------------
def test_benchmark_children_serve_on_loopback_and_stop_cleanly():
    """bench-report's servers: `python -m service --memory` and the bare echo, each on a free
    127.0.0.1 port, answer, and exit 0 on SIGTERM."""
    from service import benchmark as bm
    with bm.ServerProcess(workers=20) as srv, bm.EchoProcess(workers=4) as echo:
        assert srv.address.startswith("127.0.0.1:") and echo.address.startswith("127.0.0.1:")
        with StichClient(srv.address, timeout=10) as c:
            assert c.health() == "SERVING"
            assert len(bm.play_latency(c, "schafkopf", 5, True)) == 5
        one = bm.echo_one_client(echo.address, 5, 1.0)
        assert one["calls"] == 5 and one["p50_us"] <= one["p99_us"]
    assert srv.proc.returncode == 0 and echo.proc.returncode == 0


def test_fill_struct_is_struct_update():
    """convert.fill_struct (the fast path of typed results) sets what Struct.update sets."""
    import enum
    from google.protobuf import struct_pb2

    class Level(enum.IntEnum):
        HIGH = 3

    for d in ({"a": [1, True, None, "x", {"b": 2.5, "c": []}], "n": None}, {}, {"e": {}}, {"l": [[], [0]]},
              {"t": (1, "a")}, {"i": Level.HIGH}, {"f": -1.5, "z": 0, "s": "", "no": False}):
        want, got = struct_pb2.Struct(), struct_pb2.Struct()
        want.update(d)
        convert.fill_struct(got, d)
        assert got == want and got.SerializeToString(deterministic=True) == want.SerializeToString(deterministic=True)


@pytest.mark.parametrize("game", GAMES)
def test_typed_results_round_trip(game):
    """Every result of the game's random conformance file: result_msg then result_dict gives
    the engine's result back (as JSON)."""
    path = CONFORMANCE / game / "random.jsonl"
    n = 0
    for line in path.read_text().splitlines()[:120]:
        if line.strip():
            answer = records.evaluate(json.loads(line)["record"])
            if "result" in answer:
                want = json.loads(json.dumps(answer["result"]))
                assert convert.result_dict(convert.result_msg(want)) == want
                n += 1
    assert n
