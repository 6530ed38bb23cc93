"""From the engine's JSON-shaped dicts (records.md) to the stich.v1 messages: the only
conversion the server makes (the client package converts back).

Views and results are typed messages whose fields are the records' keys (`fill`, shared with the
client package, sets them by name); cards, calls and phases travel as the records' strings.
Options stay a Struct, filled by exact type (`fill_struct`).
"""
from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

from stich_client.convert import fill
from stich_client.gen.stich.v1 import actions_pb2, results_pb2, tables_pb2

HIDDEN = "??"          # a card the viewer may not see
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
def action_msg(a: dict, msg: actions_pb2.Action | None = None) -> actions_pb2.Action:
    """The Action of a records.md action, filled into `msg` (an empty one, e.g. from a repeated
    field's add(): a view's action history is built in place, not copied) or a new one."""
    if msg is None:
        msg = actions_pb2.Action()
    msg.seat = a["seat"]
    msg.type = a["type"]
    for k, v in a.items():
        if k == "call":
            msg.call = v
        elif k == "suit":
            if v is not None:
                msg.suit = v
        elif k == "card":
            msg.card = HIDDEN if v is None else v
        elif k == "cards":
            msg.cards.extend(HIDDEN if c is None else c for c in v)
        elif k not in ("seat", "type"):
            raise ValueError(f"action: no field for key {k!r}")
    return msg


def trick_msg(t, msg: actions_pb2.Trick | None = None) -> actions_pb2.Trick:
    """The Trick of a completed trick `[leader, cards, winner]` or of a trick in progress
    {leader, cards}, filled into `msg` (a view's or a result's field, in place) or a new one."""
    if msg is None:
        msg = actions_pb2.Trick()
    msg.SetInParent()                    # present even for a trick with no card yet
    if isinstance(t, dict):
        msg.leader = t["leader"]
        msg.cards.extend(t["cards"])
    else:
        leader, cards, winner = t
        msg.leader = leader
        msg.cards.extend(cards)
        msg.winner = winner
    return msg


# ---- results ----------------------------------------------------------------------------------
def result_msg(r: dict, msg: results_pb2.DealResult | None = None) -> results_pb2.DealResult:
    """The DealResult of a records.md Result, filled into `msg` (an empty one, e.g. a field
    of the answer being built) or a new one. Batch evaluation converts one per record, so
    submessages are filled in place (no copies); the game's own keys by name (`fill`)."""
    if msg is None:
        msg = results_pb2.DealResult()
    msg.card_points.extend(r.get("card_points", []))
    msg.scores.extend(r.get("scores", []))
    if r.get("contract") is not None:
        msg.contract.SetInParent()
        fill(msg.contract, r["contract"], "contract")
    add = msg.teams.add
    for team in r.get("teams", []):
        add(seats=team)
    add = msg.tricks.add
    for t in r.get("tricks", []):
        trick_msg(t, add())
    add = msg.breakdown.add
    for item in r.get("breakdown", []):
        add(**item)
    extra = {k: v for k, v in r.items() if k not in _RESULT_KEYS}
    if extra:
        fill(msg, extra, "result")
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


ORDER_FIELDS = {"trump": "trump", "C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
SEAT_KINDS = {"human": tables_pb2.SEAT_KIND_HUMAN, "open": tables_pb2.SEAT_KIND_OPEN,
              "bot": tables_pb2.SEAT_KIND_BOT, "bot:easy": tables_pb2.SEAT_KIND_BOT_EASY,
              "bot:normal": tables_pb2.SEAT_KIND_BOT_NORMAL, "bot:hard": tables_pb2.SEAT_KIND_BOT_HARD}


def view_msg(v: dict, msg: tables_pb2.TableView | None = None) -> tables_pb2.TableView:
    """A TableView from the table manager's view: the table's fields, then the engine's view of
    the deal (State.view), every key in its typed field (a key without one is a ValueError: the
    protocol must name everything a viewer is shown)."""
    if msg is None:
        msg = tables_pb2.TableView()
    msg.table_id = v["table_id"]
    msg.version = v["version"]
    msg.game = v["game"]
    msg.seats.extend(SEAT_KINDS[s] for s in v["seats"])
    msg.status = _status(v["status"])
    msg.deal_number = v["deal_number"]
    msg.deals_counted = v["deals_counted"]
    msg.deals_per_match = v["deals_per_match"]
    msg.match_scores.extend(v["match_scores"])
    fill_struct(msg.options, v["options"])
    settings = v.get("settings")
    if settings:
        fill(msg.settings, settings, "settings")
    if v["seat"] is not None:
        msg.seat = v["seat"]
    deal = v.get("deal")
    if not deal:
        return msg
    for k, val in deal.items():
        if k in _VIEW_KEYS:
            continue
        if val is None:
            continue
        if k == "trick":
            trick_msg(val, msg.trick)
        elif k == "tricks":
            add = msg.tricks.add
            for t in val:
                trick_msg(t, add())
        elif k == "contract":
            msg.contract.SetInParent()
            fill(msg.contract, val, "contract")
        elif k == "result":
            result_msg(val, msg.result)
        elif k == "bids":
            msg.auction.bids.extend("" if b is None else b for b in val)
        elif k == "passes":
            msg.auction.passes = val
        elif k == "picker":
            msg.auction.picker = val
        elif k == "order":
            msg.order.SetInParent()
            for suit, cards in val.items():
                getattr(msg.order, ORDER_FIELDS[suit]).extend(cards)
        elif k == "points":
            msg.points.update(val)
        elif k == "teams" and isinstance(val, list):
            for team in val:
                msg.partnerships.add(seats=team)
        else:
            fill(msg, {k: val}, "view")
    msg.phase = deal["phase"]
    msg.hand.extend(deal["hand"])
    if deal["dealer"] is not None:
        msg.dealer = deal["dealer"]
    if deal["to_act"] is not None:
        msg.to_act = deal["to_act"]
    add = msg.legal.add
    for a in deal["legal"]:
        action_msg(a, add())
    add = msg.actions.add
    for a in deal["actions"]:
        action_msg(a, add())
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
    if e.get("seat") is not None:
        msg.seat = e["seat"]
    return msg

