"""From the engine's JSON-shaped dicts (records.md) to the stich.v1 messages: the only
conversion the server makes (the client package converts back).

Views and results are typed messages whose fields are the records' keys (`fill`, shared with the
client package, sets them by name); cards, calls and phases travel as the records' strings.
Options stay a Struct, filled by exact type (`fill_struct`).

The other way, a request's options (a Struct) become the engine's plain dict (`options_of`)
only within bounds: a game has fewer than 20 options, so options of more keys, values, depth
or bytes than OPTION_LIMITS are refused (INVALID_ARGUMENT, OPTIONS_TOO_LARGE) before anything
is converted, at either door, in the same words (`OptionBudget`).
"""
from __future__ import annotations

import math
from typing import Any

from google.protobuf import struct_pb2

from stich_client.convert import fill
from stich_client.gen.stich.v1 import actions_pb2, results_pb2, tables_pb2

from . import errors

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


# ---- request options -------------------------------------------------------------------------
MAX_OPTION_KEYS = 64            # keys of the options object (a game has fewer than 20 options)
MAX_OPTION_VALUES = 1024        # values in all, nested ones included (a list option has at most 32)
MAX_OPTION_DEPTH = 4            # an option's value is a scalar or a list of scalars: depth 2
MAX_OPTIONS_BYTES = 16 * 1024   # the options Struct serialized (every game's defaults: under 1 KiB)


def options_too_large(message: str) -> errors.ServiceError:
    return errors.invalid("options", message, reason="OPTIONS_TOO_LARGE")


class OptionBudget:
    """The bounds of one request's options, spent as its values are visited: the first bound
    passed raises OPTIONS_TOO_LARGE. Both forms of options (a Struct from protobuf, a dict from
    Connect JSON) are walked in the same order with the same budget, so the same options get
    the same answer at either door."""

    __slots__ = ("values",)

    def __init__(self, keys: int):
        if keys > MAX_OPTION_KEYS:
            raise options_too_large(f"{keys} keys; at most {MAX_OPTION_KEYS} (a game has fewer than 20 options)")
        self.values = 0

    def take(self, depth: int) -> None:
        """One more value, at nesting `depth` (1: an option's own value)."""
        self.values += 1
        if self.values > MAX_OPTION_VALUES:
            raise options_too_large(f"more than {MAX_OPTION_VALUES} values in all")
        if depth > MAX_OPTION_DEPTH:
            raise options_too_large(f"nested deeper than {MAX_OPTION_DEPTH} levels")


def options_of(request) -> dict:
    """The options of a request (CreateTable, Simulate) as the engine's plain dict: bounded in
    keys, values, depth (walked before converting) and serialized bytes, else OPTIONS_TOO_LARGE;
    a number that is not finite is BAD_OPTION."""
    if not request.HasField("options"):
        return {}
    s = request.options
    _check_struct(s, OptionBudget(len(s.fields)), 1)
    size = s.ByteSize()
    if size > MAX_OPTIONS_BYTES:
        raise options_too_large(f"{size} bytes; at most {MAX_OPTIONS_BYTES}")
    return _plain_struct(s, "options")


def _check_struct(s: struct_pb2.Struct, budget: OptionBudget, depth: int) -> None:
    for v in s.fields.values():
        _check_value(v, budget, depth)


def _check_value(v: struct_pb2.Value, budget: OptionBudget, depth: int) -> None:
    budget.take(depth)
    kind = v.WhichOneof("kind")
    if kind == "struct_value":
        _check_struct(v.struct_value, budget, depth + 1)
    elif kind == "list_value":
        for x in v.list_value.values:
            _check_value(x, budget, depth + 1)


def check_plain_options(options: Any) -> None:
    """The same bounds on options as Connect JSON sent them (a dict, before protobuf parses
    them): keys, values and depth; the bytes are counted once parsed (`options_of`)."""
    if isinstance(options, dict):
        budget = OptionBudget(len(options))
        for v in options.values():
            _check_plain(v, budget, 1)


def _check_plain(v: Any, budget: OptionBudget, depth: int) -> None:
    budget.take(depth)
    if isinstance(v, dict):
        for x in v.values():
            _check_plain(x, budget, depth + 1)
    elif isinstance(v, list):
        for x in v:
            _check_plain(x, budget, depth + 1)


def _plain_value(v: struct_pb2.Value, where: str):
    kind = v.WhichOneof("kind")
    if kind == "number_value":
        x = v.number_value
        if not math.isfinite(x):
            raise errors.invalid(where, f"must be a finite number, got {x}", reason="BAD_OPTION")
        return int(x) if x.is_integer() else x
    if kind == "string_value":
        return v.string_value
    if kind == "bool_value":
        return v.bool_value
    if kind == "struct_value":
        return _plain_struct(v.struct_value, where)
    if kind == "list_value":
        return [_plain_value(x, f"{where}[{i}]") for i, x in enumerate(v.list_value.values)]
    return None


def _plain_struct(s: struct_pb2.Struct, where: str) -> dict:
    return {k: _plain_value(v, f"{where}.{errors.cut(k, 40)}") for k, v in s.fields.items()}


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


def bad_seat_kind(where: str, got) -> errors.ServiceError:
    """A seat kind this server does not know: a number over gRPC, a name or a number in JSON."""
    return errors.invalid(where, "must be SEAT_KIND_HUMAN, SEAT_KIND_OPEN, SEAT_KIND_BOT or "
                          f"SEAT_KIND_BOT_EASY/NORMAL/HARD, got {errors.cut(str(got), 40)}", reason="BAD_SEAT_KIND")


# an enum value a request names that its enum does not have: the error its field's check gives
ENUM_ERRORS = {"stich.v1.SeatKind": bad_seat_kind}


def bad_enum(where: str, enum, got) -> errors.ServiceError:
    """The error of an unknown value `got` of the enum (descriptor) `enum` at `where`."""
    known = ENUM_ERRORS.get(enum.full_name)
    if known is not None:
        return known(where, got)
    return errors.invalid(where, f"must be one of {', '.join(v.name for v in enum.values)}, "
                          f"got {errors.cut(str(got), 40)}")


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
    msg.match_target = v.get("match_target", 0)     # 0: the match is deals_per_match deals
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

