"""The gRPC service against a real server process on a free loopback port: full matches of
every game, the errors of every code with their ErrorInfo, idempotent actions, versions and
races, watching, batch evaluation, simulation and the client's `stich` command.

Parametrised over every registered game: a game not yet built in this tree fails its cases.
"""
from __future__ import annotations

import io
import json
import random
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from engine_core import _codec, batch, games, records
from engine_core._rng import deal_seed
from stich_client import (IllegalActionError, InvalidActionError, InvalidRequestError, NotFoundError,
                          OptionError, PermissionDeniedError, PreconditionError, ResourceExhaustedError,
                          StaleVersionError, StichClient, convert)
from stich_client import cli as stich_cli
from stich_client import table_view
from stich_client.errors import error_info
from stich_client.gen.stich.v1 import stich_service_pb2 as pb

from conftest import CONFORMANCE, conformance_lines, tool, wire
from service.testing import ServerProcess
from service.testing.hidden import Mirror, card_strings

adversary = tool("adversary")

GAMES = games.available()


def _info(err: grpc.RpcError):
    info = error_info(err)
    assert info is not None and info.domain == "stich.v1", err
    return info


def _raw_error(call, request) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=10)
    return caught.value


# ---- health, reflection, games ------------------------------------------------------------------
def test_health_and_reflection(client):
    stub = health_pb2_grpc.HealthStub(client.channel)
    for name in ("", "stich.v1.StichService"):
        assert stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=5).status == \
            health_pb2.HealthCheckResponse.SERVING
    refl = reflection_pb2_grpc.ServerReflectionStub(client.channel)
    answers = list(refl.ServerReflectionInfo(iter([
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="stich.v1.StichService"),
    ]), timeout=5))
    services = {s.name for s in answers[0].list_services_response.service}
    assert {"stich.v1.StichService", "grpc.health.v1.Health"} <= services
    assert answers[1].file_descriptor_response.file_descriptor_proto


@pytest.mark.parametrize("game", GAMES)
def test_list_games(client, game):
    listed = {g["name"]: g for g in client.list_games()}
    spec = games.spec_of(game)
    assert listed[game]["seats"] == spec.seats and listed[game]["hand_size"] == spec.hand_size
    assert listed[game]["options"] == json.loads(json.dumps([o.schema() for o in spec.options]))
    assert listed[game]["words"] == spec.words and listed[game]["words"]["en"]["calls"]
    # the game's presets with their options as declared, each named in words in every language
    assert listed[game]["presets"] == json.loads(json.dumps(spec.presets))
    for lang, words in spec.words.items():
        assert set(words.get("presets", {})) == set(spec.presets), (game, lang)


def test_list_games_serves_the_words_in_every_language(client, monkeypatch):
    """ListGames carries each game's German, Dutch and Urdu words, so a German reader's client
    says a finished Schafkopf Sauspiel's contract and breakdown in German from what it was served."""
    served = {g["name"]: g["words"] for g in client.list_games()}
    for game in ("schafkopf", "doppelkopf", "sheepshead", "klaverjas"):
        assert set(served[game]) == {"en", "de", "nl", "ur"}, game
    monkeypatch.setattr(table_view, "LANGUAGE", "de")
    words = table_view.Words(served["schafkopf"])
    for seed in range(20):
        state, rng = games.get("schafkopf").deal(seed), random.Random(seed)
        while not state.is_over():
            legal = state.legal_actions()
            bids = [a for a in legal if a.get("type") == "bid"]          # the first Sauspiel, else pass
            state.apply(next((a for a in bids if a["call"] == "rufspiel"), None)
                        or next((a for a in bids if a["call"] == "pass"), None) or rng.choice(legal))
        result = state.view(0)["result"]
        if result["contract"]["type"] == "rufspiel":
            break
    contract = result["contract"]
    suit = {"C": "Eichel", "S": "Gras", "D": "Schellen"}[contract["suit"]]
    assert words.contract(contract, None).startswith(f"Sauspiel auf die {suit}-Sau, Spieler: seat {contract['declarer']}")
    said = [words.item(b["item"]) for b in result["breakdown"]]
    assert "Spiel" in said and "Summe" in said, said


# ---- full matches -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_full_match_all_humans(client, game):
    """Every seat human, played by the test through the service: each seat's view shows its
    own hand and its legal actions only in its turn, the scores are the engine's for the
    record the test kept, the totals add up, and no message shows a card the viewer may not
    know (adversary.play_match_checked checks views, responses, errors, scores and events)."""
    g = games.get(game)
    n = g.seats
    stats = adversary.LeakStats()
    adversary.play_match_checked(client, game, {}, 2, 1000 + len(game), stats, random.Random(3))
    assert not stats.leaks, stats.leaks[:3]
    assert stats.deals == 2 and stats.messages > 50
    # the same match again by the engine alone: the scores agree
    t = client.create_table(game, {}, 2, ["human"] * n, seed=77)
    rng = random.Random(77)
    totals = [0] * n
    for k in range(2):
        view = client.deal(t.table_id, t.tokens[0])
        state = games.get(game, view["options"]).deal(deal_seed(77, k), view["dealer"])
        while not state.is_over():
            seat = state.to_act()
            mine = client.view(t.table_id, t.tokens[seat])
            assert mine["hand"] == [g.deck.code(i) for i in state.core.sort_cards(state.core.hand(seat))]
            assert sorted(map(json.dumps, mine["legal"])) == sorted(map(json.dumps, state.legal_actions()))
            others = [client.view(t.table_id, t.tokens[s])["legal"] for s in range(n) if s != seat]
            assert all(legal == [] for legal in others)
            action = rng.choice(mine["legal"])
            client.act(t.table_id, t.tokens[seat], action)
            state.apply(action)
        score = client.score(t.table_id, t.tokens[0])
        assert wire(score["result"]) == wire(json.loads(json.dumps(state.result_for(0))))
        totals = [a + b for a, b in zip(totals, state.result()["scores"])]
        assert score["match_scores"] == totals and score["deal_number"] == k + 1
    assert client.view(t.table_id, t.spectator_id)["status"] in ("match_over", "waiting_for_deal")


@pytest.mark.parametrize("game", GAMES)
def test_one_human_and_bots_play_to_the_end(client, game):
    """Only the human acts; the bots act after its calls (seen through the events) from their
    own views; the human never sees a card beyond what it held and what was played face up."""
    n = games.get(game).seats
    seat = n - 1
    kinds = ["bot:easy"] * n
    kinds[seat] = "human"
    table = client.create_table(game, {}, 3, kinds, seed=77)
    token = table.tokens[seat]
    assert list(table.tokens) == [seat]
    rng = random.Random(3)
    own: set[str] = set()
    deals = 0
    while client.view(table.table_id, token)["status"] != "match_over":
        client.deal(table.table_id, token)
        v = client.wait_turn(table.table_id, token)
        deals += 1
        while True:
            own |= set(v["hand"])
            played = {a["card"] for a in v["actions"] if a["type"] == "play"}
            extra = card_strings(v) - own - played
            assert not extra, (sorted(extra), {k: x for k, x in v.items() if card_strings(x) & extra})
            if v["status"] != "in_deal":
                break
            assert v["to_act"] == seat and v["legal"]
            client.act(table.table_id, token, rng.choice(v["legal"]), expected_version=v["version"])
            v = client.wait_turn(table.table_id, token)
    score = client.score(table.table_id, token)
    assert score["match_over"] and deals >= 3


def test_all_bot_table_deals_without_token(client):
    game = GAMES[0]
    n = games.get(game).seats
    table = client.create_table(game, {}, 2, ["bot:easy"] * n, seed=5)
    assert table.tokens == {}
    for _ in range(2):
        v = client.deal(table.table_id)
        assert v["status"] == "in_deal" and v["hand"] == [] and v["seat"] is None
        v = client.wait_turn(table.table_id, table.spectator_id)        # the bots play it out
        assert v["status"] in ("waiting_for_deal", "match_over")
    assert client.score(table.table_id, table.spectator_id)["match_over"]


def test_daily_deal_is_the_same_for_everyone(client):
    """A past day's deal (practice) is the same at every table, and not the public v1 seed's:
    the server keys it (test_service_fair)."""
    game = GAMES[0]
    a = client.create_table(game, {}, 1, daily_date="2026-11-29")
    b = client.create_table(game, {}, 1, daily_date="2026-11-29")
    va, vb = client.deal(a.table_id, a.tokens[0]), client.deal(b.table_id, b.tokens[0])
    assert va["hand"] == vb["hand"] != games.get(game).daily("2026-11-29").view(0)["hand"]


def test_score_of_an_earlier_deal_is_replayed_from_the_store(client):
    game = GAMES[0]
    n = games.get(game).seats
    t = client.create_table(game, {}, 3, ["human"] + ["bot:easy"] * (n - 1), seed=8)
    rng = random.Random(8)
    results = []
    for _ in range(3):
        client.deal(t.table_id, t.tokens[0])
        v = client.wait_turn(t.table_id, t.tokens[0])
        while v["status"] == "in_deal":
            client.act(t.table_id, t.tokens[0], rng.choice(v["legal"]))
            v = client.wait_turn(t.table_id, t.tokens[0])
        results.append(client.score(t.table_id, t.spectator_id)["result"])
    for k in (1, 2, 3):
        s = client.score(t.table_id, t.spectator_id, k)
        assert s["result"] == results[k - 1] and s["deals_finished"] == 3 and s["match_over"]


# ---- errors: every code with its ErrorInfo; the table unchanged --------------------------------
@pytest.fixture()
def table(client):
    game = GAMES[0]
    n = games.get(game).seats
    t = client.create_table(game, {}, 2, ["human"] * n, seed=42)
    client.deal(t.table_id, t.tokens[0])
    return t


def _snapshot(client, t):
    return [client.view(t.table_id, tok) for tok in [*t.tokens.values(), t.spectator_id]]


def test_invalid_argument(client, table):
    before = _snapshot(client, table)
    to_act = before[0]["to_act"]
    token = table.tokens[to_act]
    err = _raw_error(client.stub.Bid, pb.BidRequest(table_id=table.table_id, token=token, call="rufspiel",
                                                    suit="X"))
    info = _info(err)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and info.reason == "BAD_SUIT"
    assert "bad suit" in info.metadata["message"]
    assert json.loads(info.metadata["legal"]) == before[to_act]["legal"]
    with pytest.raises(InvalidActionError) as e:
        client.bid(table.table_id, token, "no_such_call")
    assert e.value.reason_id == "UNKNOWN_CALL" and e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert e.value.legal == before[to_act]["legal"]
    with pytest.raises(OptionError) as e:
        client.create_table(GAMES[0], {"no_such_option": True})
    assert e.value.field == "options.no_such_option" and e.value.reason_id == "BAD_OPTION"
    err = _raw_error(client.stub.CreateTable, pb.CreateTableRequest(game="chess"))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and _info(err).reason == "BAD_OPTION"
    with pytest.raises(InvalidRequestError) as e:
        client.create_table(GAMES[0], seats=["human"])
    assert e.value.field == "seats"
    with pytest.raises(InvalidRequestError) as e:
        client.create_table(GAMES[0], daily_date="yesterday")
    assert e.value.field == "daily_date"
    with pytest.raises(InvalidRequestError):
        client.simulate(GAMES[0], deals=0)
    with pytest.raises(InvalidRequestError) as e:
        client.play(table.table_id, token, "QC", request_id="not a valid id!")
    assert e.value.reason_id == "BAD_REQUEST_ID" and e.value.field == "request_id"
    assert _snapshot(client, table) == before


def test_failed_precondition_and_the_engines_reason_ids(client, table):
    before = _snapshot(client, table)
    to_act = before[0]["to_act"]
    other = (to_act + 1) % len(table.tokens)
    v = before[to_act]
    # not your turn: no legal alternatives, no text naming them, for the wrong seat
    err = _raw_error(client.stub.Bid, pb.BidRequest(table_id=table.table_id, token=table.tokens[other], call="pass"))
    info = _info(err)
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION and info.reason == "NOT_YOUR_TURN"
    assert info.metadata["legal"] == "[]" and not card_strings(info.metadata["message"])
    # an action against the rules: the engine's reason id, its text and the legal alternatives
    card = v["hand"][0]
    err = _raw_error(client.stub.Play, pb.PlayRequest(table_id=table.table_id, token=table.tokens[to_act], card=card))
    info = _info(err)
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION and info.reason == "WRONG_PHASE"
    assert json.loads(info.metadata["legal"]) == v["legal"] and info.metadata["message"]
    with pytest.raises(IllegalActionError) as e:
        client.play(table.table_id, table.tokens[to_act], card)
    assert e.value.legal == v["legal"] and e.value.reason_id == "WRONG_PHASE"
    with pytest.raises(PreconditionError) as e:
        client.deal(table.table_id, table.tokens[0])
    assert e.value.reason_id == "DEAL_IN_PROGRESS"
    with pytest.raises(PreconditionError) as e:
        client.score(table.table_id, table.tokens[0], 1)
    assert e.value.reason_id == "DEAL_NOT_FINISHED"
    assert _snapshot(client, table) == before


def test_must_follow_suit_is_the_engines_reason(client):
    """Play until a seat could play a card that does not follow: the engine's id comes back."""
    game = GAMES[0]
    n = games.get(game).seats
    rng = random.Random(1)
    for seed in range(40):
        t = client.create_table(game, {}, 1, ["human"] * n, seed=seed)
        v = client.deal(t.table_id, t.tokens[0])
        while v["status"] == "in_deal":
            seat = client.view(t.table_id, t.spectator_id)["to_act"]
            mine = client.view(t.table_id, t.tokens[seat])
            legal_cards = {a["card"] for a in mine["legal"] if a["type"] == "play"}
            wrong = [c for c in mine["hand"] if legal_cards and c not in legal_cards]
            if wrong:
                with pytest.raises(IllegalActionError) as e:
                    client.play(t.table_id, t.tokens[seat], wrong[0])
                assert e.value.reason_id != "ILLEGAL_ACTION" and e.value.reason_id.isupper()
                assert e.value.legal == mine["legal"]
                return
            v = client.act(t.table_id, t.tokens[seat], rng.choice(mine["legal"]))
    pytest.fail("no deal offered a card that does not follow")


def test_permission_denied(client, table):
    before = _snapshot(client, table)
    to_act = before[0]["to_act"]
    for token in ("", "st_forged", table.spectator_id):
        err = _raw_error(client.stub.Bid, pb.BidRequest(table_id=table.table_id, token=token, call="pass"))
        assert err.code() == grpc.StatusCode.PERMISSION_DENIED and _info(err).reason == "BAD_SEAT_TOKEN"
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
    assert err.code() == grpc.StatusCode.NOT_FOUND and _info(err).reason == "TABLE_NOT_FOUND"
    with pytest.raises(NotFoundError):
        client.play("t_nope", "x", "QC")
    with pytest.raises(NotFoundError) as e:
        client.score(table.table_id, table.tokens[0], 7)
    assert e.value.reason_id == "DEAL_NOT_FOUND"
    with pytest.raises(NotFoundError):
        client.score(table.table_id, table.tokens[0])      # no deal finished yet


def test_aborted_on_stale_version(client, table):
    before = _snapshot(client, table)
    v = before[0]
    to_act = v["to_act"]
    legal = before[to_act]["legal"]
    err = _raw_error(client.stub.Bid, pb.BidRequest(table_id=table.table_id, token=table.tokens[to_act],
                                                    call=legal[0]["call"], suit=legal[0].get("suit", ""),
                                                    expected_version=v["version"] - 1))
    info = _info(err)
    assert err.code() == grpc.StatusCode.ABORTED and info.reason == "STALE_VERSION"
    assert int(info.metadata["version"]) == v["version"]
    with pytest.raises(StaleVersionError) as e:
        client.act(table.table_id, table.tokens[to_act], legal[0], expected_version=v["version"] + 5)
    assert e.value.current_version == v["version"]
    assert _snapshot(client, table) == before
    after = client.act(table.table_id, table.tokens[to_act], legal[0], expected_version=v["version"])
    assert after["version"] == v["version"] + 1


def test_resource_exhausted_past_the_per_peer_stream_limit(tmp_path):
    with ServerProcess(None, "--max-streams-per-peer", "3") as srv, StichClient(srv.address) as c:
        t = c.create_table(GAMES[0], {}, 1)
        streams = [c.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id), timeout=10)
                   for _ in range(3)]
        assert all(next(s).event.version == 1 for s in streams)
        with pytest.raises(grpc.RpcError) as e:
            next(c.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id), timeout=10))
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and _info(e.value).reason == "TOO_MANY_STREAMS"
        with pytest.raises(ResourceExhaustedError):
            list(c.evaluate(["{}"]))
        assert c.view(t.table_id, t.spectator_id)["version"] == 1       # unary calls go on
        streams[0].cancel()
        assert adversary_wait(lambda: _opens(c, t))


def adversary_wait(predicate, timeout=5.0):
    from service.testing import wait_until
    return wait_until(predicate, timeout)


def _opens(c, t) -> bool:
    s = c.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id), timeout=5)
    try:
        return next(s).event.version == 1
    except grpc.RpcError:
        return False
    finally:
        s.cancel()


# ---- idempotent actions (AIP-155) -----------------------------------------------------------------
def test_a_retry_with_the_same_request_id_returns_the_original_answer(client, table):
    v = client.view(table.table_id, table.spectator_id)
    seat = v["to_act"]
    action = client.view(table.table_id, table.tokens[seat])["legal"][0]
    req = pb.BidRequest(table_id=table.table_id, token=table.tokens[seat], call=action["call"],
                        suit=action.get("suit", ""), request_id="retry-1")
    first = client.stub.Bid(req, timeout=10)
    again = client.stub.Bid(req, timeout=10)
    assert again.SerializeToString(deterministic=True) == first.SerializeToString(deterministic=True)
    assert client.view(table.table_id, table.spectator_id)["version"] == v["version"] + 1
    # the same id for another request of the table: refused, nothing applied
    other = pb.BidRequest(table_id=table.table_id, token=table.tokens[(seat + 1) % 4], call="pass",
                          request_id="retry-1")
    err = _raw_error(client.stub.Bid, other)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and _info(err).reason == "REQUEST_ID_REUSED"
    assert client.view(table.table_id, table.spectator_id)["version"] == v["version"] + 1
    # Deal is idempotent too: a retried Deal does not start a second deal
    t = client.create_table(GAMES[0], {}, 3, seed=4)
    d1 = client.deal(t.table_id, t.tokens[0], request_id="deal-1")
    d2 = client.deal(t.table_id, t.tokens[0], request_id="deal-1")
    assert d1 == d2 and d1["deal_number"] == 1


def test_the_client_sets_a_request_id_on_every_action(client, table, monkeypatch):
    seen = []

    class Spy:                          # the stub, recording every request it sends
        def __init__(self, stub):
            self.stub = stub

        def __getattr__(self, name):
            method = getattr(self.stub, name)

            def call(request, **kwargs):
                seen.append(request)
                return method(request, **kwargs)
            return call

    monkeypatch.setattr(client, "stub", Spy(client.stub))
    v = client.view(table.table_id, table.spectator_id)
    seat = v["to_act"]
    client.act(table.table_id, table.tokens[seat], client.view(table.table_id, table.tokens[seat])["legal"][0])
    acts = [r for r in seen if hasattr(r, "request_id")]
    assert acts and all(len(r.request_id) == 36 for r in acts)


# ---- concurrency -------------------------------------------------------------------------------------
def test_racing_clients_get_exactly_one_action(server):
    out = adversary.race(rounds=6, racers=8, address=server.address)
    assert out["one_winner"] == 6 and out["bad_rounds"] == 0


def test_many_tables_in_parallel(client):
    game = GAMES[0]
    n = games.get(game).seats
    errors: list = []

    def run(i: int):
        try:
            t = client.create_table(game, {}, 1, ["human"] + ["bot:easy"] * (n - 1), seed=i)
            client.deal(t.table_id, t.tokens[0])
            v = client.wait_turn(t.table_id, t.tokens[0])
            rng = random.Random(i)
            while v["status"] == "in_deal":
                client.act(t.table_id, t.tokens[0], rng.choice(v["legal"]), expected_version=v["version"])
                v = client.wait_turn(t.table_id, t.tokens[0])
            assert client.score(t.table_id, t.tokens[0])["match_over"]
        except Exception as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# ---- watching -------------------------------------------------------------------------------------------
def test_watch_live_and_resume(client):
    """A watcher sees each event as it happens, in version order; a watcher resuming from a
    version in an earlier deal (replayed from the store) gets exactly the rest."""
    game = GAMES[0]
    n = games.get(game).seats
    t = client.create_table(game, {}, 2, ["human"] + ["bot:easy"] * (n - 1), seed=21)
    live: list[dict] = []
    watcher = threading.Thread(target=lambda: live.extend(client.watch(t.table_id, t.tokens[0], 0, timeout=30)))
    watcher.start()
    rng = random.Random(21)
    for _ in range(2):
        client.deal(t.table_id, t.tokens[0])
        v = client.wait_turn(t.table_id, t.tokens[0])
        while v["status"] == "in_deal":
            client.act(t.table_id, t.tokens[0], rng.choice(v["legal"]))
            v = client.wait_turn(t.table_id, t.tokens[0])
    watcher.join(30)
    assert not watcher.is_alive()
    assert [e["version"] for e in live] == list(range(1, v["version"] + 1))
    assert live[-1]["status"] == "match_over" and live[-1]["result"] is not None
    assert live[-1]["match_scores"] == client.score(t.table_id, t.tokens[0])["match_scores"]
    for middle in (1, 3, v["version"] // 2, v["version"] - 1):
        resumed = list(client.watch(t.table_id, t.tokens[0], middle, timeout=10))
        assert resumed == live[middle:]
    spectator = list(client.watch(t.table_id, t.spectator_id, 0, timeout=10))
    assert [e["version"] for e in spectator] == [e["version"] for e in live]


# ---- batch evaluation and simulation -------------------------------------------------------------
def _conformance_lines(game: str, per_file: int = 40) -> list[str]:
    lines = []
    for kind in ("scenarios", "illegal", "legal", "random"):
        for obj in conformance_lines(game, kind)[:per_file]:
            lines.append(json.dumps({"id": obj["id"], "record": obj["record"]}))
    return lines + ["{not json", json.dumps({"game": game}), "[]", '{"id": "x", "record": 5}']


@pytest.mark.parametrize("game", GAMES)
def test_evaluate_records_is_the_cli_byte_for_byte(client, game):
    """The `json` of every answer is the line `python -m engine_core evaluate` writes, with and
    without legal actions, and the typed answer says the same."""
    lines = _conformance_lines(game)
    for with_legal in (False, True):
        reqs = (pb.EvaluateRecordsRequest(lines=lines[i:i + 7], with_legal=with_legal) for i in range(0, len(lines), 7))
        answers = [a for r in client.stub.EvaluateRecords(reqs, timeout=120) for a in r.answers]
        assert [a.json.encode() for a in answers] == \
            [_codec.evaluate_line_bytes(line, i, with_legal) for i, line in enumerate(lines, 1)]
        for a in answers:
            want = json.loads(a.json)
            assert convert.from_value(a.id) == want["id"]
            if "result" in want:
                assert wire(convert.result_dict(a.result)) == wire(want["result"])
            else:
                assert a.error.reason == want["error"]["reason"] and a.error.reason_id == want["error"]["reason_id"]
                assert (a.error.index if a.error.HasField("index") else None) == want["error"]["index"]
            if with_legal:
                assert [[convert.action_dict(x) for x in la.actions] for la in a.legal] == want.get("legal", [])


def test_evaluate_records_answers_in_order_in_responses_of_bounded_size(server):
    with ServerProcess(None, "--response-bytes", "4096", "--evaluate-slice-lines", "5") as srv, \
            StichClient(srv.address) as c:
        lines = _conformance_lines(GAMES[0], per_file=30)
        reqs = [pb.EvaluateRecordsRequest(lines=lines), pb.EvaluateRecordsRequest(lines=[]),
                pb.EvaluateRecordsRequest(lines=lines[:3])]
        responses = list(c.stub.EvaluateRecords(iter(reqs), timeout=60))
        assert len(responses) > 3
        assert all(r.ByteSize() <= 4096 or len(r.answers) == 1 for r in responses)
        got = [a.json.encode() for r in responses for a in r.answers]
        assert got == [_codec.evaluate_line_bytes(x, i, False) for i, x in enumerate(lines + lines[:3], 1)]


@pytest.mark.parametrize("game", GAMES)
def test_simulate_is_batch_playouts(client, game):
    """Simulate gives the statistics of one engine_core.batch.playouts call of the same
    request, whatever slices the server cut it into (deal k is deal_seed(seed, k))."""
    stats = client.simulate(game, {}, deals=45_007, seed=2**64 - 9)
    want = batch.playouts(game, {}, 45_007, 2**64 - 9)
    assert stats["deals"] == 45_007 and stats["engine"] == "batch"
    assert stats["contracts"] == want["contracts"]
    assert stats["mean_scores"] == pytest.approx(want["mean_scores"], abs=1e-12)
    with pytest.raises(OptionError):
        client.simulate(game, {"nope": 1}, deals=5)


# ---- the stich command ------------------------------------------------------------------------------
def test_stich_play_in_the_terminal(client):
    out = io.StringIO()
    answers = iter(["zz", "hint", "6"] + ["1"] * 10_000)        # a Farbsolo: the deal is played
    rc = stich_cli.play(client, GAMES[0], {}, 2, 11, 0, read=lambda prompt: next(answers), out=out,
                        level="easy")
    text = out.getvalue()
    assert rc == 0
    assert "'zz' is not one of your choices; choose a number (1.." in text     # then asked again
    assert "Your hand (seat 0, trumps first):" in text and "[1]" in text
    assert "Scoring" in text and "hint: " in text and "total" in text and "Match totals after 2 of 2 deals" in text
    assert "Match over" in text and "True" not in text and "['" not in text


@pytest.mark.skipif("doppelkopf" not in GAMES or "sheepshead6" not in GAMES, reason="needs doppelkopf and sheepshead6")
def test_stich_play_takes_a_preset_and_every_seat(client, monkeypatch, capsys):
    """`stich play GAME --preset NAME`: the server's named rule set, with --options on top of it;
    an unknown preset names the game's presets; a six-seat game can be played from seat 5."""
    from stich_client import table_view
    monkeypatch.setattr(table_view, "_WORDS", dict(table_view._WORDS))   # the words it learns stay here
    made = []
    create = client.create_table
    monkeypatch.setattr(client, "create_table", lambda game, options, *a, **k: made.append(options) or create(game, options, *a, **k))
    answers = iter(["1"] * 10_000)
    out = io.StringIO()
    assert stich_cli.play(client, "doppelkopf", {"pflichtsolo": 4}, 1, 5, 0, read=lambda prompt: next(answers),
                          out=out, level="easy", preset="ddv") == 0
    assert made == [{"announcements": "any_time", "pflichtsolo": 4}]
    assert stich_cli.play(client, "doppelkopf", {}, 1, 5, 0, read=lambda prompt: "1", out=io.StringIO(),
                          preset="tavern") == 2
    assert "doppelkopf has no preset 'tavern'; presets: second_heart_ten, soloist_leads" in capsys.readouterr().err
    # seat 5 may be left to pick (the easy level passes a weak hand): it buries its first two cards
    assert stich_cli.play(client, "sheepshead6", {}, 1, 3, 5, out=out, level="easy",
                          read=lambda prompt: "1 2" if prompt.startswith("bury") else next(answers)) == 0
    assert "you are seat 5" in out.getvalue()
    assert stich_cli.build_parser().parse_args(["play", "sheepshead6", "--seat", "5", "--preset", "x"]).seat == 5


def test_stich_evaluate_file_writes_the_servers_lines(server, tmp_path, capsys):
    src = CONFORMANCE / GAMES[0] / "scenarios.jsonl"
    lines = [json.dumps({"id": o["id"], "record": o["record"]})
             for o in map(json.loads, src.read_text().splitlines()[:30])] + ['{"id": "é", "x": 1}']
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert stich_cli.main(["--server", server.address, "evaluate", str(path), "-o", str(out)]) == 0
    assert out.read_bytes().splitlines() == [_codec.evaluate_line_bytes(x, i, False) for i, x in enumerate(lines, 1)]
    assert f"{len(lines)}/{len(lines)} records" in capsys.readouterr().err


def test_stich_games_lists_the_games(server, capsys):
    assert stich_cli.main(["--server", server.address, "games"]) == 0
    assert "schafkopf" in capsys.readouterr().out


@pytest.mark.skipif("sheepshead" not in GAMES, reason="needs sheepshead")
def test_match_layer_carries_the_sheepshead_doubler_stake(client):
    """A doubler (everyone passes) is redealt by the same dealer, does not count toward the
    match, and doubles the next deal's stake: the engine's match decides, the service shows it."""
    t = client.create_table("sheepshead", {"no_pick": "doubler"}, 3, seed=3)
    stakes, dealers = [], []
    while len(stakes) < 3:
        v = client.view(t.table_id, t.spectator_id)
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
    assert client.view(t.table_id, t.spectator_id)["deals_counted"] == 0


def _play_deal(client, t, choose):
    """Deal and play one deal to its end, each seat taking choose(legal)."""
    client.deal(t.table_id, t.tokens[0])
    while True:
        v = client.view(t.table_id, t.spectator_id)
        if v["status"] != "in_deal":
            return v
        seat = v["to_act"]
        client.act(t.table_id, t.tokens[seat], choose(client.view(t.table_id, t.tokens[seat])["legal"]))


@pytest.mark.skipif("klaverjas" not in GAMES, reason="needs klaverjas")
def test_a_match_to_a_target_score_ends_by_the_games_rule(client):
    """Klaverjas's match_target (the game's match-end rule): the view and the score carry the
    target, the match is over after the deal in which a team reaches it (deals_per_match 5 is
    not used), and another deal is refused."""
    t = client.create_table("klaverjas", {"match_target": 1}, 5, seed=3)
    first = client.view(t.table_id, t.spectator_id)
    assert first["match_target"] == 1 and first["deals_per_match"] == 5
    v = _play_deal(client, t, lambda legal: legal[0])      # every deal gives a team 81 or more
    assert v["status"] == "match_over" and v["deals_counted"] == 1
    score = client.score(t.table_id, t.tokens[0])
    assert score["match_over"] and score["match_target"] == 1 and score["deals_finished"] == 1
    with pytest.raises(IllegalActionError):
        client.deal(t.table_id, t.tokens[0])
    plain = client.create_table("klaverjas", {}, 2, seed=3)
    assert client.view(plain.table_id, plain.spectator_id)["match_target"] == 0


@pytest.mark.skipif("schafkopf" not in GAMES, reason="needs schafkopf")
def test_the_schafkopf_stock_is_carried_by_the_tables_match(client):
    """The Stock (rules 7.9): a thrown-in deal pays four stakes in, and the next deal is dealt
    with the pot (its options' stock_pot), as the engine's match carries it."""
    t = client.create_table("schafkopf", {"stock": 10}, 3, seed=1)

    def passing(legal):
        passes = [a for a in legal if a.get("call") == "pass"]
        return passes[0] if passes else legal[0]
    _play_deal(client, t, passing)
    score = client.score(t.table_id, t.tokens[0])
    assert score["result"]["breakdown"] == [{"item": "stock_in", "value": 10}]
    assert score["result"]["scores"] == [-10] * 4 and score["match_scores"] == [-10] * 4
    dealt = client.deal(t.table_id, t.tokens[0])
    assert dealt["options"]["stock_pot"] == 40


@pytest.mark.skipif("doppelkopf" not in GAMES, reason="needs doppelkopf")
def test_doppelkopf_bock_rounds_are_carried_by_the_tables_match(client):
    """Bockrunden (docs/rules/doppelkopf.md 9.1): seed 165's first deal, played with each seat's
    first legal action, ends 120 : 120; the result names the trigger and the next deal is
    dealt at bock 1 with the round due on the three deals after it."""
    t = client.create_table("doppelkopf", {"bockrunden": "tie"}, 4, seed=165)
    _play_deal(client, t, lambda legal: legal[0])
    result = client.score(t.table_id, t.tokens[0])["result"]
    assert result["team_card_points"] == {"re": 120, "kontra": 120} and result["bock_triggers"] == ["tie"]
    assert "bock" not in {b["item"] for b in result["breakdown"]}           # the first deal is plain
    dealt = client.deal(t.table_id, t.tokens[0])
    assert dealt["options"]["bock"] == 1 and list(dealt["options"]["bock_next"]) == [1, 1, 1]


@pytest.mark.skipif("doppelkopf" not in GAMES, reason="needs doppelkopf")
def test_doppelkopf_pflichtsolo_vorfuehrungen_are_played_before_the_match_ends(client):
    """Pflichtsolo (docs/rules/doppelkopf.md 9.2): a match of one regular deal per round, every
    seat healthy when it may be, is not over after that deal: each seat then plays its
    Vorfuehrung (the dealer dealing again), and only then is the match over."""
    t = client.create_table("doppelkopf", {"pflichtsolo": 1}, 1, seed=3)

    def healthy(legal):
        return next((a for a in legal if a.get("call") == "healthy"), legal[0])
    forced = []
    for _ in range(12):
        v = _play_deal(client, t, healthy)
        contract = client.score(t.table_id, t.tokens[0])["result"]["contract"]
        if "vorfuehrung" in contract:
            forced.append(contract["vorfuehrung"])
        if v["status"] == "match_over":
            break
    assert v["status"] == "match_over" and sorted(forced) == [0, 1, 2, 3]


# ---- conversions --------------------------------------------------------------------------------------
def test_fill_struct_is_struct_update():
    """service.convert.fill_struct (the fast path of typed results) sets what Struct.update sets."""
    import enum
    from google.protobuf import struct_pb2
    from service import convert as server_convert

    class Level(enum.IntEnum):
        HIGH = 3

    for d in ({"a": [1, True, None, "x", {"b": 2.5, "c": []}], "n": None}, {}, {"e": {}}, {"l": [[], [0]]},
              {"t": (1, "a")}, {"i": Level.HIGH}, {"f": -1.5, "z": 0, "s": "", "no": False}):
        want, got = struct_pb2.Struct(), struct_pb2.Struct()
        want.update(d)
        server_convert.fill_struct(got, d)
        assert got == want


@pytest.mark.parametrize("game", GAMES)
def test_typed_results_round_trip(game):
    from service import convert as server_convert
    n = 0
    for line in (conformance_lines(game, "random") or conformance_lines(game, "scenarios"))[:120]:
        if line:
            answer = records.evaluate(line["record"])
            if "result" in answer:
                want = json.loads(json.dumps(answer["result"]))
                assert wire(convert.result_dict(server_convert.result_msg(want))) == wire(want)
                n += 1
    assert n


def test_mirror_knows_the_rule():
    """The leak checker itself: a seat may know what it held and what was played face up."""
    g = games.get(GAMES[0])
    state = g.deal(1, 0)
    m = Mirror(state)
    assert m.allowed(None) == set() and m.allowed(0) == set(state.hands[0])
    while not state.is_over():
        m.apply(state.legal_actions()[0])
    assert m.allowed(None) <= set().union(*state.hands)


# ---- the loopback benchmark's child servers (make bench-report) -------------------------------------
def test_benchmark_children_serve_on_loopback_and_stop_cleanly():
    """bench-report's servers: `python -m service --memory` and the bare echoes (grpcio's
    thread-pool server and grpc.aio), each on a free 127.0.0.1 port, answer, and exit 0 on
    SIGTERM."""
    from service import benchmark as bm
    with bm.ServerProcess() as srv, bm.EchoProcess(workers=4) as echo, bm.AioEchoProcess() as aio:
        assert srv.address.startswith("127.0.0.1:") and echo.address.startswith("127.0.0.1:")
        with StichClient(srv.address, timeout=10) as c:
            assert c.health() == "SERVING"
            assert len(bm.play_latency(c, "schafkopf", 5, True)) == 5
            bare: list[float] = []                 # every other card: a bare call in its place
            assert len(bm.play_latency(c, "schafkopf", 6, False, bare=bare)) == 6
            assert len(bare) == 5 and all(0 < x < 10 for x in bare)
            # no time at all: still `at_least` timed Plays (a percentile needs calls)
            assert len(bm.play_latency(c, "schafkopf", 100, False, 0.0, at_least=12)) == 12
        for address in (echo.address, aio.address):
            one = bm.echo_one_client(address, 5, 1.0)
            assert one["calls"] == 5 and one["p50_us"] <= one["p99_us"]
    assert srv.proc.returncode == 0 and echo.proc.returncode == 0 and aio.proc.returncode == 0


def test_ab_play_runs_a_revisions_server_beside_this_checkouts():
    """tools/ab_play.py: a git revision's server (its src/service, extracted) and this
    checkout's, side by side, their Plays interleaved."""
    lat = tool("ab_play").compare(["HEAD", "."], seconds=0.5, block=4)
    assert list(lat) == ["HEAD", "."] and all(len(x) >= 4 and all(0 < s < 10 for s in x) for x in lat.values())


def test_echo_pace_times_the_echo_after_each_pause():
    """tools/echo_pace.py: the reference echo after each pause, slept and busy."""
    lat = tool("echo_pace").pace([0, 1], seconds=0.3)
    assert sorted(lat) == [("busy", 0), ("busy", 1), ("sleep", 0), ("sleep", 1)]
    assert all(len(x) >= 3 and all(0 < s < 10 for s in x) for x in lat.values())


def test_cpu_work_stops_at_its_deadline_and_the_loop_stays_free(client):
    """A Simulate or EvaluateRecords past its deadline ends DEADLINE_EXCEEDED; its work stops at
    the next slice, so the pools are free again at once, and unary calls never waited."""
    game = GAMES[0]
    t = client.create_table(game, {}, 1)
    for _ in range(3):
        with pytest.raises(grpc.RpcError) as e:
            client.stub.Simulate(pb.SimulateRequest(game=game, deals=1_000_000, seed=1), timeout=0.05)
        assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    lines = [json.dumps({"game": game})] * 20_000
    with pytest.raises(grpc.RpcError) as e:
        list(client.stub.EvaluateRecords(iter([pb.EvaluateRecordsRequest(lines=lines, with_legal=True)]), timeout=0.05))
    assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    t0 = time.perf_counter()
    assert client.view(t.table_id, t.spectator_id)["version"] == 1
    assert client.simulate(game, {}, deals=1000, seed=1)["deals"] == 1000
    assert time.perf_counter() - t0 < 1.0


def test_limits_come_from_the_environment_too():
    with ServerProcess(None, env={"STICH_MAX_STREAMS_PER_PEER": "1"}) as srv, StichClient(srv.address) as c:
        t = c.create_table(GAMES[0], {}, 1)
        first = c.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id), timeout=10)
        assert next(first).event.version == 1
        with pytest.raises(ResourceExhaustedError):
            list(c.watch(t.table_id, t.spectator_id, timeout=5))
        first.cancel()
