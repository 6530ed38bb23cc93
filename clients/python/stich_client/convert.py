"""stich.v1 messages as the plain dicts of records.md (what the client returns), and the few
request values the client builds. Struct numbers are doubles on the wire: integral ones come
back as ints, so options and results compare equal to the engine's."""
from __future__ import annotations

from typing import Any

from google.protobuf import json_format, struct_pb2

from .gen.stich.v1 import actions_pb2, results_pb2, tables_pb2


def plain(value: Any) -> Any:
    """A JSON value from protobuf's Struct form: integral floats become ints."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def from_struct(s: struct_pb2.Struct) -> dict:
    return plain(json_format.MessageToDict(s))


def from_value(v: struct_pb2.Value) -> Any:
    return plain(json_format.MessageToDict(v))


def struct(d: dict | None) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    if d:
        s.update(d)
    return s


def action_dict(msg: actions_pb2.Action) -> dict:
    a: dict = {"seat": msg.seat, "type": msg.type}
    if msg.type == "play":
        a["card"] = msg.card
    else:
        a["call"] = msg.call
        if msg.suit:
            a["suit"] = msg.suit
        if msg.type == "exchange":
            a["cards"] = list(msg.cards)
    if msg.HasField("extra"):
        a.update(from_struct(msg.extra))
    return a


def trick_list(msg: actions_pb2.Trick) -> list:
    return [msg.leader, list(msg.cards), msg.winner]


def result_dict(msg: results_pb2.DealResult) -> dict:
    """The records.md Result (key order: common fields, then the game's extra keys)."""
    out: dict = {
        "contract": from_struct(msg.contract) if msg.HasField("contract") else None,
        "teams": [list(t.seats) for t in msg.teams],
        "tricks": [trick_list(t) for t in msg.tricks],
        "card_points": list(msg.card_points),
        "scores": list(msg.scores),
        "breakdown": [],
    }
    for b in msg.breakdown:
        item: dict = {"item": b.item}
        for k in ("value", "count", "factor", "team"):
            if b.HasField(k):
                item[k] = getattr(b, k)
        if b.HasField("extra"):
            item.update(from_struct(b.extra))
        out["breakdown"].append(item)
    if msg.HasField("extra"):
        out.update(from_struct(msg.extra))
    return out


def _status(value: int) -> str:
    return tables_pb2.TableStatus.Name(value)[len("TABLE_STATUS_"):].lower()


def view_dict(msg: tables_pb2.TableView) -> dict:
    """A TableView as a plain dict."""
    return {
        "table_id": msg.table_id, "version": msg.version, "game": msg.game,
        "seat": msg.seat if msg.HasField("seat") else None,
        "seats": [tables_pb2.SeatKind.Name(s)[len("SEAT_KIND_"):].lower() for s in msg.seats],
        "status": _status(msg.status),
        "deal_number": msg.deal_number, "deals_per_match": msg.deals_per_match,
        "deals_counted": msg.deals_counted,
        "dealer": msg.dealer if msg.HasField("dealer") else None,
        "phase": msg.phase, "to_act": msg.to_act if msg.HasField("to_act") else None,
        "hand": list(msg.hand), "legal": [action_dict(a) for a in msg.legal],
        "actions": [action_dict(a) for a in msg.actions],
        "trick": {"leader": msg.trick.leader, "cards": list(msg.trick.cards)} if msg.HasField("trick") else None,
        "tricks": [trick_list(t) for t in msg.tricks],
        "contract": from_value(msg.contract) if msg.HasField("contract") else None,
        "public": from_struct(msg.public) if msg.HasField("public") else {},
        "result": result_dict(msg.result) if msg.HasField("result") else None,
        "match_scores": list(msg.match_scores),
        "options": from_struct(msg.options),
    }


def event_dict(msg: tables_pb2.TableEvent) -> dict:
    return {
        "version": msg.version, "kind": tables_pb2.EventKind.Name(msg.kind)[len("EVENT_KIND_"):].lower(),
        "deal_number": msg.deal_number, "dealer": msg.dealer if msg.HasField("dealer") else None,
        "action": action_dict(msg.action) if msg.HasField("action") else None,
        "phase": msg.phase, "to_act": msg.to_act if msg.HasField("to_act") else None,
        "result": result_dict(msg.result) if msg.HasField("result") else None,
        "match_scores": list(msg.match_scores),
        "status": _status(msg.status),
    }
