"""Between the engine's JSON-shaped dicts (records.md) and the stich.v1 messages.

Everything game-specific travels as the records' strings or in Struct fields, so a new game
needs no change here. Struct numbers are doubles on the wire: `plain()` turns integral
doubles back into ints so options and results compare equal to the engine's.
"""
from __future__ import annotations

from typing import Any

from google.protobuf import json_format, struct_pb2

from .gen.stich.v1 import actions_pb2, results_pb2, tables_pb2

HIDDEN = "??"          # a card the viewer may not see
_ACTION_KEYS = ("seat", "type", "call", "suit", "card", "cards")
_ITEM_INTS = ("value", "count", "factor")
_RESULT_KEYS = ("contract", "teams", "tricks", "card_points", "scores", "breakdown")


# ---- JSON values <-> Struct / Value ------------------------------------------------------
def plain(value: Any) -> Any:
    """A JSON value from protobuf's Struct form: integral floats become ints."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def struct(d: dict | None) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    if d:
        s.update(d)
    return s


def value(v: Any) -> struct_pb2.Value:
    # the common ids (ints, strings) directly; anything else through json_format
    t = type(v)
    if t is int and abs(v) < 2**53:
        return struct_pb2.Value(number_value=v)
    if t is str:
        return struct_pb2.Value(string_value=v)
    out = struct_pb2.Value()
    json_format.ParseDict(v, out)
    return out


def from_struct(s: struct_pb2.Struct) -> dict:
    return plain(json_format.MessageToDict(s))


def from_value(v: struct_pb2.Value) -> Any:
    return plain(json_format.MessageToDict(v))


# ---- actions and tricks ---------------------------------------------------------------------
def action_msg(a: dict) -> actions_pb2.Action:
    msg = actions_pb2.Action(seat=a["seat"], type=a["type"])
    if "call" in a:
        msg.call = a["call"]
    if a.get("suit") is not None:
        msg.suit = a["suit"]
    extra = {k: v for k, v in a.items() if k not in _ACTION_KEYS}
    if "card" in a:
        msg.card = HIDDEN if a["card"] is None else a["card"]
    if isinstance(a.get("cards"), list):
        msg.cards.extend(HIDDEN if c is None else c for c in a["cards"])
    elif "cards" in a:
        extra["cards"] = a["cards"]
    if extra:
        msg.extra.update(extra)
    return msg


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


def trick_msg(t) -> actions_pb2.Trick:
    """A completed trick `[leader, cards, winner]` or a trick in progress {leader, cards}."""
    if isinstance(t, dict):
        return actions_pb2.Trick(leader=t["leader"], cards=t["cards"])
    leader, cards, winner = t
    return actions_pb2.Trick(leader=leader, cards=cards, winner=winner)


def trick_list(msg: actions_pb2.Trick) -> list:
    return [msg.leader, list(msg.cards), msg.winner]


# ---- results ----------------------------------------------------------------------------------
def result_msg(r: dict, msg: results_pb2.DealResult | None = None) -> results_pb2.DealResult:
    """The DealResult of a records.md Result, filled into `msg` (an empty one, e.g. a field
    of the answer being built) or a new one. Batch evaluation converts one per record, so
    submessages are filled in place (no copies) and Structs through `fill_struct`."""
    if msg is None:
        msg = results_pb2.DealResult()
    msg.card_points.extend(r.get("card_points", []))
    msg.scores.extend(r.get("scores", []))
    if r.get("contract") is not None:
        fill_struct(msg.contract, r["contract"])
    add = msg.teams.add
    for team in r.get("teams", []):
        add(seats=team)
    add = msg.tricks.add
    for t in r.get("tricks", []):
        if isinstance(t, dict):
            add(leader=t["leader"], cards=t["cards"])
        else:
            leader, cards, winner = t
            add(leader=leader, cards=cards, winner=winner)
    add = msg.breakdown.add
    for item in r.get("breakdown", []):
        fields: dict = {}
        extra = None
        for k, v in item.items():
            if k == "item":
                fields[k] = v
            elif (k in _ITEM_INTS or k == "team") and type(v) is int:
                fields[k] = v
            else:
                if extra is None:
                    extra = {}
                extra[k] = v
        b = add(**fields)
        if extra:
            fill_struct(b.extra, extra)
    extra = {k: v for k, v in r.items() if k not in _RESULT_KEYS}
    if extra:
        fill_struct(msg.extra, extra)
    return msg


def fill_struct(s: struct_pb2.Struct, d: dict) -> None:
    """`s.update(d)` with the same outcome, dispatching on exact types (protobuf's update is
    Python code testing isinstance per value: most of a result's conversion time)."""
    fields = s.fields
    for k, v in d.items():
        _fill_value(fields[k], v)


def _fill_value(vm: struct_pb2.Value, v: Any) -> None:
    t = type(v)
    if t is str:
        vm.string_value = v
    elif t is int or t is float:
        vm.number_value = v
    elif t is bool:
        vm.bool_value = v
    elif v is None:
        vm.null_value = 0
    elif t is list:
        lv = vm.list_value
        lv.Clear()
        add = lv.values.add
        for x in v:
            _fill_value(add(), x)
    elif t is dict:
        sv = vm.struct_value
        sv.Clear()
        fill_struct(sv, v)
    else:                               # subclasses, tuples, Struct values: protobuf's own rules
        tmp = struct_pb2.Struct()
        tmp.update({"v": v})
        vm.CopyFrom(tmp.fields["v"])


def result_dict(msg: results_pb2.DealResult) -> dict:
    """The records.md Result again (key order: common fields, then the game's extra keys)."""
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


# ---- table views and events -----------------------------------------------------------------
def _status(name: str) -> int:
    return tables_pb2.TableStatus.Value("TABLE_STATUS_" + name.upper())


def view_msg(v: dict):
    """A TableView from the table manager's view dict: the engine's view keys it knows get
    their typed fields (trick, tricks, contract, result); every other key of the game's
    public view goes to `public`."""
    msg = tables_pb2.TableView(
        table_id=v["table_id"], version=v["version"], game=v["game"],
        seats=[tables_pb2.SeatKind.Value("SEAT_KIND_" + s.upper()) for s in v["seats"]],
        status=_status(v["status"]), deal_number=v["deal_number"],
        deals_per_match=v["deals_per_match"], phase=v["phase"], hand=v["hand"],
        match_scores=v["match_scores"])
    if v["seat"] is not None:
        msg.seat = v["seat"]
    if v["dealer"] is not None:
        msg.dealer = v["dealer"]
    if v["to_act"] is not None:
        msg.to_act = v["to_act"]
    msg.legal.extend(action_msg(a) for a in v["legal"])
    msg.actions.extend(action_msg(a) for a in v["actions"])
    msg.options.update(v["options"])
    rest = dict(v.get("game_view") or {})
    trick = rest.pop("trick", None)
    if isinstance(trick, dict) and "leader" in trick and "cards" in trick:
        msg.trick.CopyFrom(trick_msg(trick))
    elif trick is not None:
        rest["trick"] = trick
    tricks = rest.pop("tricks", None)
    try:
        msg.tricks.extend(trick_msg(t) for t in tricks or [])
    except (TypeError, ValueError, KeyError):
        del msg.tricks[:]
        rest["tricks"] = tricks
    msg.contract.CopyFrom(value(rest.pop("contract", None)))
    result = rest.pop("result", None)
    if result is not None:
        msg.result.CopyFrom(result_msg(result))
    if rest:
        msg.public.update(rest)
    return msg


def event_msg(e: dict):
    msg = tables_pb2.TableEvent(
        version=e["version"], kind=tables_pb2.EventKind.Value("EVENT_KIND_" + e["kind"].upper()),
        deal_number=e["deal_number"], phase=e["phase"], match_scores=e["match_scores"],
        status=_status(e["status"]))
    if e["dealer"] is not None:
        msg.dealer = e["dealer"]
    if e["to_act"] is not None:
        msg.to_act = e["to_act"]
    if e["action"] is not None:
        msg.action.CopyFrom(action_msg(e["action"]))
    if e["result"] is not None:
        msg.result.CopyFrom(result_msg(e["result"]))
    return msg


def view_dict(msg) -> dict:
    """A TableView as a plain dict (what clients and tests read)."""
    out = {
        "table_id": msg.table_id, "version": msg.version, "game": msg.game,
        "seat": msg.seat if msg.HasField("seat") else None,
        "seats": [tables_pb2.SeatKind.Name(s)[len("SEAT_KIND_"):].lower() for s in msg.seats],
        "status": tables_pb2.TableStatus.Name(msg.status)[len("TABLE_STATUS_"):].lower(),
        "deal_number": msg.deal_number, "deals_per_match": msg.deals_per_match,
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
    return out


def event_dict(msg) -> dict:
    return {
        "version": msg.version, "kind": tables_pb2.EventKind.Name(msg.kind)[len("EVENT_KIND_"):].lower(),
        "deal_number": msg.deal_number, "dealer": msg.dealer if msg.HasField("dealer") else None,
        "action": action_dict(msg.action) if msg.HasField("action") else None,
        "phase": msg.phase, "to_act": msg.to_act if msg.HasField("to_act") else None,
        "result": result_dict(msg.result) if msg.HasField("result") else None,
        "match_scores": list(msg.match_scores),
        "status": tables_pb2.TableStatus.Name(msg.status)[len("TABLE_STATUS_"):].lower(),
    }
