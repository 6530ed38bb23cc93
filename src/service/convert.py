"""From the engine's JSON-shaped dicts (records.md) to the stich.v1 messages: the only
conversion the server makes (the client package converts back).

Everything game-specific travels as the records' strings or in Struct fields, so a new game
needs no change here. Structs are filled by exact type (`fill_struct`), which is most of the
time a result's conversion takes.
"""
from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

from stich_client.gen.stich.v1 import actions_pb2, results_pb2, tables_pb2

HIDDEN = "??"          # a card the viewer may not see
_ACTION_KEYS = ("seat", "type", "call", "suit", "card", "cards")
_ITEM_INTS = ("value", "count", "factor")
_RESULT_KEYS = ("contract", "teams", "tricks", "card_points", "scores", "breakdown")
_VIEW_KEYS = ("game", "seat", "dealer", "phase", "to_act", "hand", "legal", "actions")
MAX_ID_DEPTH = 32


def value(v: Any) -> struct_pb2.Value:
    """A JSON value as a Value (ints, strings and None directly, anything else by type)."""
    out = struct_pb2.Value()
    _fill_value(out, v)
    return out


def id_value(v: Any) -> struct_pb2.Value:
    """A record id as a Value: exactly, or (an integer beyond 2^53, nesting deeper than
    MAX_ID_DEPTH) as its JSON text."""
    if type(v) is int and abs(v) <= 2**53:
        return struct_pb2.Value(number_value=v)
    if type(v) is str:
        return struct_pb2.Value(string_value=v)
    if _exact(v, 0):
        return value(v)
    import orjson
    return struct_pb2.Value(string_value=orjson.dumps(v).decode())


def _exact(v: Any, depth: int) -> bool:
    if depth > MAX_ID_DEPTH:
        return False
    t = type(v)
    if t is int:
        return abs(v) <= 2**53
    if t is dict:
        return all(_exact(x, depth + 1) for x in v.values())
    if t is list:
        return all(_exact(x, depth + 1) for x in v)
    return t in (str, float, bool) or v is None


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


def trick_msg(t) -> actions_pb2.Trick:
    """A completed trick `[leader, cards, winner]` or a trick in progress {leader, cards}."""
    if isinstance(t, dict):
        return actions_pb2.Trick(leader=t["leader"], cards=t["cards"])
    leader, cards, winner = t
    return actions_pb2.Trick(leader=leader, cards=cards, winner=winner)


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


# ---- table views and events -----------------------------------------------------------------
def _status(name: str) -> int:
    return tables_pb2.TableStatus.Value("TABLE_STATUS_" + name.upper())


_SEAT_KINDS = {"human": tables_pb2.SEAT_KIND_HUMAN, "bot": tables_pb2.SEAT_KIND_BOT}


def view_msg(v: dict, msg: tables_pb2.TableView | None = None) -> tables_pb2.TableView:
    """A TableView from the table manager's view: the table's fields, then the engine's view of
    the deal (State.view): its typed keys (trick, tricks, contract, result) in their fields,
    every other key of the game's view in `public`."""
    if msg is None:
        msg = tables_pb2.TableView()
    msg.table_id = v["table_id"]
    msg.version = v["version"]
    msg.game = v["game"]
    msg.seats.extend(_SEAT_KINDS[s] for s in v["seats"])
    msg.status = _status(v["status"])
    msg.deal_number = v["deal_number"]
    msg.deals_counted = v["deals_counted"]
    msg.deals_per_match = v["deals_per_match"]
    msg.match_scores.extend(v["match_scores"])
    fill_struct(msg.options, v["options"])
    if v["seat"] is not None:
        msg.seat = v["seat"]
    deal = v.get("deal")
    if not deal:
        return msg
    msg.phase = deal["phase"]
    msg.hand.extend(deal["hand"])
    if deal["dealer"] is not None:
        msg.dealer = deal["dealer"]
    if deal["to_act"] is not None:
        msg.to_act = deal["to_act"]
    msg.legal.extend(action_msg(a) for a in deal["legal"])
    msg.actions.extend(action_msg(a) for a in deal["actions"])
    rest = {k: val for k, val in deal.items() if k not in _VIEW_KEYS}
    trick = rest.pop("trick", None)
    if isinstance(trick, dict) and set(trick) == {"leader", "cards"}:
        msg.trick.CopyFrom(trick_msg(trick))
    elif trick is not None:
        rest["trick"] = trick
    tricks = rest.pop("tricks", None)
    if tricks:
        try:
            msg.tricks.extend(trick_msg(t) for t in tricks)
        except (TypeError, ValueError, KeyError):
            del msg.tricks[:]
            rest["tricks"] = tricks
    if "contract" in rest:
        _fill_value(msg.contract, rest.pop("contract"))
    result = rest.pop("result", None)
    if result is not None:
        result_msg(result, msg.result)
    if rest:
        fill_struct(msg.public, rest)
    return msg


def event_msg(e: dict) -> tables_pb2.TableEvent:
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
        result_msg(e["result"], msg.result)
    return msg


def plain(value: Any) -> Any:
    """A JSON value from protobuf's Struct form: integral floats become ints."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
