"""The HTTP door (Connect JSON and binary, gRPC-Web) of a real server process, beside its gRPC
door: one table manager behind both, so an action through one door is seen live on the other's
WatchTable; the same errors with the same ErrorInfo; CORS (the page's own origin, the allowed
list, a precise refusal for any other origin, before any handler runs); the page at `/`.
"""
from __future__ import annotations

import base64
import http.client
import json
import struct
import threading

import pytest

from engine_core.games import available
from google.rpc import error_details_pb2
from stich_client import StichClient
from stich_client.gen.stich.v1 import stich_service_pb2 as pb

from service.testing import ServerProcess, wait_until


@pytest.fixture(scope="module")
def server():
    with ServerProcess(None, "--allowed-origins", "http://friend.example:5173") as srv:
        yield srv


def post(server, method: str, body: dict, headers: dict | None = None, timeout: float = 10):
    """A Connect unary call in JSON: (HTTP status, decoded JSON body, response headers)."""
    conn = http.client.HTTPConnection(server.http_address, timeout=timeout)
    conn.request("POST", f"/stich.v1.StichService/{method}", json.dumps(body),
                 {"content-type": "application/json", **(headers or {})})
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, json.loads(data) if data else None, dict(r.getheaders())


def error_info(body: dict) -> error_details_pb2.ErrorInfo:
    [detail] = body["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    raw = detail["value"]
    return error_details_pb2.ErrorInfo.FromString(base64.b64decode(raw + "=" * (-len(raw) % 4)))


def connect_watch(server, table_id: str, token: str, from_version: int = 0):
    """The events of WatchTable over Connect's server-streaming protocol (JSON envelopes)."""
    conn = http.client.HTTPConnection(server.http_address, timeout=20)
    request = json.dumps({"tableId": table_id, "token": token, "fromVersion": str(from_version)}).encode()
    conn.request("POST", "/stich.v1.StichService/WatchTable", struct.pack(">BI", 0, len(request)) + request,
                 {"content-type": "application/connect+json", "connect-protocol-version": "1"})
    r = conn.getresponse()
    assert r.status == 200
    try:
        while True:
            head = r.read(5)
            if len(head) < 5:
                return
            flags, size = struct.unpack(">BI", head)
            message = json.loads(r.read(size))
            if flags & 2:                     # the end-of-stream message
                assert "error" not in message, message
                return
            yield message["event"]
    finally:
        conn.close()


def test_both_doors_share_one_table_live(server):
    """A table created over Connect is played over gRPC and watched over Connect, and the other
    way round: every event of one door's actions arrives on the other door's stream."""
    status, created, _ = post(server, "CreateTable", {"game": "schafkopf", "seed": "3", "dealsPerMatch": 1,
                                                       "seats": ["SEAT_KIND_HUMAN"] * 4})
    assert status == 200, created
    table = created["tableId"]
    tokens = {s.get("seat", 0): s["token"] for s in created["seatTokens"]}
    seen: list[dict] = []

    def watch():
        for event in connect_watch(server, table, created["spectatorId"]):
            seen.append(event)

    threading.Thread(target=watch, daemon=True).start()
    with StichClient(server.address) as client:
        view = client.deal(table, tokens[0])
        while view["status"] == "in_deal":
            mine = client.view(table, tokens[view["to_act"]])
            view = client.act(table, tokens[view["to_act"]], mine["legal"][0])
        assert wait_until(lambda: seen and int(seen[-1]["version"]) == view["version"], 20), seen[-3:]
        assert seen[0]["kind"] == "EVENT_KIND_TABLE_CREATED" and seen[-1]["kind"] == "EVENT_KIND_ACTION"
        versions = [int(e["version"]) for e in seen]
        assert versions == list(range(1, view["version"] + 1))
        # and the gRPC stream sees an action sent through the HTTP door
        status, body, _ = post(server, "CreateTable", {"game": "sheepshead", "seed": "5",
                                                        "seats": ["SEAT_KIND_HUMAN"] * 5})
        t2, tokens = body["tableId"], {s.get("seat", 0): s["token"] for s in body["seatTokens"]}
        watched = client.watch(t2, body["spectatorId"])
        assert next(watched)["kind"] == "table_created"
        status, dealt, _ = post(server, "Deal", {"tableId": t2, "token": tokens[0]})
        assert status == 200 and next(watched)["kind"] == "deal_started"
        seat = dealt["view"].get("toAct", 0)
        act = client.view(t2, tokens[seat])["legal"][0]
        status, _, _ = post(server, "Bid", {"tableId": t2, "token": tokens[seat], "call": act["call"]})
        assert status == 200
        event = next(watched)
        assert event["kind"] == "action" and event["action"]["seat"] == seat
        watched.close()



def test_errors_carry_the_same_error_info_as_grpc(server):
    status, created, _ = post(server, "CreateTable", {"game": "schafkopf", "seed": "1",
                                                       "seats": ["SEAT_KIND_HUMAN"] * 4})
    table = created["tableId"]
    tokens = {s.get("seat", 0): s["token"] for s in created["seatTokens"]}
    status, dealt, _ = post(server, "Deal", {"tableId": table, "token": tokens[0]})
    seat = dealt["view"].get("toAct", 0)
    token = tokens[seat]
    status, body, _ = post(server, "Play", {"tableId": table, "token": token, "card": "QS"})
    assert status == 400 and body["code"] == "failed_precondition", body     # Connect maps 9 to 400
    info = error_info(body)
    assert info.reason == "WRONG_PHASE" and info.domain == "stich.v1"
    assert json.loads(info.metadata["legal"])[0] == {"seat": seat, "type": "bid", "call": "pass"}
    assert info.metadata["message"] == body["message"]
    status, body, _ = post(server, "Play", {"tableId": table, "token": "not-the-token", "card": "QS"})
    assert body["code"] == "permission_denied" and error_info(body).reason == "BAD_SEAT_TOKEN"
    status, body, _ = post(server, "CreateTable", {"game": "skat"})
    assert body["code"] == "invalid_argument" and error_info(body).reason == "BAD_OPTION", body
    status, body, _ = post(server, "GetView", {"tableId": "nope", "token": "x"})
    assert status == 404 and error_info(body).reason == "TABLE_NOT_FOUND"
    with StichClient(server.address) as client:          # nothing changed by the refused calls
        assert client.view(table, token)["version"] == int(dealt["view"]["version"])


def test_binary_connect_and_grpc_web(server):
    """The same call in Connect's binary form and in gRPC-Web framing."""
    request = pb.ListGamesRequest().SerializeToString()
    conn = http.client.HTTPConnection(server.http_address, timeout=10)
    conn.request("POST", "/stich.v1.StichService/ListGames", request, {"content-type": "application/proto"})
    r = conn.getresponse()
    games = {g.name for g in pb.ListGamesResponse.FromString(r.read()).games}
    assert r.status == 200 and set(available()) <= games
    conn.request("POST", "/stich.v1.StichService/ListGames", b"\0" + struct.pack(">I", len(request)) + request,
                 {"content-type": "application/grpc-web+proto", "x-grpc-web": "1"})
    r = conn.getresponse()
    data = r.read()
    flags, size = struct.unpack(">BI", data[:5])
    assert r.status == 200 and flags == 0
    assert {g.name for g in pb.ListGamesResponse.FromString(data[5:5 + size]).games} == games
    assert b"grpc-status:0" in data[5 + size:].replace(b" ", b"")             # the trailers frame
    conn.close()


THROWN_IN = {"game": "schafkopf", "dealer": 3, "hands": [
    ["QC", "QS", "JS", "JD", "8H", "KC", "8C", "AD"], ["QH", "JH", "AH", "TH", "AC", "TC", "9C", "7S"],
    ["QD", "JC", "KH", "7H", "AS", "TS", "9S", "KD"], ["9H", "7C", "KS", "8S", "TD", "9D", "8D", "7D"]],
    "actions": [{"seat": s, "type": "bid", "call": "pass"} for s in range(4)]}


def test_evaluate_batch_at_both_doors(server):
    """EvaluateBatch (unary, for browsers): one answer per line in order, the same as the
    EvaluateRecords stream gives them, a bad line answered with its error among good ones, ids by
    position from first_number; over the bound the batch is refused whole, in words."""
    lines = [json.dumps(THROWN_IN), "{not json", json.dumps({"id": "mine", "record": THROWN_IN}),
             json.dumps({"game": "nope"}), json.dumps(THROWN_IN)]
    with StichClient(server.address) as client:
        streamed = list(client.evaluate(lines, raw=True, with_legal=True))
        grpc_answers = client.stub.EvaluateBatch(pb.EvaluateBatchRequest(lines=lines, with_legal=True), timeout=30)
        assert [a.json for a in grpc_answers.answers] == streamed
        later = client.stub.EvaluateBatch(pb.EvaluateBatchRequest(lines=lines[:2], first_number=41), timeout=30)
        assert [json.loads(a.json)["id"] for a in later.answers] == [41, 42]
    assert [json.loads(a)["id"] for a in streamed] == [1, 2, "mine", 4, 5]
    assert [a.WhichOneof("outcome") for a in grpc_answers.answers] == ["result", "error", "result", "error", "result"]
    assert [a.error.reason_id for a in grpc_answers.answers if a.HasField("error")] == ["MALFORMED_JSON", "INVALID_RECORD"]
    status, body, _ = post(server, "EvaluateBatch", {"lines": lines, "withLegal": True})
    assert status == 200 and [a["json"] for a in body["answers"]] == streamed
    status, body, _ = post(server, "EvaluateBatch", {"lines": ["{}"] * 1001})
    assert status == 400 and error_info(body).reason == "BATCH_TOO_LARGE"
    assert body["message"].startswith("lines: 1001 lines in one EvaluateBatch; at most 1000"), body["message"]
    status, body, _ = post(server, "EvaluateBatch", {"lines": ["{}"], "firstNumber": -1})
    assert status == 400 and error_info(body).metadata["field"] == "first_number"
    status, body, _ = post(server, "EvaluateBatch", {})
    assert status == 200 and body.get("answers", []) == []


def test_cors_own_origin_listed_origin_and_refusal(server):
    own = f"http://{server.http_address}"
    status, body, headers = post(server, "ListGames", {}, {"origin": own})
    assert status == 200 and headers["access-control-allow-origin"] == own
    assert all(g["words"]["en"]["calls"] for g in body["games"])      # the Connect JSON carries the words
    status, body, headers = post(server, "ListGames", {}, {"origin": "http://friend.example:5173"})
    assert status == 200 and headers["access-control-allow-origin"] == "http://friend.example:5173"
    conn = http.client.HTTPConnection(server.http_address, timeout=10)
    conn.request("OPTIONS", "/stich.v1.StichService/Play", headers={
        "origin": "http://friend.example:5173", "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,connect-protocol-version"})
    r = conn.getresponse()
    r.read()
    assert r.status == 204 and "connect-protocol-version" in r.getheader("access-control-allow-headers")
    status, body, headers = post(server, "CreateTable", {"game": "schafkopf"}, {"origin": "http://evil.example"})
    assert status == 403 and body["code"] == "permission_denied"
    assert error_info(body).reason == "ORIGIN_NOT_ALLOWED"
    assert body["message"].startswith("origin http://evil.example is not allowed") and own in body["message"]
    assert "access-control-allow-origin" not in headers
    conn.request("OPTIONS", "/stich.v1.StichService/Play", headers={"origin": "http://evil.example"})
    r = conn.getresponse()
    assert r.status == 403 and b"not allowed" in r.read()


def test_the_page_or_how_to_build_it(server):
    conn = http.client.HTTPConnection(server.http_address, timeout=10)
    conn.request("GET", "/")
    r = conn.getresponse()
    body = r.read()
    if r.status == 200:
        assert b"<title>stich" in body and r.getheader("content-type").startswith("text/html")
    else:
        assert r.status == 503 and b"make web" in body
    conn.request("GET", "/../../pyproject.toml")
    r = conn.getresponse()
    assert r.status == 404 and b"[project]" not in r.read()


def test_no_http_flag_serves_grpc_only():
    with ServerProcess(None, "--no-http") as srv, StichClient(srv.address) as client:
        assert srv.http_address == "" and "http:" not in srv.output
        assert client.health() == "SERVING"
