"""stich.v1 messages as the plain dicts of records.md (what the client returns), and the few
request values the client builds. Views and results are typed messages; options stay a Struct,
whose numbers are doubles on the wire: integral ones come back as ints, so options compare equal
to the engine's."""
from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

from .gen.stich.v1 import actions_pb2, results_pb2, tables_pb2


def from_struct(s: struct_pb2.Struct) -> dict:
    """The dict of a Struct, its integral numbers as ints (json_format's MessageToDict gives the
    same, through generic code that is most of a view's conversion time)."""
    return {k: from_value(v) for k, v in s.fields.items()}


def from_value(v: struct_pb2.Value) -> Any:
    kind = v.WhichOneof("kind")
    if kind == "number_value":
        x = v.number_value
        return int(x) if x.is_integer() and abs(x) < 2**53 else x
    if kind == "string_value" or kind == "bool_value":
        return getattr(v, kind)
    if kind == "struct_value":
        return from_struct(v.struct_value)
    if kind == "list_value":
        return [from_value(x) for x in v.list_value.values]
    return None


def struct(d: dict | None) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    if d:
        s.update(d)
    return s


# ---- the typed codec, shared by the server (dict -> message) and this client (message -> dict)
# The records' dicts and the typed messages correspond key for key (docs/rpc.md): a dict key is
# the field of the same name, a nested dict the submessage, a list of dicts the repeated
# submessage. None (null) and absent are the same on the wire. Only the shapes that differ
# are named here: tricks ([leader, cards, winner] lists), teams (lists of seats), and the
# view's game-specific keys that live in a grouped field (Auction) or under another name.
VIEW_AUCTION_KEYS = ("bids", "passes", "picker")        # -> TableView.auction
VIEW_PUBLIC_KEYS = ("tricks_won", "hand_sizes", "teams", "announcements", "levels", "armut",
                    "blind", "buried", "unknown_card", "roem", "shown", "shown_hands")


def fill(msg: Any, d: dict, where: str = "") -> Any:
    """Set `msg`'s fields from the dict `d` by name (recursively): None leaves a field unset; a
    key the message does not have is a ValueError (a new engine key needs a proto field)."""
    fields = msg.DESCRIPTOR.fields_by_name
    for k, v in d.items():
        if v is None:
            continue
        f = fields.get(k)
        if f is None:
            raise ValueError(f"{where or msg.DESCRIPTOR.name}: no field for key {k!r}")
        if f.message_type is not None:
            if f.is_repeated:
                add = getattr(msg, k).add
                for x in v:
                    fill(add(), x, f"{where}.{k}")
            else:
                sub = getattr(msg, k)
                sub.SetInParent()          # present even when every field is empty
                fill(sub, v, f"{where}.{k}")
        elif f.is_repeated:
            getattr(msg, k).extend(v)
        else:
            setattr(msg, k, v)
    return msg


def unfill(msg: Any) -> dict:
    """The dict of `msg`'s fields (the inverse of `fill`): unset fields with presence, empty
    strings and empty lists are absent; numbers and bools without presence are always there."""
    out: dict = {}
    for name, kind in _plan(msg.DESCRIPTOR):
        v = getattr(msg, name)
        if kind == _PRESENCE:
            if msg.HasField(name):
                out[name] = v
        elif kind == _MESSAGE:
            if msg.HasField(name):
                out[name] = unfill(v)
        elif kind == _ALWAYS:
            out[name] = v
        elif v:                                        # strings, repeated fields
            out[name] = v if kind == _STRING else [unfill(x) for x in v] if kind == _MESSAGES else list(v)
    return out


_ALWAYS, _STRING, _PRESENCE, _MESSAGE, _REPEATED, _MESSAGES = range(6)
_PLANS: dict = {}


def _plan(descriptor) -> list:
    """(name, kind) of each field of a message type, worked out once per type: reading a
    descriptor's fields and their flags for every message is most of `unfill`'s time."""
    plan = _PLANS.get(descriptor)
    if plan is None:
        plan = []
        for f in descriptor.fields:
            if f.is_repeated:
                kind = _MESSAGES if f.message_type is not None else _REPEATED
            elif f.message_type is not None:
                kind = _MESSAGE
            elif f.has_presence:
                kind = _PRESENCE
            elif f.type == f.TYPE_STRING:
                kind = _STRING
            else:
                kind = _ALWAYS
            plan.append((f.name, kind))
        _PLANS[descriptor] = plan
    return plan


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
    return a


def trick_list(msg: actions_pb2.Trick) -> list:
    return [msg.leader, list(msg.cards), msg.winner]


_RESULT_SHAPED = ("contract", "teams", "tricks", "card_points", "scores", "breakdown")


def result_dict(msg: results_pb2.DealResult) -> dict:
    """The records.md Result (key order: common fields, then the game's own keys that are set)."""
    out: dict = {
        "contract": unfill(msg.contract) if msg.HasField("contract") else None,
        "teams": [list(t.seats) for t in msg.teams],
        "tricks": [trick_list(t) for t in msg.tricks],
        "card_points": list(msg.card_points),
        "scores": list(msg.scores),
        "breakdown": [unfill(b) for b in msg.breakdown],
    }
    for k, v in unfill(msg).items():
        if k not in _RESULT_SHAPED:
            out[k] = v
    return out


_STATUS = {v.number: v.name[len("TABLE_STATUS_"):].lower()
           for v in tables_pb2.TableStatus.DESCRIPTOR.values}
_SEAT_KIND = {v.number: v.name[len("SEAT_KIND_"):].lower().replace("bot_", "bot:")
              for v in tables_pb2.SeatKind.DESCRIPTOR.values}


def _status(value: int) -> str:
    return _STATUS.get(value) or tables_pb2.TableStatus.Name(value)   # a value of a newer server: ValueError


def seat_kind(value: int) -> str:
    """"human", "open", "bot" (the normal level), "bot:easy", "bot:normal", "bot:hard"."""
    return _SEAT_KIND.get(value) or tables_pb2.SeatKind.Name(value)


def public_dict(msg: tables_pb2.TableView) -> dict:
    """The game's own keys of a view, in the engine's form (State.view): what TableView holds in
    its per-game fields."""
    out: dict = {}
    for k in ("tricks_won", "hand_sizes", "blind", "buried"):
        if getattr(msg, k):
            out[k] = list(getattr(msg, k))
    for k in ("announcements", "roem"):
        if getattr(msg, k):
            out[k] = [unfill(x) for x in getattr(msg, k)]
    if msg.unknown_card:
        out["unknown_card"] = msg.unknown_card
    if msg.HasField("levels"):
        out["levels"] = {"re": msg.levels.re, "kontra": msg.levels.kontra}
    if msg.HasField("teams"):
        out["teams"] = {"re": list(msg.teams.re), "kontra": list(msg.teams.kontra),
                        "complete": msg.teams.complete}
    if msg.partnerships:
        out["teams"] = [list(t.seats) for t in msg.partnerships]
    if msg.HasField("shown"):
        out["shown"] = {"seat": msg.shown.seat, "cards": list(msg.shown.cards)}
    if msg.shown_hands:
        out["shown_hands"] = [{"seat": h.seat, "cards": list(h.cards)} for h in msg.shown_hands]
    if msg.HasField("armut"):
        out["armut"] = {"poor": msg.armut.poor,
                        "acceptor": msg.armut.acceptor if msg.armut.HasField("acceptor") else None}
    auction = msg.auction
    if auction.bids:
        out["bids"] = [b or None for b in auction.bids]
    if auction.HasField("passes"):
        out["passes"] = auction.passes
    if auction.HasField("picker"):
        out["picker"] = auction.picker
    return out


def hidden_dict(msg: tables_pb2.HiddenPile) -> dict:
    """A face-down pile in the engine's form (absent seats and action as None)."""
    return {"pile": msg.pile,
            "from_seat": msg.from_seat if msg.HasField("from_seat") else None,
            "to_seat": msg.to_seat if msg.HasField("to_seat") else None,
            "count": msg.count, "action": msg.action if msg.HasField("action") else None,
            "among": list(msg.among) or None}


def view_dict(msg: tables_pb2.TableView) -> dict:
    """A TableView as a plain dict: the table's fields, the deal's typed fields, and the game's
    own keys under "public" in the engine's form."""
    return {
        "table_id": msg.table_id, "version": msg.version, "game": msg.game,
        "seat": msg.seat if msg.HasField("seat") else None,
        "seats": [seat_kind(s) for s in msg.seats],
        "status": _status(msg.status),
        "deal_number": msg.deal_number, "deals_per_match": msg.deals_per_match,
        "match_target": msg.match_target, "deals_counted": msg.deals_counted,
        "dealer": msg.dealer if msg.HasField("dealer") else None,
        "phase": msg.phase, "to_act": msg.to_act if msg.HasField("to_act") else None,
        "hand": list(msg.hand), "legal": [action_dict(a) for a in msg.legal],
        "actions": [action_dict(a) for a in msg.actions],
        "trick": {"leader": msg.trick.leader, "cards": list(msg.trick.cards)} if msg.HasField("trick") else None,
        "tricks": [trick_list(t) for t in msg.tricks],
        "contract": unfill(msg.contract) if msg.HasField("contract") else None,
        "public": public_dict(msg),
        "order": {k: list(getattr(msg.order, f)) for k, f in
                  (("trump", "trump"), ("C", "clubs"), ("S", "spades"), ("H", "hearts"), ("D", "diamonds"))}
        if msg.HasField("order") else None,
        "points": dict(msg.points),
        "sides": {"partners": list(msg.sides.partners), "opponents": list(msg.sides.opponents)}
        if msg.HasField("sides") else None,
        "hidden": [hidden_dict(p) for p in msg.hidden],
        "result": result_dict(msg.result) if msg.HasField("result") else None,
        "match_scores": list(msg.match_scores),
        "options": _options(msg.options),
        "settings": {"bot_delay_ms": msg.settings.bot_delay_ms,
                     "hints_disabled": msg.settings.hints_disabled},
    }


_OPTIONS: dict[bytes, dict] = {}
_SCALARS = (bool, int, float, str, type(None))


def _options(s: struct_pb2.Struct) -> dict:
    """A view's options as a dict of their own. A table's options are the same in every view,
    and converting the Struct was a quarter of a view's conversion: options of scalars are
    kept by their bytes (at most 256 sets) and copied out."""
    key = s.SerializeToString()
    found = _OPTIONS.get(key)
    if found is None:
        found = from_struct(s)
        if not all(type(v) in _SCALARS for v in found.values()):
            return found                           # nested values: never shared
        if len(_OPTIONS) >= 256:
            _OPTIONS.clear()
        _OPTIONS[key] = found
    return dict(found)


def event_dict(msg: tables_pb2.TableEvent) -> dict:
    return {
        "version": msg.version, "kind": tables_pb2.EventKind.Name(msg.kind)[len("EVENT_KIND_"):].lower(),
        "deal_number": msg.deal_number, "dealer": msg.dealer if msg.HasField("dealer") else None,
        "action": action_dict(msg.action) if msg.HasField("action") else None,
        "phase": msg.phase, "to_act": msg.to_act if msg.HasField("to_act") else None,
        "result": result_dict(msg.result) if msg.HasField("result") else None,
        "match_scores": list(msg.match_scores),
        "status": _status(msg.status),
        "seat": msg.seat if msg.HasField("seat") else None,
    }
